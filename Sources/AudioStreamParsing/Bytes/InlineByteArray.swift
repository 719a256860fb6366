/// Up to 255 bytes stored inline, without a heap allocation: an Ogg page's segment table (at most 255
/// lacing values, read once per page).
///
/// The storage is four `SIMD64<UInt8>` rather than `InlineArray<255, UInt8>`, which Apple platforms
/// only have from their 2025 releases (macOS 26, iOS 26). Reads are bounds-checked; bulk access for a
/// loop goes through ``withSpan(_:)``, a checked view that does not copy per element (indexing the
/// collection reads one 64-byte vector per element).
///
/// Two methods reach the storage as raw bytes, both within its 256 bytes: `append` copies at most
/// `capacity - count` bytes at index `count`, and `withSpan` views the first `count` bytes of a copy of
/// the storage for the duration of `body` only. A safe form would need `InlineArray` (see above) or
/// element-wise stores, which rewrite a whole vector per byte.
struct InlineByteArray: RandomAccessCollection, Equatable {
    /// The most bytes the array holds.
    static let capacity = 255

    private var storage: (SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>) =
        (.zero, .zero, .zero, .zero)
    /// The bytes held.
    private(set) var count = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The byte at `position` (`0 ..< count`).
    subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "InlineByteArray: index out of range")
        let lane = position & 63
        switch position >> 6 {
        case 0: return storage.0[lane]
        case 1: return storage.1[lane]
        case 2: return storage.2[lane]
        default: return storage.3[lane]
        }
    }

    /// Removes every byte (the storage is kept).
    mutating func removeAll() { count = 0 }

    /// Appends the readable bytes of `count` at `offset` after the window's position, as many as fit
    /// (at most ``capacity`` in all). Returns how many were appended.
    @discardableResult
    mutating func append(_ window: InputWindow, at offset: Int, count: Int) -> Int {
        guard offset >= 0, offset < window.readable else { return 0 }
        let n = Swift.min(count, Self.capacity - self.count, window.readable - offset)
        guard n > 0 else { return 0 }
        var end = self.count
        // One copy per segment into the inline storage (element-wise stores would rewrite a whole
        // vector per byte).
        window.withContiguousSegments(at: offset, count: n) { source in
            guard let from = unsafe source.rawBuffer.baseAddress else { return }
            let at = end  // at + source.count ≤ capacity < the 256 bytes of storage
            unsafe withUnsafeMutableBytes(of: &storage) { target in
                unsafe target.baseAddress?.advanced(by: at).copyMemory(from: from, byteCount: source.count)
            }
            end += source.count
        }
        let appended = end - self.count
        self.count = end
        return appended
    }

    /// Calls `body` with a bounds-checked view of the bytes (one copy of the storage, none per element).
    func withSpan<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        var copy = storage
        let n = count
        return try unsafe withUnsafeBytes(of: &copy) { (raw) throws(E) -> R in
            let bytes = unsafe UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[0..<n])
            return try body(unsafe Span(_unsafeElements: bytes))
        }
    }

    static func == (a: InlineByteArray, b: InlineByteArray) -> Bool { a.elementsEqual(b) }
}
