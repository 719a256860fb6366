import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// Every input of `Fixtures/malformed/` (listed with its defect in `manifest.json`) must end with the
/// outcome `expected.json` states (derived from the specifications by the rules in `docs/testing.md`):
/// an `AudioStreamError` with the given code, or a parse with the given packets and diagnostic. Never a
/// trap or a hang; whole and one-byte feeding agree; tight `ParserLimits` give the same outcome or
/// `lim!`.
///
/// The time limit guards against a hang, it does not measure speed: a test's clock runs while it waits
/// for a core, and the whole suite runs in parallel on CI's two cores (two minutes proved too short
/// under load, although the suite takes about two seconds alone).
@Suite("Malformed inputs", .timeLimit(.minutes(10)))
struct MalformedTests {
    /// One row of `expected.json`.
    struct Expectation: Decodable, Sendable {
        init(
            outcome: String, code: String? = nil, phase: String? = nil, packets: Int? = nil,
            diagnostic: String? = nil, rule: String, options: [String]? = nil
        ) {
            (self.outcome, self.code, self.phase, self.packets) = (outcome, code, phase, packets)
            (self.diagnostic, self.rule, self.options) = (diagnostic, rule, options)
        }

        /// `"error"` or `"ok"`.
        var outcome: String
        /// For errors: the four-character code.
        var code: String?
        /// For errors: `"parse"` (a complete invalid structure throws at once) or `"finish"` (the stream
        /// ended where it cannot end); absent when either is acceptable.
        var phase: String?
        /// For ok: the number of packets delivered, when the rule fixes it.
        var packets: Int?
        /// For ok: a substring one of the diagnostics must contain.
        var diagnostic: String?
        /// The rule in docs/testing.md that gives this expectation.
        var rule: String
        /// `ParserOptions` switched on for the runs (the only one: `"verifiesFLACFrameCRC"`).
        var options: [String]?

        /// The options the runs use, from `base`.
        func parserOptions(_ base: ParserOptions = ParserOptions()) -> ParserOptions {
            var o = base
            if options?.contains("verifiesFLACFrameCRC") == true { o.verifiesFLACFrameCRC = true }
            return o
        }
    }

    static let expectations: [String: Expectation] = {
        let path = (FixtureCatalog.malformedRoot as NSString).appendingPathComponent("expected.json")
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return (try? JSONDecoder().decode([String: Expectation].self, from: data)) ?? [:]
    }()

    /// Where an error was thrown.
    enum Phase: String, Equatable {
        case parse, finish
    }

    /// What a run produced.
    struct Outcome: Equatable, CustomStringConvertible {
        var log: EventLog
        var phase: Phase?
        var error: AudioStreamError? { log.error }
        var description: String {
            if let error { return "error \(error) during \(phase?.rawValue ?? "?")" }
            return "ok, \(log.packetCount) packets, diagnostics \(log.diagnostics.map(\.message))"
        }
    }

    static func run(_ input: [UInt8], _ chunking: Chunking, options: ParserOptions = ParserOptions()) -> Outcome {
        let parser = AudioStreamParser(options: options)
        let recorder = EventRecorder(parser, input: input)
        var phase: Phase = .parse
        do {
            for r in chunking.ranges(count: input.count) { try parser.parse(input[r]) }
            phase = .finish
            try parser.finish()
        } catch {
            recorder.log.error = error
            return Outcome(log: recorder.log, phase: phase)
        }
        return Outcome(log: recorder.log, phase: nil)
    }

    /// Tight caps: every limit small enough that the fixtures (≤ 4 KiB headers) come close to them.
    static let smallLimits = ParserOptions(
        limits: ParserLimits(
            maxBufferedBytes: 2048, maxHeaderChunkBytes: 256, maxTagBytes: 64, maxArtworkBytes: 64,
            maxPacketTableEntries: 2, maxNestingDepth: 2, maxPacketBytes: 64),
        detectionLookahead: 1024)

    // MARK: Table

    @Test func everyManifestEntryHasAnExpectation() {
        #expect(!FixtureCatalog.malformed.isEmpty, "no Fixtures/malformed/manifest.json")
        let listed = Set(FixtureCatalog.malformed.map(\.file))
        let expected = Set(Self.expectations.keys)
        #expect(listed.subtracting(expected).isEmpty, "no expectation for \(listed.subtracting(expected).sorted())")
        #expect(
            expected.subtracting(listed).isEmpty, "expectation for unlisted \(expected.subtracting(listed).sorted())")
        for entry in FixtureCatalog.malformed {
            let path = (FixtureCatalog.malformedRoot as NSString).appendingPathComponent(entry.file)
            #expect(FileManager.default.fileExists(atPath: path), "\(entry.file) is listed but missing")
        }
    }

    @Test func expectationsAreWellFormed() {
        let codes = Set(AudioStreamError.Code.all.map(\.description))
        for (file, e) in Self.expectations {
            switch e.outcome {
            case "error":
                #expect(e.code.map { codes.contains($0) } == true, "\(file): code \(String(describing: e.code))")
                #expect(e.packets == nil && e.diagnostic == nil, "\(file)")
                #expect(e.phase == nil || e.phase == "parse" || e.phase == "finish", "\(file)")
            case "ok":
                #expect(e.code == nil && e.phase == nil, "\(file)")
                #expect((e.options ?? []).allSatisfy { $0 == "verifiesFLACFrameCRC" }, "\(file): \(e.options ?? [])")
            default:
                Issue.record("\(file): outcome \(e.outcome)")
            }
        }
    }

    // MARK: Outcomes

    @Test(arguments: FixtureCatalog.malformed)
    func endsWithTheDocumentedOutcome(_ entry: MalformedEntry) throws {
        let expectation = try #require(Self.expectations[entry.file], "no expectation for \(entry.file)")
        let input = try Self.bytes(entry)
        let whole = Self.run(input, .whole, options: expectation.parserOptions())
        let bytewise = Self.run(input, .bytewise, options: expectation.parserOptions())
        let context = "\(entry.file) [\(entry.defect)] (rule \(expectation.rule))"
        for problem in Self.problems(whole, against: expectation) {
            Issue.record("\(context), whole: \(problem)")
        }
        // Whole and one-byte feeding must agree: same outcome, error (code, offset, reason), phase,
        // packets and diagnostics.
        if bytewise != whole {
            let details = bytewise.log.differences(from: whole.log).joined(separator: "; ")
            let message = "\(context): 1-byte run differs from whole run: \(bytewise) vs \(whole) — \(details)"
            Issue.record(Comment(rawValue: message))
        }
        #expect(whole.log.bytesMismatches.isEmpty, "\(context): \(whole.log.bytesMismatches)")
    }

    /// Tight limits never make a malformed input trap or hang: the outcome is the documented one, or
    /// `lim!`, in every chunking.
    @Test(arguments: FixtureCatalog.malformed)
    func tightLimitsGiveTheOutcomeOrLimitExceeded(_ entry: MalformedEntry) throws {
        let expectation = try #require(Self.expectations[entry.file])
        let input = try Self.bytes(entry)
        for chunking in [Chunking.whole, .bytewise, .random(seed: 5, maxSize: 300)] {
            let outcome = Self.run(input, chunking, options: expectation.parserOptions(Self.smallLimits))
            guard let error = outcome.error else {
                if expectation.outcome != "ok" {
                    Issue.record(
                        "\(entry.file) (\(chunking), small limits): parsed although \(expectation.code ?? "") expected")
                }
                continue
            }
            if error.code != .limitExceeded && error.code.description != expectation.code {
                Issue.record(
                    "\(entry.file) (\(chunking), small limits): \(error); expected \(expectation.code ?? "ok") or lim!")
            }
        }
    }

    // MARK: Packet-table defects with the table first

    /// The `caf-pakt-*` inputs derive from a file whose `pakt` follows its `data`, so the parser stops with
    /// `optm` at the data chunk before it sees the defect. Moved before the data (the defect unchanged),
    /// the defects are reached. Expectations by the same rules (docs/testing.md):
    static let packetTableFirst: [(file: String, expectation: Expectation)] = [
        // O7: mNumberPackets 2^40 but the chunk holds 3 entries that describe the data exactly: the entries
        // present are used, with a diagnostic about the count (the CAF parser's reading, kept: tolerant and
        // exact).
        (
            "caf-pakt-count-2e40.caf",
            Expectation(outcome: "ok", packets: 3, diagnostic: "mNumberPackets", rule: "O7")
        ),
        // O7: mNumberPackets 1 (19 bytes) for 61 bytes of data: the one packet the table describes is
        // delivered, the rest skipped, each oddity diagnosed (the CAF parser's reading, kept).
        (
            "caf-pakt-count-too-small.caf",
            Expectation(outcome: "ok", packets: 1, diagnostic: "packet table describes", rule: "O7")
        ),
        // O7: impossible valid-frame count: the packets are still delimited; the gapless info is dropped
        // with a diagnostic (docs/formats/caf.md: "otherwise a diagnostic and no packetTableInfo").
        (
            "caf-pakt-valid-frames-huge.caf",
            Expectation(outcome: "ok", packets: 3, diagnostic: "pakt", rule: "O7")
        ),
        // T3: the last varint runs past the pakt chunk.
        ("caf-pakt-varint-overrun.caf", Expectation(outcome: "error", code: "dta?", phase: "parse", rule: "T3")),
    ]

    @Test(arguments: packetTableFirst.map(\.file))
    func packetTableDefectsAreReachedWithTheTableFirst(_ file: String) throws {
        let expectation = try #require(Self.packetTableFirst.first { $0.file == file }?.expectation)
        let path = (FixtureCatalog.malformedRoot as NSString).appendingPathComponent(file)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let moved = try #require(CAFLayout.movingPacketTableBeforeData(original), "\(file): no pakt after data")
        let whole = Self.run(moved.bytes, .whole)
        for problem in Self.problems(whole, against: expectation) {
            Issue.record("\(file) with pakt first (rule \(expectation.rule)): \(problem)")
        }
        let bytewise = Self.run(moved.bytes, .bytewise)
        #expect(bytewise == whole, "\(file) with pakt first: 1-byte run \(bytewise) vs whole \(whole)")
    }

    // MARK: Helpers

    static func bytes(_ entry: MalformedEntry) throws -> [UInt8] {
        let path = (FixtureCatalog.malformedRoot as NSString).appendingPathComponent(entry.file)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func problems(_ outcome: Outcome, against e: Expectation) -> [String] {
        var out: [String] = []
        switch (e.outcome, outcome.error) {
        case ("error", let error?):
            if error.code.description != e.code { out.append("threw \(error), expected \(e.code ?? "?")") }
            if let phase = e.phase, outcome.phase?.rawValue != phase {
                out.append("threw during \(outcome.phase?.rawValue ?? "?"), expected during \(phase): \(error)")
            }
        case ("error", nil):
            out.append("parsed (\(outcome)), expected \(e.code ?? "?")")
        case (_, let error?):
            out.append("threw \(error), expected a parse (\(e.packets.map { "\($0) packets" } ?? "ok"))")
        default:
            if let n = e.packets, outcome.log.packetCount != n {
                out.append("\(outcome.log.packetCount) packets, expected \(n)")
            }
            if let d = e.diagnostic, !outcome.log.diagnostics.contains(where: { $0.message.contains(d) }) {
                out.append("no diagnostic containing \"\(d)\" in \(outcome.log.diagnostics.map(\.message))")
            }
        }
        return out
    }
}
