/// Overlaps the cache misses of a frame-header walk (the frame-sync fast paths).
///
/// Each header's address depends on the previous frame's length, so a miss per frame would stall the
/// walk on memory latency, and with variable frame lengths (VBR) no stride predicts where the next
/// headers are. So the walk sweeps ahead instead: ``frame(in:at:)`` loads one byte of every
/// 64-byte cache line from where the sweep stopped up to `distance` bytes past the current frame —
/// independent loads whose misses overlap, about one per cache line of input, so the headers are in the
/// cache by the time the walk reaches them. The loaded bytes are summed into ``touched``, which the
/// caller stores so the loads are kept.
struct HeaderPrefetch {
    /// How far ahead of the current frame the sweep runs.
    static let distance = 8192
    /// The sum of the bytes loaded (meaningless; stored by the caller so the loads are not removed).
    private(set) var touched: UInt8 = 0
    /// Where the sweep stopped.
    private var swept = 0

    /// Called once per frame walked, at its start `i` in the cursor's chunk.
    @inline(__always)
    mutating func frame(in cursor: ChunkCursor, at i: Int) {
        let (sum, next) = cursor.touch(from: Swift.max(swept, i &+ BorrowedBytes.cacheLine), to: i &+ Self.distance)
        touched &+= sum
        swept = next
    }
}
