import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// `ID3v2Tag.parse` on tags built by hand from the ID3v2.2/2.3/2.4 specifications and the Chapter
/// Frame Addendum; every expected value follows from the bytes written, not from the reader.
@Suite("ID3v2 tag")
struct ID3v2TagTests {
    typealias B = TagBytes

    static func parse(_ bytes: [UInt8], limits: ParserLimits = ParserLimits()) throws -> ID3v2Tag {
        try #require(ID3v2Tag.parse(bytes, limits: limits))
    }
    static func raw(_ tag: ID3v2Tag) -> [String: String] {
        Dictionary(tag.metadata.tags.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: Unsynchronisation

    @Test("2.3 tag-level unsynchronisation: frames and picture bytes restored")
    func tagUnsync23() throws {
        let picture = B.jpeg(300)
        let frames =
            B.frame23("TIT2", B.latin1Text("ÿàÿ")) + B.frame23("APIC", B.apic(mime: "image/jpeg", type: 3, picture))
        let unsynced = B.unsynchronise(frames)
        #expect(unsynced.count > frames.count)
        let tag = try Self.parse(B.tag(3, flags: 0x80, unsynced))
        #expect(tag.metadata.info[InfoKey.title] == "ÿàÿ")
        #expect(tag.metadata.artwork == [AudioMetadata.Artwork(mimeType: "image/jpeg", pictureType: 3, data: picture)])
        #expect(tag.notes.isEmpty)
    }

    @Test("2.2 tag-level unsynchronisation with a PIC frame")
    func tagUnsync22() throws {
        let picture = B.jpeg(200)
        let frames = B.frame22("TT2", B.latin1Text("Two")) + B.frame22("PIC", B.pic(format: "JPG", type: 3, picture))
        let tag = try Self.parse(B.tag(2, flags: 0x80, B.unsynchronise(frames)))
        #expect(tag.metadata.info[InfoKey.title] == "Two")
        #expect(tag.metadata.artwork == [AudioMetadata.Artwork(mimeType: "image/jpeg", pictureType: 3, data: picture)])
    }

    @Test("2.4 frame-level unsynchronisation, with and without a data length indicator, and by the tag flag")
    func frameUnsync24() throws {
        let picture = B.jpeg(64)
        let content = B.apic(mime: "image/jpeg", type: 4, picture)
        let withDLI = B.frame24("APIC", B.syncsafe(content.count) + B.unsynchronise(content), format: 0x03)
        let plain = B.frame24("TIT2", B.unsynchronise(B.latin1Text("ÿà")), format: 0x02)
        let tag = try Self.parse(B.tag(4, withDLI + plain))
        #expect(tag.metadata.artwork.first?.data == picture)
        #expect(tag.metadata.artwork.first?.pictureType == 4)
        #expect(tag.metadata.info[InfoKey.title] == "ÿà")
        // Tag flag 0x80 in 2.4: every frame is unsynchronised even without its own flag.
        let byTag = try Self.parse(B.tag(4, flags: 0x80, B.frame24("TIT2", B.unsynchronise(B.latin1Text("ÿà")))))
        #expect(byTag.metadata.info[InfoKey.title] == "ÿà")
    }

    // MARK: Extended header, footer, consecutive tags

    @Test("extended headers: 2.3 (size excludes itself, with CRC), 2.4 (syncsafe, includes itself, CRC flag data)")
    func extendedHeaders() throws {
        let frames23 = B.frame23("TIT2", B.latin1Text("T3"))
        let ext23 = B.be32(10) + [0x80, 0] + B.be32(0) + B.be32(0x1234_5678)
        #expect(try Self.parse(B.tag(3, flags: 0x40, ext23 + frames23)).metadata.info[InfoKey.title] == "T3")
        // 2.3 extended header inside an unsynchronised tag.
        let unsynced = B.unsynchronise(ext23 + B.frame23("TIT2", B.latin1Text("ÿà")))
        #expect(try Self.parse(B.tag(3, flags: 0xC0, unsynced)).metadata.info[InfoKey.title] == "ÿà")
        // 2.4: size 12 = 4 + 1 (flag bytes) + 1 (flags: CRC 0x20) + 1 (length 5) + 5 (CRC, syncsafe).
        let ext24 = B.syncsafe(12) + [1, 0x20, 5, 0, 0, 0, 0, 1]
        let frames24 = B.frame24("TIT2", B.latin1Text("T4"))
        #expect(try Self.parse(B.tag(4, flags: 0x40, ext24 + frames24)).metadata.info[InfoKey.title] == "T4")
        // A 2.4 extended header size below 6 is invalid: no frames.
        let bad = try Self.parse(B.tag(4, flags: 0x40, B.syncsafe(3) + [1, 0] + frames24))
        #expect(bad.metadata.isEmpty)
        #expect(bad.notes == [DiagnosticNote(.damagedMetadata, "id3v2: invalid extended header; frames not read")])
    }

    @Test("2.4 footer: the tag's byte count includes it; a missing footer is reported")
    func footer() throws {
        let body = B.frame24("TIT2", B.latin1Text("F")) + [0, 0, 0, 0]
        let bytes = B.tagWithFooter(body)
        let tag = try Self.parse(bytes + [0xFF, 0xFB])
        #expect(tag.byteCount == 10 + body.count + 10)
        #expect(tag.byteCount == bytes.count)
        #expect(tag.metadata.info[InfoKey.title] == "F")
        #expect(tag.notes.isEmpty)
        let noFooter = B.tag(4, flags: 0x10, body) + [UInt8](repeating: 0x55, count: 10)
        let broken = try Self.parse(noFooter)
        #expect(broken.byteCount == 10 + body.count)
        #expect(
            broken.notes == [
                DiagnosticNote(.damagedMetadata, "id3v2: footer flag set but no '3DI' footer follows the tag")
            ])
    }

    @Test("consecutive tags: each one's byteCount leads to the next")
    func consecutive() throws {
        let first = B.tag(3, B.frame23("TIT2", B.latin1Text("First")) + [0, 0, 0])
        let second = B.tagWithFooter(B.frame24("TPE1", B.latin1Text("Second")))
        let tags = ID3v2Tag.parseConsecutive(first + second + [0xFF, 0xFB, 0x90, 0x00])
        #expect(tags.map(\.byteCount) == [first.count, second.count])
        #expect(tags.map { $0.metadata.tags.map(\.value) } == [["First"], ["Second"]])
        #expect(ID3v2Tag.declaredByteCount(second) == second.count)
    }

    // MARK: 2.4 frame sizes

    @Test("2.4 tag written with plain sizes (iTunes): detected from the first ambiguous frame on")
    func plainSizes() throws {
        // 300 = 00 00 01 2C: syncsafe reads 172, which lands inside the text.
        let long = String(repeating: "t", count: 299)
        let tag = try Self.parse(
            B.tag(
                4,
                B.frame24("TIT2", B.latin1Text(long), plainSize: true)
                    + B.frame24("TPE1", B.latin1Text("A"), plainSize: true)
                    // 200 = 00 00 00 C8: a top bit set, plain for certain.
                    + B.frame24("TALB", B.latin1Text(String(repeating: "b", count: 199)), plainSize: true)
                    // 129: ambiguous again; the tag is known to be plain now.
                    + B.frame24("TCOM", B.latin1Text(String(repeating: "c", count: 128)), plainSize: true)
                    + [0, 0, 0, 0]))
        #expect(tag.metadata.tags.map(\.key) == ["TIT2", "TPE1", "TALB", "TCOM"])
        #expect(tag.metadata.info[InfoKey.title] == long)
        #expect(tag.metadata.info[InfoKey.composer]?.count == 128)
        #expect(tag.notes.isEmpty)
    }

    @Test("2.4 syncsafe sizes that also read as a valid plain size keep the syncsafe reading")
    func syncsafeWins() throws {
        let long = String(repeating: "x", count: 199)
        let tag = try Self.parse(
            B.tag(4, B.frame24("TIT2", B.latin1Text(long)) + B.frame24("TIT3", B.latin1Text("S")) + [0, 0]))
        #expect(tag.metadata.info == [InfoKey.title: long, InfoKey.subTitle: "S"])
    }

    // MARK: Text

    @Test("all four encodings, several values, the info keys of every mapped text frame")
    func textFrames() throws {
        let frames =
            B.frame24("TIT2", B.text(1, [0xFF, 0xFE] + B.utf16LE("Tïtle")))
            + B.frame24(
                "TPE1", B.text(1, [0xFE, 0xFF] + B.utf16BE("Ärtist") + [0, 0] + [0xFF, 0xFE] + B.utf16LE("Two")))
            + B.frame24("TALB", B.text(2, B.utf16BE("Älbum")))
            + B.frame24("TRCK", B.text(3, B.utf8("3/12")))
            + B.frame24("TDRC", B.text(3, B.utf8("2024-05-06T10:00")))
            + B.frame24("TCOM", B.text(3, B.utf8("Cömposer")))
            + B.frame24("TEXT", B.latin1Text("Lyricist"))
            + B.frame24("TCOP", B.latin1Text("2024 Someone"))
            + B.frame24("TSSE", B.latin1Text("LAME 3.100"))
            + B.frame24("TENC", B.latin1Text("Encoded by"))
            + B.frame24("TSRC", B.latin1Text("USABC2400001"))
            + B.frame24("TBPM", B.latin1Text("120"))
            + B.frame24("TIT3", B.latin1Text("Sub"))
            + B.frame24("TKEY", B.latin1Text("Am"))
            + B.frame24("TCON", B.latin1Text("13"))
            + B.frame24("TPE2", B.latin1Text("Album Artist"))
        let tag = try Self.parse(B.tag(4, frames))
        #expect(
            tag.metadata.info == [
                InfoKey.title: "Tïtle", InfoKey.artist: "Ärtist; Two", InfoKey.album: "Älbum",
                InfoKey.trackNumber: "3/12", InfoKey.year: "2024", InfoKey.recordedDate: "2024-05-06T10:00",
                InfoKey.composer: "Cömposer", InfoKey.lyricist: "Lyricist", InfoKey.copyright: "2024 Someone",
                InfoKey.encodingApplication: "LAME 3.100", InfoKey.sourceEncoder: "Encoded by",
                InfoKey.isrc: "USABC2400001", InfoKey.tempo: "120", InfoKey.subTitle: "Sub",
                InfoKey.keySignature: "Am", InfoKey.genre: "Pop",
            ])
        #expect(Self.raw(tag)["TCON"] == "13")
        #expect(Self.raw(tag)["TPE2"] == "Album Artist")
        #expect(tag.metadata.tags.allSatisfy { $0.source == "id3v2" })
    }

    @Test("2.3 TYER and TDAT (DDMM) give the recorded date; an unknown encoding is reported")
    func yearAndDate23() throws {
        let tag = try Self.parse(
            B.tag(
                3,
                B.frame23("TYER", B.latin1Text("1999")) + B.frame23("TDAT", B.latin1Text("3112"))
                    + B.frame23("TIT2", B.text(7, B.latin1("?")))))
        #expect(tag.metadata.info == [InfoKey.year: "1999", InfoKey.recordedDate: "1999-12-31"])
        #expect(tag.notes == [DiagnosticNote(.damagedMetadata, "id3v2 (TIT2): unknown text encoding 7; frame ignored")])
    }

    @Test(
        "genre references resolve to ID3v1 names",
        arguments: [
            ("(13)", "Pop"), ("13", "Pop"), ("(17)(6)", "Rock; Grunge"), ("(4)Eurodisco", "Disco; Eurodisco"),
            ("(17)Rock", "Rock"), ("((Ancient) music", "(Ancient) music"), ("(RX)", "Remix"), ("CR", "Cover"),
            ("(CR)(RX)", "Cover; Remix"), ("Jazz", "Jazz"), ("(250)", "(250)"), ("191", "Psybient"),
            ("(80)", "Folk"), ("Pop\u{0}(31)", "Pop; Trance"),
        ])
    func genres(_ value: String, _ expected: String) throws {
        let tag = try Self.parse(B.tag(4, B.frame24("TCON", B.text(3, B.utf8(value)))))
        #expect(tag.metadata.info[InfoKey.genre] == expected)
    }

    @Test("the genre table has the 192 Winamp genres")
    func genreTable() {
        #expect(ID3v1Genre.names.count == 192)
        #expect(ID3v1Genre.name(0) == "Blues")
        #expect(ID3v1Genre.name(17) == "Rock")
        #expect(ID3v1Genre.name(79) == "Hard Rock")
        #expect(ID3v1Genre.name(80) == "Folk")
        #expect(ID3v1Genre.name(125) == "Dance Hall")
        #expect(ID3v1Genre.name(147) == "Synthpop")
        #expect(ID3v1Genre.name(148) == "Abstract")
        #expect(ID3v1Genre.name(191) == "Psybient")
        #expect(ID3v1Genre.name(192) == nil)
        #expect(ID3v1Genre.name(255) == nil)
    }

    @Test("TXXX, COMM, USLT, WXXX, W***, PRIV, UFID keep descriptions and owners in their keys")
    func describedFrames() throws {
        let frames =
            B.frame23("TXXX", B.latin1Text("MusicBrainz Album Id\u{0}abc-123"))
            + B.frame23(
                "TXXX", B.text(1, [0xFF, 0xFE] + B.utf16LE("MOOD") + [0, 0] + [0xFF, 0xFE] + B.utf16LE("calm")))
            + B.frame23("COMM", B.comment("iTunSMPB", " 00000000 00000210"))
            + B.frame23("COMM", B.comment("", "Plain comment"))
            + B.frame23("USLT", B.comment("", "Line one\nLine two"))
            + B.frame23("USLT", B.comment("Verse", "La la"))
            + B.frame23("WXXX", B.latin1Text("Home\u{0}https://example.org/"))
            + B.frame23("WOAR", B.latin1("https://example.org/artist"))
            + B.frame23(
                "PRIV",
                B.latin1("com.apple.streaming.transportStreamTimestamp") + [0] + [0, 0, 0, 0, 0, 0x01, 0x5F, 0x90])
            + B.frame23("UFID", B.latin1("http://musicbrainz.org") + [0] + B.latin1("0123-abcd"))
            + B.frame23("MCDI", [0x00, 0x12, 0x01])
        let tag = try Self.parse(B.tag(3, frames))
        #expect(
            tag.metadata.tags.map { "\($0.key)=\($0.value)" } == [
                "TXXX:MusicBrainz Album Id=abc-123", "TXXX:MOOD=calm", "COMM:iTunSMPB= 00000000 00000210",
                "COMM=Plain comment", "USLT=Line one\nLine two", "USLT:Verse=La la", "WXXX:Home=https://example.org/",
                "WOAR=https://example.org/artist",
                "PRIV:com.apple.streaming.transportStreamTimestamp=0000000000015f90",
                "UFID:http://musicbrainz.org=0123-abcd", "MCDI=001201",
            ])
        #expect(tag.metadata.info == [InfoKey.comments: "Plain comment"])
    }

    // MARK: Pictures

    @Test(
        "APIC under the artwork limit is kept; over it, dropped with a diagnostic; over the frame bound, skipped unread"
    )
    func artworkLimits() throws {
        let small = B.jpeg(500)
        let big = B.jpeg(3000)
        let bytes = B.tag(
            3,
            B.frame23("APIC", B.apic(mime: "image/jpeg", type: 3, description: "front", small))
                + B.frame23("APIC", B.apic(mime: "image/png", type: 4, big))
                + B.frame23("TIT2", B.latin1Text("After")))
        let all = try Self.parse(bytes)
        #expect(all.metadata.artwork.map(\.data) == [small, big])
        #expect(all.metadata.artwork.map(\.pictureType) == [3, 4])
        #expect(all.metadata.artwork.map(\.mimeType) == ["image/jpeg", "image/png"])

        let limited = try Self.parse(bytes, limits: ParserLimits(maxArtworkBytes: 1000))
        #expect(limited.metadata.artwork.map(\.data) == [small])
        #expect(limited.metadata.info[InfoKey.title] == "After")
        #expect(
            limited.notes == [
                DiagnosticNote(
                    .limitExceeded, "id3v2 (APIC): picture of 3000 bytes exceeds maxArtworkBytes (1000); skipped")
            ])

        // Frame bodies over maxArtworkBytes + 4096 are not even read.
        let huge = B.jpeg(10_000)
        let hugeTag = try Self.parse(
            B.tag(
                3, B.frame23("APIC", B.apic(mime: "image/jpeg", type: 3, huge)) + B.frame23("TIT2", B.latin1Text("T"))),
            limits: ParserLimits(maxArtworkBytes: 1000))
        #expect(hugeTag.metadata.artwork.isEmpty)
        #expect(hugeTag.metadata.info[InfoKey.title] == "T")
        #expect(
            hugeTag.notes == [
                DiagnosticNote(
                    .limitExceeded,
                    "id3v2 (APIC): frame of \(huge.count + 14) bytes exceeds maxArtworkBytes; skipped unread")
            ])
    }

    @Test("picture MIME types: 2.2 formats, empty (sniffed), image/jpg, a link")
    func pictureTypes() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let v22 = try Self.parse(B.tag(2, B.frame22("PIC", B.pic(format: "PNG", type: 0, png))))
        #expect(v22.metadata.artwork == [AudioMetadata.Artwork(mimeType: "image/png", pictureType: 0, data: png)])
        let tag = try Self.parse(
            B.tag(
                3,
                B.frame23("APIC", B.apic(mime: "", type: 3, png))
                    + B.frame23("APIC", B.apic(mime: "image/jpg", type: 3, B.jpeg(8)))
                    + B.frame23("APIC", B.apic(mime: "-->", type: 3, B.latin1("http://example.org/c.jpg")))))
        #expect(tag.metadata.artwork.map(\.mimeType) == ["image/png", "image/jpeg"])
        #expect(Self.raw(tag)["APIC"] == "--> http://example.org/c.jpg")
        #expect(
            tag.notes == [
                DiagnosticNote(.unsupportedFeature, "id3v2 (APIC): picture is a link, not an image; kept as a raw tag")
            ])
    }

    // MARK: Chapters

    @Test("CHAP/CTOC (2.4): chapters sorted by start, titles from embedded TIT2, element ID when there is none")
    func chapters24() throws {
        let frames =
            B.frame24(
                "CTOC", B.ctoc("toc", flags: 0x03, ["ch0", "ch1", "ch2"], B.frame24("TIT2", B.latin1Text("Contents"))))
            + B.frame24(
                "CHAP", B.chap("ch2", start: 20_000, end: 30_500, B.frame24("TIT2", B.text(3, B.utf8("Thïrd")))))
            + B.frame24("CHAP", B.chap("ch0", start: 0, end: 10_000, B.frame24("TIT2", B.latin1Text("First"))))
            + B.frame24(
                "CHAP",
                B.chap("ch1", start: 10_000, end: 20_000, B.frame24("TIT3", B.latin1Text("x")) + B.frame24("APIC", [0]))
            )
        let tag = try Self.parse(B.tag(4, frames))
        #expect(
            tag.metadata.chapters == [
                AudioMetadata.Chapter(title: "First", startSeconds: 0, endSeconds: 10),
                AudioMetadata.Chapter(title: "ch1", startSeconds: 10, endSeconds: 20),
                AudioMetadata.Chapter(title: "Thïrd", startSeconds: 20, endSeconds: 30.5),
            ])
        #expect(tag.notes.isEmpty)
    }

    @Test("CHAP (2.3) with equal starts follows the CTOC order")
    func chapters23() throws {
        let frames =
            B.frame23("CHAP", B.chap("b", start: 0, end: 0, B.frame23("TIT2", B.latin1Text("B"))))
            + B.frame23("CHAP", B.chap("a", start: 0, end: 0, B.frame23("TIT2", B.latin1Text("A"))))
            + B.frame23("CTOC", B.ctoc("toc", flags: 0x03, ["a", "b"]))
        let tag = try Self.parse(B.tag(3, frames))
        #expect(tag.metadata.chapters.map(\.title) == ["A", "B"])
    }

    // MARK: Frame flags, compressed tags, limits

    @Test("compressed and encrypted frames are kept raw (hex) with a diagnostic; grouping bytes are dropped")
    func frameFlags() throws {
        let tag23 = try Self.parse(
            B.tag(
                3,
                B.frame23("TIT2", B.be32(10) + [0x78, 0x9C], format: 0x80)
                    + B.frame23("TPE1", [0x80, 0x41], format: 0x40)
                    + B.frame23("TALB", [0x07] + B.latin1Text("G"), format: 0x20)))
        #expect(tag23.metadata.tags.map { "\($0.key)=\($0.value)" } == ["TIT2=0000000a789c", "TPE1=8041", "TALB=G"])
        #expect(tag23.metadata.info == [InfoKey.album: "G"])
        #expect(
            tag23.notes == [
                DiagnosticNote(
                    .unsupportedFeature,
                    "id3v2 (TIT2): compressed (zlib) frame of 6 bytes kept raw (hex), not decoded"),
                DiagnosticNote(
                    .unsupportedFeature, "id3v2 (TPE1): encrypted frame of 2 bytes kept raw (hex), not decoded"),
            ])
        let tag24 = try Self.parse(
            B.tag(
                4,
                B.frame24("TIT2", B.syncsafe(10) + [0x78, 0x9C], format: 0x09)
                    + B.frame24("TALB", [0x07] + B.text(3, B.utf8("G")), format: 0x40)))
        #expect(tag24.metadata.tags.map { "\($0.key)=\($0.value)" } == ["TIT2=0000000a789c", "TALB=G"])
        #expect(tag24.notes.map(\.kind) == [.unsupportedFeature])
    }

    @Test("a compressed 2.2 tag is ignored; a frame over maxTagBytes is skipped and the next one read")
    func tagLevelLimits() throws {
        let compressed = try Self.parse(B.tag(2, flags: 0x40, B.frame22("TT2", B.latin1Text("A"))))
        #expect(compressed.metadata.isEmpty)
        #expect(
            compressed.notes == [
                DiagnosticNote(
                    .unsupportedFeature, "id3v2: ID3v2.2.0 tag is compressed (no scheme was defined); ignored")
            ])
        let tag = try Self.parse(
            B.tag(
                3,
                B.frame23("TXXX", B.latin1Text("big\u{0}" + String(repeating: "z", count: 200)))
                    + B.frame23("TIT2", B.latin1Text("T"))),
            limits: ParserLimits(maxTagBytes: 100))
        #expect(tag.metadata.tags.map(\.key) == ["TIT2"])
        #expect(
            tag.notes == [
                DiagnosticNote(.limitExceeded, "id3v2 (TXXX): frame of 205 bytes exceeds maxTagBytes; skipped unread")
            ])
    }

    @Test("a frame overrunning the tag, garbage after the frames, a truncated tag: reported, earlier frames kept")
    func malformedFrames() throws {
        let overrun = try Self.parse(
            B.tag(3, B.frame23("TIT2", B.latin1Text("A")) + B.frame23("TPE1", B.latin1Text("B"), size: 500)))
        #expect(overrun.metadata.info == [InfoKey.title: "A"])
        #expect(
            overrun.notes == [
                DiagnosticNote(
                    .damagedMetadata,
                    "id3v2 (TPE1): frame of 500 bytes overruns the tag (2 left); the rest of the tag is ignored")
            ])
        let garbage = try Self.parse(B.tag(3, B.frame23("TIT2", B.latin1Text("A")) + B.latin1("xyz!garbage")))
        #expect(
            garbage.notes == [
                DiagnosticNote(
                    .damagedMetadata,
                    "id3v2: 'xyz!' is not a frame ID at offset 12 of the tag body; the rest is ignored")
            ])
        let full = B.tag(4, B.frame24("TIT2", B.latin1Text("A")) + B.frame24("TPE1", B.latin1Text("B")))
        let cut = try Self.parse(Array(full.dropLast(1)))
        #expect(cut.metadata.info == [InfoKey.title: "A"])
        #expect(
            cut.notes.first
                == DiagnosticNote(
                    .damagedMetadata, "id3v2: tag declares 24 bytes after its header but only 23 are present"))
    }

    @Test("not a tag: nil")
    func notATag() {
        #expect(ID3v2Tag.parse([]) == nil)
        #expect(ID3v2Tag.parse(Array("ID3".utf8) + [3, 0, 0, 0, 0, 0]) == nil)
        #expect(ID3v2Tag.parse(Array("ID3".utf8) + [3, 0, 0, 0x80, 0, 0, 0]) == nil)
        #expect(ID3v2Tag.parse(Array("ID3".utf8) + [5, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(ID3v2Tag.parse(Array("ID3".utf8) + [3, 0xFF, 0, 0, 0, 0, 0]) == nil)
    }

    // MARK: Robustness

    /// A tag exercising most features, for truncation and mutation runs.
    static func richTags() -> [[UInt8]] {
        let sub24 = B.frame24("TIT2", B.latin1Text("Chapter"))
        let v24 =
            B.frame24("TIT2", B.text(1, [0xFF, 0xFE] + B.utf16LE("Title")))
            + B.frame24(
                "APIC", B.syncsafe(40) + B.unsynchronise(B.apic(mime: "image/jpeg", type: 3, B.jpeg(26))), format: 0x03)
            + B.frame24("CTOC", B.ctoc("toc", flags: 3, ["c"]))
            + B.frame24("CHAP", B.chap("c", start: 0, end: 5, sub24))
            + B.frame24("TXXX", B.text(3, B.utf8("k\u{0}v"))) + B.frame24("COMM", B.comment("d", "c"))
            + B.frame24("TCON", B.latin1Text("(13)Pop")) + [0, 0, 0]
        let v23 =
            B.unsynchronise(
                B.be32(6) + [0, 0] + B.be32(0) + B.frame23("TIT2", B.latin1Text("ÿàÿ"))
                    + B.frame23("APIC", B.apic(mime: "image/jpeg", type: 3, B.jpeg(40)))
                    + B.frame23("CHAP", B.chap("c", start: 1, end: 2, B.frame23("TIT2", B.latin1Text("C")))))
        let v22 =
            B.frame22("TT2", B.latin1Text("T")) + B.frame22("PIC", B.pic(format: "JPG", type: 3, B.jpeg(20)))
            + B.frame22("COM", B.comment("", "x"))
        return [
            B.tagWithFooter(v24), B.tag(4, flags: 0x40, B.syncsafe(6) + [1, 0] + v24),
            B.tag(3, flags: 0xC0, v23), B.tag(2, v22), B.tag(2, flags: 0x80, B.unsynchronise(v22)),
        ]
    }

    @Test("every prefix of a valid tag parses without trapping and keeps the frames it holds whole")
    func truncationNeverTraps() throws {
        for tag in Self.richTags() {
            let full = try Self.parse(tag)
            #expect(!full.metadata.isEmpty)
            for n in 0..<tag.count {
                let partial = ID3v2Tag.parse(Array(tag.prefix(n)))
                if n < 10 {
                    #expect(partial == nil)
                } else {
                    let tags = partial?.metadata.tags ?? []
                    #expect(tags.count <= full.metadata.tags.count)
                }
            }
        }
    }

    @Test("random and mutated tags never trap")
    func randomNeverTraps() {
        var rng = SplitMix64(seed: 0x1D3)
        let seeds = Self.richTags()
        for round in 0..<4000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = seeds[Int(rng.next() % UInt64(seeds.count))]
                for _ in 0..<(1 + rng.next() % 6) {
                    let i = Int(rng.next() % UInt64(bytes.count))
                    bytes[i] = UInt8(truncatingIfNeeded: rng.next())
                }
            } else {
                let count = Int(rng.next() % 120)
                var body = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                let ids = ["TIT2", "APIC", "CHAP", "CTOC", "COMM", "TXXX", "PRIV", "USLT", "TCON"]
                if count >= 4 { body.replaceSubrange(0..<4, with: Array(ids[Int(rng.next() % 9)].utf8)) }
                bytes = B.tag(UInt8(2 + rng.next() % 3), flags: UInt8(truncatingIfNeeded: rng.next()), body)
            }
            _ = ID3v2Tag.parse(bytes, limits: ParserLimits(maxTagBytes: 64, maxArtworkBytes: 16))
            _ = ID3v2Tag.parse(bytes)
        }
    }
}
