import Testing

@testable import AudioStreamParsing

/// `PositionTable` against a plain `[Int64]` holding the same values (the model): every read, after
/// appends, `replaceLast`, `removeLast` and `prefix`, for small steps, steps around the 0xFFFF escape,
/// huge and negative steps, runs of one step (uniform blocks), and tables that cross anchor boundaries
/// (every 64 entries) and step pages (every 4096).
@Suite("PositionTable")
struct PositionTableTests {
    /// A small deterministic generator (SplitMix64), so that failures replay.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// A value in `0 ..< bound` (bound > 0).
        mutating func below(_ bound: Int64) -> Int64 { Int64(next() % UInt64(bound)) }
    }

    /// How the steps between consecutive values are drawn.
    enum StepKind: CaseIterable, CustomStringConvertible {
        /// 0 ..< 100: every step fits.
        case small
        /// Around the escape: 0xFFFD … 0x10001.
        case threshold
        /// Up to 2^40: every step escapes.
        case huge
        /// Mixed: mostly small, some at the threshold, some huge, some zero.
        case mixed
        /// Mostly small, some negative (the table is not ascending).
        case negative
        /// 960 (uniform blocks, as constant frames per packet make), now and then another step.
        case constant
        /// 0xFFFE, the largest step kept as a step, every time (uniform blocks of it).
        case constantLargest

        var description: String {
            switch self {
            case .small: "small"
            case .threshold: "threshold"
            case .huge: "huge"
            case .mixed: "mixed"
            case .negative: "negative"
            case .constant: "constant"
            case .constantLargest: "constantLargest"
            }
        }

        func step(_ g: inout Generator) -> Int64 {
            switch self {
            case .small: return g.below(100)
            case .threshold: return 0xFFFD + g.below(5)
            case .huge: return g.below(1 << 40)
            case .mixed:
                switch g.below(10) {
                case 0: return 0xFFFD + g.below(5)
                case 1: return g.below(1 << 40)
                case 2: return 0
                default: return g.below(3000)
                }
            case .negative:
                return g.below(4) == 0 ? -g.below(1 << 20) : g.below(2000)
            case .constant:
                return g.below(150) == 0 ? g.below(70_000) : 960
            case .constantLargest:
                return 0xFFFE
            }
        }
    }

    /// `count` values from `start`, with steps of `kind`.
    static func values(_ kind: StepKind, count: Int, start: Int64 = 0, seed: UInt64) -> [Int64] {
        var g = Generator(state: seed)
        var values: [Int64] = []
        var value = start
        for _ in 0..<count {
            values.append(value)
            value += kind.step(&g)
        }
        return values
    }

    /// Lengths that end just before, on and after anchor boundaries.
    static let lengths = [0, 1, 2, 63, 64, 65, 127, 128, 129, 300]

    /// Every read of `table` equals the model's.
    static func expectSame(_ table: PositionTable, _ model: [Int64], _ label: String) {
        #expect(table.count == model.count, "\(label): count")
        #expect(table.isEmpty == model.isEmpty, "\(label): isEmpty")
        #expect(table.first == model.first, "\(label): first")
        #expect(table.last == model.last, "\(label): last")
        var mismatches = 0
        for i in model.indices where table[i] != model[i] {
            mismatches += 1
            if mismatches <= 3 { Issue.record("\(label): [\(i)] is \(table[i]), expected \(model[i])") }
        }
        #expect(Array(table) == model, "\(label): iteration")
        for i in model.indices.dropLast() {
            let (difference, overflow) = model[i + 1].subtractingReportingOverflow(model[i])
            if !overflow && table.step(after: i) != difference {
                Issue.record("\(label): step(after: \(i)) is \(table.step(after: i)), expected \(difference)")
                break
            }
        }
        // The storage is canonical: the same values always give an equal table.
        #expect(table == PositionTable(model), "\(label): equal to a table built from the values")
    }

    /// The model's answer: the last index whose value is not above `value`, 0 when there is none.
    static func modelLastIndex(_ model: [Int64], notAbove value: Int64) -> Int {
        model.lastIndex(where: { $0 <= value }) ?? 0
    }

    @Test("empty table")
    func empty() {
        let table = PositionTable()
        #expect(table.count == 0)
        #expect(table.isEmpty)
        #expect(table.first == nil)
        #expect(table.last == nil)
        #expect(Array(table) == [])
        #expect(table.prefix(0) == table)
        #expect(table.prefix(5) == table)
        #expect(table == PositionTable([]))
        #expect(table == [])
        var emptied: PositionTable = [7]
        emptied.removeLast()
        #expect(emptied == table)
    }

    @Test("appends equal the model", arguments: StepKind.allCases)
    func appends(kind: StepKind) {
        for length in Self.lengths {
            let model = Self.values(kind, count: length, start: 1000, seed: UInt64(length) + 1)
            var table = PositionTable()
            for value in model { table.append(value) }
            Self.expectSame(table, model, "\(kind) × \(length)")
        }
    }

    @Test("append(steps:) in runs of every length equals the model", arguments: StepKind.allCases)
    func appendSteps(kind: StepKind) {
        // Steps that are not a UInt16 (huge, negative) are not for append(steps:): those kinds give 0xFFFF,
        // the escape, which append(steps:) passes to append.
        let model = Self.values(kind, count: 9000, start: 500, seed: 57).reduce(into: [Int64]()) { values, v in
            guard let last = values.last else { return values.append(v) }
            let step = v - last
            values.append(last + (step >= 0 && step <= 0xFFFF ? step : 0xFFFF))
        }
        var g = Generator(state: 3)
        var table: PositionTable = [model[0]]
        var i = 1
        while i < model.count {
            // Runs of 1 … 200 steps, crossing anchors (every 64) and step pages (every 4096).
            let n = min(Int(g.below(200)) + 1, model.count - i)
            let steps = (i..<(i + n)).map { UInt16(model[$0] - model[$0 - 1]) }
            table.append(steps: steps[...])
            i += n
            if g.below(8) == 0 { Self.expectSame(table, Array(model[..<i]), "\(kind) after \(i)") }
        }
        Self.expectSame(table, model, "\(kind) × \(model.count) in runs")
    }

    @Test("extreme values and steps that overflow Int64")
    func extremes() {
        let model: [Int64] = [
            .min, .max, .min, 0, -1, .max, .max - 1, .max, .min + 1, .min, 0xFFFE, 0xFFFE + 0xFFFE,
            0xFFFE + 0xFFFE + 0xFFFF, 5, 5, 5,
        ]
        var table = PositionTable()
        for value in model { table.append(value) }
        Self.expectSame(table, model, "extremes")
        // Long enough to cross anchors, alternating extremes.
        let long = (0..<200).map { $0 % 3 == 0 ? Int64.min + Int64($0) : Int64.max - Int64($0) }
        Self.expectSame(PositionTable(long), long, "alternating extremes")
    }

    @Test("replaceLast at every position", arguments: StepKind.allCases)
    func replaceLast(kind: StepKind) {
        let base = Self.values(kind, count: 200, start: 50_000, seed: 7)
        var g = Generator(state: 99)
        for n in 1...base.count {
            let previous = n > 1 ? base[n - 2] : 0
            // Replacements: the same value as before, a small step, the largest step that fits, the
            // escape, a huge step, a negative step, an extreme value.
            let replacements: [Int64] = [
                previous, previous + 3, previous + 0xFFFE, previous + 0xFFFF, previous + (1 << 36),
                previous - 1 - g.below(1000), .min, .max,
            ]
            for replacement in replacements {
                var model = Array(base.prefix(n))
                var table = PositionTable(model)
                table.replaceLast(replacement)
                model[model.count - 1] = replacement
                Self.expectSame(table, model, "\(kind): replaceLast(\(replacement)) at \(n - 1)")
                // Appending after the replacement continues from the new value.
                let next = replacement == .max ? replacement : replacement + 1
                table.append(next)
                model.append(next)
                Self.expectSame(table, model, "\(kind): append after replaceLast at \(n - 1)")
            }
        }
    }

    @Test("the parsers' pattern: replace the end entry with the next start, append the new end")
    func frontierPattern() {
        // MP3, ADTS and FLAC keep `count + 1` entries: every frame replaces the end with its start (equal
        // unless bytes were skipped) and appends its end.
        var g = Generator(state: 3)
        var model: [Int64] = [0, 417]
        var table: PositionTable = [0, 417]
        for _ in 0..<1000 {
            let gap: Int64 = g.below(20) == 0 ? g.below(200_000) : 0
            let start = model[model.count - 1] + gap
            let size = g.below(20) == 0 ? 70_000 + g.below(10) : 100 + g.below(1400)
            table.replaceLast(start)
            table.append(start + size)
            model[model.count - 1] = start
            model.append(start + size)
        }
        Self.expectSame(table, model, "frontier")
    }

    @Test("removeLast at every length", arguments: StepKind.allCases)
    func removeLast(kind: StepKind) {
        var model = Self.values(kind, count: 150, start: -500, seed: 11)
        var table = PositionTable(model)
        while !model.isEmpty {
            #expect(table.removeLast() == model.removeLast())
            Self.expectSame(table, model, "\(kind): after removeLast to \(model.count)")
        }
    }

    @Test("prefix of every length", arguments: StepKind.allCases)
    func prefix(kind: StepKind) {
        let model = Self.values(kind, count: 200, start: 12, seed: 5)
        let table = PositionTable(model)
        for n in 0...(model.count + 2) {
            let expected = Array(model.prefix(n))
            let prefix = table.prefix(n)
            Self.expectSame(prefix, expected, "\(kind): prefix(\(n))")
            // The prefix is a table of its own: appending to it leaves the original alone.
            var extended = prefix
            extended.append((expected.last ?? 0) + 1)
            #expect(extended.count == expected.count + 1)
        }
        Self.expectSame(table, model, "\(kind): original after prefixes")
    }

    @Test("lastIndex(notAbove:) for every value and between values", arguments: StepKind.allCases)
    func lastIndex(kind: StepKind) {
        for length in Self.lengths where length > 0 {
            let model = Self.values(kind, count: length, start: 100, seed: UInt64(length) * 31)
            let table = PositionTable(model)
            var probes: [Int64] = [.min, 0, 99, .max]
            for value in model { probes += [value - 1, value, value + 1] }
            for (a, b) in zip(model, model.dropFirst()) where b > a { probes.append(a + (b - a) / 2) }
            let ascending = zip(model, model.dropFirst()).allSatisfy { $0 <= $1 }
            for probe in probes {
                let expected =
                    ascending
                    ? Self.modelLastIndex(model, notAbove: probe)
                    // Not ascending: the plain binary search's answer, whatever it means.
                    : PacketMap.lastIndex(in: model, notAbove: probe)
                let found = table.lastIndex(notAbove: probe)
                if found != expected {
                    Issue.record("\(kind) × \(length): lastIndex(notAbove: \(probe)) is \(found), expected \(expected)")
                    break
                }
            }
        }
    }

    @Test("lastIndex(notAbove:) with runs of equal values across anchors")
    func lastIndexDuplicates() {
        // Ogg pages hold several packets (equal offsets); ADTS frames several blocks.
        var model: [Int64] = []
        var value: Int64 = 0
        var g = Generator(state: 17)
        while model.count < 400 {
            let run = 1 + Int(g.below(90))
            model += Array(repeating: value, count: run)
            value += g.below(3) == 0 ? 0x1_0000 + g.below(100) : 1 + g.below(5000)
        }
        let table = PositionTable(model)
        Self.expectSame(table, model, "duplicates")
        for probe in Set(model.flatMap { [$0 - 1, $0, $0 + 1] }) {
            #expect(table.lastIndex(notAbove: probe) == Self.modelLastIndex(model, notAbove: probe), "probe \(probe)")
        }
    }

    @Test("page boundaries of the steps (every 4096 entries)", arguments: [StepKind.mixed, .constant])
    func pages(kind: StepKind) {
        let model = Self.values(kind, count: 9000, start: 0, seed: 41)
        let table = PositionTable(model)
        Self.expectSame(table, model, "9000 \(kind)")
        for n in [4095, 4096, 4097, 8191, 8192, 8193] {
            Self.expectSame(table.prefix(n), Array(model.prefix(n)), "prefix(\(n))")
            var replaced = table.prefix(n)
            var expected = Array(model.prefix(n))
            for replacement in [expected[n - 2], expected[n - 2] + 0xFFFF, expected[n - 2] - 9] {
                replaced.replaceLast(replacement)
                expected[n - 1] = replacement
                Self.expectSame(replaced, expected, "replaceLast(\(replacement)) at \(n - 1)")
            }
        }
        var shrinking = table.prefix(8194)
        var expected = Array(model.prefix(8194))
        while expected.count > 4090 {
            #expect(shrinking.removeLast() == expected.removeLast())
            if expected.count % 64 < 2 || expected.count % 4096 < 3 {
                Self.expectSame(shrinking, expected, "removeLast to \(expected.count)")
            }
        }
        // A copy that is appended to leaves the original alone.
        var copy = table
        copy.append(1)
        #expect(copy.count == model.count + 1)
        Self.expectSame(table, model, "original after a copy grew")
        for i in stride(from: 0, to: model.count, by: 7) {
            for probe in [model[i] - 1, model[i], model[i] + 1] {
                #expect(table.lastIndex(notAbove: probe) == Self.modelLastIndex(model, notAbove: probe))
            }
        }
    }

    @Test("a table made ascending again by replaceLast answers lastIndex like the model")
    func lastIndexAfterRepair() {
        var model = Self.values(.small, count: 130, start: 0, seed: 23)
        var table = PositionTable(model)
        for i in [model.count - 1] {
            table.replaceLast(-5)  // now descending at the end
            model[i] = -5
            #expect(table.lastIndex(notAbove: 40) == PacketMap.lastIndex(in: model, notAbove: 40))
            let repaired = model[i - 1] + 10
            table.replaceLast(repaired)
            model[i] = repaired
        }
        for probe in model.flatMap({ [$0 - 1, $0, $0 + 1] }) {
            #expect(table.lastIndex(notAbove: probe) == Self.modelLastIndex(model, notAbove: probe))
        }
        #expect(table == PositionTable(model))
    }
}
