/// A compact table of `Int64` positions: byte offsets or frame numbers, one per packet (plus the end).
///
/// Contract: the same answers as an `[Int64]` holding the same values, for any values (negative, huge,
/// decreasing; `lastIndex(notAbove:)` answers as `PacketMap.lastIndex(in:notAbove:)` does); compact when
/// they are non-decreasing with steps below 65535, as packet offsets and packet start frames are.
/// `subscript` costs O(64); `append`, `last`, `step(after:)` and `replaceLast` O(1) (O(64) at an anchor
/// or escape); `lastIndex(notAbove:)` O(log(count / 64) + 64) on an ascending table.
///
/// Layout: the entries form blocks of 64. The first entry of a block is its anchor, whose full value is
/// kept in `anchors`; every other entry is a `UInt16` step from the entry before it. A step that does
/// not fit (negative, or 0xFFFF and above) is the escape 0xFFFF and the entry's full value is appended to
/// `escapes` (the value, not the step: a step between extreme values would overflow `Int64`); each anchor
/// records where its block's escapes start in `escapes`. A block's 64 step slots (slot 0 unused) are in
/// `steps` from the anchor's `firstStep`, except for a uniform block: a complete block (not the last)
/// whose 63 steps are one value (constant frames per packet) keeps only that value, in its anchor.
///
/// ```
/// entry      0      1      2    ...   63  |  64    65   ...  127  | 128    129    130  ...
/// anchors [ (value 0, esc 0, steps 0)     | (value 64, uniform 960) | (value 128, esc 1, steps 64) ]
/// steps   [  -  | d1   | FFFF | ... | d63 |                         |  -   | d129 | d130 | ... ]
/// escapes [ value 2, ... ]
/// ```
///
/// `steps` is kept in pages of 4096 (8 KiB): a full table costs its entries and at most one page more,
/// not the up to twice of an array grown by doubling, growing copies nothing, and a copy that is
/// appended to (a packet map with the end entry added) copies only the last page.
///
/// Bytes used: about 2 per entry (none in uniform blocks) plus 24 per 64 entries plus 8 per escape,
/// against 8 per entry (and up to 16 while an array grows by doubling) for `[Int64]`.
struct PositionTable: Sendable, Equatable {
    /// Entries in a block: one anchor every `blockSize` entries.
    static let blockSize = 64
    /// The step that says "the full value is the next entry of `escapes`".
    static let escape: UInt16 = 0xFFFF

    /// The first entry of a block and where the block's steps are.
    struct Anchor: Sendable, Equatable {
        /// The entry's full value.
        var value: Int64
        /// The index in `escapes` of the block's first escape.
        var firstEscape: Int
        /// At least 0: the index in `steps` of the block's slot 0. Below 0: a uniform block, whose every
        /// step is `-1 - firstStep`.
        var firstStep: Int

        /// The step of every entry after the first, for a uniform block.
        var uniformStep: Int64? { firstStep < 0 ? Int64(-1 - firstStep) : nil }
    }

    /// The step slots of the blocks that are not uniform, in block order (`blockSize` a block, the last
    /// block's as many as it has entries).
    private var steps = StepPages()
    /// Per block of `blockSize` entries, its first entry.
    private var anchors: [Anchor] = []
    /// The full values of the escaped entries, in order.
    private var escapes: [Int64] = []
    /// The number of entries.
    private(set) var count = 0
    /// The last entry (meaningless when empty).
    private var lastValue: Int64 = 0
    /// The number of entries below the entry before them (0: the table is ascending).
    private var descents = 0

    /// An empty table.
    init() {}

    /// A table of `values`, in order.
    init(_ values: some Sequence<Int64>) {
        for value in values { append(value) }
    }

    /// The bytes the table's storage holds (capacity, not count), for measurements.
    var bytesUsed: Int {
        steps.capacity * MemoryLayout<UInt16>.stride + anchors.capacity * MemoryLayout<Anchor>.stride
            + escapes.capacity * MemoryLayout<Int64>.stride
    }

    /// True when the table has no entries.
    var isEmpty: Bool { count == 0 }

    /// The first entry.
    var first: Int64? { anchors.first?.value }

    /// The last entry.
    var last: Int64? { count == 0 ? nil : lastValue }

    /// The entry at `i` (`0 ..< count`).
    subscript(i: Int) -> Int64 {
        precondition(i >= 0 && i < count, "PositionTable index out of range")
        if i == count - 1 { return lastValue }
        let anchor = anchors[i / PositionTable.blockSize]
        let r = i % PositionTable.blockSize
        // The sums below are entries of the table: they do not overflow.
        if let uniform = anchor.uniformStep { return anchor.value + Int64(r) * uniform }
        var value = anchor.value
        var escape = anchor.firstEscape
        var j = 1
        while j <= r {
            let step = steps[anchor.firstStep + j]
            if step == PositionTable.escape {
                value = escapes[escape]
                escape += 1
            } else {
                value += Int64(step)
            }
            j += 1
        }
        return value
    }

    /// `self[i + 1] - self[i]` (`0 ..< count - 1`; the entries' difference must fit in an `Int64`), O(1)
    /// unless entry `i + 1` starts a block or is escaped.
    func step(after i: Int) -> Int64 {
        precondition(i >= 0 && i + 1 < count, "PositionTable index out of range")
        let next = i + 1
        let r = next % PositionTable.blockSize
        if r != 0 {
            let anchor = anchors[next / PositionTable.blockSize]
            if let uniform = anchor.uniformStep { return uniform }
            let step = steps[anchor.firstStep + r]
            if step != PositionTable.escape { return Int64(step) }
        }
        return self[next] - self[i]
    }

    /// Appends `value`.
    mutating func append(_ value: Int64) {
        // The common case, inline: inside a block, a step that fits.
        if count % PositionTable.blockSize != 0 && value >= lastValue {
            let (step, overflow) = value.subtractingReportingOverflow(lastValue)
            if !overflow && step < Int64(PositionTable.escape) {
                steps.append(UInt16(truncatingIfNeeded: step))
                count += 1
                lastValue = value
                return
            }
        }
        appendSlowly(value)
    }

    /// Appends one entry per step of `steps`, each `step` above the entry before (the table must not be
    /// empty): what `append` of the running sums does, with one storage access per block of 64 entries
    /// instead of one per entry (a fast path records a run of packets at once). A step of 0xFFFF (the
    /// escape) goes through `append`.
    mutating func append(steps: ArraySlice<UInt16>) {
        precondition(count > 0, "PositionTable.append(steps:) on an empty table")
        var k = steps.startIndex
        while k < steps.endIndex {
            let slot = count % PositionTable.blockSize
            // The run of steps that stays inside the current block, up to the first escape.
            var end = k
            var sum: Int64 = 0
            if slot != 0 {
                let limit = Swift.min(steps.endIndex, k + PositionTable.blockSize - slot)
                while end < limit && steps[end] != PositionTable.escape {
                    sum += Int64(steps[end])
                    end += 1
                }
            }
            let (value, overflow) = lastValue.addingReportingOverflow(sum)
            if end == k || overflow {
                // An anchor, an escape or an overflow: the general path (the caller's running sums are
                // entries of the table, which do not overflow).
                append(lastValue &+ Int64(steps[k]))
                k += 1
                continue
            }
            self.steps.append(contentsOf: steps[k..<end])
            count += end - k
            lastValue = value
            k = end
        }
    }

    /// `append` beyond the common case (a new block, a step that does not fit, a descent).
    @inline(never)
    private mutating func appendSlowly(_ value: Int64) {
        if count > 0 && value < lastValue { descents += 1 }
        if count % PositionTable.blockSize == 0 {
            // The block before is complete: keep only its step when it is uniform.
            if count > 0 { compressLastBlock() }
            anchors.append(Anchor(value: value, firstEscape: escapes.count, firstStep: steps.count))
            steps.append(0)
        } else {
            appendStep(to: value, from: lastValue)
        }
        count += 1
        lastValue = value
    }

    /// Replaces the last entry with `value` (the table must not be empty).
    mutating func replaceLast(_ value: Int64) {
        precondition(count > 0, "PositionTable.replaceLast on an empty table")
        // The parsers' usual call, inline: the provisional end of the last packet is the next packet's start.
        if value == lastValue { return }
        replaceLastSlowly(value)
    }

    /// `replaceLast` with a value that differs from the last.
    @inline(never)
    private mutating func replaceLastSlowly(_ value: Int64) {
        let i = count - 1
        var previous: Int64?
        if i % PositionTable.blockSize == 0 {
            if i > 0 { previous = self[i - 1] }
            anchors[anchors.count - 1].value = value
        } else {
            // The last block is never uniform: its last slot is the last of `steps`.
            let step = steps.last
            // `lastValue` is `previous + step`: the subtraction does not overflow.
            let p = step == PositionTable.escape ? self[i - 1] : lastValue - Int64(step)
            if step == PositionTable.escape { escapes.removeLast() }
            steps.replaceLast(encodeStep(to: value, from: p))
            previous = p
        }
        if let previous {
            if lastValue < previous { descents -= 1 }
            if value < previous { descents += 1 }
        }
        lastValue = value
    }

    /// Removes and returns the last entry (the table must not be empty).
    @discardableResult
    mutating func removeLast() -> Int64 {
        precondition(count > 0, "PositionTable.removeLast on an empty table")
        let removed = lastValue
        let i = count - 1
        let previous: Int64? = i > 0 ? self[i - 1] : nil
        let step = steps.removeLast()
        if i % PositionTable.blockSize == 0 {
            anchors.removeLast()
            // The block before is the last again: its steps are stored.
            if !anchors.isEmpty { expandLastBlock() }
        } else if step == PositionTable.escape {
            escapes.removeLast()
        }
        count -= 1
        if let previous, removed < previous { descents -= 1 }
        lastValue = previous ?? 0
        return removed
    }

    /// The first `n` entries (all of them when `n >= count`).
    func prefix(_ n: Int) -> PositionTable {
        precondition(n >= 0, "PositionTable.prefix of a negative length")
        if n >= count { return self }
        var result = PositionTable()
        guard n > 0 else { return result }
        let lastBlock = (n - 1) / PositionTable.blockSize
        let entries = n - lastBlock * PositionTable.blockSize
        // The stored slots of the blocks before the last one kept.
        var slotsBefore = 0
        var b = lastBlock - 1
        while b >= 0 {
            if anchors[b].firstStep >= 0 {
                slotsBefore = anchors[b].firstStep + PositionTable.blockSize
                break
            }
            b -= 1
        }
        var anchor = anchors[lastBlock]
        result.steps = steps.prefix(slotsBefore)
        var escapeCount = anchor.firstEscape
        if let uniform = anchor.uniformStep {
            result.steps.append(0)
            for _ in 1..<entries { result.steps.append(UInt16(uniform)) }
        } else {
            for j in 0..<entries {
                let step = steps[anchor.firstStep + j]
                result.steps.append(step)
                if j > 0 && step == PositionTable.escape { escapeCount += 1 }
            }
        }
        anchor.firstStep = slotsBefore
        result.anchors = Array(anchors[0..<lastBlock])
        result.anchors.append(anchor)
        result.escapes = Array(escapes[0..<escapeCount])
        result.count = n
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
        precondition(count > 0, "PositionTable.lastIndex in an empty table")
        if descents > 0 {
            var lo = 0
            var hi = count - 1
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
        let anchor = anchors[lo]
        let start = lo * PositionTable.blockSize
        let entries = Swift.min(count - start, PositionTable.blockSize)
        let uniform = anchor.uniformStep
        var current = anchor.value
        var escape = anchor.firstEscape
        var found = 0
        var j = 1
        while j < entries {
            if let uniform {
                current += uniform
            } else {
                let step = steps[anchor.firstStep + j]
                if step == PositionTable.escape {
                    current = escapes[escape]
                    escape += 1
                } else {
                    current += Int64(step)
                }
            }
            if current > value { break }
            found = j
            j += 1
        }
        return start + found
    }

    /// Appends the step from `previous` to `value`.
    private mutating func appendStep(to value: Int64, from previous: Int64) {
        steps.append(encodeStep(to: value, from: previous))
    }

    /// The step from `previous` to `value`, or the escape (`value` then appended to `escapes`) when it does
    /// not fit in a `UInt16` below 0xFFFF.
    private mutating func encodeStep(to value: Int64, from previous: Int64) -> UInt16 {
        let (step, overflow) = value.subtractingReportingOverflow(previous)
        if !overflow, step >= 0, step < Int64(PositionTable.escape) { return UInt16(step) }
        escapes.append(value)
        return PositionTable.escape
    }

    /// The last block, complete and stored: made uniform (its slots dropped) when its 63 steps are one value.
    private mutating func compressLastBlock() {
        let b = anchors.count - 1
        let first = anchors[b].firstStep
        let step = steps[first + 1]
        guard step != PositionTable.escape, steps.steps(from: first + 1, allEqual: step) else { return }
        steps.removeLast(PositionTable.blockSize)
        anchors[b].firstStep = -1 - Int(step)
    }

    /// The last block, complete: its slots stored again when it is uniform (it is about to change).
    private mutating func expandLastBlock() {
        let b = anchors.count - 1
        guard let uniform = anchors[b].uniformStep else { return }
        anchors[b].firstStep = steps.count
        steps.append(0)
        for _ in 1..<PositionTable.blockSize { steps.append(UInt16(uniform)) }
    }
}

extension PositionTable: Sequence {
    /// Iterates the entries in order, O(1) each.
    struct Iterator: IteratorProtocol {
        let table: PositionTable
        var index = 0
        var value: Int64 = 0
        var anchor = Anchor(value: 0, firstEscape: 0, firstStep: 0)
        var escape = 0

        mutating func next() -> Int64? {
            guard index < table.count else { return nil }
            let r = index % PositionTable.blockSize
            if r == 0 {
                anchor = table.anchors[index / PositionTable.blockSize]
                value = anchor.value
                escape = anchor.firstEscape
            } else if let uniform = anchor.uniformStep {
                value += uniform
            } else {
                let step = table.steps[anchor.firstStep + r]
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
/// full [ page 0: steps 0 ..< 4096 | page 1: steps 4096 ..< 8192 | ... ]   each exactly pageSize
/// tail [ the rest: 1 ... 4096 steps (none when empty) ]                   appended to in place
/// ```
struct StepPages: Sendable, Equatable {
    /// Steps in a page (a multiple of `PositionTable.blockSize`, so that no block spans two pages).
    static let pageSize = 4096

    /// The full pages before the last.
    private var full: [[UInt16]] = []
    /// The last page: 1 ... `pageSize` steps, or none when there are none at all.
    private var tail: [UInt16] = []

    /// The number of steps.
    var count: Int { full.count * StepPages.pageSize + tail.count }

    var isEmpty: Bool { tail.isEmpty }

    /// The steps the pages hold room for, for `PositionTable.bytesUsed`.
    var capacity: Int { full.reduce(tail.capacity) { $0 + $1.capacity } }

    subscript(i: Int) -> UInt16 {
        let page = i / StepPages.pageSize
        return page < full.count ? full[page][i % StepPages.pageSize] : tail[i - full.count * StepPages.pageSize]
    }

    mutating func append(_ step: UInt16) {
        if tail.count == StepPages.pageSize {
            full.append(tail)
            // The first page grows as an array does (small tables stay small); later ones are made whole.
            tail = []
            tail.reserveCapacity(StepPages.pageSize)
        }
        tail.append(step)
    }

    /// Appends `steps` in order (page by page).
    mutating func append(contentsOf steps: ArraySlice<UInt16>) {
        var k = steps.startIndex
        while k < steps.endIndex {
            if tail.count == StepPages.pageSize {
                full.append(tail)
                tail = []
                tail.reserveCapacity(StepPages.pageSize)
            }
            let n = Swift.min(StepPages.pageSize - tail.count, steps.endIndex - k)
            tail.append(contentsOf: steps[k..<(k + n)])
            k += n
        }
    }

    /// The last step (not empty).
    var last: UInt16 { tail[tail.count - 1] }

    /// Replaces the last step (not empty).
    mutating func replaceLast(_ step: UInt16) {
        tail[tail.count - 1] = step
    }

    @discardableResult
    mutating func removeLast() -> UInt16 {
        let step = tail.removeLast()
        if tail.isEmpty, !full.isEmpty { tail = full.removeLast() }
        return step
    }

    /// Removes the last `k` steps (`0 ... count`).
    mutating func removeLast(_ k: Int) {
        var k = k
        while k > 0 {
            let n = Swift.min(k, tail.count)
            tail.removeLast(n)
            k -= n
            if tail.isEmpty, !full.isEmpty { tail = full.removeLast() }
        }
    }

    /// True when every step from `start` to the end is `value`.
    func steps(from start: Int, allEqual value: UInt16) -> Bool {
        let tailStart = full.count * StepPages.pageSize
        if start >= tailStart { return tail[(start - tailStart)...].allSatisfy { $0 == value } }
        var i = start
        while i < count {
            if self[i] != value { return false }
            i += 1
        }
        return true
    }

    /// The first `n` steps (`0 ... count`): full pages are shared, not copied.
    func prefix(_ n: Int) -> StepPages {
        var result = StepPages()
        guard n > 0 else { return result }
        let pages = (n - 1) / StepPages.pageSize + 1
        let rest = n - (pages - 1) * StepPages.pageSize
        for p in 0..<pages - 1 { result.full.append(page(p)) }
        let last = page(pages - 1)
        result.tail = rest == last.count ? last : Array(last[0..<rest])
        return result
    }

    /// Page `p` (`full` or, the last, `tail`).
    private func page(_ p: Int) -> [UInt16] { p < full.count ? full[p] : tail }
}
