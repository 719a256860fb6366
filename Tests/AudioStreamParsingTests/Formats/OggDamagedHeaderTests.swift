import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

// Issue 15 item 7: damage in metadata must not cost audio. A page of a long comment header (a cover in
// OpusTags, a big Vorbis comment) fails its CRC: the tags are lost (diagnostic), every audio packet is
// kept. Expected packets come from the committed ffprobe oracle of the undamaged fixture (the damage
// flips one byte inside the header page, so no audio byte moves); the page layout from RFC 3533 §6.

private func kinds(_ log: EventLog) -> [ParserDiagnostic.Kind] {
    log.entries.compactMap { if case .diagnostic(let d) = $0 { d.kind } else { nil } }
}

@Suite("Ogg: header pages lost to damage cost only the tags")
struct OggDamagedHeaderTests {
    /// Fixtures whose second page holds only (the start of) the comment packet: OpusTags with a cover;
    /// a Vorbis comment header larger than a page, whose end shares the third page with the setup header.
    static let fixtures = ["ogg/opus-48000-2ch-picture-opusenc.opus", "ogg/vorbis-22050-1ch-big-comment.ogg"]

    @Test("a CRC failure in the comment header's page: no tags, every audio packet", arguments: fixtures)
    func commentPageDamaged(_ path: String) throws {
        let fixture = FixtureCatalog.fixture(path)
        let oracle = try fixture.oracle()
        var bytes = try fixture.bytes()
        let list = XiphTestPackets.oggPages(bytes)
        try #require(list.count >= 3)
        // One byte in the middle of the second page's body: its CRC fails.
        bytes[list[1].offset + list[1].size / 2] ^= 0xFF
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil, "\(String(describing: log.error))")
        #expect(log.packets.map { Int64($0.size) } == oracle.packets.map(\.size))
        #expect(kinds(log).contains(.checksumMismatch))
        #expect(kinds(log).contains(.damagedMetadata))
        if case .metadata(let meta)? = log.lastValues[.infoDictionary] {
            #expect(meta.tags.isEmpty && meta.artwork.isEmpty)
        }
        guard case .magicCookie(let cookie)? = log.lastValues[.magicCookieData] else {
            Issue.record("no magic cookie")
            return
        }
        if path.hasSuffix(".ogg") {
            // The Vorbis cookie (Xiph lacing of the three headers) carries an empty comment header in place
            // of the lost one: 0x03 "vorbis", vendor length 0, comment count 0, framing bit (Vorbis I §5.2.1).
            let empty: [UInt8] = [3] + Array("vorbis".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1]
            #expect(cookie.count >= empty.count)
            let found = (0...(cookie.count - empty.count)).contains { Array(cookie[$0..<($0 + empty.count)]) == empty }
            #expect(found, "no empty comment header in the cookie")
        }
    }

    @Test("a CRC failure in the setup header's page: nothing can be decoded, no packet is invented")
    func setupHeaderLostIsStillFatal() throws {
        let fixture = FixtureCatalog.fixture("ogg/vorbis-22050-1ch-big-comment.ogg")
        var bytes = try fixture.bytes()
        let list = XiphTestPackets.oggPages(bytes)
        // Damage the third page, which holds the end of the comment header and the whole setup header:
        // without the codebooks nothing can be decoded, so the stream is skipped with a diagnostic.
        bytes[list[2].offset + list[2].size - 10] ^= 0xFF
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.packets.isEmpty)
        #expect(kinds(log).contains(.checksumMismatch))
    }
}
