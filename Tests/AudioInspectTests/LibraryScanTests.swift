import AudioStreamParsing
import Foundation
import Testing

@testable import audioinspect

/// Scanning many files (`audioinspect PATH...`, `-r`, `--jsonl`, `--jobs`, `--order`, `--quick`, `--fields`,
/// `--artwork`): the walk, the output of the built binary, and the hashes of artwork.
///
/// Expected documents come from single-file runs of the same binary (a JSON Lines record must be the
/// `--json` document of that file alone) and from the schema; hashes from FIPS 180-4's examples and
/// Python's `hashlib` (an independent implementation); base64 from RFC 4648 §10.
@Suite("audioinspect library scans")
struct LibraryScanTests {
    // MARK: Hashes and encodings

    @Test("SHA-256: FIPS 180-4 examples and hashlib digests")
    func sha256() {
        func hex(_ bytes: [UInt8]) -> String { SHA256.hexDigest(bytes) }
        #expect(hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // python3 -c "import hashlib; print(hashlib.sha256(…).hexdigest())"
        #expect(
            hex([UInt8](repeating: 0x61, count: 1000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        #expect(
            hex((0..<100_000).map { UInt8(($0 * 7 + 3) % 251) })
                == "5889ab642baa09c41570b8888cbf45f3762152cea2490ea6b150208a99c92b10")
        #expect(
            hex(Array((0..<4).flatMap { _ in (0...255).map(UInt8.init) }) + Array("xyz".utf8))
                == "32b377390e072c37cfeb9bb327d8825616819a76b0ad3749e16fe22e53afbdfc")
    }

    @Test("base64: RFC 4648 §10 test vectors")
    func base64() {
        let vectors = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors { #expect(Base64.encoded(Array(plain.utf8)) == encoded) }
    }

    // MARK: Command line

    @Test("several inputs, -r, --jsonl, --jobs, --order, --quick, --fields, --artwork")
    func options() throws {
        guard
            case .run(let o) = CommandLineOptions.parse(
                [
                    "-r", "a", "b.mp3", "--jsonl", "-j", "3", "--order=completion", "--quick", "--fields",
                    "format,duration",
                    "--artwork", "--all-files",
                ])
        else {
            Issue.record("not parsed")
            return
        }
        #expect(o.paths == ["a", "b.mp3"])
        #expect(o.recursive && o.jsonl && o.quick && o.allFiles && o.document.artworkData)
        #expect(o.jobs == 3 && o.order == .completion)
        #expect(
            o.document.keys
                == ["fileType", "dataFormat", "formatList", "magicCookie", "channelLayout", "duration", "links"])
        #expect(o.isScan)
        guard case .run(let single) = CommandLineOptions.parse(["a.mp3"]) else { return }
        #expect(!single.isScan)
        #expect(CommandLineOptions.parse(["--version"]) == .version)
        // The raw bytes of each input are kept (a name that is not UTF-8 opens).
        let raw: [[UInt8]] = [[0x63, 0x61, 0x66, 0xE9], Array("--jsonl".utf8), Array("x".utf8)]
        guard case .run(let bytes) = CommandLineOptions.parse(rawArguments: raw) else { return }
        #expect(bytes.rawPaths == [[0x63, 0x61, 0x66, 0xE9], Array("x".utf8)])
    }

    @Test(
        "scan usage errors",
        arguments: [
            ["a", "--json", "--jsonl"], ["a", "-j", "0"], ["a", "--jobs", "x"], ["a", "--order", "random"],
            ["a", "--fields", "bogus"], ["a", "--fields", ""], ["http://h/x", "b"], ["http://h/x", "--jsonl"],
            ["-", "-"], ["a", "--all-files"], ["a", "--quick=1"],
        ])
    func usageErrors(_ arguments: [String]) {
        guard case .usageError = CommandLineOptions.parse(arguments) else {
            Issue.record("\(arguments) should be a usage error")
            return
        }
    }

    @Test("--fields: groups and keys; schema, source and error always")
    func fields() throws {
        let name = "tags/id3v24-mutagen-chapters.mp3"
        let report = Inspector.inspect(bytes: try Fixtures.bytes(name), source: name, options: InspectOptions())
        var options = DocumentOptions()
        options.keys = try DocumentOptions.parseFields("duration,tags,artwork").get()
        let doc = try #require(
            try JSONSerialization.jsonObject(with: Data(report.jsonLine(options).utf8)) as? [String: Any])
        #expect(Set(doc.keys) == ["schema", "source", "duration", "metadata", "tags", "artwork"])
        var failed = report
        failed.failure = InspectionReport.Failure(code: "io", offset: 3, message: "m")
        let failedDoc = try #require(
            try JSONSerialization.jsonObject(with: Data(failed.jsonLine(options).utf8)) as? [String: Any])
        #expect(failedDoc["error"] != nil)
    }

    @Test("artwork: size, MIME type, SHA-256 of the picture; --artwork adds the bytes as base64")
    func artwork() throws {
        // The fixture's front cover is a 100-byte PNG (Fixtures/tools/metadata_tags.py).
        let name = "tags/id3v24-mutagen-chapters.mp3"
        let report = Inspector.inspect(bytes: try Fixtures.bytes(name), source: name, options: InspectOptions())
        let picture = try #require(report.metadata?.artwork.first)
        var options = DocumentOptions()
        options.artworkData = true
        let doc = try #require(
            try JSONSerialization.jsonObject(with: Data(report.jsonLine(options).utf8)) as? [String: Any])
        let entry = try #require((doc["artwork"] as? [[String: Any]])?.first)
        let base64 = try #require(entry["data"] as? String)
        let data = try #require(Data(base64Encoded: base64))
        #expect([UInt8](data) == picture.data)
        #expect(entry["bytes"] as? Int == 100)
        // The hash against `sha256sum` of the same bytes (an independent implementation).
        #expect(entry["sha256"] as? String == (try Self.sha256sum([UInt8](data))))
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(report.jsonText.utf8)) as? [String: Any])
        let plainEntry = try #require((plain["artwork"] as? [[String: Any]])?.first)
        #expect(plainEntry["data"] == nil && plainEntry["sha256"] as? String == entry["sha256"] as? String)
    }

    @Test("a JSON Lines record has the members and values of the pretty document, on one line")
    func jsonLineIsTheDocument() throws {
        for name in [
            "tags/id3v24-mutagen-chapters.mp3", "au/pcm_s16be-22050-1ch.au", "malformed/au-encoding-unknown.au",
        ] {
            let report = Inspector.inspect(bytes: try Fixtures.bytes(name), source: name, options: InspectOptions())
            let line = report.jsonLine()
            #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"))
            #expect(Self.withoutLayout(line) == Self.withoutLayout(report.jsonText), "\(name)")
        }
    }

    // MARK: The walk

    @Test("directories: audio extensions, name order, files before subdirectories; loops and dangling links reported")
    func walk() throws {
        let root = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(at: root) }
        let found = LibraryWalker(recursive: true, allFiles: false).walk([(root.path, Array(root.path.utf8))])
        let names = found.items.map { String($0.name.dropFirst(root.path.count + 1)) }
        #expect(names == ["A.MP3", "b.au", "z.flac", "sub/c.au", "sub/deeper/d.wav"])
        #expect(found.notes.contains { $0.contains("symbolic link loop") })
        #expect(found.notes.contains { $0.contains("cannot examine") && $0.contains("dangling") })
        #expect(found.missedEntries)
        let flat = LibraryWalker(recursive: false, allFiles: false).walk([(root.path, Array(root.path.utf8))])
        #expect(flat.items.map { String($0.name.dropFirst(root.path.count + 1)) } == ["A.MP3", "b.au", "z.flac"])
        let all = LibraryWalker(recursive: true, allFiles: true).walk([(root.path, Array(root.path.utf8))])
        #expect(all.items.contains { $0.name.hasSuffix("notes.txt") })
    }

    // MARK: The built binary

    @Test("--jsonl -r: one record per file, each the file's --json document; errors mid-scan go on; exit 1")
    func jsonLinesScan() throws {
        let root = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(at: root) }
        for jobs in ["1", "3"] {
            let result = try AudioInspectTests.runBinary(["--jsonl", "-r", "--jobs", jobs, root.path], stdin: [])
            #expect(result.status == 1, "a failing file and a dangling link make the status 1")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let sources = try lines.map { line in
                let doc = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return try #require(doc["source"] as? String)
            }
            #expect(
                sources.map { String($0.dropFirst(root.path.count + 1)) } == [
                    "A.MP3", "b.au", "z.flac", "sub/c.au", "sub/deeper/d.wav",
                ])
            for (line, source) in zip(lines, sources) {
                let single = try AudioInspectTests.runBinary(["--json", source], stdin: [])
                #expect(Self.withoutLayout(String(line)) == Self.withoutLayout(single.stdout), "\(source)")
            }
            // The malformed file (z.flac holds an .au with an unknown encoding) is an error document.
            #expect(lines[2].contains("\"error\": {\"code\": \"fmt?\""))
            #expect(result.stderr.contains("audioinspect: \(root.path)/z.flac: error fmt? at offset 12: "))
            #expect(result.stderr.contains("audioinspect: warning: skipping"))
            #expect(!result.stderr.contains("\r") && !result.stderr.contains("files/s"), "no progress when not a TTY")
        }
    }

    @Test("--order completion gives the same records; --json with several inputs prints an array; text blocks")
    func orderJSONAndText() throws {
        let root = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(at: root) }
        let sub = root.appendingPathComponent("sub").path
        let a = root.appendingPathComponent("b.au").path
        let inOrder = try AudioInspectTests.runBinary(["--jsonl", a, sub, "-r"], stdin: [])
        let completion = try AudioInspectTests.runBinary(["--jsonl", "--order", "completion", "-r", a, sub], stdin: [])
        #expect(inOrder.status == 0 && completion.status == 0)
        #expect(inOrder.stdout.split(separator: "\n").sorted() == completion.stdout.split(separator: "\n").sorted())
        #expect(inOrder.stdout.split(separator: "\n").count == 3)

        let array = try AudioInspectTests.runBinary(["--json", a, sub, "-r"], stdin: [])
        let docs = try #require(try JSONSerialization.jsonObject(with: Data(array.stdout.utf8)) as? [[String: Any]])
        #expect(docs.map { $0["source"] as? String } == [a, "\(sub)/c.au", "\(sub)/deeper/d.wav"])
        let empty = try AudioInspectTests.runBinary(
            ["--json", "-r", root.appendingPathComponent("sub/deeper/empty").path], stdin: [])
        #expect(empty.stdout == "[]\n" && empty.status == 0)

        let text = try AudioInspectTests.runBinary([a, "\(sub)/c.au"], stdin: [])
        #expect(text.stdout.components(separatedBy: "Source          ").count == 3)
        #expect(text.stdout.contains("\n\nSource          \(sub)/c.au\n"))
    }

    @Test("--quick reads the header and the tail: same format and tags, duration flagged estimated")
    func quick() throws {
        // A CBR MP3 longer than the tail --quick reads: the frames of a fixture repeated (no Xing header).
        let frames = try Self.cbrFrames()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("quick-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("long.mp3")
        var bytes: [UInt8] = []
        while bytes.count < 600_000 { bytes += frames }
        let tag = Array("TAG".utf8) + Array("Quick title".utf8) + [UInt8](repeating: 0, count: 125 - 11)
        try Data(bytes + tag).write(to: file)
        let exact = try AudioInspectTests.runBinary(["--jsonl", file.path], stdin: [])
        let quick = try AudioInspectTests.runBinary(["--jsonl", "--quick", file.path], stdin: [])
        let e = try #require(try JSONSerialization.jsonObject(with: Data(exact.stdout.utf8)) as? [String: Any])
        let q = try #require(try JSONSerialization.jsonObject(with: Data(quick.stdout.utf8)) as? [String: Any])
        #expect(q["fileType"] as? String == e["fileType"] as? String)
        #expect((q["metadata"] as? [String: String])?["title"] == "Quick title")
        #expect((e["metadata"] as? [String: String])?["title"] == "Quick title")
        let exactDuration = try #require(e["duration"] as? [String: Any])
        let quickDuration = try #require(q["duration"] as? [String: Any])
        #expect(exactDuration["estimated"] as? Bool == false)
        #expect(quickDuration["estimated"] as? Bool == true)
        let es = try #require(exactDuration["seconds"] as? Double)
        let qs = try #require(quickDuration["seconds"] as? Double)
        #expect(abs(es - qs) / es < 0.01, "quick \(qs) s, exact \(es) s")
        let parsed = try #require(q["parsed"] as? [String: Int])
        #expect(try #require(parsed["bytes"]) < bytes.count / 2, "the middle was skipped")
    }

    // MARK: Helpers

    /// A temporary library: `A.MP3`, `b.au`, `z.flac` (an .au with an unknown encoding: a failure),
    /// `notes.txt`, `sub/c.au`, `sub/deeper/d.wav`, `sub/deeper/empty/`, a link `sub/deeper/loop` to
    /// `sub/deeper` (a loop) and a dangling link `dangling.mp3`.
    static func makeLibrary() throws -> URL {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)")
        let deeper = root.appendingPathComponent("sub/deeper")
        try fm.createDirectory(at: deeper.appendingPathComponent("empty"), withIntermediateDirectories: true)
        func copy(_ fixture: String, _ to: String) throws {
            try fm.copyItem(at: Fixtures.root.appendingPathComponent(fixture), to: root.appendingPathComponent(to))
        }
        try copy("mpeg/mp3-44100-2ch-lame-cbr128.mp3", "A.MP3")
        try copy("au/pcm_s16be-22050-1ch.au", "b.au")
        try copy("malformed/au-encoding-unknown.au", "z.flac")
        try copy("au/pcm_mulaw-8000-1ch.au", "sub/c.au")
        try copy(try Self.someWAV(), "sub/deeper/d.wav")
        try Data("not audio".utf8).write(to: root.appendingPathComponent("notes.txt"))
        try fm.createSymbolicLink(atPath: deeper.appendingPathComponent("loop").path, withDestinationPath: deeper.path)
        try fm.createSymbolicLink(
            atPath: root.appendingPathComponent("dangling.mp3").path, withDestinationPath: "/nonexistent/x.mp3")
        return root
    }

    static func someWAV() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(
            atPath: Fixtures.root.appendingPathComponent("wav").path)
        return "wav/" + (try #require(names.filter { $0.hasSuffix(".wav") }.sorted().first))
    }

    /// The MPEG audio frames of a CBR fixture without Xing header (from its data offset to the end).
    static func cbrFrames() throws -> [UInt8] {
        let name = "mpeg/mp3-44100-2ch-ffmpeg-noxing.mp3"
        let bytes = try Fixtures.bytes(name)
        let report = Inspector.inspect(bytes: bytes, source: name, options: InspectOptions())
        let start = Int(try #require(report.dataOffset))
        return Array(bytes[start...])
    }

    /// `text` without the layout of the pretty writer: whitespace outside strings removed.
    static func withoutLayout(_ text: String) -> String {
        var out = ""
        var inString = false
        var escaped = false
        for c in text {
            if inString {
                out.append(c)
                if escaped {
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inString = false
                }
            } else if c == "\"" {
                inString = true
                out.append(c)
            } else if !c.isWhitespace {
                out.append(c)
            }
        }
        return out
    }

    /// `sha256sum` of `bytes`.
    static func sha256sum(_ bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
