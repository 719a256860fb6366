import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// Implicitly signalled HE-AAC in ADTS (docs/formats/adts.md, "HE-AAC"): the spec-built fixtures of
/// Fixtures/tools/heaac.py (ffmpeg's AAC-LC frames, 22050 Hz core, with an SBR fill element before
/// END). Expected layers by hand from ISO/IEC 14496-3 §1.6.5 and Apple's constants (`aach` flags 5,
/// `aacp` flags 29, 2048 frames at twice the core rate). On a mono core the expectation is the
/// spec's: `aacp` only when the first SBR payload carries a PS extension (the `--ps` fixtures), else
/// `aach` mono. ffprobe says HE-AACv2, 2 channels, for every mono SBR stream (its decoder assumes PS
/// ahead), so the conformance suite compares the mono fixtures without PS with a hand-derived
/// expectation (Conformance/HandDerived.swift, docs/testing.md); the others with their oracles.
struct ADTSHEAACTests {
    static func item(_ format: AudioFormat, _ rate: Double, flags: UInt32, frames: UInt32, channels: UInt32)
        -> StreamDescription
    {
        StreamDescription(
            sampleRate: rate, formatID: format, formatFlags: flags, bytesPerPacket: 0, framesPerPacket: frames,
            bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
    }

    static let core2 = item(.mpeg4AAC, 22050, flags: 2, frames: 1024, channels: 2)
    static let core1 = item(.mpeg4AAC, 22050, flags: 2, frames: 1024, channels: 1)
    static let he2 = item(.mpeg4AAC_HE, 44100, flags: 5, frames: 2048, channels: 2)
    static let he1 = item(.mpeg4AAC_HE, 44100, flags: 5, frames: 2048, channels: 1)
    static let v2 = item(.mpeg4AAC_HE_V2, 44100, flags: 29, frames: 2048, channels: 2)

    static func formats(_ log: EventLog) -> (StreamDescription?, [StreamDescription]) {
        var data: StreamDescription?
        var list: [StreamDescription] = []
        if case .dataFormat(let d)? = log.lastValues[.dataFormat] { data = d }
        if case .formatList(let l)? = log.lastValues[.formatList] { list = l.map(\.streamDescription) }
        return (data, list)
    }

    @Test(
        "SBR in the first block: the HE layers over the AAC-LC core",
        arguments: [
            ("adts/heaac-44100-2ch-implicit.aac", [he2, core2]),
            ("adts/heaac-44100-1ch-implicit.aac", [he1, core1]),
            ("adts/heaacv2-44100-2ch-implicit.aac", [v2, he1, core1]),
            ("adts/heaac-44100-1ch-multiband.aac", [he1, core1]),
            ("adts/heaacv2-44100-2ch-multiband.aac", [v2, he1, core1]),
            ("adts/heaac-44100-2ch-multiband.aac", [he2, core2]),
        ])
    func implicitSBR(path: String, layers: [StreamDescription]) throws {
        let log = ParseRunner.run(try ADTSFixtures.bytes(path), chunking: .whole)
        let (data, list) = Self.formats(log)
        #expect(data == layers[0])
        #expect(list == layers)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        let layout: ChannelLayout.Tag = layers[0].channelsPerFrame == 2 ? .stereo : .mono
        #expect(log.lastValues[.channelLayout] == .channelLayout(ChannelLayout(tag: layout)))
        // The cookie is the header's AAC-LC configuration: 22050 Hz (index 7), the core's channels.
        #expect(Self.cookieIsTheCore(log), "\(path)")
    }

    /// The announced cookie holds the AAC-LC 22050 Hz configuration without SBR (the stream's own: the
    /// HE-AAC layers are found in the blocks, not written into the cookie).
    static func cookieIsTheCore(_ log: EventLog) -> Bool {
        guard case .magicCookie(let cookie)? = log.lastValues[.magicCookieData],
            let config = AudioSpecificConfig(magicCookie: cookie)
        else { return false }
        return config.audioObjectType == 2 && config.samplingFrequency == 22050
            && config.extensionAudioObjectType == nil
    }

    @Test("every chunking gives the same events")
    func chunkings() throws {
        for path in [
            "adts/heaac-44100-2ch-implicit.aac", "adts/heaac-44100-1ch-implicit.aac",
            "adts/heaacv2-44100-2ch-implicit.aac", "adts/heaac-44100-1ch-multiband.aac",
            "adts/heaacv2-44100-2ch-multiband.aac", "adts/heaac-44100-2ch-multiband.aac",
        ] {
            let (_, failures) = ChunkingVerifier.verify(try ADTSFixtures.bytes(path))
            #expect(failures.isEmpty, "\(path): \(failures)")
        }
    }

    @Test("a damaged first block: the core's format and one diagnostic, no trap")
    func damagedFirstBlock() throws {
        var bytes = try ADTSFixtures.bytes("adts/heaac-44100-2ch-implicit.aac")
        // Zero the first block after its first byte: channel elements of zeros follow one another
        // (id 0 = SCE, max_sfb 0 …) and END never comes, so the block ends inside an element.
        let frameLength = Int(bytes[3] & 0x03) << 11 | Int(bytes[4]) << 3 | Int(bytes[5] >> 5)
        for i in 8..<frameLength { bytes[i] = 0 }
        let log = ParseRunner.run(bytes, chunking: .whole)
        let (data, list) = Self.formats(log)
        #expect(data == Self.core2 && list == [Self.core2])
        let messages = log.diagnostics.map(\.message)
        #expect(messages.count == 1 && messages.first?.contains("could not be read to its end") == true, "\(messages)")
        // The same events in every chunking.
        let (_, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("an unreadable SBR payload on a mono core: PS assumed, one diagnostic, no trap")
    func unreadableSBRPayload() throws {
        var bytes = try ADTSFixtures.bytes("adts/heaac-44100-1ch-implicit.aac")
        // The first frame's SBR payload: bs_start_freq (bits 5…8 of the payload) 15 gives
        // k0 = 12 + 20 = 32 past k2 = 23 (§4.6.18.3.2): the band tables are invalid. The raw data
        // block itself still reads to its end.
        let frameLength = Int(bytes[3] & 0x03) << 11 | Int(bytes[4]) << 3 | Int(bytes[5] >> 5)
        guard
            case .success(let block) = AACRawDataBlock.read(
                bytes[7..<frameLength], audioObjectType: 2, samplingFrequencyIndex: 7),
            let sbr = block.extensions.first
        else {
            Issue.record("no SBR payload in the first block")
            return
        }
        for bit in (sbr.bits.lowerBound + 5)..<(sbr.bits.lowerBound + 9) {
            bytes[7 + bit / 8] |= 0x80 >> UInt8(bit % 8)
        }
        let log = ParseRunner.run(bytes, chunking: .whole)
        let (data, list) = Self.formats(log)
        #expect(data == Self.v2 && list == [Self.v2, Self.he1, Self.core1])
        let messages = log.diagnostics.map(\.message)
        #expect(
            messages.count == 1 && messages.first?.contains("parametric stereo (HE-AAC v2) is assumed") == true,
            "\(messages)")
        let (_, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("AAC-LC fixtures keep one layer: the reader finds no SBR in ffmpeg's blocks")
    func plainLC() throws {
        for path in ["adts/aac-22050-2ch.aac", "adts/aac-44100-1ch.aac", "adts/aac-48000-4ch-pce.aac"] {
            let log = ParseRunner.run(try ADTSFixtures.bytes(path), chunking: .whole)
            let (data, list) = Self.formats(log)
            #expect(data?.formatID == .mpeg4AAC && list.count == 1, "\(path)")
            #expect(log.diagnostics.isEmpty, "\(path): \(log.diagnostics)")
        }
    }
}
