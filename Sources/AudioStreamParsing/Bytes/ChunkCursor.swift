/// The caller's chunk as a format parser's fast path walks it: bounds-checked big-endian loads at any
/// index of the chunk, with no copy and no pointer in the caller's code.
///
/// A fast path (``FrameSyncFormat/walkFrames(_:_:)``) reads many whole structures of the chunk in one
/// step, one word at a time. Every load checks its bounds once and answers `nil` past the chunk, so a
/// walk is written as `while let word = cursor.loadBigEndianUInt32(at: i)`: the check the walk needs
/// anyway (is a whole header there?) is the only one it pays.
///
/// The chunk is borrowed for the current `parse` call (`InputWindow.chunkCursor`): a cursor is valid
/// only while the window is not mutated otherwise than by consuming chunk bytes, and never after the
/// call.
struct ChunkCursor {
    /// The caller's chunk.
    private let bytes: BorrowedBytes
    /// The index in the chunk of the window's position when the cursor was taken: the readable bytes
    /// are `index..<count`.
    let index: Int
    /// The absolute stream offset of the chunk's first byte.
    let base: Int64

    init(_ bytes: BorrowedBytes, index: Int, base: Int64) {
        self.bytes = bytes
        self.index = index
        self.base = base
    }

    /// The bytes in the chunk.
    var count: Int { bytes.count }

    /// The big-endian 32-bit word at index `i` of the chunk, or `nil` when its 4 bytes are not all in
    /// the chunk.
    @inline(__always)
    func loadBigEndianUInt32(at i: Int) -> UInt32? { bytes.bigEndianUInt32(at: i) }

    /// The big-endian 64-bit word at index `i` of the chunk, or `nil` when its 8 bytes are not all in
    /// the chunk.
    @inline(__always)
    func loadBigEndianUInt64(at i: Int) -> UInt64? { bytes.bigEndianUInt64(at: i) }

    /// Loads one byte of every 64-byte cache line from `start` while below `end` (clamped to the chunk)
    /// and returns their wrapping sum and the first index not loaded: the independent loads of
    /// ``HeaderPrefetch``.
    @inline(__always)
    func touch(from start: Int, to end: Int) -> (sum: UInt8, next: Int) {
        bytes.cacheLineSum(from: start, to: end)
    }
}
