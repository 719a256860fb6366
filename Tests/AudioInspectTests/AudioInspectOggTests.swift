import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

@testable import audioinspect

/// audioinspect on Ogg: Vorbis comments (info keys and raw tags), CHAPTERnnn chapters and a
/// METADATA_BLOCK_PICTURE cover in the text summary and the JSON document.
@Suite("audioinspect Ogg")
struct AudioInspectOggTests {
    static func report(_ name: String) throws -> (text: String, doc: [String: Any]) {
        let report = Inspector.inspect(bytes: try Fixtures.bytes(name), source: name, options: InspectOptions())
        var text = ""
        report.writeText(to: &text, includePackets: false)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(report.jsonText.utf8)) as? [String: Any])
        return (text, doc)
    }

    /// Fixtures/generate.sh, ogg/vorbis-44100-2ch-chapters.ogg: oggenc -t "Ogg Title" -a "Ogg Artist" and
    /// CHAPTER001..003 at 0, 0.4 and 0.8 s named Intro, Middle, "Last part"; 1 s of audio (the last chapter
    /// ends there).
    @Test func vorbisCommentsAndChapters() throws {
        let (text, doc) = try Self.report("ogg/vorbis-44100-2ch-chapters.ogg")
        #expect(text.contains("File type       ogg  (Ogg)"))
        #expect(text.contains("Data format     Vorbis (vorb), 44100 Hz, 2 channels"))
        #expect(text.contains("title: Ogg Title"))
        #expect(text.contains("[vorbis] CHAPTER001NAME = Intro"))
        #expect(text.contains("Chapters        0.000 – 0.400 s: Intro\n"))
        #expect(text.contains("                0.800 – 1.000 s: Last part\n"))
        let chapters = try #require(doc["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == ["Intro", "Middle", "Last part"])
        #expect(chapters.map { $0["endSeconds"] as? Double } == [0.4, 0.8, 1.0])
        let metadata = try #require(doc["metadata"] as? [String: String])
        #expect(metadata[InfoKey.artist.rawValue] == "Ogg Artist")
    }

    /// ogg/opus-48000-2ch-picture-opusenc.opus: opusenc --picture "3||Front||cover.png" (a PNG) and
    /// --title Picture; the OpusTags packet spans two pages.
    @Test func opusPicture() throws {
        let (text, doc) = try Self.report("ogg/opus-48000-2ch-picture-opusenc.opus")
        #expect(text.contains("Artwork         image/png, picture type 3, "))
        let artwork = try #require(doc["artwork"] as? [[String: Any]])
        #expect(artwork.count == 1)
        #expect(artwork.first?["mimeType"] as? String == "image/png")
        #expect((artwork.first?["bytes"] as? Int ?? 0) > 40_000)
        let metadata = try #require(doc["metadata"] as? [String: String])
        #expect(metadata[InfoKey.title.rawValue] == "Picture")
    }
}
