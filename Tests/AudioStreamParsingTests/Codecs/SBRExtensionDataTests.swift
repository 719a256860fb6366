import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// The SBR payload reader (Codecs/AAC/SBR*.swift) over the spec-built HE-AAC fixtures of
/// Fixtures/tools/heaac.py, an independent writer of the ISO/IEC 14496-3 §4.4.2.8 syntax. The
/// expected lengths of sbr_extension_data() up to the end of sbr_data() are the writer's layouts
/// (its docstring), counted by hand: the single-band payloads 73 bits (stereo: 4 + 1 + 21 header +
/// 2 + 2 × (5 grid + 2 dtdf + 2 invf + 7 envelope + 5 noise + 1 harmonic) + 1), 50 (mono:
/// 4 + 1 + 21 + 1 + 5 + 2 + 2 + 7 + 5 + 1 + 1), 70 (mono with the 2-byte PS extension: 50 + 4 + 16);
/// the multiband payloads 159 (mono, VARFIX: 4 + 1 + 27 header + 1 + 15 grid + 5 dtdf + 6 invf +
/// 24 + 22 + 22 envelopes + 5 + 10 noise + 16 harmonics + 1), 153 (mono, FIXVAR, PS) and 240
/// (coupled pair). Whatever follows up to the fill element's byte count is fill.
struct SBRExtensionDataTests {
    /// (fixture, SBR bits to the end of sbr_data(), payload bytes, PS extension).
    static let fixtures: [(String, Int, Int, Bool)] = [
        ("adts/heaac-44100-2ch-implicit.aac", 73, 10, false),
        ("adts/heaac-44100-1ch-implicit.aac", 50, 7, false),
        ("adts/heaacv2-44100-2ch-implicit.aac", 70, 9, true),
        ("adts/heaac-44100-1ch-multiband.aac", 159, 20, false),
        ("adts/heaacv2-44100-2ch-multiband.aac", 153, 20, true),
        ("adts/heaac-44100-2ch-multiband.aac", 240, 30, false),
    ]

    /// The raw data block of every frame (7-byte headers: the fixtures have no CRC).
    static func blocks(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var blocks: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset + 7 <= bytes.count {
            let length = Int(bytes[offset + 3] & 0x03) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5] >> 5)
            guard length > 7, offset + length <= bytes.count else { break }
            blocks.append(bytes[(offset + 7)..<(offset + length)])
            offset += length
        }
        return blocks
    }

    /// The first SBR payload of a block, copied out byte-aligned, and the element before it.
    static func sbrPayload(_ block: ArraySlice<UInt8>) throws -> (bytes: [UInt8], element: AACRawDataBlock.ElementID?) {
        guard case .success(let read) = AACRawDataBlock.read(block, audioObjectType: 2, samplingFrequencyIndex: 7),
            let sbr = read.extensions.first(where: { AACRawDataBlock.sbrExtensionTypes.contains($0.type) })
        else { throw Failure("no SBR payload") }
        var bits = BitReader(block, order: .mostSignificantFirst)
        guard bits.skip(sbr.bits.lowerBound), let payload = bits.readBits(sbr.bits.count) else {
            throw Failure("payload past the block")
        }
        return (payload, sbr.precedingElement)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test(
        "every frame's SBR payload is read to the end of sbr_data(); PS exactly in the --ps fixtures",
        arguments: fixtures)
    func readsToTheEnd(_ fixture: (String, Int, Int, Bool)) throws {
        let (path, sbrBits, payloadBytes, ps) = fixture
        let blocks = Self.blocks(try ADTSFixtures.bytes(path))
        #expect(blocks.count >= 12)
        var previous: SBRHeader?
        for (index, block) in blocks.enumerated() {
            let (payload, element) = try Self.sbrPayload(block)
            #expect(payload.count == payloadBytes, "\(path) frame \(index)")
            let result = SBRExtensionData.read(
                payload[...], element: element, sampleRate: 44100, previousHeader: previous)
            guard case .success(let data) = result else {
                Issue.record("\(path) frame \(index): \(result)")
                return
            }
            #expect(data.endBit == sbrBits, "\(path) frame \(index)")
            #expect(data.hasParametricStereo == ps, "\(path) frame \(index)")
            #expect(data.extensionID == (ps ? 2 : nil), "\(path) frame \(index)")
            #expect(data.carriesHeader)
            // The fill bits after sbr_data() are zero (the writer pads with zeros).
            var fill = BitReader(payload, order: .mostSignificantFirst)
            _ = fill.skip(data.endBit)
            #expect(fill.read(payload.count * 8 - data.endBit) == 0)
            previous = data.header
        }
    }

    @Test("the band tables of the fixtures' headers, by hand from §4.6.18.3.2 (heaac.py's docstring)")
    func frequencyBandTables() throws {
        let single = SBRHeader(
            amplitudeResolution: 1, startFrequency: 10, stopFrequency: 0, crossoverBand: 0,
            frequencyScale: 0, alterScale: 1, noiseBands: 0)
        let t0 = try SBRFrequencyBandTables(single, sampleRate: 44100)
        #expect(t0.master == [19, 21, 23] && t0.highBandCount == 2 && t0.lowBandCount == 1 && t0.noiseBandCount == 1)
        #expect(t0.firstBand == 19 && t0.bandCount == 4)
        let mono = SBRHeader(
            amplitudeResolution: 1, startFrequency: 5, stopFrequency: 9, crossoverBand: 1,
            frequencyScale: 2, alterScale: 1, noiseBands: 2)
        let t1 = try SBRFrequencyBandTables(mono, sampleRate: 44100)
        #expect(t1.master == [14, 15, 16, 17, 18, 19, 20, 22, 24, 26, 28, 30, 33, 36, 39, 43, 47])
        #expect(t1.highBandCount == 15 && t1.lowBandCount == 8 && t1.noiseBandCount == 3)
        #expect(t1.firstBand == 15 && t1.bandCount == 32)
        let pair = SBRHeader(
            amplitudeResolution: 0, startFrequency: 5, stopFrequency: 9, crossoverBand: 0,
            frequencyScale: 1, alterScale: 0, noiseBands: 1)
        let t2 = try SBRFrequencyBandTables(pair, sampleRate: 44100)
        #expect(t2.master == [14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 28, 30, 32, 34, 36, 38, 41, 44, 47])
        #expect(t2.highBandCount == 20 && t2.lowBandCount == 10 && t2.noiseBandCount == 2)
        // Rejected: a start band past the stop band (k0 = 12 + 20 = 32 > k2 = 23), a crossover past
        // the master table, and an output rate without an offset table.
        var bad = single
        bad.startFrequency = 15
        #expect(throws: AACSyntaxReader.Failure.self) { try SBRFrequencyBandTables(bad, sampleRate: 44100) }
        bad = single
        bad.crossoverBand = 2
        #expect(throws: AACSyntaxReader.Failure.self) { try SBRFrequencyBandTables(bad, sampleRate: 44100) }
        #expect(throws: AACSyntaxReader.Failure.unsupported("SBR at an output rate of 14700 Hz")) {
            try SBRFrequencyBandTables(single, sampleRate: 14700)
        }
    }

    @Test("log2 and exp2 agree with exact values (and with libm via Python for the irrational ones)")
    func math() {
        for (x, want) in [(1.0, 0.0), (2.0, 1.0), (8.0, 3.0), (0.5, -1.0), (47.0 / 15.0, 1.647_698_256_069_119)] {
            #expect(abs(SBRFrequencyBandTables.log2(x) - want) < 1e-13, "log2(\(x))")
        }
        for (x, want) in [
            (0.0, 1.0), (1.0, 2.0), (-1.0, 0.5), (0.5, 1.414_213_562_373_095_1), (5.25, 38.054_627_680_087_07),
        ] {
            #expect(abs(SBRFrequencyBandTables.exp2(x) / want - 1) < 1e-13, "exp2(\(x))")
        }
    }

    @Test("a payload without a header: read with the previous one, or a typed failure")
    func headerPersists() throws {
        let blocks = Self.blocks(try ADTSFixtures.bytes("adts/heaacv2-44100-2ch-multiband.aac"))
        let (payload, element) = try Self.sbrPayload(blocks[0])
        guard case .success(let full) = SBRExtensionData.read(payload[...], element: element, sampleRate: 44100) else {
            Issue.record("first payload unreadable")
            return
        }
        // Drop the 27 header bits after bs_header_flag (bit 4) and clear the flag.
        var bits: [UInt8] = (0..<(payload.count * 8)).map { (i: Int) -> UInt8 in
            let byte: UInt8 = payload[i / 8]
            return (byte >> UInt8(7 - i % 8)) & 1
        }
        bits.removeSubrange(5..<32)
        bits[4] = 0
        bits += [UInt8](repeating: 0, count: (8 - bits.count % 8) % 8)
        let headerless: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { (i: Int) -> UInt8 in
            bits[i..<(i + 8)].reduce(UInt8(0)) { (value: UInt8, bit: UInt8) -> UInt8 in value << 1 | bit }
        }
        let alone = SBRExtensionData.read(headerless[...], element: element, sampleRate: 44100)
        let expected: Result<SBRExtensionData, AACSyntaxReader.Failure> = .failure(
            .unsupported("SBR data before any sbr_header"))
        #expect(alone == expected)
        let chained = SBRExtensionData.read(
            headerless[...], element: element, sampleRate: 44100, previousHeader: full.header)
        guard case .success(let data) = chained else {
            Issue.record("\(chained)")
            return
        }
        #expect(!data.carriesHeader && data.header == full.header && data.hasParametricStereo)
        #expect(data.endBit == full.endBit - 27)
    }

    @Test("prefixes and seeded random payloads: a typed failure or an end inside the bytes, never a trap")
    func damagedPayloadsNeverTrap() throws {
        for (path, _, _, _) in Self.fixtures {
            let (payload, element) = try Self.sbrPayload(Self.blocks(try ADTSFixtures.bytes(path))[0])
            for length in 0..<payload.count {
                let result = SBRExtensionData.read(payload[..<length], element: element, sampleRate: 44100)
                if case .success(let data) = result { #expect(data.endBit <= length * 8, "\(path) prefix \(length)") }
            }
        }
        var generator = SplitMix64(seed: 0x5B2)
        var successes = 0
        for _ in 0..<4000 {
            var bytes = (0..<Int.random(in: 0..<48, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            if !bytes.isEmpty { bytes[0] = 0xD0 | bytes[0] & 0x0F }  // extension_type 13
            for element in [AACRawDataBlock.ElementID.singleChannel, .channelPair, .lowFrequencyEffects] {
                for rate in [16000, 22050, 24000, 32000, 44100, 48000, 96000] {
                    let result = SBRExtensionData.read(bytes[...], element: element, sampleRate: rate)
                    if case .success(let data) = result {
                        successes += 1
                        #expect(data.endBit <= bytes.count * 8)
                    }
                }
            }
        }
        #expect(successes > 0)
        // Random blocks through the configuration's PS look-up.
        let config = try #require(AudioSpecificConfig(bytes: [0x13, 0x88]))  // AAC-LC, 22050 Hz, mono
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = config.parametricStereo(inRawDataBlock: bytes[...])
        }
    }

    @Test("every codeword of every SBR codebook decodes back to its index, and nothing more is read")
    func codebookRoundTrip() {
        let tables: [[UInt32]] = [
            SBRHuffmanTables.envelopeTime1_5dB, SBRHuffmanTables.envelopeFrequency1_5dB,
            SBRHuffmanTables.balanceTime1_5dB, SBRHuffmanTables.balanceFrequency1_5dB,
            SBRHuffmanTables.envelopeTime3_0dB, SBRHuffmanTables.envelopeFrequency3_0dB,
            SBRHuffmanTables.balanceTime3_0dB, SBRHuffmanTables.balanceFrequency3_0dB,
            SBRHuffmanTables.noiseTime3_0dB, SBRHuffmanTables.noiseBalanceTime3_0dB,
        ]
        #expect(tables.map(\.count) == [121, 121, 49, 49, 63, 63, 25, 25, 63, 25])
        for (book, table) in tables.enumerated() { AACRawDataBlockTests.expectRoundTrip(table, "SBR book \(book)") }
    }
}
