import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// The discontinuity rule (docs/coreaudio-mapping.md, "Discontinuities"): `.discontinuity` is honoured
/// only when packets were produced since the position was last established (the stream's start, a seek,
/// a followed byte request, the previous honoured discontinuity); a flag on an empty `parse` applies to
/// the next bytes.
@Suite("Discontinuity rule")
struct DiscontinuityRuleTests {
    /// 16-bit stereo PCM at 8000 Hz, 100 frames of 4 bytes: data at 44.
    static let wave = SyntheticFiles.wave()

    static func offsets(_ parser: AudioStreamParser) -> () -> [Int64] {
        var offsets: [Int64] = []
        parser.packetsHandler = { batch in
            for d in batch.descriptions { offsets.append(batch.fileOffset + d.startOffset) }
        }
        return { offsets }
    }

    @Test func aFlagBeforeAnyPacketDropsNothing() throws {
        let parser = AudioStreamParser()
        let offsets = Self.offsets(parser)
        // The header cut in the middle, then a frame cut in the middle: both flagged, nothing dropped.
        try parser.parse(Self.wave[0..<20], flags: .discontinuity)
        try parser.parse(Self.wave[20..<46], flags: .discontinuity)
        try parser.parse(Self.wave[46...], flags: .discontinuity)
        try parser.finish()
        #expect(offsets() == stride(from: 44, to: 444, by: 4).map(Int64.init))
    }

    @Test func aFlagAfterPacketsDropsThePartialPacket() throws {
        let parser = AudioStreamParser()
        let offsets = Self.offsets(parser)
        try parser.parse(Self.wave[0..<51])  // 1 frame + 3 bytes
        // Taken to continue at 51: the partial frame is dropped, packets resume at the next frame boundary
        // counted from the data start, 44 + 2 × 4 = 52.
        try parser.parse(Self.wave[51...], flags: .discontinuity)
        try parser.finish()
        #expect(offsets().prefix(3) == [44, 52, 56])
    }

    /// Repeated flags with no packet between them are one discontinuity (a client that flags every call
    /// after a jump until packets arrive again).
    @Test func repeatedFlagsWithoutAPacketAreOneDiscontinuity() throws {
        let parser = AudioStreamParser()
        let offsets = Self.offsets(parser)
        try parser.parse(Self.wave[0..<51])
        // Honoured (a packet came before it): resume at 52. The next flags come before the frame at 52 is
        // complete: ignored.
        try parser.parse(Self.wave[51..<53], flags: .discontinuity)
        try parser.parse(Self.wave[53..<55], flags: .discontinuity)
        try parser.parse(Self.wave[55...], flags: .discontinuity)
        try parser.finish()
        #expect(offsets() == [44] + stride(from: 52, to: 444, by: 4).map(Int64.init))
    }

    /// An empty `parse` is harmless; its `.discontinuity` applies to the next bytes.
    @Test func aFlagOnAnEmptyParseAppliesToTheNextBytes() throws {
        let parser = AudioStreamParser()
        let offsets = Self.offsets(parser)
        try parser.parse(Self.wave[0..<51])
        try parser.parse([UInt8](), flags: .discontinuity)
        #expect(offsets() == [44])
        try parser.parse(Self.wave[51...])
        try parser.finish()
        #expect(offsets().prefix(3) == [44, 52, 56])
        // After `finish()` an empty parse is still harmless; a non-empty one is not.
        try parser.parse([UInt8]())
        #expect(throws: AudioStreamError.self) { try parser.parse([0]) }
    }

    /// After a seek the caller flags every call until packets arrive again (AudioStreamer, StreamingKit):
    /// packets resume at the target with the full parse's packets, whatever the chunk size.
    @Test(
        arguments: [
            "mpeg/mp3-44100-2ch-lame-cbr128.mp3", "caf/alac-44100-2ch-sndfile.caf", "mp4/aac-44100-2ch-faststart.m4a",
            "wav/pcm_s16le-44100-2ch.wav", "adts/aac-44100-2ch.aac",
        ], [97, 1000])
    func flagsUntilTheFirstPacketAfterASeek(_ path: String, chunk: Int) throws {
        let bytes = try FixtureCatalog.fixture(path).bytes()
        let parser = AudioStreamParser()
        var packets: [(index: Int64, offset: Int64, size: UInt32)] = []
        parser.packetsHandler = { batch in
            for (i, d) in batch.descriptions.enumerated() {
                packets.append((batch.firstPacketIndex + Int64(i), batch.fileOffset + d.startOffset, d.dataByteSize))
            }
        }
        try parser.parse(bytes)
        try parser.finish()
        let all = packets
        let target = Int64(all.count / 3)
        packets = []
        let seek = try parser.seek(toPacket: target)
        #expect(!seek.isEstimated, "\(path)")
        var start = Int(seek.absoluteOffset)
        while start < bytes.count {
            try parser.parse(
                bytes[start..<min(bytes.count, start + chunk)], flags: packets.isEmpty ? .discontinuity : [])
            start += chunk
        }
        try parser.finish()
        let expected = all.filter { $0.index >= target }
        #expect(packets.map(\.index) == expected.map(\.index), "\(path)")
        #expect(packets.map(\.offset) == expected.map(\.offset), "\(path)")
        #expect(packets.map(\.size) == expected.map(\.size), "\(path)")
    }
}
