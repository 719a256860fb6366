import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// The AMR storage format (RFC 4867 §5), on files built by hand from the frame-size table (3GPP TS
/// 26.101 Table 1a, TS 26.201 Table 1a). The fixtures (Fixtures/amr) are checked against ffprobe by the
/// conformance suite; these cases cover what no encoder writes.
@Suite("AMR")
struct AMRTests {
    /// One AMR frame: the header byte (FT, Q = 1) and `bytes` payload bytes.
    static func frame(_ type: UInt8, _ bytes: Int, quality: UInt8 = 1) -> [UInt8] {
        [type << 3 | quality << 2] + [UInt8](repeating: 0x5A, count: bytes)
    }

    static let narrowbandMagic = Array("#!AMR\n".utf8)

    @Test("12.2 kbit/s frames are 32 bytes, SID 6, NO_DATA 1; every frame is a 160-frame packet")
    func narrowbandSizes() {
        // 244 bits → 31 bytes + header; SID 39 bits → 5 + 1; NO_DATA: the header alone.
        let file = Self.narrowbandMagic + Self.frame(7, 31) + Self.frame(8, 5) + Self.frame(15, 0) + Self.frame(0, 12)
        let result = ChunkingVerifier.verify(file)
        #expect(result.failures.isEmpty, "\(result.failures)")
        let log = result.reference
        #expect(log.error == nil)
        #expect(log.packets.map(\.size) == [32, 6, 1, 13])
        #expect(log.packets.first?.offset == 6)
        guard case .dataFormat(let d)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(d.formatID == .amr && d.sampleRate == 8000 && d.framesPerPacket == 160 && d.channelsPerFrame == 1)
        #expect(log.lastValues[.fileFormat] == .fileFormat(.amr))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(4))
        #expect(log.diagnostics.isEmpty)
    }

    @Test("AMR-WB: 23.85 kbit/s frames are 61 bytes at 16 kHz, 320 frames each")
    func wideband() {
        // 477 bits → 60 bytes + header; SPEECH_LOST (14) is a 1-byte frame.
        let file = Array("#!AMR-WB\n".utf8) + Self.frame(8, 60) + Self.frame(14, 0) + Self.frame(0, 17)
        let log = ChunkingVerifier.verify(file).reference
        #expect(log.error == nil)
        #expect(log.packets.map(\.size) == [61, 1, 18])
        guard case .dataFormat(let d)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(d.formatID == .amrWB && d.sampleRate == 16000 && d.framesPerPacket == 320)
    }

    @Test("junk between frames is skipped with one diagnostic; the frames after the first confirmed one come back")
    func junkResynchronises() {
        // 0x83 has padding bits set, 0x48 is FT 9 (not in AMR files): neither starts a frame. In sync a frame
        // needs the next two headers valid, so the two frames in front of the junk go with it; the first frame of
        // the resynchronised chain is dropped too (docs/formats/amr.md, "Sync and damage").
        let frames = (0..<4).flatMap { _ in Self.frame(7, 31) }
        let file = Self.narrowbandMagic + frames + [0x83, 0x48, 0x83] + frames
        let result = ChunkingVerifier.verify(file)
        #expect(result.failures.isEmpty, "\(result.failures)")
        let log = result.reference
        #expect(log.packets.map(\.size) == [32, 32, 32, 32, 32])
        #expect(log.diagnostics.filter { $0.kind == .junkSkipped }.count == 1)
    }

    @Test("a frame cut by the end of the stream is dropped with a diagnostic")
    func truncatedLastFrame() {
        let file = Self.narrowbandMagic + Self.frame(7, 31) + Array(Self.frame(7, 31).prefix(10))
        let log = ChunkingVerifier.verify(file).reference
        #expect(log.error == nil)
        #expect(log.packets.map(\.size) == [32])
        #expect(log.diagnostics.contains { $0.kind == .truncated })
    }

    @Test("the multi-channel storage format is fmt?, a stream that ends in the magic is dta?")
    func unsupportedAndShort() {
        let mc = ParseRunner.run(Array("#!AMR_MC1.0\n".utf8) + [0, 0, 0, 1], chunking: .whole)
        #expect(mc.error?.code == .unsupportedDataFormat)
        let short = ParseRunner.run(Array("#!AM".utf8), chunking: .whole)
        #expect(short.error != nil)
    }
}
