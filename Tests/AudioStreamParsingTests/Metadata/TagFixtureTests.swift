import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// The tags of `Fixtures/tags/`, written by real taggers (id3lib's id3v2, eyeD3, mutagen, MP3::Tag;
/// see `Fixtures/generate.sh`). The tags are cut out of the MP3s here (the ID3v2 tag at the start,
/// ID3v1/APE at the end) and read with the metadata readers. Expected values are the ones the
/// generator script gave the taggers; ffprobe's `format_tags` (the committed oracle) is a second
/// oracle for the text values where FFmpeg reads them.
@Suite("Tag fixtures")
struct TagFixtureTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/"
            && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
        {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("Fixtures/tags")
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(name)))
    }

    /// ffprobe's format tags from the committed oracle.
    static func ffprobeTags(_ name: String) throws -> [String: String] {
        let data = try Data(contentsOf: root.appendingPathComponent(name + ".ffprobe.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return json["format_tags"] as? [String: String] ?? [:]
    }

    /// The 16×16 PNG cover every tagger embedded (ffmpeg's PNG encoder, 100 bytes).
    static func expectCover(_ artwork: [AudioMetadata.Artwork], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(artwork.count == 1, sourceLocation: sourceLocation)
        guard let art = artwork.first else { return }
        #expect(art.mimeType == "image/png", sourceLocation: sourceLocation)
        #expect(art.pictureType == 3, sourceLocation: sourceLocation)
        #expect(art.data.count == 100, sourceLocation: sourceLocation)
        #expect(
            art.data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), sourceLocation: sourceLocation)
        #expect(
            art.data.suffix(8).elementsEqual([0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]),
            sourceLocation: sourceLocation)
    }

    /// The leading ID3v2 tag, read whole and by the streaming reader (whole and 1-byte chunks),
    /// which must agree; the first MPEG frame must follow the tag.
    static func leadingTag(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> ID3v2Tag {
        let tag = try #require(ID3v2Tag.parse(bytes), sourceLocation: sourceLocation)
        #expect(tag.notes == [], sourceLocation: sourceLocation)
        #expect(
            bytes.count > tag.byteCount + 1 && bytes[tag.byteCount] == 0xFF && bytes[tag.byteCount + 1] & 0xE0 == 0xE0,
            "an MPEG sync word follows the tag", sourceLocation: sourceLocation)
        for chunks in [[bytes.count], Array(repeating: 1, count: tag.byteCount + 4)] {
            let run = StreamReaderRun(bytes, chunks: chunks)
            #expect(run.tag?.metadata == tag.metadata, sourceLocation: sourceLocation)
            #expect(run.position == Int64(tag.byteCount), sourceLocation: sourceLocation)
        }
        return tag
    }

    /// Compares ffprobe's format tags with our info dictionary and raw tags.
    static func expectFFprobeAgrees(
        _ name: String, _ metadata: AudioMetadata, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let info: [String: InfoKey] = [
            "title": InfoKey.title, "artist": InfoKey.artist, "album": InfoKey.album, "composer": InfoKey.composer,
            "genre": InfoKey.genre, "track": InfoKey.trackNumber, "comment": InfoKey.comments,
            "copyright": InfoKey.copyright, "TBPM": InfoKey.tempo,
        ]
        let raw: [String: String] = ["MOOD": "TXXX:MOOD", "lyrics-eng": "USLT", "Desc": "COMM:Desc"]
        let tags = try ffprobeTags(name)
        #expect(!tags.isEmpty, sourceLocation: sourceLocation)
        for (key, value) in tags {
            let ours: String?
            if let k = info[key] {
                ours = metadata.info[k]
            } else if key == "date" {
                ours = metadata.info[InfoKey.recordedDate] ?? metadata.info[InfoKey.year]
            } else if let k = raw[key] {
                ours = metadata.tags.first { $0.key == k }?.value
            } else {
                continue
            }
            // FFmpeg reports only the first of several ID3v2.4 values.
            let agrees = ours == value || ours?.hasPrefix(value + "; ") == true
            #expect(agrees, "ffprobe \(key)=\(value), ours \(ours ?? "nil")", sourceLocation: sourceLocation)
        }
    }

    // MARK: ID3v2

    @Test("id3lib: ID3v2.3 text frames, genre (17), COMM with a description; ID3v1.1 at the end")
    func id3lib() throws {
        let name = "id3v23-id3lib-id3v1.mp3"
        let bytes = try Self.bytes(name)
        let tag = try Self.leadingTag(bytes)
        #expect(tag.header.majorVersion == 3)
        #expect(
            tag.metadata.info == [
                InfoKey.title: "Id3lib Title", InfoKey.artist: "Id3lib Artist", InfoKey.album: "Id3lib Album",
                InfoKey.year: "2003", InfoKey.genre: "Rock", InfoKey.trackNumber: "3/12",
                InfoKey.comments: "Id3lib comment", InfoKey.composer: "Id3lib Composer", InfoKey.tempo: "128",
            ])
        #expect(tag.metadata.tags.first { $0.key == "TCON" }?.value == "(17)")
        #expect(tag.metadata.tags.first { $0.key == "COMM:Desc" }?.value == "Id3lib comment")
        try Self.expectFFprobeAgrees(name, tag.metadata)

        let layout = TrailingTagLocator.locate(in: bytes)
        #expect(layout.ape == nil)
        let v1Range = try #require(layout.id3v1)
        let v1 = try #require(ID3v1Tag.parse(bytes[v1Range]))
        #expect(v1.title == "Id3lib Title")
        #expect(v1.artist == "Id3lib Artist")
        #expect(v1.album == "Id3lib Album")
        #expect(v1.year == "2003")
        #expect(v1.comment == "Id3lib comment")
        #expect(v1.track == 3)
        #expect(v1.genreName == "Rock")
    }

    @Test("eyeD3: ID3v2.4 in UTF-16BE with APIC, COMM, USLT, TXXX, TCOP, TBPM, TDRC")
    func eyeD3() throws {
        let name = "id3v24-eyed3-utf16be-apic.mp3"
        let bytes = try Self.bytes(name)
        let tag = try Self.leadingTag(bytes)
        #expect(tag.header.majorVersion == 4)
        // The title frame really is UTF-16BE (encoding byte 2 after the 10-byte frame header).
        let tit2 = try #require(bytes.prefix(tag.byteCount).firstRange(of: Array("TIT2".utf8)))
        #expect(bytes[tit2.lowerBound + 10] == 2)
        #expect(
            tag.metadata.info == [
                InfoKey.title: "Eye Tïtle", InfoKey.artist: "Eye Ärtist", InfoKey.album: "Eye Album",
                InfoKey.genre: "Jazz", InfoKey.trackNumber: "05/09", InfoKey.year: "2021",
                InfoKey.recordedDate: "2021-07-04", InfoKey.comments: "Eye comment",
                InfoKey.copyright: "2021 Eye Records", InfoKey.tempo: "96",
            ])
        #expect(tag.metadata.tags.first { $0.key == "TXXX:MOOD" }?.value == "happy")
        #expect(tag.metadata.tags.first { $0.key == "USLT" }?.value == "Eye lyrics line 1\nline 2\n")
        Self.expectCover(tag.metadata.artwork)
        try Self.expectFFprobeAgrees(name, tag.metadata)
    }

    @Test("mutagen ID3v2.4: encodings, multiple values, PRIV, chapters under a CTOC")
    func mutagen24() throws {
        let name = "id3v24-mutagen-chapters.mp3"
        let tag = try Self.leadingTag(try Self.bytes(name))
        #expect(tag.header.majorVersion == 4)
        #expect(
            tag.metadata.info == [
                InfoKey.title: "Mutagen Tïtle", InfoKey.artist: "First Ärtist; Second Artist",
                InfoKey.album: "Mutagen Album", InfoKey.trackNumber: "2/10", InfoKey.year: "2024",
                InfoKey.recordedDate: "2024-05-06", InfoKey.genre: "Pop", InfoKey.comments: "Mutagen comment",
            ])
        let raw = Dictionary(tag.metadata.tags.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(raw["TCON"] == "13")
        #expect(raw["TXXX:MOOD"] == "calm")
        #expect(raw["USLT"] == "La la la\nLa la")
        #expect(raw["PRIV:org.example.fixture"] == "000102fffe")
        Self.expectCover(tag.metadata.artwork)
        #expect(
            tag.metadata.chapters == [
                AudioMetadata.Chapter(title: "Intro", startSeconds: 0, endSeconds: 0.15),
                AudioMetadata.Chapter(title: "Middle", startSeconds: 0.15, endSeconds: 0.3),
                AudioMetadata.Chapter(title: "End", startSeconds: 0.3, endSeconds: 0.5),
            ])
        try Self.expectFFprobeAgrees(name, tag.metadata)
    }

    @Test("mutagen ID3v2.3: the same tag downgraded (UTF-16, TYER + TDAT, '/'-joined artists, (13))")
    func mutagen23() throws {
        let name = "id3v23-mutagen-chapters.mp3"
        let tag = try Self.leadingTag(try Self.bytes(name))
        #expect(tag.header.majorVersion == 3)
        #expect(
            tag.metadata.info == [
                InfoKey.title: "Mutagen Tïtle", InfoKey.artist: "First Ärtist/Second Artist",
                InfoKey.album: "Mutagen Album", InfoKey.trackNumber: "2/10", InfoKey.year: "2024",
                InfoKey.recordedDate: "2024-05-06", InfoKey.genre: "Pop", InfoKey.comments: "Mutagen comment",
            ])
        #expect(tag.metadata.tags.first { $0.key == "TCON" }?.value == "(13)")
        #expect(tag.metadata.chapters.map(\.title) == ["Intro", "Middle", "End"])
        Self.expectCover(tag.metadata.artwork)
        try Self.expectFFprobeAgrees(name, tag.metadata)
    }

    @Test("MP3::Tag: ID3v2.3 with tag-level unsynchronisation (ffprobe 5.1 misreads it)")
    func unsynchronised() throws {
        let name = "id3v23-mp3tag-unsync.mp3"
        let bytes = try Self.bytes(name)
        let tag = try Self.leadingTag(bytes)
        #expect(tag.header.majorVersion == 3)
        #expect(tag.header.isUnsynchronised)
        #expect(
            bytes.prefix(tag.byteCount).firstRange(of: [0xFF, 0x00, 0xE0]) != nil, "the tag holds unsynchronised bytes")
        #expect(
            tag.metadata.info == [
                InfoKey.title: "Unsync ÿà Tïtle", InfoKey.artist: "Unsync Artist", InfoKey.album: "Unsync Album",
                InfoKey.year: "1998",
            ])
        Self.expectCover(tag.metadata.artwork)
        // ffprobe cuts the title short and loses TPE1 (see Fixtures/README.md); mutagen and id3lib
        // agree with the values above.
        let ff = try Self.ffprobeTags(name)
        #expect(ff["title"].map { "Unsync ÿà Tïtle".hasPrefix($0) } == true)
        #expect(ff["album"] == "Unsync Album")
    }

    // MARK: ID3v1 and APE

    @Test("id3lib ID3v1.1 only: no ID3v2 tag, all fields")
    func id3v1Only() throws {
        let name = "id3v1-id3lib.mp3"
        let bytes = try Self.bytes(name)
        #expect(ID3v2Tag.parse(bytes) == nil)
        let layout = TrailingTagLocator.locate(in: Array(bytes.suffix(4096)))
        let range = try #require(layout.id3v1)
        let v1 = try #require(ID3v1Tag.parse(Array(bytes.suffix(4096))[range]))
        #expect(
            v1.metadata.info == [
                InfoKey.title: "V1 Title", InfoKey.artist: "V1 Artist", InfoKey.album: "V1 Album", InfoKey.year: "1999",
                InfoKey.comments: "V1 comment", InfoKey.trackNumber: "7", InfoKey.genre: "Pop",
            ])
        try Self.expectFFprobeAgrees(name, v1.metadata)
    }

    @Test("mutagen APEv2 (header, text items, binary cover) before an id3lib ID3v1.1 tag")
    func apeAndID3v1() throws {
        let name = "apev2-mutagen-id3v1.mp3"
        let bytes = try Self.bytes(name)
        let layout = TrailingTagLocator.locate(in: bytes)
        let apeRange = try #require(layout.ape)
        let v1Range = try #require(layout.id3v1)
        #expect(apeRange.upperBound == v1Range.lowerBound)
        #expect(layout.start == apeRange.lowerBound)
        let ape = try #require(APEv2Tag.parse(bytes[apeRange]))
        #expect(ape.header.version == 2000)
        #expect(ape.header.hasHeader)
        #expect(ape.header.itemCount == 8)
        #expect(ape.notes == [])
        #expect(
            ape.metadata.info == [
                InfoKey.title: "APE Tïtle", InfoKey.artist: "APE Artist", InfoKey.album: "APE Album",
                InfoKey.year: "2005", InfoKey.trackNumber: "6", InfoKey.genre: "Jazz", InfoKey.comments: "APE comment",
            ])
        Self.expectCover(ape.metadata.artwork)
        let v1 = try #require(ID3v1Tag.parse(bytes[v1Range]))
        #expect(
            v1.metadata.info == [
                InfoKey.title: "V1 Title", InfoKey.artist: "V1 Artist", InfoKey.trackNumber: "1", InfoKey.genre: "Jazz",
            ])
        try Self.expectFFprobeAgrees(name, v1.metadata)
    }
}
