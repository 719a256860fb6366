import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// MPEG audio: the header decoder against hand-made words, hand-built streams (Layer I, VBRI),
/// seeking, discontinuities, translations and detection.
@Suite("MPEG audio streams")
struct MPEGAudioStreamTests {
    // MARK: Header bit diagram

    /// Hand-made header words and what ISO/IEC 11172-3 / 13818-3 say they mean.
    struct HeaderCase: Sendable, CustomTestStringConvertible {
        var word: UInt32
        var version: MPEGFrameHeader.Version
        var layer: Int
        var crc: Bool
        var bitRate: UInt32
        var sampleRate: UInt32
        var channels: UInt32
        var samples: UInt32
        var length: Int?
        var testDescription: String { String(word, radix: 16) }
    }

    static let headers: [HeaderCase] = [
        // FF FB 90 64: 11 sync bits, version 11 (MPEG-1), layer 01 (III), protection 1 (no CRC),
        // bitrate 1001 (128 kbit/s), rate 00 (44.1 kHz), no padding, mode 01 (joint stereo).
        // 144 × 128000 / 44100 = 417.9 → 417 bytes.
        HeaderCase(
            word: 0xFFFB_9064, version: .mpeg1, layer: 3, crc: false, bitRate: 128_000, sampleRate: 44_100,
            channels: 2, samples: 1_152, length: 417),
        // Same with the padding bit (bit 9): 418 bytes.
        HeaderCase(
            word: 0xFFFB_9264, version: .mpeg1, layer: 3, crc: false, bitRate: 128_000, sampleRate: 44_100,
            channels: 2, samples: 1_152, length: 418),
        // FF FA: protection bit 0 → CRC follows.
        HeaderCase(
            word: 0xFFFA_9064, version: .mpeg1, layer: 3, crc: true, bitRate: 128_000, sampleRate: 44_100,
            channels: 2, samples: 1_152, length: 417),
        // FF E3 28 C4: version 00 (MPEG-2.5), layer III, bitrate 0010 (16 kbit/s, LSF table),
        // rate 10 (8 kHz), mode 11 (mono). 72 × 16000 / 8000 = 144 bytes, 576 samples.
        HeaderCase(
            word: 0xFFE3_28C4, version: .mpeg25, layer: 3, crc: false, bitRate: 16_000, sampleRate: 8_000,
            channels: 1, samples: 576, length: 144),
        // FF FF 90 00: version 11, layer 11 (I), bitrate 1001 (288 kbit/s, Layer I table), 44.1 kHz.
        // (12 × 288000 / 44100 = 78.4 → 78) × 4 = 312 bytes, 384 samples.
        HeaderCase(
            word: 0xFFFF_9000, version: .mpeg1, layer: 1, crc: false, bitRate: 288_000, sampleRate: 44_100,
            channels: 2, samples: 384, length: 312),
        // FF F5 84 C0: version 10 (MPEG-2), layer 10 (II), bitrate 1000 (64 kbit/s, LSF), rate 01
        // (24 kHz), mono. 144 × 64000 / 24000 = 384 bytes, 1152 samples (Layer II keeps 1152).
        HeaderCase(
            word: 0xFFF5_84C0, version: .mpeg2, layer: 2, crc: false, bitRate: 64_000, sampleRate: 24_000,
            channels: 1, samples: 1_152, length: 384),
        // FF FD EA 00: MPEG-1 Layer II, bitrate 1110 (384 kbit/s), rate 10 (32 kHz), padding:
        // 144 × 384000 / 32000 + 1 = 1729 bytes.
        HeaderCase(
            word: 0xFFFD_EA00, version: .mpeg1, layer: 2, crc: false, bitRate: 384_000, sampleRate: 32_000,
            channels: 2, samples: 1_152, length: 1_729),
        // FF FB 00 64: bitrate 0000 = free format: no computable length.
        HeaderCase(
            word: 0xFFFB_0064, version: .mpeg1, layer: 3, crc: false, bitRate: 0, sampleRate: 44_100, channels: 2,
            samples: 1_152, length: nil),
    ]

    @Test("header fields decode as the bit diagram says", arguments: headers)
    func decodesHeader(_ c: HeaderCase) throws {
        let h = try #require(MPEGFrameHeader(c.word))
        #expect(h.version == c.version)
        #expect(h.layer == c.layer)
        #expect(h.hasCRC == c.crc)
        #expect(h.bitRate == c.bitRate)
        #expect(h.sampleRate == c.sampleRate)
        #expect(h.channelCount == c.channels)
        #expect(h.samplesPerFrame == c.samples)
        #expect(h.frameLength == c.length)
        #expect(h.isFreeFormat == (c.length == nil))
    }

    @Test("reserved and forbidden fields are not headers")
    func rejectsInvalidHeaders() {
        #expect(MPEGFrameHeader(0xFFFB_F064) == nil)  // bitrate_index 1111 (forbidden)
        #expect(MPEGFrameHeader(0xFFFB_9C64) == nil)  // sampling_frequency 11 (reserved)
        #expect(MPEGFrameHeader(0xFFF9_9064) == nil)  // layer 00 (reserved)
        #expect(MPEGFrameHeader(0xFFEB_9064) == nil)  // version 01 (reserved)
        #expect(MPEGFrameHeader(0xFFDB_9064) == nil)  // syncword incomplete (bit 21 clear)
        #expect(MPEGFrameHeader(0x7FFB_9064) == nil)
    }

    @Test("upper bounds: the top bit rate of the version and layer plus padding")
    func largestFrames() throws {
        // MPEG-1 Layer III 44.1 kHz: 320 kbit/s → 144 × 320000 / 44100 = 1044 + 1.
        #expect(try #require(MPEGFrameHeader(0xFFFB_9064)).largestFrameLength == 1_045)
        // MPEG-2.5 Layer III 8 kHz: 160 kbit/s → 72 × 160000 / 8000 = 1440 + 1.
        #expect(try #require(MPEGFrameHeader(0xFFE3_28C4)).largestFrameLength == 1_441)
        // Layer I 44.1 kHz: 448 kbit/s → (121 + 1) × 4.
        #expect(try #require(MPEGFrameHeader(0xFFFF_9000)).largestFrameLength == 488)
    }

    @Test("Layer III side information: 32/17 bytes in MPEG-1, 17/9 in MPEG-2/2.5")
    func sideInformation() throws {
        #expect(try #require(MPEGFrameHeader(0xFFFB_9064)).sideInformationLength == 32)
        #expect(try #require(MPEGFrameHeader(0xFFFB_90C4)).sideInformationLength == 17)
        #expect(try #require(MPEGFrameHeader(0xFFF3_9064)).sideInformationLength == 17)
        #expect(try #require(MPEGFrameHeader(0xFFE3_28C4)).sideInformationLength == 9)
    }

    // MARK: Xing / LAME / VBRI

    @Test("Info tag and LAME extension of the LAME CBR fixture")
    func decodesInfoAndLAME() throws {
        let bytes = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-cbr128.mp3")
        let header = try #require(MPEGFrameHeader(0xFFFB_9064))
        let xing = try #require(XingHeader.find(in: Array(bytes.prefix(417)), header: header))
        #expect(xing.isCBR)
        #expect(xing.offsetInFrame == 36)
        #expect(xing.frameCount == 40)
        #expect(xing.byteCount == UInt32(bytes.count))
        #expect(xing.tableOfContents?.count == 100)
        let lame = try #require(xing.lame)
        #expect(lame.encoderVersion == "LAME3.100")
        #expect(lame.vbrMethod == 1)
        #expect(lame.encoderDelay == 576 && lame.padding == 1_404)
        #expect(lame.musicLength == UInt32(bytes.count))
        #expect(lame.isTagCRCValid)
        #expect(lame.hasTrustedGaplessInfo)
    }

    /// A hand-built stream: one Layer III frame carrying a VBRI header, then 40 silent frames of 417
    /// bytes (128 kbit/s, 44.1 kHz, header then zeros).
    static func vbriStream() -> [UInt8] {
        let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]
        var info = header + [UInt8](repeating: 0, count: 413)
        func put16(_ v: Int, _ at: Int) {
            info[at] = UInt8(v >> 8)
            info[at + 1] = UInt8(v & 0xFF)
        }
        func put32(_ v: Int, _ at: Int) {
            put16(v >> 16, at)
            put16(v & 0xFFFF, at + 2)
        }
        info.replaceSubrange(36..<40, with: Array("VBRI".utf8))
        put16(1, 40)  // version
        put16(1_000, 42)  // delay
        put16(75, 44)  // quality
        put32(41 * 417, 46)  // bytes, the VBRI frame included
        put32(40, 50)  // frames
        put16(4, 54)  // TOC entries
        put16(1, 56)  // scale
        put16(2, 58)  // bytes per entry
        put16(10, 60)  // frames per entry
        for (i, size) in [4_587, 4_170, 4_170, 4_170].enumerated() { put16(size, 62 + 2 * i) }
        var stream = info
        for _ in 0..<40 { stream += header + [UInt8](repeating: 0, count: 413) }
        return stream
    }

    @Test("a VBRI frame is not a packet; its counts are announced with the header")
    func vbriHeader() throws {
        let stream = Self.vbriStream()
        let result = ChunkingVerifier.verify(stream)
        #expect(result.failures.isEmpty)
        let log = result.reference
        #expect(log.lastValues[.dataOffset] == .dataOffset(417))
        #expect(log.packetCount == 40)
        let header = log.entries.prefix { if case .packets = $0 { false } else { true } }
        #expect(header.contains(.property(.audioDataPacketCount(40))))
        #expect(header.contains(.property(.audioDataByteCount(40 * 417))))
        #expect(log.lastValues[.packetTableInfo] == nil)
        let frameHeader = try #require(MPEGFrameHeader(0xFFFB_9064))
        let vbri = try #require(VBRIHeader.find(in: Array(stream.prefix(417)), header: frameHeader))
        #expect(vbri.version == 1 && vbri.delay == 1_000 && vbri.quality == 75)
        #expect(vbri.segmentByteCounts == [4_587, 4_170, 4_170, 4_170])
    }

    @Test("seeking with the VBRI TOC: estimated offset, then the next frame")
    func vbriSeek() throws {
        let stream = Self.vbriStream()
        let parser = AudioStreamParser()
        var packets: [(index: Int64, offset: Int64)] = []
        parser.packetsHandler = { batch in
            for (i, d) in batch.descriptions.enumerated() {
                packets.append((batch.firstPacketIndex + Int64(i), batch.fileOffset + d.startOffset))
            }
        }
        try parser.parse(Array(stream.prefix(1_000)))
        let target = try parser.seek(toPacket: 20)
        // Frames 0…19 of the TOC: 4587 + 4170 bytes from the VBRI frame's start, minus that frame.
        #expect(target == SeekTarget(byteOffset: 4_587 + 4_170 - 417, isEstimated: true, absoluteOffset: 4_587 + 4_170))
        packets.removeAll()
        try parser.parse(Array(stream[Int(target.absoluteOffset)...]), flags: .discontinuity)
        try parser.finish()
        // 8757 lies in frame 20 (8757 − 417 = 8340 = 20 × 417 exactly): it starts there.
        #expect(packets.first?.offset == Int64(417 + 20 * 417))
        #expect(packets.first?.index == 20)
        #expect(packets.count == 20)
    }

    // MARK: Layer I

    @Test("a Layer I stream (no Debian encoder writes one): 384-frame packets, .mp1")
    func layerIStream() throws {
        // FF FF 90 00: MPEG-1 Layer I, 288 kbit/s, 44.1 kHz: 312-byte frames.
        let frame: [UInt8] = [0xFF, 0xFF, 0x90, 0x00] + [UInt8](repeating: 0, count: 308)
        let stream = Array([[UInt8]](repeating: frame, count: 10).joined())
        let result = ChunkingVerifier.verify(stream)
        #expect(result.failures.isEmpty)
        let log = result.reference
        #expect(log.lastValues[.fileFormat] == .fileFormat(.mp1))
        guard case .dataFormat(let format)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(format.formatID == .mpegLayer1 && format.framesPerPacket == 384 && format.sampleRate == 44_100)
        #expect(log.packets.map(\.size) == Array(repeating: 312, count: 10))
        #expect(log.lastValues[.packetSizeUpperBound] == .packetSizeUpperBound(488))
    }

    // MARK: Seeking

    /// Parses `bytes[..<prefix]`, seeks to `packet`, feeds the rest from the target, and returns the
    /// target and the (index, offset) of every packet after the seek.
    static func seek(
        _ bytes: [UInt8], prefix: Int, finishFirst: Bool = false, toPacket packet: Int64
    ) throws -> (SeekTarget, [(index: Int64, offset: Int64)]) {
        let parser = AudioStreamParser()
        var packets: [(index: Int64, offset: Int64)] = []
        parser.packetsHandler = { batch in
            for (i, d) in batch.descriptions.enumerated() {
                packets.append((batch.firstPacketIndex + Int64(i), batch.fileOffset + d.startOffset))
            }
        }
        try parser.parse(Array(bytes.prefix(prefix)))
        if finishFirst { try parser.finish() }
        let target = try parser.seek(toPacket: packet)
        packets.removeAll()
        try parser.parse(Array(bytes[Int(target.absoluteOffset)...]), flags: .discontinuity)
        try parser.finish()
        return (target, packets)
    }

    @Test("seeking to a packet already seen is exact")
    func exactSeek() throws {
        let name = "mpeg/mp3-44100-2ch-lame-cbr128.mp3"
        let bytes = try MPEGFixtures.bytes(name)
        let oracle = try #require(try MPEGFixtures.oracle(name)["packets"] as? [[Int]])
        let (target, packets) = try Self.seek(bytes, prefix: bytes.count, finishFirst: true, toPacket: 20)
        #expect(
            target
                == SeekTarget(
                    byteOffset: Int64(oracle[20][0] - 417), isEstimated: false, absoluteOffset: Int64(oracle[20][0])))
        #expect(packets.map(\.offset) == oracle[20...].map { Int64($0[0]) })
        #expect(packets.map(\.index) == Array(20..<40))
    }

    @Test("seeking ahead in a VBR stream uses the Xing TOC and lands on a frame boundary")
    func xingTOCSeek() throws {
        let name = "mpeg/mp3-44100-2ch-lame-v5.mp3"
        let bytes = try MPEGFixtures.bytes(name)
        let oracle = try #require(try MPEGFixtures.oracle(name)["packets"] as? [[Int]])
        let (target, packets) = try Self.seek(bytes, prefix: 700, toPacket: 25)
        #expect(target.isEstimated)
        let first = try #require(packets.first)
        let landed = try #require(oracle.firstIndex { Int64($0[0]) == first.offset })
        #expect(abs(landed - 25) <= 2, "landed on frame \(landed)")
        #expect(packets.map(\.offset) == oracle[landed...].map { Int64($0[0]) })
        #expect(first.index == 25)
    }

    @Test("seeking ahead in a CBR stream without tag: bit-rate arithmetic finds the right frame")
    func cbrArithmeticSeek() throws {
        let name = "mpeg/mp3-44100-2ch-lame-notag.mp3"
        let bytes = try MPEGFixtures.bytes(name)
        let oracle = try #require(try MPEGFixtures.oracle(name)["packets"] as? [[Int]])
        let (target, packets) = try Self.seek(bytes, prefix: 2_000, toPacket: 30)
        #expect(target.isEstimated)
        #expect(target.absoluteOffset <= Int64(oracle[30][0]) && target.absoluteOffset > Int64(oracle[29][0]))
        #expect(packets.first?.offset == Int64(oracle[30][0]))
        #expect(packets.first?.index == 30)
        #expect(packets.count == 10)
    }

    @Test("an Info (CBR) stream whose frames all have one size is placed exactly")
    func exactCBRSeek() throws {
        // 48 kHz, 320 kbit/s: 144 × 320000 / 48000 = 960 bytes, never padded.
        let bytes = try MPEGFixtures.bytes("mpeg/mp3-48000-2ch-lame-cbr320.mp3")
        let (target, packets) = try Self.seek(bytes, prefix: 5_000, toPacket: 15)
        #expect(target == SeekTarget(byteOffset: 15 * 960, isEstimated: false, absoluteOffset: 960 + 15 * 960))
        #expect(packets.map(\.offset) == (15..<22).map { 960 + Int64($0) * 960 })
    }

    @Test("seeking before the first frame is refused; after finish the real count bounds it")
    func seekLimits() throws {
        let bytes = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-notag.mp3")
        let parser = AudioStreamParser()
        try parser.parse(Array(bytes.prefix(100)))
        #expect(throws: AudioStreamError.self) { try parser.seek(toPacket: 1) }
        try parser.parse(Array(bytes[100...]))
        try parser.finish()
        #expect(throws: AudioStreamError.self) { try parser.seek(toPacket: 41) }
        #expect(parser.packetToFrame(3) == Translation(value: Int64(3 * 1_152), isEstimated: false))
        #expect(
            parser.frameToPacket(2_000)
                == Translation(value: PacketPosition(packet: 1, offsetInPacket: 848), isEstimated: false))
        // The first frames are 417 and 418 bytes (oracle).
        #expect(parser.packetToByte(2) == Translation(value: Int64(835), isEstimated: false))
    }

    // MARK: Discontinuity

    @Test("after a discontinuity the parser resyncs on the next frame; counts stay as declared")
    func discontinuityResyncs() throws {
        let name = "mpeg/mp3-44100-2ch-lame-cbr128.mp3"
        let bytes = try MPEGFixtures.bytes(name)
        let oracle = try #require(try MPEGFixtures.oracle(name)["packets"] as? [[Int]])
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser)
        try parser.parse(Array(bytes.prefix(5_000)))
        // The caller lost bytes 5000..<9000: the next bytes are taken to start at 5000.
        try parser.parse(Array(bytes[9_000...]), flags: .discontinuity)
        try parser.finish()
        let log = recorder.log
        let next = try #require(oracle.firstIndex { $0[0] >= 9_000 })
        let resumed = log.packets.filter { $0.offset >= 5_000 }
        let expected = oracle[next...].map { Int64($0[0] - 9_000 + 5_000) }
        #expect(Array(resumed.map(\.offset)) == expected)
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(40))
        #expect(log.diagnostics.contains { $0.kind == .junkSkipped })
    }

    // MARK: Detection

    @Test("junk longer than the detection lookahead is not searched")
    func junkBeyondLookahead() throws {
        let audio = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-notag.mp3")
        let junk = Array(String(repeating: "no audio here ", count: 5_000).utf8)  // 70,000 bytes
        let stream = junk + audio
        #expect(ParseRunner.run(stream, chunking: .fixed(4_096)).error?.code == .unsupportedFileType)
        var options = ParserOptions()
        options.detectionLookahead = 128 * 1_024
        let log = ParseRunner.run(stream, chunking: .fixed(4_096), options: options)
        #expect(log.error == nil)
        #expect(log.packetCount == 40)
        #expect(log.diagnostics.compactMap(MPEGFixtures.junkCount) == [junk.count])
    }

    @Test("an MP3 hint does not make the MPEG scan win over a container recognised by its magic")
    func hintDoesNotOverrideMagic() throws {
        // A NeXT file (24-byte header, µ-law, unknown size) whose "samples" are MP3 frames.
        let mp3 = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-notag.mp3")
        let au = NeXTFixtures.header(offset: 24, size: 0xFFFF_FFFF, encoding: 1, rate: 8_000, channels: 1) + mp3
        #expect(ParseRunner.run(au, chunking: .whole, hint: .mp3).lastValues[.fileFormat] == .fileFormat(.next))
        // A WAVE file whose data chunk holds MP3 frames (format tag 0x55) is WAVE, in every chunking.
        let wav = try MPEGFixtures.bytes("wav/mp3-44100-2ch.wav")
        let result = ChunkingVerifier.verify(wav, hint: .mp3)
        #expect(result.failures.isEmpty)
        #expect(result.reference.lastValues[.fileFormat] == .fileFormat(.wave))
        // Raw MP3 with the hint is still MP3.
        #expect(ParseRunner.run(mp3, chunking: .whole, hint: .mp3).lastValues[.fileFormat] == .fileFormat(.mp3))
    }

    @Test("seeded corruptions of tagged MP3 streams never trap and give the same events in every chunking")
    func corruptedStreamsAreChunkingInvariant() throws {
        var rng = SplitMix64(seed: 2_024)
        for name in ["mpeg/mp3-44100-2ch-id3v23-apic-id3v1.mp3", "mpeg/mp3-44100-2ch-lame-free.mp3"] {
            let original = try MPEGFixtures.bytes(name)
            for _ in 0..<12 {
                var bytes = original
                for _ in 0..<(1 + Int(rng.next() % 8)) {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    switch rng.next() % 4 {
                    case 0: bytes[at] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
                    case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int(rng.next() % 700)))
                    case 2: bytes.insert(contentsOf: [0xFF, 0xFB, 0x90, 0x64], at: at)
                    default: bytes[at] = 0xFF
                    }
                    if bytes.isEmpty { bytes = [0] }
                }
                let result = ChunkingVerifier.verify(
                    bytes, chunkings: [.bytewise, .random(seed: rng.next(), maxSize: 600)])
                #expect(result.failures.isEmpty, "\(name): \(result.failures)")
            }
        }
    }

    @Test("leading metadata is announced with the container's header and merged in front of later metadata")
    func leadingMetadataMerges() {
        var context = ParseContext(limits: ParserLimits())
        let leading = AudioMetadata(
            info: [InfoKey.title: "Front"], tags: [AudioMetadata.Tag(source: "id3v2", key: "TIT2", value: "Front")])
        context.leadingMetadata = leading
        let format = StreamDescription(
            sampleRate: 44_100, formatID: .mpegLayer3, framesPerPacket: 1_152, channelsPerFrame: 2)
        context.publishHeader([.dataFormat(format)], dataOffset: 10)
        #expect(context.announced.metadata == leading)
        let later = AudioMetadata(
            info: [InfoKey.title: "Back", InfoKey.artist: "Artist"],
            tags: [AudioMetadata.Tag(source: "id3v1", key: "title", value: "Back")])
        context.announce(.metadata(later))
        #expect(context.announced.metadata?.info == [InfoKey.title: "Front", InfoKey.artist: "Artist"])
        #expect(context.announced.metadata?.tags.map(\.source) == ["id3v2", "id3v1"])
    }
}
