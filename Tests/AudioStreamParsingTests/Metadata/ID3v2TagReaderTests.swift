import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// ID3v2 tags built by hand from the ID3v2.2, 2.3 and 2.4 specifications (id3.org); expected values
/// follow from the specifications, not from the reader.
@Suite("ID3v2 tag reader")
struct ID3v2TagReaderTests {
    typealias Entry = ID3v2TagReader.Entry

    // MARK: Builders

    /// A 28-bit syncsafe integer (2.4 §6.2).
    static func syncsafe(_ n: Int) -> [UInt8] {
        [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)]
    }
    static func be32(_ n: Int) -> [UInt8] {
        [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
    }

    /// "ID3", version, revision 0, flags, syncsafe size, body.
    static func tag(_ version: UInt8, flags: UInt8 = 0, _ body: [UInt8]) -> [UInt8] {
        Array("ID3".utf8) + [version, 0, flags] + syncsafe(body.count) + body
    }
    static func frame22(_ id: String, _ content: [UInt8]) -> [UInt8] {
        Array(id.utf8) + Array(be32(content.count).suffix(3)) + content
    }
    static func frame23(_ id: String, _ content: [UInt8], format: UInt8 = 0, size: Int? = nil) -> [UInt8] {
        Array(id.utf8) + be32(size ?? content.count) + [0, format] + content
    }
    static func frame24(_ id: String, _ content: [UInt8], format: UInt8 = 0, plainSize: Bool = false) -> [UInt8] {
        Array(id.utf8) + (plainSize ? be32(content.count) : syncsafe(content.count)) + [0, format] + content
    }
    /// A text frame body: encoding byte, then the bytes.
    static func text(_ encoding: UInt8, _ bytes: [UInt8]) -> [UInt8] { [encoding] + bytes }
    static func latin1(_ s: String) -> [UInt8] { s.unicodeScalars.map { UInt8($0.value) } }
    static func utf16LE(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
    static func utf16BE(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

    static func entry(_ key: String, _ value: String, _ infoKey: InfoKey?, infoValue: String? = nil) -> Entry {
        Entry(tag: AudioMetadata.Tag(source: "id3v2", key: key, value: value), infoKey: infoKey, infoValue: infoValue)
    }

    // MARK: Versions and frame headers

    @Test("2.3: Latin-1 text frames with plain 32-bit sizes")
    func version23() {
        let tag = Self.tag(
            3,
            Self.frame23("TIT2", Self.text(0, Self.latin1("Café\0")))
                + Self.frame23("TPE1", Self.text(0, Self.latin1("Artist")))
                + Self.frame23("TALB", Self.text(0, Self.latin1("Album"))) + [UInt8](repeating: 0, count: 20))
        #expect(
            ID3v2TagReader.read(tag) == [
                Self.entry("TIT2", "Café", InfoKey.title), Self.entry("TPE1", "Artist", InfoKey.artist),
                Self.entry("TALB", "Album", InfoKey.album),
            ])
    }

    @Test("2.4: UTF-8, several values joined with \"; \", TDRC gives the year")
    func version24() {
        let tag = Self.tag(
            4,
            Self.frame24("TPE1", Self.text(3, Array("Ana\0Bó\0".utf8)))
                + Self.frame24("TDRC", Self.text(3, Array("2024-05-06".utf8)))
                + Self.frame24("TCOM", Self.text(3, Array("Comp".utf8))))
        let entries = ID3v2TagReader.read(tag)
        #expect(
            entries == [
                Self.entry("TPE1", "Ana; Bó", InfoKey.artist),
                Self.entry("TDRC", "2024-05-06", InfoKey.year, infoValue: "2024"),
                Self.entry("TCOM", "Comp", InfoKey.composer),
            ])
        var metadata = AudioMetadata()
        ID3v2TagReader.merge(entries ?? [], into: &metadata)
        #expect(metadata.info == ["artist": "Ana; Bó", "year": "2024", "composer": "Comp"])
        #expect(metadata.tags.count == 3)
    }

    @Test("2.4: syncsafe frame sizes above 127")
    func version24LargeFrame() {
        let long = String(repeating: "x", count: 199)
        let tag = Self.tag(
            4, Self.frame24("TIT2", Self.text(0, Self.latin1(long))) + Self.frame24("TIT3", Self.text(0, [0x53])))
        // 200 bytes: syncsafe 00 00 01 48.
        #expect(Array(tag[14..<18]) == [0, 0, 1, 0x48])
        #expect(
            ID3v2TagReader.read(tag) == [
                Self.entry("TIT2", long, InfoKey.title), Self.entry("TIT3", "S", InfoKey.subTitle),
            ])
    }

    @Test("2.4 written with plain sizes (iTunes): the size that lands on the next frame wins")
    func version24PlainSizes() {
        let long = String(repeating: "a", count: 255)
        // 256 = 00 00 01 00: syncsafe reads 128, which lands inside the text.
        let first = Self.frame24("TIT2", Self.text(0, Self.latin1(long)), plainSize: true)
        // 200 = 00 00 00 C8: not syncsafe at all.
        let second = Self.frame24(
            "TALB", Self.text(0, Self.latin1(String(repeating: "b", count: 199))), plainSize: true)
        let tag = Self.tag(4, first + second + Self.frame24("TPE1", Self.text(0, [0x5A])))
        let entries = ID3v2TagReader.read(tag) ?? []
        #expect(entries.map(\.tag.key) == ["TIT2", "TALB", "TPE1"])
        #expect(entries.first?.tag.value == long)
    }

    @Test("2.2: three-character IDs, 24-bit sizes, COM")
    func version22() {
        let comment = Self.text(0, Self.latin1("eng") + [0] + Self.latin1("Nice"))
        let tag = Self.tag(
            2,
            Self.frame22("TT2", Self.text(0, Self.latin1("Title")))
                + Self.frame22("TP1", Self.text(0, Self.latin1("Art")))
                + Self.frame22("COM", comment) + Self.frame22("TBP", Self.text(0, Self.latin1("120"))))
        #expect(
            ID3v2TagReader.read(tag) == [
                Self.entry("TT2", "Title", InfoKey.title), Self.entry("TP1", "Art", InfoKey.artist),
                Self.entry("COM", "Nice", InfoKey.comments), Self.entry("TBP", "120", InfoKey.tempo),
            ])
    }

    // MARK: Encodings

    @Test("UTF-16 with either byte order mark, and UTF-16BE without one")
    func utf16() {
        let le = Self.text(1, [0xFF, 0xFE] + Self.utf16LE("Tïtle") + [0, 0])
        let be = Self.text(1, [0xFE, 0xFF] + Self.utf16BE("Ärtist"))
        let beNoBOM = Self.text(2, Self.utf16BE("Älbum") + [0, 0])
        let multi = Self.text(1, [0xFF, 0xFE] + Self.utf16LE("A") + [0, 0] + [0xFE, 0xFF] + Self.utf16BE("B"))
        let tag = Self.tag(
            4,
            Self.frame24("TIT2", le) + Self.frame24("TPE1", be) + Self.frame24("TALB", beNoBOM)
                + Self.frame24("TCON", multi))
        #expect(
            ID3v2TagReader.read(tag) == [
                Self.entry("TIT2", "Tïtle", InfoKey.title), Self.entry("TPE1", "Ärtist", InfoKey.artist),
                Self.entry("TALB", "Älbum", InfoKey.album), Self.entry("TCON", "A; B", InfoKey.genre),
            ])
    }

    @Test("COMM: language, description and text; iTunes private comments are raw tags only")
    func comments() {
        let plain = Self.text(0, Self.latin1("eng") + [0] + Self.latin1("A comment"))
        let itunes = Self.text(0, Self.latin1("eng") + Self.latin1("iTunNORM\0") + Self.latin1(" 0000 0001"))
        let utf16 = Self.text(
            1, Self.latin1("deu") + [0xFF, 0xFE] + Self.utf16LE("d") + [0, 0] + [0xFF, 0xFE] + Self.utf16LE("Grüße"))
        let tag = Self.tag(3, Self.frame23("COMM", itunes) + Self.frame23("COMM", utf16) + Self.frame23("COMM", plain))
        let entries = ID3v2TagReader.read(tag)
        #expect(
            entries == [
                Self.entry("COMM:iTunNORM", " 0000 0001", nil), Self.entry("COMM:d", "Grüße", InfoKey.comments),
                Self.entry("COMM", "A comment", InfoKey.comments),
            ])
        var metadata = AudioMetadata()
        ID3v2TagReader.merge(entries ?? [], into: &metadata)
        #expect(metadata.info == ["comments": "Grüße"])
    }

    @Test("TXXX, non-text frames and unknown encodings are not returned")
    func skippedFrames() {
        let tag = Self.tag(
            3,
            Self.frame23("TXXX", Self.text(0, Self.latin1("desc\0value"))) + Self.frame23("APIC", [0, 1, 2, 3])
                + Self.frame23("TIT2", Self.text(4, Self.latin1("bad encoding")))
                + Self.frame23("TSSE", Self.text(0, Self.latin1("Lavf")))
                + Self.frame23("TENC", Self.text(0, Self.latin1("Me"))))
        #expect(
            ID3v2TagReader.read(tag) == [
                Self.entry("TSSE", "Lavf", InfoKey.encodingApplication),
                Self.entry("TENC", "Me", InfoKey.sourceEncoder),
            ])
    }

    // MARK: Unsynchronisation, extended headers, frame flags

    @Test("2.3 tag-level unsynchronisation is reversed before the frames are read")
    func tagUnsynchronisation23() {
        // Content 00 FF E0 ("ÿà" in Latin-1) is written FF 00 E0 after unsynchronisation (2.3 §5);
        // the frame size counts the resynchronised bytes.
        let frame = Array("TIT2".utf8) + Self.be32(3) + [0, 0] + [0x00, 0xFF, 0x00, 0xE0]
        let tag = Self.tag(3, flags: 0x80, frame)
        #expect(ID3v2TagReader.read(tag) == [Self.entry("TIT2", "ÿà", InfoKey.title)])
    }

    @Test("2.4 frame-level unsynchronisation with a data length indicator")
    func frameUnsynchronisation24() {
        // Format flags 0x02 (unsynchronised) | 0x01 (data length indicator, 4 syncsafe bytes).
        let content = Self.syncsafe(3) + [0x00, 0xFF, 0x00, 0xE0]
        let tag = Self.tag(4, Self.frame24("TIT2", content, format: 0x03) + Self.frame24("TPE1", Self.text(0, [0x41])))
        #expect(
            ID3v2TagReader.read(tag) == [
                Self.entry("TIT2", "ÿà", InfoKey.title), Self.entry("TPE1", "A", InfoKey.artist),
            ])
    }

    @Test("extended headers are skipped (2.3 size excludes itself, 2.4 syncsafe size includes itself)")
    func extendedHeaders() {
        let frames = Self.frame23("TIT2", Self.text(0, Self.latin1("T")))
        let ext23 = Self.be32(6) + [0, 0] + [0, 0, 0, 0]
        #expect(
            ID3v2TagReader.read(Self.tag(3, flags: 0x40, ext23 + frames)) == [Self.entry("TIT2", "T", InfoKey.title)])
        let ext24 = Self.syncsafe(6) + [1, 0]
        let frames24 = Self.frame24("TIT2", Self.text(0, Self.latin1("T")))
        #expect(
            ID3v2TagReader.read(Self.tag(4, flags: 0x40, ext24 + frames24)) == [Self.entry("TIT2", "T", InfoKey.title)])
    }

    @Test("compressed and encrypted frames are skipped; a grouping byte is dropped")
    func frameFlags() {
        let tag23 = Self.tag(
            3,
            Self.frame23("TIT2", Self.be32(10) + [0x78, 0x9C], format: 0x80)
                + Self.frame23("TPE1", [0x80] + Self.text(0, [0x41]), format: 0x40)
                + Self.frame23("TALB", [0x07] + Self.text(0, Self.latin1("G")), format: 0x20))
        #expect(ID3v2TagReader.read(tag23) == [Self.entry("TALB", "G", InfoKey.album)])
        let tag24 = Self.tag(
            4,
            Self.frame24("TIT2", [0x78, 0x9C], format: 0x08) + Self.frame24("TPE1", [0x80, 0x41], format: 0x04)
                + Self.frame24("TALB", [0x07] + Self.text(3, Array("G".utf8)), format: 0x40))
        #expect(ID3v2TagReader.read(tag24) == [Self.entry("TALB", "G", InfoKey.album)])
    }

    // MARK: Rejection and robustness

    @Test("not ID3v2, or an unknown major version: nil; a compressed 2.2 tag: no frames")
    func rejection() {
        #expect(ID3v2TagReader.read([]) == nil)
        #expect(ID3v2TagReader.read(Array("ID3".utf8)) == nil)
        #expect(ID3v2TagReader.read(Array("XYZ".utf8) + [3, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(ID3v2TagReader.read(Self.tag(5, Self.frame24("TIT2", Self.text(0, [0x41])))) == nil)
        #expect(ID3v2TagReader.read(Self.tag(2, flags: 0x40, Self.frame22("TT2", Self.text(0, [0x41])))) == [])
    }

    @Test("a tag declared longer than its bytes is read as far as it goes; a frame overrunning it ends the walk")
    func truncatedTag() {
        let full = Self.tag(
            3,
            Self.frame23("TIT2", Self.text(0, Self.latin1("One")))
                + Self.frame23("TPE1", Self.text(0, Self.latin1("Two"))))
        #expect(ID3v2TagReader.read(Array(full.dropLast(2))) == [Self.entry("TIT2", "One", InfoKey.title)])
        let overrun = Self.tag(3, Self.frame23("TIT2", Self.text(0, Self.latin1("One")), size: 0x7FFF_FFFF))
        #expect(ID3v2TagReader.read(overrun) == [])
    }

    @Test("never traps: every prefix of a valid tag and seeded random bodies")
    func neverTraps() {
        let valid = Self.tag(
            4, flags: 0xC0,
            Self.syncsafe(6) + [1, 0] + Self.frame24("TIT2", Self.syncsafe(3) + [0x00, 0xFF, 0x00, 0xE0], format: 0x03)
                + Self.frame24("COMM", Self.text(1, Self.latin1("eng") + [0xFF, 0xFE, 0, 0, 0xFF])))
        for n in 0...valid.count { _ = ID3v2TagReader.read(Array(valid.prefix(n))) }
        var rng = SplitMix64(seed: 7)
        for _ in 0..<3000 {
            let count = Int(rng.next() % 96)
            var body = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            // Bias toward frame-ID bytes so the walk gets past the first header.
            if count >= 4 && rng.next() % 2 == 0 { body.replaceSubrange(0..<4, with: Array("TIT2".utf8)) }
            let version = UInt8(2 + rng.next() % 3)
            let flags = UInt8(truncatingIfNeeded: rng.next())
            _ = ID3v2TagReader.read(Self.tag(version, flags: flags, body))
        }
    }

    @Test("unsynchronisation removal: FF 00 → FF, also FF 00 00 → FF 00")
    func removeUnsynchronisation() {
        #expect(
            ID3v2TagReader.removeUnsynchronisation([0xFF, 0x00, 0xE0, 0x41, 0xFF, 0x00, 0x00][...]) == [
                0xFF, 0xE0, 0x41, 0xFF, 0x00,
            ])
        #expect(ID3v2TagReader.removeUnsynchronisation([0xFF, 0xFF, 0x00][...]) == [0xFF, 0xFF])
    }
}
