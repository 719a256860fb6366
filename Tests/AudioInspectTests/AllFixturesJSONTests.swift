import AudioStreamTestSupport
import Foundation
import Testing

@testable import audioinspect

/// `audioinspect --json` over every fixture with an oracle: the documented keys are all there (in
/// DESIGN.md's order), and feeding one byte at a time prints exactly the same document as the whole
/// file.
@Suite("audioinspect JSON over every fixture")
struct AllFixturesJSONTests {
    /// The top-level keys of the `audioinspect/1` document, in order (`error` only on failure).
    static let documentedKeys = [
        "schema", "source", "fileType", "dataFormat", "formatList", "magicCookie", "channelLayout", "dataOffset",
        "audioDataByteCount", "audioDataPacketCount", "maximumPacketSize", "packetSizeUpperBound",
        "averageBytesPerPacket", "bitRate", "packetTableInfo", "duration", "parsed", "metadata", "tags", "artwork",
        "chapters", "packets", "diagnostics",
    ]

    static let fixtures: [String] = FixtureCatalog.all.map(\.path)

    @Test("documented keys, and 1-byte chunks print the same JSON as the whole file", arguments: fixtures)
    func sameJSONInEveryChunking(_ path: String) throws {
        let bytes = try Fixtures.bytes(path)
        let whole = Inspector.inspect(bytes: bytes, source: path, options: InspectOptions(collectPackets: true))
        let bytewise = Inspector.inspect(
            bytes: bytes, source: path, options: InspectOptions(collectPackets: true, chunkSize: 1))
        #expect(bytewise.jsonText == whole.jsonText)
        // Key order as printed: every documented key, then `error` when the parse failed.
        let keys = whole.jsonText.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  \""), let end = line.dropFirst(3).firstIndex(of: "\"") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
        // `tracks` only for multi-track containers (MP4), `links` only for chained streams (Ogg), `error` only
        // on failure.
        let expected =
            Self.documentedKeys + (whole.tracks.isEmpty ? [] : ["tracks"]) + (whole.links.isEmpty ? [] : ["links"])
            + (whole.failure == nil ? [] : ["error"])
        #expect(keys == expected)
    }

    /// The file path (mapped windows, repositioned for an MP4 `moov` at the end, checked for a file that
    /// shrank after every window) gives the same document as the bytes from memory.
    @Test("a file read from disk prints the same JSON as its bytes from memory", arguments: fixtures)
    func sameJSONFromTheFile(_ path: String) throws {
        let bytes = try Fixtures.bytes(path)
        let options = InspectOptions(collectPackets: true)
        let memory = Inspector.inspect(bytes: bytes, source: path, options: options)
        let file = Inspector.inspect(path: FixtureCatalog.fixture(path).absolutePath, options: options)
        #expect(file.failure == memory.failure)
        var relabelled = file
        relabelled.source = path
        #expect(relabelled.jsonText == memory.jsonText)
    }
}
