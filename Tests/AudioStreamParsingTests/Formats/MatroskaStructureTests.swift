import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// mkvinfo (mkvtoolnix) as a second oracle for the element structure of every Matroska and WebM fixture
/// (`<fixture>.mkvinfo.txt`, written by Fixtures/make-mkv-oracles.sh; docs/testing.md): the EBML walk
/// (`EBMLSyntax` on the element-tree engine's `ElementWalker`, unknown sizes resolved as the parser resolves
/// them) finds the same top-level elements, Segment children, Cluster children and BlockGroup children, at
/// the same positions with the same sizes; each block has the frame count mkvinfo gives (lacing); the
/// parser lists the same tracks. CRC-32 elements are left out of ours: mkvinfo does not list them.
@Suite("Matroska structure (mkvinfo)")
struct MatroskaStructureTests {
    /// One element: its depth (0 top level), name as mkvinfo prints it (or the schema name for ours),
    /// position, total size (`nil`: unknown), and frames (blocks).
    struct Element: Equatable, CustomStringConvertible {
        var depth: Int
        var id: UInt32?
        var at: Int64
        var size: Int64?
        var frames: Int?
        var description: String {
            "depth \(depth) \(id.map { MatroskaElementID.name(of: $0) } ?? "?") at \(at) size \(size.map(String.init) ?? "unknown")"
                + (frames.map { " \($0) frames" } ?? "")
        }
    }

    /// mkvinfo's names of the elements compared by ID.
    static let names: [String: UInt32] = [
        "EBML head": MatroskaElementID.ebml, "Segment": MatroskaElementID.segment,
        "Seek head": MatroskaElementID.seekHead, "EBML void": MatroskaElementID.void,
        "Segment information": MatroskaElementID.info, "Tracks": MatroskaElementID.tracks,
        "Tags": MatroskaElementID.tags, "Cluster": MatroskaElementID.cluster, "Cues": MatroskaElementID.cues,
        "Chapters": MatroskaElementID.chapters, "Attachments": MatroskaElementID.attachments,
        "Cluster timestamp": MatroskaElementID.timestamp, "Simple block": MatroskaElementID.simpleBlock,
        "Block group": MatroskaElementID.blockGroup, "Block": MatroskaElementID.block,
        "Block duration": MatroskaElementID.blockDuration, "Discard padding": MatroskaElementID.discardPadding,
    ]

    /// The elements of mkvinfo's tree that the comparison covers: depth 0, the Segment's children, the
    /// Clusters' children, the BlockGroups' children.
    static func mkvinfoElements(_ text: String) -> [Element] {
        var out: [Element] = []
        var chain: [String] = []
        for line in text.split(separator: "\n").map(String.init) {
            guard let plus = line.firstIndex(of: "+"), line[..<plus].allSatisfy({ $0 == "|" || $0 == " " }) else {
                continue
            }
            let depth = line.distance(from: line.startIndex, to: plus)
            let rest = line[line.index(plus, offsetBy: 2)...]
            let name = String(rest.prefix { $0 != ":" }.split(separator: " at ").first ?? "")
            chain = Array(chain.prefix(depth)) + [name]
            let covered =
                depth == 0 || (depth == 1 && chain[0] == "Segment") || (depth == 2 && chain[1] == "Cluster")
                || (depth == 3 && chain[2] == "Block group")
            guard covered, let atRange = line.range(of: " at ", options: .backwards) else { continue }
            let tail = line[atRange.upperBound...].split(separator: " ")
            guard tail.count >= 3, let at = Int64(tail[0]) else { continue }
            var frames: Int?
            if let f = line.range(of: " frame(s)") {
                frames = Int(line[..<f.lowerBound].split(separator: " ").last ?? "")
            }
            out.append(Element(depth: depth, id: names[name], at: at, size: Int64(tail[2]), frames: frames))
        }
        return out
    }

    /// The same elements found by our EBML walk over the whole file.
    static func walk(_ bytes: [UInt8]) -> [Element] {
        var out: [Element] = []
        let all = bytes[...]
        func visit(_ range: Range<Int>, depth: Int) {
            var walker = ElementWalker(all, in: range)
            while case .element(let e) = walker.next(EBMLSyntax.self) {
                // mkvinfo checks CRC-32 elements (ffmpeg's Matroska muxer writes one first in each level-1
                // element) without listing them.
                if e.id == MatroskaElementID.crc32 { continue }
                var frames: Int?
                if e.id == MatroskaElementID.simpleBlock || e.id == MatroskaElementID.block,
                    case .block(let b) = MatroskaBlock.decode(
                        in: ByteReader(all), at: e.bodyStart, bodySize: e.body.count)
                {
                    frames = b.frameSizes.count
                }
                out.append(
                    Element(
                        depth: depth, id: e.id, at: Int64(e.start),
                        size: e.header.bodySize.map { Int64(e.header.headerSize) + $0 }, frames: frames))
                let descend =
                    (depth == 0 && e.id == MatroskaElementID.segment)
                    || (depth == 1 && e.id == MatroskaElementID.cluster)
                    || (depth == 2 && e.id == MatroskaElementID.blockGroup)
                if descend { visit(e.body, depth: depth + 1) }
            }
        }
        visit(all.indices, depth: 0)
        return out
    }

    static let fixtures = FixtureCatalog.mediaFiles.map(\.path).filter { $0.hasPrefix("mkv/") }

    @Test func everyFixtureHasAnMkvinfoOracle() {
        #expect(Self.fixtures.count >= 25)
        for path in Self.fixtures {
            #expect(
                FileManager.default.fileExists(atPath: FixtureCatalog.fixture(path).absolutePath + ".mkvinfo.txt"),
                "\(path): run Fixtures/make-mkv-oracles.sh")
        }
    }

    @Test(arguments: fixtures)
    func elementWalkMatchesMkvinfo(_ path: String) throws {
        let fixture = FixtureCatalog.fixture(path)
        let text = try String(contentsOfFile: fixture.absolutePath + ".mkvinfo.txt", encoding: .utf8)
        let expected = Self.mkvinfoElements(text)
        var ours = Self.walk(try fixture.bytes())
        // Compare IDs only where mkvinfo's name is one we map.
        for i in ours.indices where i < expected.count && expected[i].id == nil { ours[i].id = nil }
        #expect(expected.count > 10, "\(path): mkvinfo elements")
        let difference = describeFirstDifference(got: ours, expected: expected)
        #expect(difference == nil, "\(path): \(difference ?? "")")
    }

    @Test(arguments: fixtures)
    func trackListMatchesMkvinfo(_ path: String) throws {
        let fixture = FixtureCatalog.fixture(path)
        let text = try String(contentsOfFile: fixture.absolutePath + ".mkvinfo.txt", encoding: .utf8)
        // "|  + Track number: 1 (track ID …)", "|  + Codec ID: A_OPUS", "|  + Track type: audio".
        var expected: [(number: UInt32, codec: String, type: String)] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("|  + Track number: ") {
                expected.append((UInt32(line.split(separator: " ")[4]) ?? 0, "", ""))
            } else if line.hasPrefix("|  + Codec ID: "), !expected.isEmpty {
                expected[expected.count - 1].codec = String(line.split(separator: " ")[4])
            } else if line.hasPrefix("|  + Track type: "), !expected.isEmpty {
                expected[expected.count - 1].type = String(line.split(separator: " ")[4])
            }
        }
        let parser = AudioStreamParser()
        _ = parser.feed(try fixture.bytes()[...], chunking: .whole)
        let handler = ["audio": "soun", "video": "vide", "subtitles": "sbtl"]
        #expect(parser.tracks.map(\.id) == expected.map(\.number), "\(path): track numbers")
        #expect(parser.tracks.map(\.sampleEntryType) == expected.map { Optional($0.codec) }, "\(path): codec IDs")
        #expect(parser.tracks.map(\.handlerType) == expected.map { handler[$0.type] ?? $0.type }, "\(path): types")
    }
}
