import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// NeXT/Sun `.au`: fixtures against the committed ffprobe oracle, format fields derived by hand from
/// `audio_filehdr(4)` and CoreAudio's ASBD rules, and hand-built edge cases.
@Suite("NeXT/Sun au")
struct NeXTTests {
    // MARK: Fixtures vs oracle

    /// The data format of each fixture, derived by hand from its header (encoding, rate, channels)
    /// with CoreAudio's rules: LPCM flags BigEndian(0x2, not for 8 bits) | SignedInteger(0x4) or
    /// Float(0x1) | Packed(0x8); µ-law/A-law flags 0, 8 bits, one byte per sample.
    struct Expected: Sendable {
        var format: AudioFormat
        var flags: UInt32
        var bytesPerFrame: UInt32
        var bits: UInt32
    }

    static let expectedFormats: [String: Expected] = [
        "pcm_mulaw-8000-1ch.au": Expected(format: .uLaw, flags: 0, bytesPerFrame: 1, bits: 8),
        "pcm_mulaw-8000-1ch-annotation.au": Expected(format: .uLaw, flags: 0, bytesPerFrame: 1, bits: 8),
        "pcm_mulaw-8000-1ch-pipe.au": Expected(format: .uLaw, flags: 0, bytesPerFrame: 1, bits: 8),
        "pcm_alaw-8000-1ch.au": Expected(format: .aLaw, flags: 0, bytesPerFrame: 1, bits: 8),
        "pcm_s8-8000-1ch.au": Expected(format: .linearPCM, flags: 0x4 | 0x8, bytesPerFrame: 1, bits: 8),
        "pcm_s16be-22050-1ch.au": Expected(format: .linearPCM, flags: 0x2 | 0x4 | 0x8, bytesPerFrame: 2, bits: 16),
        "pcm_s16be-8000-1ch-sox.au": Expected(format: .linearPCM, flags: 0x2 | 0x4 | 0x8, bytesPerFrame: 2, bits: 16),
        "pcm_s16be-8000-1ch-sndfile.au": Expected(
            format: .linearPCM, flags: 0x2 | 0x4 | 0x8, bytesPerFrame: 2, bits: 16),
        "pcm_s16be-8000-1ch-sox-pipe.au": Expected(
            format: .linearPCM, flags: 0x2 | 0x4 | 0x8, bytesPerFrame: 2, bits: 16),
        "pcm_s24be-44100-2ch.au": Expected(format: .linearPCM, flags: 0x2 | 0x4 | 0x8, bytesPerFrame: 6, bits: 24),
        "pcm_s32be-48000-1ch.au": Expected(format: .linearPCM, flags: 0x2 | 0x4 | 0x8, bytesPerFrame: 4, bits: 32),
        "pcm_f32be-44100-1ch.au": Expected(format: .linearPCM, flags: 0x1 | 0x2 | 0x8, bytesPerFrame: 4, bits: 32),
        "pcm_f64be-8000-1ch.au": Expected(format: .linearPCM, flags: 0x1 | 0x2 | 0x8, bytesPerFrame: 8, bits: 64),
    ]

    static var fixtureNames: [String] { expectedFormats.keys.sorted() }

    @Test("fixture matches the ffprobe oracle and the hand-derived format", arguments: fixtureNames)
    func fixtureMatchesOracle(_ name: String) throws {
        let bytes = try NeXTFixtures.bytes("au/\(name)")
        let oracle = try NeXTFixtures.oracle("au/\(name)")
        let stream = try #require(oracle["stream"] as? [String: Any])
        let summary = try #require(oracle["summary"] as? [String: Any])
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error == nil)
        let values = log.lastValues

        #expect(values[.fileFormat] == .fileFormat(.next))
        #expect(values[.dataOffset] == .dataOffset(Int64(try #require(summary["first_pos"] as? Int))))
        let oracleBytes = UInt64(try #require(summary["bytes"] as? Int))
        let oracleFrames = UInt64(try #require(summary["duration_sum"] as? Int))
        #expect(values[.audioDataByteCount] == .audioDataByteCount(oracleBytes))
        #expect(values[.audioDataPacketCount] == .audioDataPacketCount(oracleFrames))
        #expect(log.packetCount == Int(oracleFrames))

        guard case .dataFormat(let format)? = values[.dataFormat] else {
            Issue.record("no data format")
            return
        }
        let expected = try #require(Self.expectedFormats[name])
        let channels = UInt32(try #require(stream["channels"] as? Int))
        #expect(format.sampleRate == Double(try #require(stream["sample_rate"] as? Int)))
        #expect(format.channelsPerFrame == channels)
        #expect(format.formatID == expected.format)
        #expect(format.formatFlags == expected.flags)
        #expect(format.bitsPerChannel == expected.bits)
        #expect(UInt32(try #require(stream["bits_per_sample"] as? Int)) == expected.bits)
        #expect(format.bytesPerFrame == expected.bytesPerFrame)
        #expect(format.bytesPerPacket == format.bytesPerFrame)
        #expect(format.framesPerPacket == 1)
        #expect(Int(format.bytesPerFrame) == (stream["block_align"] as? Int))
        #expect(values[.maximumPacketSize] == .maximumPacketSize(format.bytesPerFrame))
        #expect(values[.bitRate] == .bitRate(UInt32(format.sampleRate) * format.bytesPerFrame * 8))
        #expect(values[.restrictsRandomAccess] == .restrictsRandomAccess(false))

        // Every packet is one frame, back to back from the data offset.
        let packets = log.packets
        if let first = packets.first {
            #expect(first.offset == Int64(try #require(summary["first_pos"] as? Int)))
            #expect(packets.allSatisfy { $0.size == Int(format.bytesPerFrame) && $0.frames == 0 })
        }

        // Tags: where ffprobe shows them, the info dictionary agrees.
        let tags = oracle["format_tags"] as? [String: String] ?? [:]
        var info: [InfoKey: String] = [:]
        if case .metadata(let m)? = values[.infoDictionary] { info = m.info }
        for (key, value) in tags {
            #expect(info[InfoKey(rawValue: key)] == value, "tag \(key)")
        }
    }

    @Test("every fixture gives the same events in every chunking", arguments: fixtureNames)
    func fixtureIsChunkingInvariant(_ name: String) throws {
        let bytes = try NeXTFixtures.bytes("au/\(name)")
        let result = ChunkingVerifier.verify(bytes)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(result.reference.error == nil)
    }

    @Test("listener order follows Apple's, with ready last before packets")
    func listenerOrder() throws {
        let log = ParseRunner.run(try NeXTFixtures.bytes("au/pcm_mulaw-8000-1ch-annotation.au"), chunking: .whole)
        #expect(
            Array(log.propertyOrder.prefix(12)) == [
                .fileFormat, .dataFormat, .formatList, .audioDataByteCount, .audioDataPacketCount, .maximumPacketSize,
                .packetSizeUpperBound, .averageBytesPerPacket, .bitRate, .infoDictionary, .restrictsRandomAccess,
                .dataOffset,
            ])
        #expect(log.propertyOrder.contains(.readyToProducePackets))
    }

    @Test("ffmpeg key=value annotation becomes raw tags and info keys")
    func ffmpegAnnotation() throws {
        let log = ParseRunner.run(try NeXTFixtures.bytes("au/pcm_mulaw-8000-1ch-annotation.au"), chunking: .whole)
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(
            m.tags == [
                AudioMetadata.Tag(source: "au-annotation", key: "Title", value: "AU Title"),
                AudioMetadata.Tag(source: "au-annotation", key: "Artist", value: "AU Artist"),
            ])
        #expect(m.info == ["title": "AU Title", "artist": "AU Artist"])
    }

    @Test("sox free-text annotation becomes one annotation tag and comments")
    func soxAnnotation() throws {
        let log = ParseRunner.run(try NeXTFixtures.bytes("au/pcm_s16be-8000-1ch-sox.au"), chunking: .whole)
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(m.tags == [AudioMetadata.Tag(source: "au-annotation", key: "annotation", value: "Hello from SoX")])
        #expect(m.info == ["comments": "Hello from SoX"])
    }

    @Test("an all-NUL annotation (ffmpeg's default 8 bytes) gives no metadata")
    func emptyAnnotation() throws {
        let log = ParseRunner.run(try NeXTFixtures.bytes("au/pcm_mulaw-8000-1ch.au"), chunking: .whole)
        #expect(log.lastValues[.infoDictionary] == nil)
    }

    @Test("unknown data size (pipe): no counts in the header, exact counts at finish")
    func pipeCountsAtFinish() throws {
        let log = ParseRunner.run(try NeXTFixtures.bytes("au/pcm_mulaw-8000-1ch-pipe.au"), chunking: .whole)
        let order = log.propertyOrder
        let ready = try #require(order.firstIndex(of: .readyToProducePackets))
        #expect(!order[..<ready].contains(.audioDataByteCount))
        #expect(!order[..<ready].contains(.audioDataPacketCount))
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(2400))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(2400))
    }

    // MARK: Hand-built edge cases

    @Test("data offset below 24 is an invalid file")
    func offsetBelowHeader() {
        let file =
            NeXTFixtures.header(offset: 16, size: 8, encoding: 3, rate: 8000, channels: 1)
            + [UInt8](repeating: 0, count: 8)
        let log = ParseRunner.run(file, chunking: .whole)
        #expect(log.error?.code == .invalidFile)
        #expect(log.error?.byteOffset == 4)
        #expect(log.error?.reason.hasPrefix("au (header):") == true)
    }

    @Test("data offset past the end of the stream fails at finish")
    func offsetPastEnd() {
        let file = NeXTFixtures.header(offset: 4096, size: 8, encoding: 3, rate: 8000, channels: 1) + [1, 2, 3, 4]
        for chunking in [Chunking.whole, .bytewise] {
            let log = ParseRunner.run(file, chunking: chunking)
            #expect(log.error?.code == .invalidFile)
            #expect(log.error?.byteOffset == 24)
            #expect(log.lastValues[.readyToProducePackets] == nil)
        }
    }

    @Test("a stream that ends inside the header fails at finish with dta?")
    func truncatedHeader() {
        let file = Array(NeXTFixtures.header(offset: 24, size: 8, encoding: 3, rate: 8000, channels: 1).prefix(12))
        let log = ParseRunner.run(file, chunking: .bytewise)
        #expect(log.error?.code == .invalidFile)
    }

    @Test("unknown data size runs to the end, a partial last frame is dropped with a diagnostic")
    func unknownSizeToEnd() {
        let file =
            NeXTFixtures.header(offset: 24, size: 0xFFFF_FFFF, encoding: 3, rate: 8000, channels: 2)
            + [UInt8](repeating: 7, count: 4 * 10 + 3)
        let result = ChunkingVerifier.verify(file)
        #expect(result.failures.isEmpty, "\(result.failures)")
        let log = result.reference
        #expect(log.error == nil)
        #expect(log.packetCount == 10)
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(10))
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(43))
        #expect(log.entries.contains { if case .diagnostic = $0 { return true } else { return false } })
    }

    @Test(
        "G.72x encodings: packets of the fewest frames that fill whole bytes",
        arguments: [
            // (encoding, channels, WAVE tag of the ID, bytes per packet, frames per packet): bits × channels
            // per frame; 8 / gcd(8, bits × channels) frames per packet.
            (23, 1, 0x0040, 1, 2), (24, 1, 0x028F, 1, 2), (25, 1, 0x0014, 3, 8), (26, 1, 0x0014, 5, 8),
            (26, 2, 0x0014, 5, 4), (23, 2, 0x0040, 1, 1),
        ] as [(UInt32, UInt32, UInt16, UInt32, UInt32)])
    func g72xEncodings(_ c: (UInt32, UInt32, UInt16, UInt32, UInt32)) throws {
        let (encoding, channels, tag, bytes, frames) = c
        let data = [UInt8](repeating: 0x55, count: Int(bytes) * 6)
        let file =
            NeXTFixtures.header(
                offset: 24, size: UInt32(data.count), encoding: encoding, rate: 8000, channels: channels) + data
        let result = ChunkingVerifier.verify(file)
        #expect(result.failures.isEmpty, "\(result.failures)")
        let log = result.reference
        #expect(log.error == nil)
        guard case .dataFormat(let d)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(d.formatID == .microsoftACM(tag: tag))
        #expect(d.bytesPerPacket == bytes && d.framesPerPacket == frames && d.channelsPerFrame == channels)
        #expect(log.packetCount == 6)
    }

    @Test("encodings without a mapping are an unsupported data format", arguments: [0, 8, 28, 99])
    func unsupportedEncoding(_ encoding: UInt32) {
        let file = NeXTFixtures.header(offset: 24, size: 8, encoding: encoding, rate: 8000, channels: 1) + [0, 0, 0, 0]
        let log = ParseRunner.run(file, chunking: .whole)
        #expect(log.error?.code == .unsupportedDataFormat)
        #expect(log.error?.byteOffset == 12)
    }

    @Test("zero channels, zero rate and an overflowing channel count are invalid files")
    func invalidFields() {
        for (rate, channels, offset) in [(8000, 0, 20), (0, 1, 16), (8000, 0xFFFF_FFFF, 20)]
            as [(UInt32, UInt32, Int64)]
        {
            let file = NeXTFixtures.header(offset: 24, size: 8, encoding: 5, rate: rate, channels: channels) + [0, 0]
            let log = ParseRunner.run(file, chunking: .whole)
            #expect(log.error?.code == .invalidFile)
            #expect(log.error?.byteOffset == offset)
        }
    }

    @Test("an annotation larger than maxTagBytes is skipped with a diagnostic")
    func oversizedAnnotationSkipped() {
        let text = [UInt8]("Title=Too long\n".utf8) + [UInt8](repeating: 0x41, count: 100)
        let file =
            NeXTFixtures.header(offset: UInt32(24 + text.count), size: 4, encoding: 2, rate: 8000, channels: 1)
            + text + [1, 2, 3, 4]
        let options = ParserOptions(limits: ParserLimits(maxTagBytes: 64))
        let result = ChunkingVerifier.verify(file, options: options)
        #expect(result.failures.isEmpty, "\(result.failures)")
        let log = result.reference
        #expect(log.error == nil)
        #expect(log.lastValues[.infoDictionary] == nil)
        #expect(log.lastValues[.dataOffset] == .dataOffset(Int64(24 + text.count)))
        #expect(log.packetCount == 4)
        #expect(log.diagnostics.map(\.kind) == [.limitExceeded])
    }

    @Test("key=value annotation keys map case-insensitively; unknown keys stay raw")
    func annotationKeyMapping() throws {
        let text = "ALBUM=Al\nGenre=Ge\ndate=2024-05-06\ncomment=Co\nfoo=bar\n"
        let m = try #require(NeXTAnnotation.metadata(Array(text.utf8) + [0, 0]))
        #expect(m.info == ["album": "Al", "genre": "Ge", "recorded date": "2024-05-06", "comments": "Co"])
        #expect(m.tags.map(\.key) == ["ALBUM", "Genre", "date", "comment", "foo"])
        #expect(m.tags.allSatisfy { $0.source == "au-annotation" })
    }

    @Test("text that is not all key=value lines is one free-text annotation")
    func mixedTextIsFreeText() throws {
        let m = try #require(NeXTAnnotation.metadata(Array("Recorded live\nTitle=x".utf8)))
        #expect(m.tags.count == 1)
        #expect(m.tags.first?.key == "annotation")
        #expect(m.info["comments"] == "Recorded live\nTitle=x")
    }

    @Test("bytes after the declared data are ignored with one diagnostic")
    func trailingBytes() {
        let file =
            NeXTFixtures.header(offset: 24, size: 4, encoding: 3, rate: 8000, channels: 1) + [1, 2, 3, 4, 9, 9, 9]
        let result = ChunkingVerifier.verify(file)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(result.reference.packetCount == 2)
        #expect(result.reference.lastValues[.audioDataByteCount] == .audioDataByteCount(4))
    }

    @Test("a declared size longer than the stream: real counts at finish and a diagnostic")
    func truncatedData() {
        let file = NeXTFixtures.header(offset: 24, size: 100, encoding: 3, rate: 8000, channels: 1) + [1, 2, 3, 4, 5]
        let log = ParseRunner.run(file, chunking: .whole)
        #expect(log.error == nil)
        #expect(log.packetCount == 2)
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(5))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(2))
    }

    @Test("seek lands on the frame's byte offset; packets resume there")
    func seekToPacket() throws {
        let audio = (0..<40).map { UInt8($0) }
        let file =
            NeXTFixtures.header(offset: 32, size: 40, encoding: 3, rate: 8000, channels: 2)
            + [UInt8](repeating: 0, count: 8) + audio
        let parser = AudioStreamParser()
        var offsets: [Int64] = []
        parser.packetsHandler = { batch in
            for d in batch.descriptions { offsets.append(batch.fileOffset + d.startOffset) }
        }
        try parser.parse(Array(file.prefix(40)))
        #expect(parser.dataOffset == 32)
        let target = try parser.seek(toPacket: 5)
        #expect(target == SeekTarget(byteOffset: 20, isEstimated: false, absoluteOffset: 52))
        offsets.removeAll()
        try parser.parse(Array(file[52...]), flags: .discontinuity)
        try parser.finish()
        #expect(offsets == [52, 56, 60, 64, 68])
        // After finish the exact packet count bounds seeking.
        #expect(throws: AudioStreamError.self) { try parser.seek(toPacket: 11) }
    }

    @Test("a discontinuity inside the data realigns to the next frame boundary")
    func discontinuityRealigns() throws {
        let file =
            NeXTFixtures.header(offset: 24, size: 0xFFFF_FFFF, encoding: 4, rate: 8000, channels: 1)
            + [UInt8](repeating: 1, count: 30)
        let parser = AudioStreamParser()
        var offsets: [Int64] = []
        parser.packetsHandler = { batch in
            for d in batch.descriptions { offsets.append(batch.fileOffset + d.startOffset) }
        }
        try parser.parse(Array(file.prefix(31)))  // 2 frames + 1 byte
        // The caller lost 2 bytes: the next bytes are taken to start at 31; the partial frame is dropped
        // and parsing resumes at the next boundary (24 + 3 × 3 = 33).
        try parser.parse(Array(file[31...]), flags: .discontinuity)
        try parser.finish()
        #expect(offsets.prefix(3) == [24, 27, 33])
    }

    // MARK: Malformed fixtures

    static let malformed: [(String, AudioStreamError.Code?)] = [
        ("au-channels-0.au", .invalidFile),
        ("au-channels-huge.au", .invalidFile),
        ("au-datasize-larger-than-file.au", nil),
        ("au-encoding-0.au", .unsupportedDataFormat),
        ("au-encoding-unknown.au", .unsupportedDataFormat),
        ("au-offset-0.au", .invalidFile),
        ("au-offset-lt-24.au", .invalidFile),
        ("au-offset-4g.au", .invalidFile),
        ("au-offset-gt-filesize.au", .invalidFile),
        ("au-rate-0.au", .invalidFile),
        ("au-trunc-after-annotation.au", nil),
        ("au-trunc-after-header.au", .invalidFile),
        ("au-trunc-in-annotation.au", .invalidFile),
        ("au-trunc-in-header.au", .invalidFile),
        ("au-trunc-magic.au", .unsupportedFileType),
        ("au-trunc-mid-data.au", nil),
    ]

    @Test("malformed au files fail with the documented code, in every chunking", arguments: malformed)
    func malformedFile(_ name: String, _ code: AudioStreamError.Code?) throws {
        let bytes = try NeXTFixtures.bytes("malformed/\(name)")
        let result = ChunkingVerifier.verify(bytes)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(result.reference.error?.code == code, "\(String(describing: result.reference.error))")
    }

    @Test("truncated data: counts of what arrived")
    func truncatedMidData() throws {
        let log = ParseRunner.run(try NeXTFixtures.bytes("malformed/au-trunc-mid-data.au"), chunking: .whole)
        #expect(log.packetCount == 100)
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(100))
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(201))
    }
}

/// Fixture access and hand-built headers for the NeXT tests.
enum NeXTFixtures {
    static var root: URL { URL(fileURLWithPath: FixtureCatalog.fixturesRoot) }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }

    static func oracle(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent(path + ".ffprobe.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A 24-byte header with the given fields (big-endian).
    static func header(offset: UInt32, size: UInt32, encoding: UInt32, rate: UInt32, channels: UInt32) -> [UInt8] {
        var out: [UInt8] = [0x2E, 0x73, 0x6E, 0x64]
        for v in [offset, size, encoding, rate, channels] {
            out += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        return out
    }
}
