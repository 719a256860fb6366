import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// Raw LOAS streams built here from the syntax (ISO/IEC 14496-3 §1.7.2, Table 1.36: a 3-byte header, the
/// syncword 0x2B7 in 11 bits and audioMuxLengthBytes in 13, then the AudioMuxElement; the elements by
/// `LATMTests.versionZeroElement`): what the fixtures (one payload per frame, from ffmpeg) do not show.
@Suite("Raw LOAS")
struct LOASTests {
    /// A LOAS frame around `element`.
    static func frame(_ element: [UInt8]) -> [UInt8] {
        [0x56, 0xE0 | UInt8(element.count >> 8), UInt8(element.count & 0xFF)] + element
    }

    /// Three frames of two sub-frames each; payload `k` is `k + 1` repeated `10 + k` times.
    static let payloads: [[UInt8]] = (0..<6).map { k in [UInt8](repeating: UInt8(k + 1), count: 10 + k) }
    static let frames: [[UInt8]] = (0..<3).map { f in
        frame(LATMTests.versionZeroElement([payloads[2 * f], payloads[2 * f + 1]]))
    }

    /// The packets' bytes and offsets.
    static func packets(_ parser: AudioStreamParser, _ input: ArraySlice<UInt8>, flags: ParseFlags = [])
        throws -> [(offset: Int64, bytes: [UInt8])]
    {
        var out: [(Int64, [UInt8])] = []
        parser.packetsHandler = { batch in
            for (i, d) in batch.descriptions.enumerated() {
                out.append((batch.fileOffset + d.startOffset, Array(batch.packetBytes(at: i))))
            }
        }
        try parser.parse(input, flags: flags)
        try parser.finish()
        return out
    }

    @Test("every sub-frame is a packet at its frame's first byte; a seek into a frame drops its earlier sub-frames")
    func subFramesAndSeeking() throws {
        let stream = Self.frames.flatMap { $0 }
        let starts = [0, Self.frames[0].count, Self.frames[0].count + Self.frames[1].count].map(Int64.init)
        let parser = AudioStreamParser()
        let whole = try Self.packets(parser, stream[...])
        #expect(parser.fileFormat == .latmInLOAS)
        #expect(whole.map(\.bytes) == Self.payloads)
        #expect(whole.map(\.offset) == [starts[0], starts[0], starts[1], starts[1], starts[2], starts[2]])
        // Packet 3 is frame 1's second sub-frame: the landing is frame 1, exact; packet 2 is dropped.
        let seek = try parser.seek(toPacket: 3)
        #expect(seek.absoluteOffset == starts[1] && !seek.isEstimated)
        let after = try Self.packets(parser, stream[Int(starts[1])...], flags: .discontinuity)
        #expect(after.map(\.bytes) == Array(Self.payloads[3...]))
        let chunked = ChunkingVerifier.verify(stream)
        #expect(chunked.failures.isEmpty, "\(chunked.failures)")
    }

    @Test("junk before the frames is skipped; a frame that no longer decodes loses sync to the next frame")
    func junkAndLostSync() throws {
        // 40 bytes of junk holding a false syncword (0x56 0xE0 …) whose successor is not a header.
        var junk = [UInt8](repeating: 0x20, count: 40)
        junk[5] = 0x56
        junk[6] = 0xE0
        junk[7] = 0x04
        // The middle frame's element is cut short (its header says so): its last payload runs past it.
        let damaged = Self.frame(Array(LATMTests.versionZeroElement([Self.payloads[2], Self.payloads[3]]).dropLast(6)))
        let stream = junk + Self.frames[0] + damaged + Self.frames[2]
        let log = ParseRunner.run(stream, chunking: .whole)
        #expect(log.error == nil)
        #expect(log.diagnostics.contains { $0.kind == .junkSkipped && $0.byteOffset == 0 })
        let inconsistent = log.diagnostics.first { $0.kind == .inconsistentValues }
        #expect(inconsistent?.byteOffset == Int64(junk.count + Self.frames[0].count))
        // Frames 0 and 2 survive: 4 packets.
        #expect(log.packetCount == 4)
        let chunked = ChunkingVerifier.verify(stream)
        #expect(chunked.failures.isEmpty, "\(chunked.failures)")
    }

    @Test("text that starts with 'V' and a byte ≥ 0xE0 is not LOAS: the probe wants three frames in a row")
    func probeWantsThreeFrames() {
        // Two back-to-back headers, then text: not enough to claim a LOAS stream.
        let two = Self.frame([0x80, 0, 0]) + Self.frame([0x80, 0, 0]) + Array("not a stream at all".utf8)
        let log = ParseRunner.run(two, chunking: .whole)
        #expect(log.error?.code == .unsupportedFileType)
        let three = Self.frames.flatMap { $0 }
        #expect(ParseRunner.run(three, chunking: .whole).error == nil)
    }

    @Test("a stream that ends inside a frame keeps the frames before it, with a truncated diagnostic")
    func truncated() throws {
        let stream = Self.frames.flatMap { $0 }
        let cut = Array(stream.dropLast(5))
        let log = ParseRunner.run(cut, chunking: .whole)
        #expect(log.error == nil)
        #expect(log.packetCount == 4)
        #expect(log.diagnostics.contains { $0.kind == .truncated })
    }
}
