import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// The frame-sync engine's fast path (`FrameSyncParser.walkFrames`: MPEG audio, ADTS, FLAC) must take
/// exactly the decisions of the general path: every fixture, and every malformed input, parsed with the
/// fast path on and off (`ParserOptions.usesFrameSyncFastPath`), in several chunkings, gives the same
/// event log (properties, packets with their offsets and bytes, diagnostics, error).
@Suite("Frame-sync fast path", .timeLimit(.minutes(5)))
struct FrameSyncFastPathTests {
    /// Every media file under `Fixtures/` and every input of `Fixtures/malformed/`.
    static let inputs: [String] = {
        var paths = FixtureCatalog.mediaFiles.map(\.path)
        let fm = FileManager.default
        let names = fm.subpaths(atPath: FixtureCatalog.malformedRoot) ?? []
        for name in names.sorted() where !name.hasSuffix(".json") && !name.hasSuffix(".md") && !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            let full = (FixtureCatalog.malformedRoot as NSString).appendingPathComponent(name)
            if fm.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                paths.append("malformed/" + name)
            }
        }
        return paths
    }()

    /// Whole, a fixed size, and random sizes (with empty chunks): the fast path runs on whole chunks and
    /// stops at every chunk end, where the general path takes over.
    static let chunkings: [Chunking] = [
        .whole, .fixed(4096), .random(seed: 11, maxSize: 64 * 1024), .random(seed: 12, maxSize: 300),
    ]

    @Test("the fast path and the general path give the same events", arguments: inputs)
    func fastPathTakesTheGeneralPathsDecisions(_ path: String) throws {
        let input = try FixtureCatalog.fixture(path).bytes()
        var general = ParserOptions()
        general.usesFrameSyncFastPath = false
        for chunking in Self.chunkings {
            let fast = ParseRunner.run(input, chunking: chunking)
            let slow = ParseRunner.run(input, chunking: chunking, options: general)
            #expect(
                fast == slow, "\(path), \(chunking): \(fast.differences(from: slow).prefix(5).joined(separator: "; "))")
        }
    }

    @Test("the inputs include every frame-sync fixture")
    func inputsCoverTheFrameSyncFormats() {
        for folder in ["mpeg/", "adts/", "flac/", "malformed/"] {
            #expect(Self.inputs.contains { $0.hasPrefix(folder) }, "\(folder)")
        }
    }
}
