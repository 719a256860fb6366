import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// ADTS: decoder configuration and cookie bytes derived by hand, detection, seeking, discontinuities,
/// limits and format changes.
@Suite("ADTS configuration and stream behaviour")
struct ADTSStreamTests {
    // MARK: Configuration and cookie

    /// A 7-byte header from its fields (ISO/IEC 13818-7 Table 5, bit by bit).
    static func header(
        profile: UInt64 = 1, sfi: UInt64, channels: UInt64, length: UInt64, blocks: UInt64 = 1, crc: Bool = false
    ) -> ADTSHeader? {
        var bits: UInt64 = 0xFFF
        bits = bits << 1 | 0  // ID
        bits = bits << 2 | 0  // layer
        bits = bits << 1 | (crc ? 0 : 1)
        bits = bits << 2 | profile
        bits = bits << 4 | sfi
        bits = bits << 1 | 0
        bits = bits << 3 | channels
        bits = bits << 4 | 0  // original_copy, home, copyright bits
        bits = bits << 13 | length
        bits = bits << 11 | 0x7FF
        bits = bits << 2 | (blocks - 1)
        guard case .valid(let h) = ADTSHeader.decode(bits) else { return nil }
        return h
    }

    @Test("AudioSpecificConfig from a header: AAC-LC 44.1 kHz stereo is 0x12 0x10")
    func audioSpecificConfigFromHeader() throws {
        let lc = try #require(Self.header(sfi: 4, channels: 2, length: 100))
        #expect(AudioSpecificConfig(adtsHeader: lc, programConfigElement: nil).bytes == [0x12, 0x10])
        // AAC Main (profile 0 → audioObjectType 1), 32 kHz (index 5), mono: 00001 0101 0001 000
        let main = try #require(Self.header(profile: 0, sfi: 5, channels: 1, length: 100))
        #expect(AudioSpecificConfig(adtsHeader: main, programConfigElement: nil).bytes == [0x0A, 0x88])
        // AAC LTP (profile 3 → 4), 16 kHz (index 8), 5.1: 00100 1000 0110 000
        let ltp = try #require(Self.header(profile: 3, sfi: 8, channels: 6, length: 100))
        #expect(AudioSpecificConfig(adtsHeader: ltp, programConfigElement: nil).bytes == [0x24, 0x30])
    }

    @Test("the ES_Descriptor cookie for AAC-LC 44.1 kHz stereo, byte by byte")
    func esDescriptorBytes() throws {
        let h = try #require(Self.header(sfi: 4, channels: 2, length: 100))
        let configuration = ADTSConfiguration(header: h, firstRawDataBlock: [])
        let expected: [UInt8] = [
            0x03, 0x80, 0x80, 0x80, 0x22,  // ES_Descriptor, 34 bytes follow
            0x00, 0x00, 0x00,  // ES_ID 0, no dependency/URL/OCR, priority 0
            0x04, 0x80, 0x80, 0x80, 0x14,  // DecoderConfigDescriptor, 20 bytes
            0x40,  // objectTypeIndication: MPEG-4 Audio
            0x15,  // streamType 5 (audio) << 2 | upStream 0 | reserved 1
            0x00, 0x06, 0x00,  // bufferSizeDB 1536 = 768 × 2 channels
            0x00, 0x08, 0x13, 0x30,  // maxBitrate 529200 = 6144 × 2 × 44100 / 1024
            0x00, 0x00, 0x00, 0x00,  // avgBitrate 0 (variable)
            0x05, 0x80, 0x80, 0x80, 0x02, 0x12, 0x10,  // DecoderSpecificInfo = AudioSpecificConfig
            0x06, 0x80, 0x80, 0x80, 0x01, 0x02,  // SLConfigDescriptor, predefined 2
        ]
        #expect(configuration.magicCookie == expected)
        #expect(configuration.magicCookie.count == 39)
        #expect(ESDescriptor.decoderSpecificInfo(in: expected) == [0x12, 0x10])
        // A whole esds box body (version and flags first) and the 1-byte size form read the same.
        #expect(ESDescriptor.decoderSpecificInfo(in: [0, 0, 0, 0] + expected) == [0x12, 0x10])
        let short: [UInt8] =
            [0x03, 0x19, 0x00, 0x01, 0x00, 0x04, 0x11, 0x40, 0x15] + [UInt8](repeating: 0, count: 11)
            + [0x05, 0x02, 0x11, 0x90, 0x06, 0x01, 0x02]
        #expect(ESDescriptor.decoderSpecificInfo(in: short) == [0x11, 0x90])
    }

    @Test("AudioSpecificConfig reads back from the cookie, including explicit SBR signalling")
    func audioSpecificConfigParsing() throws {
        let lc = try #require(AudioSpecificConfig(bytes: [0x12, 0x10]))
        #expect(lc.audioObjectType == 2 && lc.samplingFrequency == 44100 && lc.channelConfiguration == 2)
        #expect(lc.channelCount == 2 && lc.frameLength == 1024 && lc.extensionAudioObjectType == nil)
        // audioObjectType 5 (SBR), 24 kHz (index 6), stereo, extension 48 kHz (index 3), then AOT 2:
        // then GASpecificConfig 000: 00101 0110 0010 0011 00010 000 (+ 7 padding bits) → 2B 11 88 00
        let he = try #require(AudioSpecificConfig(bytes: [0x2B, 0x11, 0x88, 0x00]))
        #expect(he.audioObjectType == 2 && he.samplingFrequency == 24000 && he.channelCount == 2)
        #expect(he.extensionAudioObjectType == 5 && he.extensionSamplingFrequency == 48000 && !he.psPresent)
        #expect(AudioSpecificConfig(bytes: [0x12]) == nil)
        // 00010 1100 0001 000: index 12 (7350 Hz) is valid; 00010 1101 0001 000: index 13 is reserved.
        #expect(AudioSpecificConfig(bytes: [0x16, 0x08])?.samplingFrequency == 7350)
        #expect(AudioSpecificConfig(bytes: [0x16, 0x88]) == nil)

        let log = ParseRunner.run(try ADTSFixtures.bytes("adts/aac-48000-4ch-pce.aac"), chunking: .whole)
        guard case .magicCookie(let cookie)? = log.lastValues[.magicCookieData] else {
            Issue.record("no cookie")
            return
        }
        let pce = try #require(AudioSpecificConfig(magicCookie: cookie))
        #expect(pce.channelConfiguration == 0 && pce.channelCount == 4 && pce.samplingFrequency == 48000)
    }

    // MARK: Detection

    @Test("the hint and content detection both choose ADTS; a single frame is a stream")
    func detection() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-8000-1ch.aac")
        for hint in [nil, AudioFileType.aacADTS] {
            let log = ParseRunner.run(bytes, chunking: .bytewise, hint: hint)
            #expect(log.lastValues[.fileFormat] == .fileFormat(.aacADTS))
            #expect(log.packetCount == 9)
        }
        // One frame alone: confirmed only by the end of the stream (detection runs again at finish).
        let length = Int(bytes[3] & 3) << 11 | Int(bytes[4]) << 3 | Int(bytes[5]) >> 5
        let (one, failures) = ChunkingVerifier.verify(Array(bytes.prefix(length)))
        #expect(failures.isEmpty, "\(failures)")
        #expect(one.error == nil && one.packetCount == 1)
    }

    @Test("MPEG audio frames are not taken for ADTS (layer bits are never 00 in MPEG audio)")
    func mp3IsNotADTS() throws {
        // The MP3 frames libmp3lame wrote into a WAVE data chunk (real encoder output).
        let wav = try ADTSFixtures.bytes("wav/mp3-44100-2ch.wav")
        let data = try #require(Self.dataChunk(of: wav))
        #expect(data.prefix(2) == [0xFF, 0xFB])
        var window = InputWindow()
        window.isFinal = true
        let result: FormatProbe.Result = data.withUnsafeBytes { raw in
            window.beginChunk(BorrowedBytes(raw))
            return ADTSParser.probe.probe(window, ParserOptions())
        }
        guard case .noMatch = result else {
            Issue.record("MP3 data matched the ADTS probe")
            return
        }
    }

    static func dataChunk(of wav: [UInt8]) -> [UInt8]? {
        var i = 12
        while i + 8 <= wav.count {
            let size = Int(wav[i + 4]) | Int(wav[i + 5]) << 8 | Int(wav[i + 6]) << 16 | Int(wav[i + 7]) << 24
            if wav[i..<(i + 4)].elementsEqual("data".utf8) { return Array(wav[(i + 8)..<min(wav.count, i + 8 + size)]) }
            i += 8 + size + (size & 1)
        }
        return nil
    }

    // MARK: Seeking and discontinuities

    static func collect(_ parser: AudioStreamParser) -> () -> [(index: Int64, offset: Int64, size: Int)] {
        final class Box: @unchecked Sendable { var items: [(index: Int64, offset: Int64, size: Int)] = [] }
        let box = Box()
        parser.packetsHandler = { batch in
            for (i, d) in batch.descriptions.enumerated() {
                box.items.append(
                    (batch.firstPacketIndex + Int64(i), batch.fileOffset + d.startOffset, Int(d.dataByteSize)))
            }
        }
        return { box.items }
    }

    @Test("a seek to a packet already seen is exact; packets resume at its frame")
    func exactSeek() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch.aac"))
        let parser = AudioStreamParser()
        let packets = Self.collect(parser)
        try parser.parse(bytes)
        try parser.finish()
        #expect(parser.packetToFrame(20) == Translation<Int64>(value: 20 * 1024, isEstimated: false))
        let position = PacketPosition(packet: 4, offsetInPacket: 904)
        #expect(parser.frameToPacket(5000) == Translation(value: position, isEstimated: false))
        #expect(parser.packetToByte(20) == Translation(value: frames[20].pos, isEstimated: false))
        #expect(parser.byteToPacket(frames[20].pos + 3)?.value.packet == 20)
        let before = packets().count
        let target = try parser.seek(toPacket: 20)
        #expect(target == SeekTarget(byteOffset: frames[20].pos, isEstimated: false, absoluteOffset: frames[20].pos))
        try parser.parse(Array(bytes[Int(target.absoluteOffset)...]))
        try parser.finish()
        let resumed = packets().dropFirst(before)
        #expect(resumed.map(\.index) == Array(20..<45))
        #expect(resumed.map(\.offset) == frames[20...].map { $0.pos + 7 })
        #expect(throws: AudioStreamError.self) { try parser.seek(toPacket: 46) }
    }

    @Test("a seek past the packets seen is estimated from the average frame size and resyncs there")
    func estimatedSeek() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch.aac"))
        let parser = AudioStreamParser()
        var diagnostics: [ParserDiagnostic] = []
        parser.diagnosticHandler = { diagnostics.append($0) }
        let packets = Self.collect(parser)
        try parser.parse(Array(bytes.prefix(4000)))
        let seen = Int64(packets().count)
        #expect(seen > 5 && seen < 30)
        #expect(parser.packetToByte(seen - 1)?.isEstimated == false)
        let estimate = try #require(parser.packetToByte(30))
        #expect(estimate.isEstimated)
        #expect(parser.byteToPacket(12_000)?.isEstimated == true)
        #expect(parser.byteToPacket(100)?.isEstimated == false)
        let target = try parser.seek(toPacket: 30)
        #expect(target.isEstimated && target.byteOffset == estimate.value)
        try parser.parse(Array(bytes[Int(target.absoluteOffset)...]))
        try parser.finish()
        let after = packets().dropFirst(Int(seen))
        let first = try #require(after.first)
        // The first packet after the seek is a real frame's, the first that starts at or after the
        // target; it is numbered 30.
        let frame = try #require(frames.first { $0.pos >= target.absoluteOffset })
        #expect(first.index == 30 && first.offset == frame.pos + 7)
        if frame.pos > target.absoluteOffset {
            #expect(diagnostics.contains { $0.kind == .junkSkipped && $0.message.contains("after the seek position") })
        }
        // Packet indices after an estimated seek are not exact: no exact count is claimed at finish.
        #expect(parser.audioDataPacketCount == nil)
    }

    @Test("a discontinuity drops the partial frame and resyncs at the next frame")
    func discontinuity() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch.aac"))
        let parser = AudioStreamParser()
        let packets = Self.collect(parser)
        try parser.parse(Array(bytes.prefix(5000)))
        // The caller lost bytes 5000..<8000.
        try parser.parse(Array(bytes[8000...]), flags: .discontinuity)
        try parser.finish()
        // Offsets continue from where the input stopped (5000): the bytes after the discontinuity are
        // counted from there. Frames confirmed before the cut (their successor's header was complete)
        // come first; the frame cut by the discontinuity is dropped; the first whole frame after the
        // cut starts the rest.
        let before = frames.filter { $0.pos + Int64($0.size) + 7 <= 5000 }.map { $0.pos + 7 }
        let after = frames.filter { $0.pos >= 8000 }.map { $0.pos - 3000 + 7 }
        #expect(packets().map(\.offset) == before + after)
        #expect(parser.diagnostics.contains { $0.kind == .junkSkipped && $0.message.contains("discontinuity") })
        #expect(parser.audioDataPacketCount == nil)
    }

    // MARK: Limits and changes

    @Test("a leading ID3v2 tag larger than maxTagBytes is streamed frame by frame (shared prefix parser)")
    func largeTag() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-44100-2ch-id3v2.aac")
        let options = ParserOptions(limits: ParserLimits(maxTagBytes: 32))
        let (log, failures) = ChunkingVerifier.verify(bytes, options: options)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.lastValues[.dataOffset] == .dataOffset(65))
        // Its frames (TIT2, TPE1) are each below the limit: nothing is skipped.
        #expect(ADTSFixtures.diagnostics(log).isEmpty)
        guard case .metadata(let metadata)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(metadata.info[InfoKey.title] == "ADTS Title")
        #expect(log.packetCount == 23)
    }

    @Test("a confirmed change of sampling frequency announces the new format")
    func formatChange() throws {
        let a = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let b = try ADTSFixtures.bytes("adts/aac-48000-2ch.aac")
        let (log, failures) = ChunkingVerifier.verify(a + b)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.packetCount == 45 + 48)
        let formats = log.entries.compactMap { entry -> Double? in
            if case .property(.dataFormat(let f)) = entry { return f.sampleRate }
            return nil
        }
        #expect(formats == [44100, 48000])
        #expect(ADTSFixtures.diagnostics(log).map(\.byteOffset) == [Int64(a.count)])
    }

    @Test("a change of the ID bit alone (MPEG-4 to MPEG-2 headers) changes no property")
    func idBitChange() throws {
        let a = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let b = try ADTSFixtures.bytes("adts/aac-44100-2ch-mpeg2.aac")
        let (log, failures) = ChunkingVerifier.verify(a + b)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.packetCount == 45 + 23)
        #expect(ADTSFixtures.diagnostics(log).isEmpty)
    }

    @Test("a seek to the second block of a split frame resumes at that frame and drops its first block")
    func seekIntoSplitFrame() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-44100-2ch-2blocks-crc.aac")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch-2blocks-crc.aac"))
        let parser = AudioStreamParser()
        let packets = Self.collect(parser)
        try parser.parse(bytes)
        try parser.finish()
        let all = packets()
        #expect(all.count == 45)
        // Packets 2 and 3 are the two blocks of frame 1: both map to the frame's offset.
        #expect(parser.packetToByte(2)?.value == frames[1].pos)
        #expect(parser.packetToByte(3)?.value == frames[1].pos)
        let target = try parser.seek(toPacket: 3)
        #expect(target.absoluteOffset == frames[1].pos && !target.isEstimated)
        try parser.parse(Array(bytes[Int(target.absoluteOffset)...]))
        try parser.finish()
        let resumed = packets().dropFirst(all.count)
        #expect(resumed.first?.index == 3 && resumed.first?.offset == all[3].offset)
        #expect(resumed.map(\.offset) == all[3...].map(\.offset))
    }
}
