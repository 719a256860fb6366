/// Overlaps the cache misses of a frame-header walk (MPEG audio, ADTS fast paths).
///
/// Each header's address depends on the previous frame's length, so a miss per frame would stall the
/// walk on memory latency. Every 16 frames, ``frame(in:at:stride:)`` loads one byte where each of the
/// headers 16…31 frames ahead probably is (at the current frame's length): independent loads whose misses
/// overlap. The loaded bytes are summed into ``touched``, which the caller stores so the loads are kept.
struct HeaderPrefetch {
    /// The sum of the bytes loaded (meaningless; stored by the caller so the loads are not removed).
    private(set) var touched: UInt8 = 0
    private var frames = 0
    private var nextBurst = 0

    /// Called once per frame walked, at its start `i` in `bytes`, with its length as the stride.
    @inline(__always)
    mutating func frame(in bytes: UnsafeRawBufferPointer, at i: Int, stride: Int) {
        if frames == nextBurst {
            var k = frames == 0 ? 1 : 16
            while k < 32 {
                let p = i &+ k &* stride
                if p >= bytes.count { break }
                touched &+= bytes.load(fromByteOffset: p, as: UInt8.self)
                k &+= 1
            }
            nextBurst &+= 16
        }
        frames &+= 1
    }
}
