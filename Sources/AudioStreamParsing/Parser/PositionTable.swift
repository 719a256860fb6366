/// A compact table of `Int64` positions: byte offsets or frame numbers, one per packet (plus the end).
///
/// Contract: the same answers as an `[Int64]` holding the same values, for any values (negative, huge,
/// decreasing; `lastIndex(notAbove:)` answers as `PacketMap.lastIndex(in:notAbove:)` does); compact when
/// they are non-decreasing with steps below 65535, as packet offsets and packet start frames are.
/// `subscript` costs O(64); `append`, `last`, `step(after:)` and `replaceLast` O(1) (O(64) at an anchor
/// or escape); `lastIndex(notAbove:)` O(log(count / 64) + 64) on an ascending table.
///
/// Layout: every entry has a `UInt16` step from the entry before it; every 64th entry (the first of
/// a block) is an anchor, whose full value is kept in `anchors` (its step slot is unused, 0). A step that
/// does not fit (negative, or 0xFFFF and above) is the escape 0xFFFF and the entry's full value is
/// appended to `escapes` (the value, not the step: a step between extreme values would overflow `Int64`);
/// each anchor records where its block's escapes start in `escapes`.
///
/// ```
/// index      0      1      2     ...   63      64     65     66    ...
/// steps   [  0  | d1   | FFFF | ... | d63  |   0  | d65  | FFFF | ... ]   2 bytes an entry
/// anchors [ (value 0, escapes from 0)      | (value 64, escapes from 1)  ]  16 bytes a block
/// escapes [ value 2, value 66, ... ]                                       8 bytes an escape
/// ```
///
/// The steps are kept in pages of 4096 (8 KiB): a full table costs its entries and at most one page
/// more, not the up to twice of an array grown by doubling, growing copies nothing, and a copy that is
/// appended to (a packet map with the end entry added) copies only the last page.
///
/// Bytes used: about 2 per entry plus 16 per 64 entries plus 8 per escape, against 8 per entry (and up
/// to 16 while an array grows by doubling) for `[Int64]`.
struct PositionTable: Sendable, Equatable {
    /// Entries in a block: one anchor every `blockSize` entries.
    static let blockSize = 64
    /// The step that says "the full value is the next entry of `escapes`".
    static let escape: UInt16 = 0xFFFF

    /// The first entry of a block: its full value, and the index in `escapes` of the block's first escape.
    struct Anchor: Sendable, Equatable {
        var value: Int64
        var firstEscape: Int
    }

    /// Per entry, the step from the previous entry (0 for the first entry of a block), or `escape`.
    private var steps = StepPages()
    /// Per block of `blockSize` entries, its first entry.
    private var anchors: [Anchor] = []
    /// The full values of the escaped entries, in order.
    private var escapes: [Int64] = []
    /// The last entry (meaningless when empty).
    private var lastValue: Int64 = 0
    /// The number of entries below the entry before them (0: the table is ascending).
    private var descents = 0

    /// An empty table.
    init() {}

    /// The bytes the table's storage holds (capacity, not count), for measurements.
    var bytesUsed: Int {
        steps.capacity * MemoryLayout<UInt16>.stride + anchors.capacity * MemoryLayout<Anchor>.stride
            + escapes.capacity * MemoryLayout<Int64>.stride
    }

    /// A table of `values`, in order.
    init(_ values: some Sequence<Int64>) {
        for value in values { append(value) }
    }

    /// The number of entries.
    var count: Int { steps.count }

    /// True when the table has no entries.
    var isEmpty: Bool { steps.isEmpty }

    /// The first entry.
    var first: Int64? { anchors.first?.value }

    /// The last entry.
    var last: Int64? { steps.isEmpty ? nil : lastValue }

    /// The entry at `i` (`0 ..< count`).
    subscript(i: Int) -> Int64 {
        precondition(i >= 0 && i < steps.count, "PositionTable index out of range")
        if i == steps.count - 1 { return lastValue }
        let block = i / PositionTable.blockSize
        let anchor = anchors[block]
        var value = anchor.value
        var escape = anchor.firstEscape
        var j = block * PositionTable.blockSize + 1
        while j <= i {
            let step = steps[j]
            if step == PositionTable.escape {
                value = escapes[escape]
                escape += 1
            } else {
                // The sum is an entry of the table: it does not overflow.
                value += Int64(step)
            }
            j += 1
        }
        return value
    }

    /// `self[i + 1] - self[i]` (`0 ..< count - 1`; the entries' difference must fit in an `Int64`), O(1)
    /// unless entry `i + 1` starts a block or is escaped.
    func step(after i: Int) -> Int64 {
        precondition(i >= 0 && i + 1 < steps.count, "PositionTable index out of range")
        let next = i + 1
        if next % PositionTable.blockSize != 0 && steps[next] != PositionTable.escape { return Int64(steps[next]) }
        return self[next] - self[i]
    }

    /// Removes and returns the last entry (the table must not be empty).
    @discardableResult
    mutating func removeLast() -> Int64 {
        precondition(!steps.isEmpty, "PositionTable.removeLast on an empty table")
        let removed = lastValue
        let i = steps.count - 1
        let previous: Int64? = i > 0 ? self[i - 1] : nil
        let step = steps.removeLast()
        if i % PositionTable.blockSize == 0 {
            anchors.removeLast()
        } else if step == PositionTable.escape {
            escapes.removeLast()
        }
        if let previous, removed < previous { descents -= 1 }
        lastValue = previous ?? 0
        return removed
    }

    /// Appends `value`.
    mutating func append(_ value: Int64) {
        if !steps.isEmpty && value < lastValue { descents += 1 }
        if steps.count % PositionTable.blockSize == 0 {
            anchors.append(Anchor(value: value, firstEscape: escapes.count))
            steps.append(0)
        } else {
            appendStep(to: value, from: lastValue)
        }
        lastValue = value
    }

    /// Replaces the last entry with `value` (the table must not be empty).
    mutating func replaceLast(_ value: Int64) {
        precondition(!steps.isEmpty, "PositionTable.replaceLast on an empty table")
        let i = steps.count - 1
        var previous: Int64?
        if i % PositionTable.blockSize == 0 {
            if i > 0 { previous = self[i - 1] }
            anchors[anchors.count - 1].value = value
        } else {
            let step = steps[i]
            // `lastValue` is `previous + step`: the subtraction does not overflow.
            let p = step == PositionTable.escape ? self[i - 1] : lastValue - Int64(step)
            steps.removeLast()
            if step == PositionTable.escape { escapes.removeLast() }
            appendStep(to: value, from: p)
            previous = p
        }
        if let previous {
            if lastValue < previous { descents -= 1 }
            if value < previous { descents += 1 }
        }
        lastValue = value
    }

    /// The first `n` entries (all of them when `n >= count`).
    func prefix(_ n: Int) -> PositionTable {
        precondition(n >= 0, "PositionTable.prefix of a negative length")
        if n >= steps.count { return self }
        var result = PositionTable()
        guard n > 0 else { return result }
        let blocks = (n - 1) / PositionTable.blockSize + 1
        let lastBlockStart = (blocks - 1) * PositionTable.blockSize
        var escapeCount = anchors[blocks - 1].firstEscape
        for j in (lastBlockStart + 1) ..< n where steps[j] == PositionTable.escape { escapeCount += 1 }
        result.steps = steps.prefix(n)
        result.anchors = Array(anchors[0 ..< blocks])
        result.escapes = Array(escapes[0 ..< escapeCount])
        result.lastValue = self[n - 1]
        if descents > 0 {
            var previous: Int64?
            for value in result {
                if let previous, value < previous { result.descents += 1 }
                previous = value
            }
        }
        return result
    }

    /// The last index `i` with `self[i] <= value`, the table ascending (non-decreasing) and not empty;
    /// 0 when every entry is above `value`.
    ///
    /// A table that is not ascending gets the answer of a plain binary search over every index (what
    /// `PacketMap.lastIndex(in:notAbove:)` answers for the same values), at O(64) an index probed.
    func lastIndex(notAbove value: Int64) -> Int {
        precondition(!steps.isEmpty, "PositionTable.lastIndex in an empty table")
        if descents > 0 {
            var lo = 0
            var hi = steps.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if self[mid] <= value { lo = mid } else { hi = mid - 1 }
            }
            return lo
        }
        // The last block whose anchor is not above `value` (block 0 when none).
        var lo = 0
        var hi = anchors.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if anchors[mid].value <= value { lo = mid } else { hi = mid - 1 }
        }
        // Walk the block while the entries are not above `value`.
        let start = lo * PositionTable.blockSize
        let end = Swift.min(steps.count, start + PositionTable.blockSize)
        var current = anchors[lo].value
        var escape = anchors[lo].firstEscape
        var found = start
        var j = start + 1
        while j < end {
            let step = steps[j]
            if step == PositionTable.escape {
                current = escapes[escape]
                escape += 1
            } else {
                current += Int64(step)
            }
            if current > value { break }
            found = j
            j += 1
        }
        return found
    }

    /// Appends the step from `previous` to `value` (an escape when it does not fit in a `UInt16` below 0xFFFF).
    private mutating func appendStep(to value: Int64, from previous: Int64) {
        let (step, overflow) = value.subtractingReportingOverflow(previous)
        if !overflow, step >= 0, step < Int64(PositionTable.escape) {
            steps.append(UInt16(step))
        } else {
            steps.append(PositionTable.escape)
            escapes.append(value)
        }
    }
}

extension PositionTable: Sequence {
    /// Iterates the entries in order, O(1) each.
    struct Iterator: IteratorProtocol {
        let table: PositionTable
        var index = 0
        var value: Int64 = 0
        var escape = 0

        mutating func next() -> Int64? {
            guard index < table.count else { return nil }
            if index % PositionTable.blockSize == 0 {
                let anchor = table.anchors[index / PositionTable.blockSize]
                value = anchor.value
                escape = anchor.firstEscape
            } else {
                let step = table.steps[index]
                if step == PositionTable.escape {
                    value = table.escapes[escape]
                    escape += 1
                } else {
                    value += Int64(step)
                }
            }
            index += 1
            return value
        }
    }

    func makeIterator() -> Iterator { Iterator(table: self) }

    var underestimatedCount: Int { count }
}

extension PositionTable: ExpressibleByArrayLiteral {
    /// A table of the literal's values, in order.
    init(arrayLiteral elements: Int64...) {
        self.init(elements)
    }
}

/// The steps of a `PositionTable`: pages of `pageSize` `UInt16` values, every page but the last full.
///
/// ```
/// pages [ page 0: steps 0 ..< 4096 | page 1: steps 4096 ..< 8192 | ... | last page: the rest ]
/// ```
struct StepPages: Sendable, Equatable {
    /// Steps in a page (a multiple of `PositionTable.blockSize`).
    static let pageSize = 4096

    private var pages: [[UInt16]] = []
    /// The number of steps.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The steps the pages hold room for, for `PositionTable.bytesUsed`.
    var capacity: Int { pages.reduce(0) { $0 + $1.capacity } }

    subscript(i: Int) -> UInt16 {
        pages[i / StepPages.pageSize][i % StepPages.pageSize]
    }

    mutating func append(_ step: UInt16) {
        if count % StepPages.pageSize == 0 {
            var page: [UInt16] = []
            // The first page grows as an array does (small tables stay small); later ones are made whole.
            if !pages.isEmpty { page.reserveCapacity(StepPages.pageSize) }
            pages.append(page)
        }
        pages[pages.count - 1].append(step)
        count += 1
    }

    @discardableResult
    mutating func removeLast() -> UInt16 {
        let step = pages[pages.count - 1].removeLast()
        if pages[pages.count - 1].isEmpty { pages.removeLast() }
        count -= 1
        return step
    }

    /// The first `n` steps (`0 ... count`): full pages are shared, not copied.
    func prefix(_ n: Int) -> StepPages {
        var result = StepPages()
        let full = n / StepPages.pageSize
        let rest = n % StepPages.pageSize
        result.pages = Array(pages[0 ..< full])
        if rest > 0 { result.pages.append(Array(pages[full][0 ..< rest])) }
        result.count = n
        return result
    }
}
