import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// ID3v1/1.1, TAG+, APEv1/APEv2 and the trailing-tag locator on tags built by hand from their
/// specifications.
@Suite("Trailing tags")
struct TrailingTagTests {
    typealias B = TagBytes

    // MARK: ID3v1

    @Test("ID3v1.1: track in byte 126, Latin-1, trailing spaces and NULs trimmed, genre name")
    func id3v11() throws {
        let bytes = B.id3v1(
            title: "Títle  ", artist: "Artist", album: "Album", year: "2001", comment: "Comment", track: 7, genre: 17)
        #expect(bytes.count == 128)
        let tag = try #require(ID3v1Tag.parse(bytes))
        #expect(tag.title == "Títle")
        #expect(tag.track == 7)
        #expect(
            tag.metadata.info == [
                InfoKey.title: "Títle", InfoKey.artist: "Artist", InfoKey.album: "Album", InfoKey.year: "2001",
                InfoKey.comments: "Comment", InfoKey.trackNumber: "7", InfoKey.genre: "Rock",
            ])
        #expect(tag.metadata.tags.map(\.key) == ["title", "artist", "album", "year", "comment", "track", "genre"])
        #expect(tag.metadata.tags.allSatisfy { $0.source == "id3v1" })
    }

    @Test("ID3v1.0: a 30-byte comment, space padding, genre 255 = none, unknown genre kept raw")
    func id3v10() throws {
        let comment = String(repeating: "c", count: 30)
        let tag = try #require(ID3v1Tag.parse(B.id3v1(title: "T", comment: comment, genre: 255, pad: 0x20)))
        #expect(tag.track == nil)
        #expect(tag.comment == comment)
        #expect(tag.metadata.info == [InfoKey.title: "T", InfoKey.comments: comment])
        let unknown = try #require(ID3v1Tag.parse(B.id3v1(title: "T", genre: 200)))
        #expect(unknown.metadata.info[InfoKey.genre] == nil)
        #expect(unknown.metadata.tags.last == AudioMetadata.Tag(source: "id3v1", key: "genre", value: "200"))
        #expect(ID3v1Tag.parse(Array(repeating: 0x41, count: 128)) == nil)
        #expect(ID3v1Tag.parse(Array("TAG".utf8)) == nil)
    }

    @Test("TAG+ continues title, artist and album, and adds speed, free-text genre and times")
    func enhanced() throws {
        let v1 = B.id3v1(title: String(repeating: "a", count: 30), artist: "Art", genre: 13)
        var plus = Array("TAG+".utf8)
        plus += Array((B.latin1("bcd") + [UInt8](repeating: 0, count: 60)).prefix(60))
        plus += [UInt8](repeating: 0, count: 120) + [2]
        plus += Array((B.latin1("Trip Rock") + [UInt8](repeating: 0, count: 30)).prefix(30))
        plus += B.latin1("001:30") + B.latin1("004:05")
        #expect(plus.count == 227)
        let tag = try #require(ID3v1Tag.parse(plus + v1))
        #expect(tag.title == String(repeating: "a", count: 30) + "bcd")
        #expect(tag.artist == "Art")
        #expect(tag.enhanced == ID3v1Tag.Enhanced(speed: 2, genre: "Trip Rock", startTime: "001:30", endTime: "004:05"))
        #expect(tag.metadata.info[InfoKey.genre] == "Trip Rock")
    }

    // MARK: APE

    static let cover: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
    static let apeItems: [[UInt8]] = [
        B.apeItem("Title", B.utf8("Tïtle")), B.apeItem("ARTIST", B.utf8("One\u{0}Two")),
        B.apeItem("Album", B.utf8("Al")),
        B.apeItem("Year", B.utf8("2002")), B.apeItem("Track", B.utf8("4/9")), B.apeItem("Genre", B.utf8("Jazz")),
        B.apeItem("Comment", B.utf8("Cmt")), B.apeItem("Composer", B.utf8("Comp")), B.apeItem("Copyright", B.utf8("C")),
        B.apeItem("Cover Art (Front)", B.utf8("cover.png") + [0] + cover, kind: 1),
        B.apeItem("Cover Art (Back)", B.utf8("back") + [0] + [0xFF, 0xD8, 0xFF, 0xE0], kind: 1),
        B.apeItem("Related", B.utf8("http://example.org"), kind: 2), B.apeItem("Blob", [0, 1, 0xFE], kind: 1),
        B.apeItem("MUSICBRAINZ_TRACKID", B.utf8("abc")),
    ]

    @Test("APEv2 with and without header: text items, info keys, covers, locators, binary")
    func apev2() throws {
        for header in [true, false] {
            let bytes = B.ape(Self.apeItems, header: header)
            let tag = try #require(APEv2Tag.parse(bytes))
            #expect(tag.header.version == 2000)
            #expect(tag.header.itemCount == 14)
            #expect(tag.header.hasHeader == header)
            #expect(tag.header.totalByteCount == bytes.count)
            #expect(tag.notes.isEmpty)
            #expect(
                tag.metadata.info == [
                    InfoKey.title: "Tïtle", InfoKey.artist: "One; Two", InfoKey.album: "Al", InfoKey.year: "2002",
                    InfoKey.trackNumber: "4/9", InfoKey.genre: "Jazz", InfoKey.comments: "Cmt",
                    InfoKey.composer: "Comp", InfoKey.copyright: "C",
                ])
            #expect(
                tag.metadata.artwork == [
                    AudioMetadata.Artwork(mimeType: "image/png", pictureType: 3, data: Self.cover),
                    AudioMetadata.Artwork(mimeType: "image/jpeg", pictureType: 4, data: [0xFF, 0xD8, 0xFF, 0xE0]),
                ])
            let raw = Dictionary(tag.metadata.tags.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
            #expect(raw["Related"] == "http://example.org")
            #expect(raw["Blob"] == "0001fe")
            #expect(raw["MUSICBRAINZ_TRACKID"] == "abc")
            #expect(tag.metadata.tags.allSatisfy { $0.source == "ape" })
            // A tag starting with its header, parsed from the front (the footer may follow or not).
            if header {
                let front = try #require(APEv2Tag.parse(Array(bytes.dropLast(32))))
                #expect(front.metadata.info[InfoKey.title] == "Tïtle")
            }
        }
    }

    @Test("APEv1: no header, every value text")
    func apev1() throws {
        let tag = try #require(
            APEv2Tag.parse(B.ape([B.apeItem("Title", B.utf8("Old"), kind: 1)], header: false, version: 1000)))
        #expect(tag.metadata.info == [InfoKey.title: "Old"])
        #expect(tag.notes.isEmpty)
    }

    @Test("APE: an unknown version is read as APEv2, with an unsupportedFeature diagnostic")
    func apeUnknownVersion() throws {
        let tag = try #require(APEv2Tag.parse(B.ape([B.apeItem("Title", B.utf8("New"))], header: true, version: 3000)))
        #expect(tag.metadata.info == [InfoKey.title: "New"])
        #expect(tag.notes == [DiagnosticNote(.unsupportedFeature, "ape: unknown version 3000; read as APEv2")])
    }

    @Test("APE bounds: sizes and counts checked against the tag; over the limits; never traps")
    func apeBounds() throws {
        let good = B.ape(Self.apeItems, header: true)
        // An item claiming more bytes than the tag has.
        var overrun = B.ape([B.apeItem("Title", B.utf8("A")), B.apeItem("Artist", B.utf8("B"))], header: false)
        overrun.replaceSubrange(15..<19, with: B.le32(0x7FFF_FFFF))  // item 2 starts at 4 + 4 + 6 + 1 = 15
        let o = try #require(APEv2Tag.parse(overrun))
        #expect(o.metadata.info == [InfoKey.title: "A"])
        #expect(
            o.notes == [
                DiagnosticNote(
                    .damagedMetadata, "ape: item 'Artist' of 2147483647 bytes overruns the tag; the rest is ignored")
            ])
        // A count far above what fits.
        var counted = B.ape([B.apeItem("Title", B.utf8("A"))], header: false)
        counted.replaceSubrange((counted.count - 16)..<(counted.count - 12), with: B.le32(1_000_000))
        let c = try #require(APEv2Tag.parse(counted))
        #expect(c.metadata.info == [InfoKey.title: "A"])
        #expect(
            c.notes.map(\.message) == [
                "ape: 1000000 items cannot fit in \(counted.count - 32) bytes; reading what fits",
                "ape: tag ends after 1 of 1000000 items",
            ])
        #expect(c.notes.map(\.kind) == [.damagedMetadata, .damagedMetadata])
        // A tag size larger than the bytes given.
        var sized = B.ape([B.apeItem("Title", B.utf8("A"))], header: false)
        sized.replaceSubrange((sized.count - 20)..<(sized.count - 16), with: B.le32(0xFFFF_FFF0))
        let s = try #require(APEv2Tag.parse(sized))
        #expect(s.metadata.isEmpty)
        #expect(s.notes.map(\.kind) == [.damagedMetadata])
        // Limits.
        let limited = try #require(APEv2Tag.parse(good, limits: ParserLimits(maxTagBytes: 100)))
        #expect(limited.metadata.isEmpty)
        #expect(limited.notes.map(\.kind) == [.limitExceeded])
        let noArt = try #require(APEv2Tag.parse(good, limits: ParserLimits(maxArtworkBytes: 5)))
        #expect(noArt.metadata.artwork.count == 1)
        #expect(
            noArt.notes == [
                DiagnosticNote(
                    .limitExceeded, "ape (Cover Art (Front)): picture of 7 bytes exceeds maxArtworkBytes (5); skipped")
            ])
        #expect(APEv2Tag.parse(Array("APETAGEX".utf8)) == nil)
        // Every truncation from the front and the back, and mutations.
        for n in 0...good.count {
            _ = APEv2Tag.parse(Array(good.prefix(n)))
            _ = APEv2Tag.parse(Array(good.suffix(n)))
        }
        var rng = SplitMix64(seed: 0xA9E)
        for _ in 0..<3000 {
            var bytes = good
            for _ in 0..<(1 + rng.next() % 8) {
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            _ = APEv2Tag.parse(bytes)
            _ = APEv2Tag.parse(Array(bytes.suffix(Int(rng.next() % UInt64(bytes.count)))))
        }
    }

    // MARK: Locator

    @Test("locate: APE before Lyrics3v2 before TAG+ before ID3v1, in the last bytes of a stream")
    func locate() throws {
        let audio = [UInt8](repeating: 0x11, count: 50)
        let ape = B.ape([B.apeItem("Title", B.utf8("A"))], header: true)
        let lyricsBody = B.latin1("LYRICSBEGININD00003110")
        let lyrics = lyricsBody + B.latin1(String(format6(lyricsBody.count))) + B.latin1("LYRICS200")
        var plus = Array("TAG+".utf8) + [UInt8](repeating: 0, count: 223)
        plus[4] = 0x41
        let v1 = B.id3v1(title: "V1")
        let bytes = audio + ape + lyrics + plus + v1
        let layout = TrailingTagLocator.locate(in: bytes)
        let apeStart = audio.count
        let lyricsStart = apeStart + ape.count
        let v1Start = lyricsStart + lyrics.count
        #expect(layout.ape == apeStart..<lyricsStart)
        #expect(layout.lyrics3 == lyricsStart..<v1Start)
        #expect(layout.id3v1 == v1Start..<bytes.count)
        #expect(layout.id3v2 == nil)
        #expect(layout.start == audio.count)
        let v1Range = try #require(layout.id3v1)
        let apeRange = try #require(layout.ape)
        let id3v1 = try #require(ID3v1Tag.parse(bytes[v1Range]))
        #expect(id3v1.title == "V1A")
        let apeTag = try #require(APEv2Tag.parse(bytes[apeRange]))
        #expect(apeTag.metadata.info == [InfoKey.title: "A"])

        // Only the end of the APE tag held: a negative lower bound.
        let tail = Array(bytes.suffix(v1.count + plus.count + lyrics.count + 40))
        let partial = TrailingTagLocator.locate(in: tail)
        #expect(partial.ape.map { $0.lowerBound < 0 } == true)
        #expect(partial.ape?.upperBound == 40)

        // An appended ID3v2.4 tag with footer, then ID3v1.
        let appended = B.tagWithFooter(B.frame24("TIT2", B.latin1Text("End")))
        let withV2 = audio + appended + v1
        let v2Layout = TrailingTagLocator.locate(in: withV2)
        #expect(v2Layout.id3v2 == audio.count..<(audio.count + appended.count))
        #expect(v2Layout.id3v1 == (audio.count + appended.count)..<withV2.count)

        // Nothing: audio only; and short inputs.
        #expect(TrailingTagLocator.locate(in: audio) == TrailingTagLayout(start: audio.count))
        for n in 0..<bytes.count { _ = TrailingTagLocator.locate(in: Array(bytes.suffix(n))) }
    }

    private func format6(_ n: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, 6 - s.count)) + s
    }
}
