import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// Every fixture under `Fixtures/` with an ffprobe oracle: parsed whole and compared with the oracle
/// (normalized as `docs/testing.md` explains), parsed in every chunking with identical results, and
/// announced in Apple's listener order.
@Suite("Fixture conformance", .timeLimit(.minutes(5)))
struct FixtureConformanceTests {
    // MARK: Catalog

    @Test func catalogFindsFixtures() {
        #expect(!FixtureCatalog.all.isEmpty, "no fixture with an oracle under \(FixtureCatalog.fixturesRoot)")
    }

    @Test func everyMediaFixtureHasAnOracle() {
        let missing = FixtureCatalog.mediaFiles.filter { !FileManager.default.fileExists(atPath: $0.oraclePath) }
        #expect(missing.isEmpty, "fixtures without <file>.ffprobe.json: \(missing)")
    }

    /// `Fixtures/README.md`'s provenance table has exactly one row per media fixture, and every row
    /// names an existing file (`malformed/` rows may be patterns such as `malformed/flac-*`: its inputs
    /// are listed one by one in `malformed/manifest.json`).
    @Test func provenanceTableListsEveryFixtureOnce() throws {
        let readme = (FixtureCatalog.fixturesRoot as NSString).appendingPathComponent("README.md")
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- provenance:begin -->"), "no provenance markers")
        let end = try #require(text.range(of: "<!-- provenance:end -->"), "no provenance markers")
        // The first cell of each row of the table (a file path or pattern in backquotes).
        let files = text[begin.upperBound..<end.lowerBound].split(separator: "\n").filter { $0.hasPrefix("| `") }
            .compactMap { line in line.dropFirst(3).split(separator: "`", maxSplits: 1).first.map(String.init) }
        #expect(!files.isEmpty, "empty provenance table")
        var count: [String: Int] = [:]
        for file in files { count[file, default: 0] += 1 }
        let media = FixtureCatalog.mediaFiles.map(\.path)
        for path in media {
            #expect(count[path] == 1, "\(path): \(count[path] ?? 0) provenance rows in Fixtures/README.md")
        }
        let mediaSet = Set(media)
        for (file, n) in count where !file.contains("*") {
            if file.hasPrefix("malformed/") {
                let path = (FixtureCatalog.fixturesRoot as NSString).appendingPathComponent(file)
                #expect(FileManager.default.fileExists(atPath: path), "provenance row for missing \(file)")
            } else {
                #expect(mediaSet.contains(file), "provenance row for missing \(file)")
            }
            #expect(n == 1, "\(file): \(n) provenance rows")
        }
    }

    /// A fixture whose provenance note says the oracle cannot be used must have a hand-derived
    /// expectation (and every hand-derived entry must name an existing fixture).
    @Test func unusableOraclesHaveHandDerivedExpectations() {
        for (path, row) in FixtureCatalog.provenance where !path.hasPrefix("malformed/") {
            let note = row.notes.lowercased()
            if note.contains("oracle unusable") || note.contains("0 packets") || note.contains("does not know") {
                #expect(HandDerived.entries[path] != nil, "\(path): provenance says \"\(row.notes)\"")
            }
        }
        for path in HandDerived.entries.keys {
            #expect(FileManager.default.fileExists(atPath: FixtureCatalog.fixture(path).absolutePath), "\(path)")
        }
    }

    // MARK: Oracle comparison

    @Test(arguments: FixtureCatalog.all)
    func matchesOracle(_ fixture: Fixture) throws {
        if let gap = ConformanceInput.knownGap(fixture) {
            let log = ParseRunner.run(try fixture.bytes(), chunking: .whole)
            if let error = log.error {
                #expect(gap.code == nil || error.code == gap.code, "\(fixture): \(error); documented: \(gap.why)")
            } else if gap.code != nil {
                Issue.record("\(fixture) now parses: remove it from ConformanceInput.knownGaps (\(gap.why))")
            }
            return
        }
        let input = try ConformanceInput.input(for: fixture)
        var expected = try Self.expectation(for: fixture).shifted(by: input.shift)
        let log = ParseRunner.run(input.bytes, chunking: .whole, options: ConformanceInput.options(for: fixture))
        if let why = ConformanceInput.knownMissingTags[fixture.path] {
            var info: [InfoKey: String] = [:]
            if case .metadata(let m)? = log.lastValues[.infoDictionary] { info = m.info }
            for key in expected.info.keys where info[key] != nil {
                Issue.record(
                    "\(fixture): \(key) is now read: remove it from ConformanceInput.knownMissingTags (\(why))")
            }
            expected.info = [:]
        }
        if let corrected = ConformanceInput.correctedTags[fixture.path] {
            expected.info.merge(corrected.info) { _, hand in hand }
            expected.source += "; tags corrected by hand (\(corrected.why))"
        }
        for mismatch in Self.compare(log, with: expected) {
            Issue.record("\(fixture): \(mismatch)  [expected from \(expected.source)]")
        }
    }

    /// A hand-derived expectation must not contradict what a (partly usable) oracle does say.
    @Test(arguments: HandDerived.entries.keys.sorted())
    func handDerivedAgreesWithOracleStream(_ path: String) throws {
        let fixture = FixtureCatalog.fixture(path)
        guard case .stream(let hand)? = HandDerived.entries[path]?.kind,
            FileManager.default.fileExists(atPath: fixture.oraclePath)
        else { return }
        let oracle = try fixture.oracle()
        guard let stream = oracle.stream, let codec = stream.codecName else { return }
        #expect(CodecTable.entry(codec)?.format == hand.format, "\(path): codec \(codec)")
        #expect(stream.sampleRate == hand.sampleRate, "\(path)")
        #expect(stream.channels == hand.channels, "\(path)")
    }

    // MARK: CAF packet table after the data

    /// Every CAF fixture with a VBR format whose `pakt` follows the `data` is in the list (and only those).
    @Test func packetTableAfterDataListIsComplete() throws {
        var found: Set<String> = []
        for fixture in FixtureCatalog.all where fixture.folder == "caf" {
            if let layout = CAFLayout(try fixture.bytes()), layout.packetTableFollowsData { found.insert(fixture.path) }
        }
        #expect(found == ConformanceInput.packetTableAfterData)
    }

    /// As they are, these files stop with `optm` at the data chunk header (oracle first_pos − 12 − 4 for the
    /// edit count), after announcing the format the oracle names, without `readyToProducePackets` or
    /// packets — in every chunking.
    @Test(arguments: ConformanceInput.packetTableAfterData.sorted())
    func packetTableAfterDataStopsWithNotOptimized(_ path: String) throws {
        let fixture = FixtureCatalog.fixture(path)
        let oracle = try fixture.oracle()
        let expected = try ExpectedStream(oracle: oracle, file: fixture.bytes())
        let (log, failures) = ChunkingVerifier.verify(try fixture.bytes())
        #expect(failures.isEmpty, "\(path): \(failures)")
        let error = try #require(log.error, "\(path): parsed although its pakt follows the data")
        #expect(error.code == .notOptimized, "\(path): \(error)")
        // At the end of the data chunk: where the table is needed (docs/formats/caf.md, "pakt after data").
        let data = try #require(CAFLayout(try fixture.bytes())?.first("data"))
        #expect(error.byteOffset == Int64(data.end), "\(path): \(error)")
        #expect(expected.dataOffset == Int64(data.offset) + 16, "\(path)")
        #expect(log.packetCount == 0)
        #expect(!log.propertyOrder.contains(.readyToProducePackets))
        guard case .dataFormat(let asbd)? = log.lastValues[.dataFormat] else {
            Issue.record("\(path): no dataFormat before optm")
            return
        }
        #expect(asbd.formatID == expected.format && asbd.sampleRate == Double(expected.sampleRate), "\(path)")
        #expect(Int(asbd.channelsPerFrame) == expected.channels, "\(path)")
    }

    // MARK: Chunking

    @Test(arguments: FixtureCatalog.all)
    func sameEventsInEveryChunking(_ fixture: Fixture) throws {
        let input = try ConformanceInput.input(for: fixture).bytes
        let (reference, failures) = ChunkingVerifier.verify(input, options: ConformanceInput.options(for: fixture))
        if let gap = ConformanceInput.knownGap(fixture) {
            guard gap.code != nil else { return }
            #expect(reference.error?.code == gap.code, "\(fixture): \(String(describing: reference.error))")
        } else {
            #expect(reference.error == nil, "\(fixture): \(String(describing: reference.error))")
        }
        for failure in failures {
            Issue.record("\(fixture): \(failure)")
        }
    }

    // MARK: Listener order

    /// Apple clients expect (DESIGN.md, audiofilestream.md §4.2): fileFormat → dataFormat → formatList →
    /// magicCookie → channelLayout → byte/packet counts (and packet sizes) → bitRate → packetTableInfo →
    /// metadata → dataOffset → readyToProducePackets → packets. Ties are properties the order leaves free.
    static let appleOrder: [AudioStreamPropertyID: Int] = [
        .fileFormat: 0, .dataFormat: 1, .formatList: 2, .magicCookieData: 3, .channelLayout: 4,
        .audioDataByteCount: 5, .audioDataPacketCount: 6, .maximumPacketSize: 7, .packetSizeUpperBound: 7,
        .averageBytesPerPacket: 7, .bitRate: 8, .packetTableInfo: 9, .infoDictionary: 10,
        .restrictsRandomAccess: 11, .dataOffset: 12, .readyToProducePackets: 13,
    ]

    @Test(arguments: FixtureCatalog.all)
    func announcesInAppleOrder(_ fixture: Fixture) throws {
        if ConformanceInput.knownGap(fixture) != nil { return }
        let input = try ConformanceInput.input(for: fixture).bytes
        // The whole-file run only: `sameEventsInEveryChunking` proves every other chunking announces the same.
        let options = ConformanceInput.options(for: fixture)
        for problem in Self.orderProblems(ParseRunner.run(input, chunking: .whole, options: options)) {
            Issue.record("\(fixture): \(problem)")
        }
    }

    /// Checks the announcements up to `readyToProducePackets`.
    static func orderProblems(_ log: EventLog) -> [String] {
        var problems: [String] = []
        var prefix: [AudioStreamPropertyID] = []
        var sawReady = false
        for entry in log.entries {
            switch entry {
            case .property(let v) where !sawReady:
                prefix.append(v.id)
                if v.id == .readyToProducePackets { sawReady = true }
            case .packets(let run) where !sawReady:
                problems.append("packet \(run.firstPacketIndex) before readyToProducePackets")
                sawReady = true
            default:
                break
            }
        }
        guard sawReady else { return ["readyToProducePackets never announced; announced \(prefix)"] }
        if prefix.first != .fileFormat {
            problems.append("first announcement is \(prefix.first.map { "\($0)" } ?? "none"), not ffmt")
        }
        if prefix.count < 2 || prefix[prefix.count - 2] != .dataOffset {
            problems.append("dataOffset is not announced right before readyToProducePackets: \(prefix)")
        }
        if !prefix.contains(.dataFormat) { problems.append("dataFormat not announced before readyToProducePackets") }
        if Set(prefix).count != prefix.count { problems.append("a property is announced twice before redy: \(prefix)") }
        var last = -1
        for id in prefix {
            guard let rank = appleOrder[id] else {
                problems.append("unexpected property \(id) in the header announcements")
                continue
            }
            if rank < last { problems.append("\(id) announced out of Apple's order: \(prefix)") }
            last = max(last, rank)
        }
        return problems
    }

    // MARK: Helpers

    /// The expectation for a fixture: hand-derived when the table has it, else from its oracle.
    static func expectation(for fixture: Fixture) throws -> ExpectedStream {
        if let hand = HandDerived.entries[fixture.path] {
            switch hand.kind {
            case .stream(let s):
                return s
            case .sameStreamAs(let other):
                let source = FixtureCatalog.fixture(other)
                var e = try ExpectedStream(oracle: source.oracle(), file: source.bytes())
                e.source = "oracle of \(other) (\(hand.why))"
                return e
            case .computed(let make):
                return try make()
            case .correctedOracle(let codec, let blockAlign):
                var oracle = try fixture.oracle()
                if let codec { oracle.stream?.codecName = codec }
                if let blockAlign { oracle.stream?.blockAlign = blockAlign }
                var e = try ExpectedStream(oracle: oracle, file: fixture.bytes())
                e.source = "ffprobe oracle, corrected by hand (\(hand.why))"
                return e
            }
        }
        do {
            return try ExpectedStream(oracle: fixture.oracle(), file: fixture.bytes())
        } catch let error as ExpectationError {
            throw ExpectationError("\(fixture): \(error) — the oracle is not usable: add a HandDerived entry")
        }
    }

    /// Every difference between a whole-file parse and the expectation, as readable lines.
    static func compare(_ log: EventLog, with e: ExpectedStream) -> [String] {
        var out: [String] = []
        func check<T: Equatable>(_ what: String, _ got: T?, _ want: T) {
            if got != want { out.append("\(what): expected \(want), got \(got.map { "\($0)" } ?? "nil")") }
        }
        if let error = log.error { out.append("parse failed: \(error)") }
        let values = log.lastValues
        guard case .dataFormat(let asbd)? = values[.dataFormat] else {
            out.append("no dataFormat announced")
            return out
        }
        check("codec family (mFormatID)", asbd.formatID, e.format)
        check("sample rate", asbd.sampleRate, Double(e.sampleRate))
        check("channels", Int(asbd.channelsPerFrame), e.channels)
        if let pcm = e.pcm, asbd.formatID == .linearPCM {
            check("bits per channel", Int(asbd.bitsPerChannel), pcm.bits)
            check("bytes per frame", Int(asbd.bytesPerFrame), e.channels * pcm.bits / 8)
            check("frames per packet", asbd.framesPerPacket, 1)
            check("float flag", asbd.formatFlags & LinearPCMFlags.isFloat != 0, pcm.isFloat)
            check("signed-integer flag", asbd.formatFlags & LinearPCMFlags.isSignedInteger != 0, pcm.isSigned)
            if let be = pcm.isBigEndian {
                check("big-endian flag", asbd.formatFlags & LinearPCMFlags.isBigEndian != 0, be)
            }
        }
        if let unit = e.constantPacketSize {
            check("bytes per packet (block_align)", Int(asbd.bytesPerPacket), unit)
        }
        if case .dataOffset(let off)? = values[.dataOffset] {
            check("dataOffset (first_pos; Matroska: the first Cluster)", off, e.dataOffset)
        } else {
            out.append("no dataOffset announced")
        }
        if case .audioDataByteCount(let n)? = values[.audioDataByteCount] {
            check("audioDataByteCount (summary.bytes)", Int64(n), e.byteCount)
        } else {
            out.append("audioDataByteCount never announced (expected \(e.byteCount))")
        }
        let packets = log.packets
        let sum = packets.reduce(Int64(0)) { $0 + Int64($1.size) }
        // The packets' bytes: the audio data, less frame headers where packets are framed (ADTS).
        let payload = e.packets.map { $0.reduce(Int64(0)) { $0 + $1.size } } ?? e.byteCount
        check("sum of packet sizes", sum, payload)
        if case .audioDataPacketCount(let n)? = values[.audioDataPacketCount] {
            check("audioDataPacketCount (packets delivered)", Int(n), packets.count)
        } else {
            out.append("audioDataPacketCount never announced (\(packets.count) packets delivered)")
        }
        let fpp = Int64(asbd.framesPerPacket)
        let frames = packets.reduce(Int64(0)) { $0 + ($1.frames != 0 ? Int64($1.frames) : fpp) }
        if e.frameTolerance > 0 {
            if e.frameTolerance < Int64.max, abs(frames - e.frameCount) > e.frameTolerance {
                out.append("frame count: expected \(e.frameCount) ± \(e.frameTolerance), got \(frames)")
            }
        } else {
            check("frame count (summary.duration_sum)", frames, e.frameCount)
        }
        if let want = e.packets {
            let got = packets.map { PacketSpan(offset: $0.offset, size: Int64($0.size)) }
            if let difference = describeFirstDifference(got: got, expected: want) {
                out.append("packets: \(difference)")
            }
        }
        if !e.info.isEmpty {
            let info: [InfoKey: String]
            if case .metadata(let m)? = values[.infoDictionary] { info = m.info } else { info = [:] }
            for (key, want) in e.info.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                check("info[\(key)] (format_tags)", info[key], want)
            }
        }
        return out
    }
}
