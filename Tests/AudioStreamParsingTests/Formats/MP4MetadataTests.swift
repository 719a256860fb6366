import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

// udta/meta/ilst from the fixtures (found by MP4TestBoxes.swift) and hand-built item lists. Expected
// values: the fixture's ffprobe format_tags, and the values Fixtures/tools/tag_mp4.py writes.

@Suite("MP4: iTunes metadata (ilst)")
struct MP4MetadataTests {
    static func meta(_ path: String) throws -> (ArraySlice<UInt8>, Oracle) {
        let file = try MP4TestFile(path)
        let meta = try #require(MP4TestBox.find(["moov", "udta", "meta"], in: file.bytes).first, "\(path): no meta")
        return (meta.whole, try FixtureCatalog.fixture(path).oracle())
    }

    /// mutagen's tags (tag_mp4.py): every ffprobe format tag that names an info key has that value.
    @Test func iTunesTagsMatchFFprobe() throws {
        let (meta, oracle) = try Self.meta("mp4/aac-44100-2ch-itunes.m4a")
        let (metadata, notes) = MP4ItemList.decode(meta: meta, limits: ParserLimits())
        #expect(notes.isEmpty)
        for (ffprobeKey, infoKey) in TagTable.infoKeys {
            guard let value = oracle.formatTags[ffprobeKey] else { continue }
            #expect(metadata.info[infoKey] == value, "\(ffprobeKey)")
        }
        #expect(metadata.info[InfoKey.title] == "MP4 Tïtle")
        #expect(metadata.info[InfoKey.trackNumber] == "3/12")
        // ©day 2024-05-06: year is the first four digits, recorded date as written (docs/metadata.md).
        #expect(metadata.info[InfoKey.year] == "2024")
        #expect(metadata.info[InfoKey.recordedDate] == oracle.formatTags["date"])
        #expect(metadata.info[InfoKey.tempo] == "120")
        #expect(metadata.info[InfoKey.encodingApplication] == oracle.formatTags["encoder"])
        #expect(metadata.info[InfoKey.composer] == "MP4 Composer")
    }

    /// Raw tags keep every item with source "ilst"; freeform items are keyed ----:mean:name and their
    /// values equal ffprobe's (it shows them by name).
    @Test func rawTagsAndFreeformItems() throws {
        let (meta, oracle) = try Self.meta("mp4/aac-44100-2ch-itunes.m4a")
        let metadata = MP4ItemList.decode(meta: meta, limits: ParserLimits()).metadata
        let tags = Dictionary(metadata.tags.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(metadata.tags.allSatisfy { $0.source == "ilst" })
        #expect(tags["----:com.apple.iTunes:iTunSMPB"] == oracle.formatTags["iTunSMPB"])
        #expect(tags["----:org.example.fixtures:Mood"] == "happy")
        #expect(tags["disk"] == oracle.formatTags["disc"])
        #expect(tags["cpil"] == oracle.formatTags["compilation"])
        #expect(tags["aART"] == oracle.formatTags["album_artist"])
        #expect(tags["©day"] == "2024-05-06")
        #expect(tags["covr"] == nil)  // pictures go to artwork
        // 16 items in the file (tag_mp4.py), one raw tag each except covr.
        #expect(metadata.tags.count == 16)
    }

    /// covr: data type 14 (PNG) holding the 16x16 cover generate.sh makes ($COVER).
    @Test func coverArt() throws {
        let (meta, _) = try Self.meta("mp4/aac-44100-2ch-itunes.m4a")
        let metadata = MP4ItemList.decode(meta: meta, limits: ParserLimits()).metadata
        let art = try #require(metadata.artwork.first)
        #expect(metadata.artwork.count == 1)
        #expect(art.mimeType == "image/png")
        #expect(art.pictureType == 3)
        #expect(art.data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // covr is 124 bytes: its 8-byte header, the data box's 16 (header, type, locale), the 100-byte PNG.
        #expect(art.data.count == 100)
        var limits = ParserLimits()
        limits.maxArtworkBytes = 99
        let (small, notes) = MP4ItemList.decode(meta: meta, limits: limits)
        #expect(small.artwork.isEmpty)
        #expect(notes.map(\.kind) == [.limitExceeded])
        #expect(small.info[InfoKey.title] == "MP4 Tïtle")
    }

    /// ffmpeg's own ilst (the m4b): ©nam and ©ART from -metadata title/artist.
    @Test func ffmpegWrittenTags() throws {
        let (meta, oracle) = try Self.meta("mp4/aac-22050-1ch-chapters.m4b")
        let metadata = MP4ItemList.decode(meta: meta, limits: ParserLimits()).metadata
        #expect(metadata.info[InfoKey.title] == oracle.formatTags["title"])
        #expect(metadata.info[InfoKey.artist] == oracle.formatTags["artist"])
    }

    /// An empty ilst (ffmpeg -map_metadata -1 still writes meta/hdlr/ilst): no tags, no diagnostics.
    @Test func emptyItemList() throws {
        let (meta, _) = try Self.meta("mp4/aac-44100-2ch-faststart.m4a")
        let (metadata, notes) = MP4ItemList.decode(meta: meta, limits: ParserLimits())
        #expect(metadata.isEmpty)
        #expect(notes.isEmpty)
    }

    // MARK: Hand-built item lists

    static func box(_ type: [UInt8], _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + type + body
    }
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { box(Array(type.utf8), body) }
    static func data(_ type: UInt8, _ value: [UInt8]) -> [UInt8] { box("data", [0, 0, 0, type, 0, 0, 0, 0] + value) }
    static let hdlr = box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array("mdirappl".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 0])
    static let nam: [UInt8] = [0xA9] + Array("nam".utf8)

    /// QuickTime writes moov/meta without the full-box header; the children follow at once.
    @Test func metaWithAndWithoutTheFullBoxHeader() {
        let ilst = Self.box("ilst", Self.box(Self.nam, Self.data(1, Array("Title".utf8))))
        for header in [[UInt8](), [0, 0, 0, 0]] {
            let meta = Self.box("meta", header + Self.hdlr + ilst)
            let (metadata, notes) = MP4ItemList.decode(meta: meta[...], limits: ParserLimits())
            #expect(metadata.info[InfoKey.title] == "Title", "header \(header.count) bytes")
            #expect(notes.isEmpty)
        }
    }

    /// gnre: ID3v1 genre index + 1 (17 = Rock is written as 18); trkn without a total; UTF-16 text;
    /// tmpo as a 2-byte signed integer; an unknown binary item is diagnosed.
    @Test func genreNumbersAndDataTypes() {
        let items =
            Self.box("gnre", Self.data(0, [0, 18])) + Self.box("trkn", Self.data(0, [0, 0, 0, 7, 0, 0, 0, 0]))
            + Self.box([0xA9] + Array("ART".utf8), Self.data(2, [0x00, 0x41, 0x00, 0xE9]))
            + Self.box("tmpo", Self.data(21, [0x00, 0x60])) + Self.box("zzzz", Self.data(0, [1, 2, 3]))
        let meta = Self.box("meta", [0, 0, 0, 0] + Self.hdlr + Self.box("ilst", items))
        let (metadata, notes) = MP4ItemList.decode(meta: meta[...], limits: ParserLimits())
        #expect(metadata.info[InfoKey.genre] == "Rock")
        #expect(metadata.info[InfoKey.trackNumber] == "7")
        #expect(metadata.info[InfoKey.artist] == "Aé")
        #expect(metadata.info[InfoKey.tempo] == "96")
        #expect(notes.map(\.kind) == [.unsupportedFeature])
        #expect(notes.first?.message.contains("'zzzz'") == true)
    }

    /// QuickTime metadata: hdlr 'mdta', keys (1-based), ilst items named by key index.
    @Test func quickTimeKeys() {
        let key = Array("com.apple.quicktime.title".utf8)
        let entry = [0, 0, 0, UInt8(8 + key.count)] + Array("mdta".utf8) + key
        let keys = Self.box("keys", [0, 0, 0, 0, 0, 0, 0, 1] + entry)
        let ilst = Self.box("ilst", Self.box([0, 0, 0, 1], Self.data(1, Array("QT Title".utf8))))
        let meta = Self.box("meta", Self.hdlr + keys + ilst)
        let metadata = MP4ItemList.decode(meta: meta[...], limits: ParserLimits()).metadata
        #expect(metadata.info[InfoKey.title] == "QT Title")
        #expect(metadata.tags.first?.key == "com.apple.quicktime.title")
    }

    /// A broken item ends the list; the items before it are kept.
    @Test func brokenItemKeepsWhatCameBefore() {
        var items = Self.box(Self.nam, Self.data(1, Array("Kept".utf8)))
        items += [0x00, 0x00, 0x10, 0x00] + Array("©ART".utf8) + [0, 0]  // size 4096 in a short list
        let meta = Self.box("meta", [0, 0, 0, 0] + Self.hdlr + Self.box("ilst", items))
        let (metadata, notes) = MP4ItemList.decode(meta: meta[...], limits: ParserLimits())
        #expect(metadata.info[InfoKey.title] == "Kept")
        #expect(notes.map(\.kind) == [.damagedMetadata])
    }

    /// Every prefix and every single-byte change of the fixture's meta box: no trap.
    @Test func damagedMetaNeverTraps() throws {
        let (meta, _) = try Self.meta("mp4/aac-44100-2ch-itunes.m4a")
        let bytes = Array(meta)
        for length in stride(from: 0, to: bytes.count, by: 1) {
            _ = MP4ItemList.decode(meta: bytes[0..<length], limits: ParserLimits())
        }
        for i in 0..<min(bytes.count, 1000) {
            var damaged = bytes
            damaged[i] ^= 0xFF
            _ = MP4ItemList.decode(meta: damaged[...], limits: ParserLimits())
        }
    }
}
