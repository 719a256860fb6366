import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// Implicitly signalled HE-AAC in Matroska `A_AAC` (docs/formats/matroska.md, "Implicit HE-AAC"): the
/// ADTS fixtures' frames remuxed by ffmpeg (`-c:a copy`; CodecPrivate AAC-LC 22050 Hz). Expected values
/// from the ffprobe oracles (HE-AAC / HE-AACv2, 44100 Hz, 2 channels, 23 or 12 packets, the first block
/// body at offset 751) and by hand from ISO/IEC 14496-3 §1.6.5 (the layers, as `ADTSHEAACTests`).
@Suite("Matroska implicit HE-AAC")
struct MatroskaHEAACTests {
    static let cases: [(String, MP4HEAACTests.Layers, Int)] = [
        ("mkv/heaac-44100-2ch-implicit.mka", MP4HEAACTests.twoChannels, 23),
        ("mkv/heaac-44100-1ch-implicit.mka", MP4HEAACTests.monoWithoutPS, 12),
        ("mkv/heaacv2-44100-2ch-implicit.mka", MP4HEAACTests.monoCore, 12),
    ]

    @Test("the HE-AAC layers, 2048 frames per packet and the duration, in every chunking", arguments: cases)
    func layersAndCounts(path: String, layers: MP4HEAACTests.Layers, packets: Int) throws {
        let bytes = try MP4HEAACTests.bytes(path)
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(path): \(failures)")
        #expect(log.error == nil, "\(path): \(String(describing: log.error))")
        let (data, list) = ADTSHEAACTests.formats(log)
        #expect(data == layers[0], "\(path)")
        #expect(list == layers, "\(path)")
        #expect(log.diagnostics.isEmpty, "\(path): \(log.diagnostics)")
        #expect(log.propertyOrder.filter { $0 == .dataFormat }.count == 1)
        #expect(ADTSHEAACTests.cookieIsTheCore(log), "\(path): the cookie is CodecPrivate's AAC-LC configuration")
        // The format's 2048 frames per packet: no packet carries a variable count.
        #expect(log.packets.count == packets && log.packets.allSatisfy { $0.frames == 0 }, "\(path)")
        // The oracle's first block at 751 (ffprobe's pos: the block body); its frame after the 4-byte block header.
        let first = try #require(log.packets.first)
        #expect(first.offset == 751 + 4, "\(path)")
        let (parser, _) = try SeekTests.prepare(bytes, .wholeFile)
        #expect(parser.estimatedDuration?.frames == Int64(packets * 2048), "\(path)")
    }

    /// 0.5 s = frame 22050 at 44100 Hz: packet 10 (1570 frames in); roll distance 1 starts at packet 9,
    /// 3618 frames to drop, at the oracle's offset of packet 9.
    @Test("a time seek lands on the oracle's packet")
    func timeSeek() throws {
        let (parser, _) = try SeekTests.prepare(try MP4HEAACTests.bytes("mkv/heaac-44100-2ch-implicit.mka"), .wholeFile)
        let result = try parser.seek(toTime: 0.5)
        #expect(result.frame == 22050 && result.position.packet == 10 && result.position.offsetInPacket == 1570)
        #expect(result.startPacket == 10 - result.rollDistance)
        #expect(result.framesToDiscard == 22050 - result.startPacket * 2048)
        // The landing is packet 9's SimpleBlock element: the oracle's pos for it (6910, the block body) minus
        // the element's 3-byte header (ID A3, size 42 B3).
        #expect(result.startPacket == 9 && result.target.absoluteOffset == 6910 - 3)
    }

    @Test("A_AAC-LC keeps one layer and no diagnostic")
    func plainLC() throws {
        let log = ParseRunner.run(try MP4HEAACTests.bytes("mkv/aac-44100-2ch-ffmpeg.mka"), chunking: .whole)
        let (data, list) = ADTSHEAACTests.formats(log)
        #expect(data?.formatID == .mpeg4AAC && list.count <= 1)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
    }
}
