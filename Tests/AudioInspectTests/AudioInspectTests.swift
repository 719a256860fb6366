import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

@testable import audioinspect

/// The `audioinspect` report, JSON document, text summary and command-line behaviour.
///
/// Expected values come from the committed ffprobe oracle JSON beside each fixture (first_pos, bytes,
/// duration_sum, sample_rate, channels, bits_per_sample, format_tags, packet positions), or from the
/// documented schema (`docs/cli.md`); never from this tool's own earlier output.
@Suite("audioinspect")
struct AudioInspectTests {
    static let auFixtures = [
        "pcm_alaw-8000-1ch.au", "pcm_f32be-44100-1ch.au", "pcm_f64be-8000-1ch.au",
        "pcm_mulaw-8000-1ch-annotation.au", "pcm_mulaw-8000-1ch-pipe.au", "pcm_mulaw-8000-1ch.au",
        "pcm_s16be-22050-1ch.au", "pcm_s16be-8000-1ch-sndfile.au", "pcm_s16be-8000-1ch-sox-pipe.au",
        "pcm_s16be-8000-1ch-sox.au", "pcm_s24be-44100-2ch.au", "pcm_s32be-48000-1ch.au", "pcm_s8-8000-1ch.au",
    ]

    static let malformedFixtures = [
        "au-offset-lt-24.au", "au-trunc-mid-data.au", "au-offset-4g.au", "au-encoding-unknown.au",
        "au-trunc-in-header.au", "unknown-random.bin", "unknown-text.txt", "unknown-empty.bin",
    ]

    /// The top-level keys of the document, in the documented order (`error` only on failure).
    static let documentKeys = [
        "schema", "source", "fileType", "dataFormat", "formatList", "magicCookie", "channelLayout", "dataOffset",
        "audioDataByteCount", "audioDataPacketCount", "maximumPacketSize", "packetSizeUpperBound",
        "averageBytesPerPacket", "bitRate", "packetTableInfo", "duration", "parsed", "metadata", "tags", "artwork",
        "chapters", "packets", "diagnostics",
    ]

    // MARK: Report and JSON against the oracle

    @Test("JSON document matches the ffprobe oracle", arguments: auFixtures)
    func jsonMatchesOracle(_ name: String) throws {
        let bytes = try Fixtures.bytes("au/\(name)")
        let oracle = try Fixtures.json("au/\(name).ffprobe.json")
        let stream = try #require(oracle["stream"] as? [String: Any])
        let summary = try #require(oracle["summary"] as? [String: Any])
        let report = Inspector.inspect(bytes: bytes, source: name, options: InspectOptions(collectPackets: true))
        let text = report.jsonText
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])

        #expect(Self.topLevelKeys(text) == Self.documentKeys)
        #expect(doc["schema"] as? String == "audioinspect/1")
        #expect(doc["source"] as? String == name)
        #expect(doc["fileType"] as? String == "NeXT")
        #expect(doc["error"] == nil)
        let firstPos = try #require(summary["first_pos"] as? Int)
        let frames = try #require(summary["duration_sum"] as? Int)
        let rate = try #require(stream["sample_rate"] as? Int)
        #expect(doc["dataOffset"] as? Int == firstPos)
        #expect(doc["audioDataByteCount"] as? Int == summary["bytes"] as? Int)
        #expect(doc["audioDataPacketCount"] as? Int == frames)

        let format = try #require(doc["dataFormat"] as? [String: Any])
        #expect(
            Set(format.keys) == [
                "formatID", "sampleRate", "channelsPerFrame", "framesPerPacket", "bytesPerPacket", "bytesPerFrame",
                "bitsPerChannel", "formatFlags",
            ])
        #expect(format["sampleRate"] as? Double == Double(rate))
        #expect(format["channelsPerFrame"] as? Int == stream["channels"] as? Int)
        #expect(format["bitsPerChannel"] as? Int == stream["bits_per_sample"] as? Int)
        #expect(format["bytesPerFrame"] as? Int == stream["block_align"] as? Int)
        let codec = try #require(stream["codec_name"] as? String)
        let expectedID = codec == "pcm_mulaw" ? "ulaw" : codec == "pcm_alaw" ? "alaw" : "lpcm"
        #expect(format["formatID"] as? String == expectedID)

        // The default one-item format list: the data format with layout tag 0 (no layout in .au).
        let list = try #require(doc["formatList"] as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["formatID"] as? String == expectedID)
        #expect(list.first?["channelLayoutTag"] as? Int == 0)

        let duration = try #require(doc["duration"] as? [String: Any])
        #expect(duration["frames"] as? Int == frames)
        #expect(duration["estimated"] as? Bool == false)
        let seconds = try #require(duration["seconds"] as? Double)
        #expect(abs(seconds - Double(frames) / Double(rate)) < 1e-12)
        let parsed = try #require(doc["parsed"] as? [String: Any])
        #expect(parsed["frames"] as? Int == frames)
        #expect(parsed["bytes"] as? Int == summary["bytes"] as? Int)

        // ffprobe's tags appear in the info dictionary.
        let metadata = try #require(doc["metadata"] as? [String: String])
        for (key, value) in oracle["format_tags"] as? [String: String] ?? [:] {
            #expect(metadata[key] == value, "tag \(key)")
        }

        // Packets: the oracle's grouped packets expanded into frames of block_align bytes.
        let blockAlign = try #require(stream["block_align"] as? Int)
        var expected: [[Int]] = []
        for p in try #require(oracle["packets"] as? [[Int]]) {
            for k in 0..<(p[1] / blockAlign) { expected.append([p[0] + k * blockAlign, blockAlign, 1]) }
        }
        let packets = try #require(doc["packets"] as? [[String: Int]])
        #expect(packets.map { [$0["offset"] ?? -1, $0["size"] ?? -1, $0["frames"] ?? -1] } == expected)
    }

    @Test("chunk size 1, odd chunk sizes and whole input print identical JSON", arguments: auFixtures)
    func chunkingDoesNotChangeJSON(_ name: String) throws {
        let bytes = try Fixtures.bytes("au/\(name)")
        let whole = Inspector.inspect(bytes: bytes, source: name, options: InspectOptions(collectPackets: true))
        for options in [
            InspectOptions(collectPackets: true, chunkSize: 1),
            InspectOptions(collectPackets: true, chunkSize: 7, readSize: 5),
            InspectOptions(collectPackets: true, chunkSize: nil, readSize: 3),
        ] {
            let other = Inspector.inspect(bytes: bytes, source: name, options: options)
            #expect(other == whole)
            #expect(other.jsonText == whole.jsonText)
        }
    }

    @Test(
        "malformed inputs: same JSON in every chunking, and an error object when they fail",
        arguments: malformedFixtures)
    func malformedInputs(_ name: String) throws {
        let bytes = try Fixtures.bytes("malformed/\(name)")
        let whole = Inspector.inspect(bytes: bytes, source: name, options: InspectOptions(collectPackets: true))
        let bytewise = Inspector.inspect(
            bytes: bytes, source: name, options: InspectOptions(collectPackets: true, chunkSize: 1))
        #expect(bytewise.jsonText == whole.jsonText)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(whole.jsonText.utf8)) as? [String: Any])
        if let failure = whole.failure {
            let error = try #require(doc["error"] as? [String: Any])
            #expect(error["code"] as? String == failure.code)
            #expect(error["offset"] as? Int == failure.offset.map { Int($0) })
            #expect(Self.topLevelKeys(whole.jsonText) == Self.documentKeys + ["error"])
            #expect(Self.isErrorLine(failure.line), "\(failure.line)")
        } else {
            #expect(doc["error"] == nil)
        }
    }

    @Test("an unknown file fails with typ? at offset 0; a bad header with dta? at its field")
    func errorCodes() throws {
        let random = Inspector.inspect(
            bytes: try Fixtures.bytes("malformed/unknown-random.bin"), source: "x", options: InspectOptions())
        #expect(random.failure?.code == "typ?")
        #expect(random.failure?.offset == 0)
        #expect(random.failure?.line.hasPrefix("audioinspect: error typ? at offset 0: ") == true)

        let offset = Inspector.inspect(
            bytes: try Fixtures.bytes("malformed/au-offset-lt-24.au"), source: "x", options: InspectOptions())
        #expect(offset.failure?.line == "audioinspect: error dta? at offset 4: au (header): data offset is below 24")
        #expect(offset.fileType == .next)
    }

    @Test("a missing file is an io error without offset")
    func missingFile() {
        let report = Inspector.inspect(path: "/nonexistent/dir/file.au", options: InspectOptions())
        #expect(report.failure?.code == "io")
        #expect(report.failure?.offset == nil)
        #expect(report.failure?.line.contains("No such file or directory") == true)
        #expect(report.jsonText.contains("\"error\": {"))
    }

    @Test("files are read through FileInput with the same result as in memory")
    func fileInputMatchesMemory() throws {
        let path = Fixtures.root.appendingPathComponent("au/pcm_s24be-44100-2ch.au").path
        let fromFile = Inspector.inspect(path: path, options: InspectOptions(collectPackets: true, readSize: 1000))
        let fromMemory = Inspector.inspect(
            bytes: try Fixtures.bytes("au/pcm_s24be-44100-2ch.au"), source: path,
            options: InspectOptions(collectPackets: true))
        #expect(fromFile == fromMemory)
    }

    /// Ogg files larger than one 64 KiB window (pages straddle the windows): mapped window by window, they
    /// give the report of the same bytes parsed from memory.
    @Test(
        "Ogg files mapped in several windows give the in-memory report",
        arguments: [
            "ogg/flac-96000-2ch-s24-spans-pages.oga", "ogg/vorbis-22050-1ch-big-comment.ogg",
            "ogg/opus-48000-2ch-picture-opusenc.opus",
        ])
    func oggMappedInSeveralWindows(_ name: String) throws {
        let path = Fixtures.root.appendingPathComponent(name).path
        let bytes = try Fixtures.bytes(name)
        #expect(bytes.count > 1 << 16, "\(name) spans more than one window")
        let fromFile = Inspector.inspect(path: path, options: InspectOptions(collectPackets: true, readSize: 1000))
        let fromMemory = Inspector.inspect(bytes: bytes, source: path, options: InspectOptions(collectPackets: true))
        #expect(fromFile == fromMemory)
        #expect(fromFile.failure == nil)
    }

    // MARK: Duration rule

    @Test("duration: packet table first, then packet count, then parsed frames, then bit rate")
    func durationRule() {
        let pcm = StreamDescription.linearPCM(
            sampleRate: 8000, channels: 1, validBits: 16, containerBits: 16, isFloat: false, isBigEndian: true)
        let info = PacketTableInfo(numberValidFrames: 700, primingFrames: 50, remainderFrames: 50)
        let byTable = StreamDuration.estimate(
            packetTableInfo: info, packetCount: 800, byteCount: 1600, bitRate: 128_000, format: pcm,
            parsedFrames: 800, isComplete: true)
        #expect(byTable == .init(frames: 700, seconds: 0.0875, isEstimated: false, source: .packetTable))
        let byCount = StreamDuration.estimate(
            packetTableInfo: nil, packetCount: 800, byteCount: 1600, bitRate: 128_000, format: pcm,
            parsedFrames: 10, isComplete: false)
        #expect(byCount == .init(frames: 800, seconds: 0.1, isEstimated: true, source: .packetCount))
        var vbr = pcm
        vbr.framesPerPacket = 0
        let byParsed = StreamDuration.estimate(
            packetTableInfo: nil, packetCount: 3, byteCount: nil, bitRate: nil, format: vbr, parsedFrames: 4000,
            isComplete: true)
        #expect(byParsed == .init(frames: 4000, seconds: 0.5, isEstimated: false, source: .parsedFrames))
        let byBitRate = StreamDuration.estimate(
            packetTableInfo: nil, packetCount: nil, byteCount: 16000, bitRate: 128_000, format: vbr, parsedFrames: 1,
            isComplete: false)
        #expect(byBitRate == .init(frames: 8000, seconds: 1, isEstimated: true, source: .bitRate))
        #expect(
            StreamDuration.estimate(
                packetTableInfo: nil, packetCount: nil, byteCount: nil, bitRate: nil, format: nil, parsedFrames: 0,
                isComplete: false) == nil)
    }

    @Test("a truncated stream with a declared size reports the real count, and exact after finish")
    func truncatedDuration() throws {
        let report = Inspector.inspect(
            bytes: try Fixtures.bytes("malformed/au-trunc-mid-data.au"), source: "x", options: InspectOptions())
        #expect(report.failure == nil)
        #expect(report.duration?.frames == 100)
        #expect(report.duration?.isEstimated == false)
        #expect(report.diagnostics.count == 2)
    }

    // MARK: Writer and chunker

    @Test("JSON strings are escaped; doubles use the shortest round-trip form; NaN is null")
    func writerEscapesAndFormats() {
        var writer = JSONWriter(output: "")
        writer.write(
            .object([
                ("s", .string("a\"b\\c\n\t\r\u{01}\u{1F}é😀")), ("d", .double(0.1)), ("e", .double(8000)),
                ("n", .double(.nan)), ("i", .double(.infinity)), ("u", .uint(UInt64.max)), ("m", .int(Int64.min)),
                ("a", .array([])), ("o", .object([])), ("l", .array([.int(1), .int(2)])),
                ("x", .array([.object([("k", .null), ("b", .bool(true))])])),
            ]))
        #expect(
            writer.output == """
                {
                  "s": "a\\"b\\\\c\\n\\t\\r\\u0001\\u001fé😀",
                  "d": 0.1,
                  "e": 8000.0,
                  "n": null,
                  "i": null,
                  "u": 18446744073709551615,
                  "m": -9223372036854775808,
                  "a": [],
                  "o": {},
                  "l": [1, 2],
                  "x": [
                    {"k": null, "b": true}
                  ]
                }

                """)
    }

    @Test("the chunker cuts any reads into exact chunks")
    func chunkerCutsExactly() {
        let input = Array(0..<100).map { UInt8($0) }
        for size in [1, 3, 7, 64, 100, 1000] {
            var chunker = Chunker(size: size)
            var chunks: [[UInt8]] = []
            var i = 0
            for read in [5, 1, 0, 33, 2, 59] {
                input.withUnsafeBytes { raw in
                    chunker.feed(UnsafeRawBufferPointer(rebasing: raw[i..<(i + read)])) { chunks.append(Array($0)) }
                }
                i += read
            }
            chunker.flush { chunks.append(Array($0)) }
            #expect(chunks.flatMap { $0 } == input)
            #expect(chunks.dropLast().allSatisfy { $0.count == size })
            #expect((chunks.last?.count ?? 0) <= size)
        }
    }

    @Test("the text summary names the format, duration and tags")
    func textSummary() throws {
        let report = Inspector.inspect(
            bytes: try Fixtures.bytes("au/pcm_mulaw-8000-1ch-annotation.au"), source: "a.au",
            options: InspectOptions(collectPackets: true))
        var text = ""
        report.writeText(to: &text, includePackets: true)
        #expect(text.contains("File type       NeXT (NeXT/Sun audio)\n"))
        #expect(text.contains("Data format     µ-law (ulaw), 8000 Hz, 1 channel, 8 bits\n"))
        #expect(text.contains("Duration        0.300 s, 2400 frames\n"))
        #expect(text.contains("Data offset     56\n"))
        #expect(text.contains("[au-annotation] Title = AU Title"))
        #expect(text.contains("title: AU Title"))
        #expect(text.contains("\n      2399          2455         1         1\n"))
    }

    /// Layout tags from Apple's CoreAudioBaseTypes.h: Stereo (101 << 16 | 2), UseChannelBitmap (1 << 16),
    /// MPEG_5_1_A (121 << 16 | 6, FLAC's 6-channel order), MPEG_5_1_D (124 << 16 | 6, AAC_5_1).
    static let layoutFixtures: [(path: String, tag: Int, name: String, text: String)] = [
        ("wav/pcm_s16le-44100-2ch.wav", 101 << 16 | 2, "Stereo", "Stereo, 2 channels"),
        (
            "wav/pcm_s16le-48000-6ch.wav", 1 << 16, "UseChannelBitmap",
            "UseChannelBitmap, bitmap 0x0000003F, 6 channels, labels 1 2 3 4 5 6"
        ),
        ("flac/flac-48000-6ch-s16-b1152.flac", 121 << 16 | 6, "MPEG_5_1_A", "MPEG_5_1_A, 6 channels"),
        ("adts/aac-48000-6ch.aac", 124 << 16 | 6, "MPEG_5_1_D", "MPEG_5_1_D, 6 channels"),
    ]

    @Test("the channel layout shows its tag's name; the JSON keeps the tag number and adds tagName")
    func channelLayoutName() throws {
        for fixture in Self.layoutFixtures {
            let report = Inspector.inspect(
                bytes: try Fixtures.bytes(fixture.path), source: fixture.path, options: InspectOptions())
            var text = ""
            report.writeText(to: &text, includePackets: false)
            #expect(text.contains("Channel layout  \(fixture.text)\n"), "\(fixture.path)")
            let json = report.jsonText
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let layout = try #require(doc["channelLayout"] as? [String: Any])
            #expect(layout["tag"] as? Int == fixture.tag, "\(fixture.path)")
            #expect(layout["tagName"] as? String == fixture.name, "\(fixture.path)")
            // Member order as printed (docs/cli.md): tag, tagName, bitmap, channelLabels.
            let start = try #require(json.range(of: "\"channelLayout\"")).upperBound
            let members = ["\"tag\"", "\"tagName\"", "\"bitmap\"", "\"channelLabels\""].compactMap {
                json.range(of: $0, range: start..<json.endIndex)?.lowerBound
            }
            #expect(members.count == 4 && members == members.sorted(), "\(fixture.path)")
        }
    }

    @Test("MP3 with ID3v2.4 text, APIC artwork and CTOC/CHAP chapters: the text summary and JSON show them")
    func mp3TagsArtworkAndChapters() throws {
        // Fixtures/generate.sh, tags/id3v24-mutagen-chapters.mp3 (tools/metadata_tags.py): a 100-byte PNG
        // front cover (picture type 3), chapters Intro 0–150 ms, Middle 150–300 ms, End 300–500 ms.
        let name = "tags/id3v24-mutagen-chapters.mp3"
        let report = Inspector.inspect(bytes: try Fixtures.bytes(name), source: name, options: InspectOptions())
        var text = ""
        report.writeText(to: &text, includePackets: false)
        #expect(text.contains("File type       MPG3"))
        #expect(text.contains("Artwork         image/png, picture type 3, 100 bytes\n"))
        #expect(text.contains("Chapters        0.000 – 0.150 s: Intro\n"))
        #expect(text.contains("                0.150 – 0.300 s: Middle\n"))
        #expect(text.contains("                0.300 – 0.500 s: End\n"))
        #expect(text.contains("[id3v2] APIC") || text.contains("[id3v2] TIT2"))

        let doc = try #require(
            try JSONSerialization.jsonObject(with: Data(report.jsonText.utf8)) as? [String: Any])
        let artwork = try #require(doc["artwork"] as? [[String: Any]])
        #expect(artwork.count == 1)
        #expect(artwork.first?["mimeType"] as? String == "image/png")
        #expect(artwork.first?["pictureType"] as? Int == 3)
        #expect(artwork.first?["bytes"] as? Int == 100)
        let chapters = try #require(doc["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == ["Intro", "Middle", "End"])
        #expect(chapters.map { $0["startSeconds"] as? Double } == [0, 0.15, 0.3])
        #expect(chapters.map { $0["endSeconds"] as? Double } == [0.15, 0.3, 0.5])
        let tags = try #require(doc["tags"] as? [[String: Any]])
        #expect(tags.contains { $0["source"] as? String == "id3v2" && $0["key"] as? String == "TIT2" })
    }

    // MARK: The built binary

    static var binary: URL? {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for case let dir? in candidates {
            let url = dir.appendingPathComponent("audioinspect")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    // These run the built binary; `swift build --build-tests` (scripts/test.sh) builds it next to the
    // tests. A missing binary is a failure, not a skip.
    @Test("the binary reads a pipe as it arrives and prints the same JSON as the file")
    func binaryReadsPipe() throws {
        let bytes = try Fixtures.bytes("au/pcm_s16be-22050-1ch.au")
        let result = try Self.runBinary(["--json", "--packets", "-"], stdin: bytes)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let expected = Inspector.inspect(bytes: bytes, source: "-", options: InspectOptions(collectPackets: true))
        #expect(result.stdout == expected.jsonText)
    }

    @Test("the binary prints one error line and exits 1 on a malformed file; 64 on a usage error")
    func binaryFailures() throws {
        let path = Fixtures.root.appendingPathComponent("malformed/au-encoding-unknown.au").path
        let failed = try Self.runBinary(["--json", path], stdin: [])
        #expect(failed.status == 1)
        #expect(failed.stderr == "audioinspect: error fmt? at offset 12: au (header): unsupported encoding\n")
        #expect(failed.stdout.contains("\"code\": \"fmt?\""))

        let missing = try Self.runBinary(["/nonexistent/file.au"], stdin: [])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("audioinspect: error io: cannot open '/nonexistent/file.au'"))
        #expect(missing.stdout.isEmpty)

        let usage = try Self.runBinary(["--chunk-size", "0", path], stdin: [])
        #expect(usage.status == 64)
    }

    // MARK: Helpers

    static func runBinary(_ arguments: [String], stdin: [UInt8]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        let url = try #require(binary as URL?)
        process.executableURL = url
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Feed the input in small pieces from another thread while the output is read here.
        let writer = input.fileHandleForWriting
        let data = Data(stdin)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + 1000)
                writer.write(data[offset..<end])
                offset = end
            }
            try? writer.close()
            done.signal()
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// The keys of the top-level object, in the order they appear in the text.
    static func topLevelKeys(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  \""), !line.hasPrefix("   ") else { return nil }
            let rest = line.dropFirst(3)
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end])
        }
    }

    /// `audioinspect: error CODE at offset N: REASON` (CODE four characters).
    static func isErrorLine(_ line: String) -> Bool {
        let prefix = "audioinspect: error "
        guard line.hasPrefix(prefix), !line.contains("\n") else { return false }
        let rest = line.dropFirst(prefix.count)
        let code = rest.prefix(4)
        let after = rest.dropFirst(4)
        guard code.count == 4, after.hasPrefix(" at offset ") else { return false }
        let tail = after.dropFirst(" at offset ".count)
        guard let colon = tail.firstIndex(of: ":") else { return false }
        return Int(tail[..<colon]) != nil && tail[colon...].hasPrefix(": ") && tail.count > tail[..<colon].count + 2
    }
}

/// Fixture access (Fixtures/ at the package root).
enum Fixtures {
    static var root: URL { URL(fileURLWithPath: FixtureCatalog.fixturesRoot) }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }

    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent(path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
