#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only, bounds-checked view of bytes that someone else owns: the caller's chunk during one
/// `parse` call, the storage of a packet batch during one handler call, an array's storage during one
/// closure call.
///
/// It is the one type through which the library reads memory it does not own. Every read it offers is
/// checked against the view's bounds: the subscript and `extracting(_:)` trap on a wrong index, the word
/// loads answer `nil` past the end, iteration, search and copies stay inside the view by construction.
/// Code outside `Bytes/` therefore reads borrowed bytes without a pointer and without `unsafe`.
///
/// **Lifetime.** What the compiler cannot check is how long the memory lives: a `BorrowedBytes` is an
/// ordinary (escapable) value, valid only for the call that made it (`withBorrowedBytes(of:_:)`'s body,
/// `AudioStreamParser.parse`, the packets handler). Never keep one after that call returns; the
/// `InputWindow` forgets its chunk in `endChunk()` and `PacketBatch` documents the same rule. Only
/// `init(_:)` (`@unsafe`, used in `Bytes/` only) can make a view of arbitrary memory, and its caller
/// vouches for that memory's lifetime.
@safe
struct BorrowedBytes: RandomAccessCollection {
    /// The address of the first byte; `nil` only when `count` is 0.
    private let start: UnsafeRawPointer?
    /// The number of bytes (stored: the hot paths test it on every call).
    let count: Int

    /// A view of `base`, which must stay valid, and unmodified, for as long as the view is used.
    @unsafe
    @inline(__always)
    init(_ base: UnsafeRawBufferPointer) {
        unsafe start = base.baseAddress
        count = base.count
    }

    /// No bytes.
    init() {
        unsafe start = nil
        count = 0
    }

    /// The viewed bytes as a raw buffer.
    @inline(__always)
    private var base: UnsafeRawBufferPointer { unsafe UnsafeRawBufferPointer(start: start, count: count) }

    /// Always 0.
    var startIndex: Int { 0 }
    /// The number of bytes.
    var endIndex: Int { count }

    /// The byte at `position` (checked: traps when outside `0..<count`).
    @inline(__always)
    subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "BorrowedBytes: index out of range")
        return unsafe base[position]
    }

    /// The byte at `position`, or `nil` when `position` is outside `0..<count` (one unsigned comparison).
    @inline(__always)
    func byte(at position: Int) -> UInt8? {
        guard UInt(bitPattern: position) < UInt(bitPattern: count) else { return nil }
        return unsafe base[position]
    }

    /// A view of `range` of these bytes, indexed from 0 again (checked: traps when `range` is not within
    /// `0..<count`). Borrowed for as long as this view is.
    @inline(__always)
    func extracting(_ range: Range<Int>) -> BorrowedBytes {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "BorrowedBytes: range out of bounds")
        return unsafe BorrowedBytes(UnsafeRawBufferPointer(rebasing: base[range]))
    }

    /// Iterates the bytes without a bounds check per byte (the iterator never leaves the view).
    func makeIterator() -> Iterator { unsafe Iterator(base: base.makeIterator()) }

    /// The bytes in order.
    @safe
    struct Iterator: IteratorProtocol {
        /// The raw buffer's iterator, which stops at the view's end.
        fileprivate var base: UnsafeRawBufferPointer.Iterator

        /// The next byte, or `nil` at the end.
        @inline(__always)
        mutating func next() -> UInt8? { unsafe base.next() }
    }

    /// Lets `Array.append(contentsOf:)`, `Array(_:)` and friends copy the bytes in one piece (`memcpy`).
    /// The buffer is valid only during `body`.
    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try unsafe body(base.assumingMemoryBound(to: UInt8.self))
    }

    /// The raw buffer, for the CRC kernel, the inline byte array and the public raw-pointer entry points
    /// (`Bytes/` only). Valid as long as the view is.
    @unsafe
    var rawBuffer: UnsafeRawBufferPointer { unsafe base }
}

extension BorrowedBytes {
    /// Calls `body` with the bytes as a `RawSpan`, a bounds-checked view that cannot outlive `body`
    /// (the compiler rejects storing or returning it): the span a `PacketBatch` hands to its caller.
    @inline(__always)
    func withRawSpan<R, E: Error>(_ body: (RawSpan) throws(E) -> R) throws(E) -> R {
        try body(unsafe RawSpan(_unsafeBytes: base))
    }
}

extension Array where Element == UInt8 {
    /// Appends the bytes of `bytes` in one copy (`memcpy`), as appending a raw buffer does (the generic
    /// `append(contentsOf:)` would copy a `Sequence` element by element).
    @inline(__always)
    mutating func append(contentsOf bytes: BorrowedBytes) {
        unsafe append(contentsOf: bytes.rawBuffer)
    }
}

// MARK: Making views

/// Calls `body` with a borrowed view of the bytes of `bytes`: its own storage when it has contiguous
/// storage (an `Array`, an `ArraySlice`, Foundation's `Data`), else a temporary copy. The view is valid
/// only during `body`.
func withBorrowedBytes<C: Sequence<UInt8>, R, E: Error>(
    of bytes: C, _ body: (BorrowedBytes) throws(E) -> R
) throws(E) -> R {
    var outcome: Result<R, E>?
    _ = bytes.withContiguousStorageIfAvailable { buffer in
        outcome = Result { () throws(E) -> R in try body(unsafe BorrowedBytes(UnsafeRawBufferPointer(buffer))) }
    }
    if outcome == nil {
        unsafe Array(bytes).withUnsafeBytes { raw in
            outcome = Result { () throws(E) -> R in try body(unsafe BorrowedBytes(raw)) }
        }
    }
    // Safe to force unwrap: one of the two branches above ran `body`.
    return try outcome!.get()
}

/// Calls `body` with a view of `range` of `array`'s bytes (checked: traps when `range` is not within the
/// array), without a copy. The view is valid only during `body`.
@inline(__always)
func withBorrowedBytes<R>(of array: [UInt8], in range: Range<Int>, _ body: (BorrowedBytes) -> R) -> R {
    unsafe array.withUnsafeBytes { raw in body(unsafe BorrowedBytes(raw).extracting(range)) }
}

extension StaticString {
    /// The UTF-8 code unit at `index` of a string literal (checked: traps when `index` is outside
    /// `0..<utf8CodeUnitCount`, and, as `utf8Start` does, for a literal held as a single scalar). It reads
    /// the literal's static memory, which lives as long as the program, so the optimizer folds the code
    /// units of a literal to constants (the four-character codes of `FourCharCode.value` in static
    /// tables are computed at compile time).
    @inline(__always)
    func utf8CodeUnit(at index: Int) -> UInt8 {
        precondition(index >= 0 && index < utf8CodeUnitCount, "StaticString: index out of range")
        return unsafe utf8Start[index]
    }
}

// MARK: Word loads and searches

extension BorrowedBytes {
    /// The big-endian 32-bit word at `index`, or `nil` when its 4 bytes are not all in the view.
    @inline(__always)
    func bigEndianUInt32(at index: Int) -> UInt32? {
        guard index >= 0, index <= count &- 4 else { return nil }
        return UInt32(bigEndian: unsafe base.loadUnaligned(fromByteOffset: index, as: UInt32.self))
    }

    /// The big-endian 64-bit word at `index`, or `nil` when its 8 bytes are not all in the view.
    @inline(__always)
    func bigEndianUInt64(at index: Int) -> UInt64? {
        guard index >= 0, index <= count &- 8 else { return nil }
        return UInt64(bigEndian: unsafe base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// The size of the steps of `cacheLineSum(from:to:)`: a cache line.
    static var cacheLine: Int { 64 }

    /// Loads one byte of every 64-byte step (``cacheLine``) from `start` while below `end` (both clamped
    /// to the view) and returns their wrapping sum and the first index not loaded: independent loads
    /// whose cache misses overlap (``HeaderPrefetch``).
    @inline(__always)
    func cacheLineSum(from start: Int, to end: Int) -> (sum: UInt8, next: Int) {
        let end = Swift.min(end, count)
        var p = Swift.max(start, 0)
        var sum: UInt8 = 0
        // 0 ≤ p < end ≤ count: every load is inside the view, and p + 64 cannot overflow.
        while p < end {
            sum &+= unsafe base.load(fromByteOffset: p, as: UInt8.self)
            p &+= Self.cacheLine
        }
        return (sum, p)
    }

    /// The index of the first `byte` in the view, or `nil`: the C library's `memchr` (vectorised in every
    /// C library this package builds with), or a word-at-a-time scan where none is imported.
    @inline(__always)
    func firstIndex(of byte: UInt8) -> Int? {
        guard let start = unsafe start, count > 0 else { return nil }
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let hit = unsafe memchr(start, Int32(byte), count) else { return nil }
        return unsafe UnsafeRawPointer(hit) - start
        #else
        return wordScan(for: byte)
        #endif
    }

    /// `firstIndex(of:)` eight bytes at a time: a word has a zero byte after XOR with the repeated byte
    /// when `(v - 0x01…01) & ~v & 0x80…80` is non-zero.
    func wordScan(for byte: UInt8) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let pattern = UInt64(byte) &* ones
        var i = 0
        while count - i >= 8 {
            let v = unsafe base.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
            if (v &- ones) & ~v & (ones << 7) != 0 { break }
            i += 8
        }
        while i < count {
            if unsafe base.load(fromByteOffset: i, as: UInt8.self) == byte { return i }
            i += 1
        }
        return nil
    }
}
