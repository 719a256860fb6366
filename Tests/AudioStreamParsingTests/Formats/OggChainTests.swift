import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

// Issue 15 item 6: a chained Ogg stream keeps every link's format, tags and duration
// (`AudioStreamParser.links`). A chain is complete streams one after the other (RFC 3533 §4), so the
// inputs are fixtures concatenated here; the expected values are read from the bytes by hand: pages
// (RFC 3533 §6), packets from the lacing values (§5), the identification headers (Vorbis I §4.2.2,
// RFC 7845 §5.1), the comment headers (Vorbis I §5.2.1) and each link's last granule position (Vorbis I
// §A.2, RFC 7845 §4.5), never from this parser.

/// One link of a chain, read by hand: its packets (`XiphTestPackets`, RFC 3533 §5-6; the fixtures give
/// every link its own serial number) and the last granule position of its pages.
private struct HandLink {
    var packets: [XiphTestPackets.OggPacket]
    var lastGranule: Int64
}

private func handLinks(_ b: [UInt8]) -> [HandLink] {
    let pages = XiphTestPackets.oggPages(b)
    return XiphTestPackets.oggStreams(b).map { stream in
        HandLink(
            packets: stream.packets,
            lastGranule: pages.last { $0.serial == stream.serial && $0.granule != -1 }?.granule ?? -1)
    }
}

private func le32(_ p: [UInt8], _ i: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(p[i + $1]) << (8 * $1) } }

/// The `KEY=value` fields of a Vorbis comment list starting at `at` (Vorbis I §5.2.1).
private func comments(_ p: [UInt8], at start: Int) -> [(String, String)] {
    var at = start + 4 + Int(le32(p, start))
    let count = Int(le32(p, at))
    at += 4
    var out: [(String, String)] = []
    for _ in 0..<count {
        let n = Int(le32(p, at))
        let field = String(decoding: p[(at + 4)..<(at + 4 + n)], as: UTF8.self)
        at += 4 + n
        if let eq = field.firstIndex(of: "=") {
            out.append((String(field[..<eq]), String(field[field.index(after: eq)...])))
        }
    }
    return out
}

@Suite("Ogg chains: every link's format, tags and duration")
struct OggChainTests {
    static let chains: [[String]] = [
        [
            "ogg/vorbis-44100-2ch-chapters.ogg", "ogg/vorbis-22050-1ch-big-comment.ogg",
            "ogg/vorbis-44100-2ch-ffmpeg.ogg",
        ],
        ["ogg/vorbis-chained-44100-2ch-22050-1ch.ogg"],
        ["ogg/opus-chained-2ch-1ch.opus"],
        ["ogg/opus-48000-2ch-picture-opusenc.opus", "ogg/opus-48000-2ch-ffmpeg.opus"],
    ]

    @Test("links: format, first packet, trimming and tags of each link", arguments: chains)
    func links(_ files: [String]) throws {
        let bytes = try files.flatMap { try FixtureCatalog.fixture($0).bytes() }
        let expected = handLinks(bytes)
        try #require(expected.count >= 2)
        let parser = AudioStreamParser()
        try parser.parse(bytes)
        try parser.finish()
        let links = parser.links
        #expect(links.count == expected.count)
        var firstPacket: Int64 = 0
        for (link, hand) in zip(links, expected) {
            let id = hand.packets[0].bytes
            let isOpus = id.starts(with: Array("OpusHead".utf8))
            let headers = isOpus ? 2 : 3
            // Vorbis: channels at 11, rate at 12; Opus: channels at 9, pre-skip at 10, decoded at 48 kHz.
            let channels = Int(isOpus ? id[9] : id[11])
            let rate = isOpus ? 48000 : Double(le32(id, 12))
            let preSkip = isOpus ? Int64(id[10]) | Int64(id[11]) << 8 : 0
            #expect(link.streamDescription.sampleRate == rate)
            #expect(Int(link.streamDescription.channelsPerFrame) == channels)
            #expect(link.firstPacketIndex == firstPacket)
            #expect(link.offset == Int64(hand.packets[headers].pageOffset))
            // A stream starting at granule 0: the last granule position is the end of the valid samples.
            #expect(link.packetTableInfo?.numberValidFrames == hand.lastGranule - preSkip)
            #expect(link.duration == Double(hand.lastGranule - preSkip) / rate)
            firstPacket += Int64(hand.packets.count - headers)
            let fields = comments(hand.packets[1].bytes, at: isOpus ? 8 : 7)
                .filter { !$0.0.uppercased().hasPrefix("CHAPTER") && $0.0.uppercased() != "METADATA_BLOCK_PICTURE" }
            let tags = (link.metadata?.tags ?? []).map { ($0.key.uppercased(), $0.value) }
            for (key, value) in fields {
                #expect(tags.contains { $0 == (key.uppercased(), value) }, "\(files): \(key)=\(value) missing")
            }
        }
        // The total: every link's duration.
        let total = zip(links, expected).reduce(0.0) { $0 + ($1.0.duration ?? 0) }
        #expect(total > links.last?.duration ?? 0)
    }

    @Test(
        "one unchained stream has one link",
        arguments: ["ogg/vorbis-44100-2ch-oggenc.ogg", "ogg/opus-48000-2ch-ffmpeg.opus"])
    func single(_ path: String) throws {
        let parser = AudioStreamParser()
        try parser.parse(FixtureCatalog.fixture(path).bytes())
        try parser.finish()
        #expect(parser.links.count == 1)
        #expect(parser.links.first?.firstPacketIndex == 0)
        #expect(parser.links.first?.packetTableInfo == parser.packetTableInfo)
    }
}
