import Foundation

/// One fixture file under `Fixtures/`, with its ffprobe oracle beside it.
package struct Fixture: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// The path relative to `Fixtures/`, e.g. `wav/pcm_s16le-44100-2ch.wav`.
    package let path: String
    /// The absolute path of the fixture.
    package let absolutePath: String

    package init(path: String, root: String) {
        self.path = path
        self.absolutePath = (root as NSString).appendingPathComponent(path)
    }

    /// The folder, e.g. `wav`.
    package var folder: String { (path as NSString).deletingLastPathComponent }
    /// The file name, e.g. `pcm_s16le-44100-2ch.wav`.
    package var name: String { (path as NSString).lastPathComponent }
    /// The oracle's absolute path (`<file>.ffprobe.json`).
    package var oraclePath: String { absolutePath + ".ffprobe.json" }
    package var description: String { path }
    package static func < (a: Fixture, b: Fixture) -> Bool { a.path < b.path }

    /// The fixture's bytes.
    package func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: absolutePath))) }
    /// The fixture's oracle.
    package func oracle() throws -> Oracle { try Oracle.load(URL(fileURLWithPath: oraclePath)) }
}

/// A row of `Fixtures/README.md`'s provenance table.
package struct ProvenanceRow: Sendable, Hashable {
    package var file: String
    package var command: String
    package var exercises: String
    package var notes: String
}

/// A row of `Fixtures/malformed/manifest.json`.
package struct MalformedEntry: Sendable, Hashable, CustomStringConvertible {
    package var file: String
    package var defect: String
    package var derivedFrom: String
    package var structuralPoint: String
    package var description: String { file }
}

/// Finds the fixtures of the package.
///
/// The package root is found from this file's `#filePath` (`Sources/AudioStreamTestSupport/` is two
/// levels below it). The environment variable `AUDIOSTREAM_FIXTURES` may name another `Fixtures`
/// folder (for ad-hoc runs against uncommitted fixtures).
package enum FixtureCatalog {
    /// The package root directory.
    package static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The `Fixtures` directory.
    package static let fixturesRoot: String = {
        if let env = ProcessInfo.processInfo.environment["AUDIOSTREAM_FIXTURES"], !env.isEmpty { return env }
        return (packageRoot as NSString).appendingPathComponent("Fixtures")
    }()

    /// The folder of malformed inputs (no oracles).
    package static var malformedRoot: String { (fixturesRoot as NSString).appendingPathComponent("malformed") }

    /// Every media file under `Fixtures/<folder>/` (one level deep, excluding `malformed/`, oracle JSON and text,
    /// scripts, tools and README), sorted.
    package static let mediaFiles: [Fixture] = {
        let fm = FileManager.default
        guard let folders = try? fm.contentsOfDirectory(atPath: fixturesRoot) else { return [] }
        var out: [Fixture] = []
        for folder in folders.sorted() where folder != "malformed" && folder != "tools" && !folder.hasPrefix(".") {
            let dir = (fixturesRoot as NSString).appendingPathComponent(folder)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue,
                let names = try? fm.contentsOfDirectory(atPath: dir)
            else { continue }
            for name in names.sorted()
            where !name.hasSuffix(".json") && !name.hasPrefix(".") && !name.hasSuffix(".md") && !name.hasSuffix(".txt")
            {
                var fileIsDir: ObjCBool = false
                let full = (dir as NSString).appendingPathComponent(name)
                if fm.fileExists(atPath: full, isDirectory: &fileIsDir), !fileIsDir.boolValue {
                    out.append(Fixture(path: folder + "/" + name, root: fixturesRoot))
                }
            }
        }
        return out
    }()

    /// Every fixture that has a `<file>.ffprobe.json` oracle beside it (excluding `malformed/`).
    package static let all: [Fixture] = mediaFiles.filter { FileManager.default.fileExists(atPath: $0.oraclePath) }

    /// The fixture at `path` (relative to `Fixtures/`), whether or not it has an oracle.
    package static func fixture(_ path: String) -> Fixture { Fixture(path: path, root: fixturesRoot) }

    /// The provenance table of `Fixtures/README.md`, keyed by path relative to `Fixtures/`.
    package static let provenance: [String: ProvenanceRow] = {
        let readme = (fixturesRoot as NSString).appendingPathComponent("README.md")
        guard let text = try? String(contentsOfFile: readme, encoding: .utf8) else { return [:] }
        var rows: [String: ProvenanceRow] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            // Cells are separated by unescaped `|` (commands contain `\|`).
            let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(
                separator: "|", omittingEmptySubsequences: false
            )
            .map { $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces) }
            // ["", file, command, signal, exercises, notes, ""]
            guard cells.count >= 6 else { continue }
            let file = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[file] = ProvenanceRow(file: file, command: cells[2], exercises: cells[4], notes: cells[5])
        }
        return rows
    }()

    /// The malformed inputs listed in `Fixtures/malformed/manifest.json`.
    package static let malformed: [MalformedEntry] = {
        let path = (malformedRoot as NSString).appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: path),
            let json = try? JSONDecoder().decode(JSONValue.self, from: data), case .array(let items) = json
        else { return [] }
        return items.compactMap { item in
            guard case .object(let o) = item, let file = o["file"]?.string else { return nil }
            return MalformedEntry(
                file: file, defect: o["defect"]?.string ?? "", derivedFrom: o["derivedFrom"]?.string ?? "",
                structuralPoint: o["structuralPoint"]?.string ?? "")
        }.sorted { $0.file < $1.file }
    }()
}
