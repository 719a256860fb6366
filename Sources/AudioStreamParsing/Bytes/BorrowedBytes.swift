/// A read-only, bounds-checked view of bytes that someone else owns: the caller's chunk during one
/// `parse` call, the storage of a packet batch during one handler call.
///
/// It is how code outside `Bytes/` holds such bytes: the raw pointer stays in this folder, every read
/// is checked against the view's bounds (a wrong index traps instead of reading memory it does not
/// own), and a copy goes through one `memcpy` (`withContiguousStorageIfAvailable`). Like the bytes it
/// views, a `BorrowedBytes` is valid only for the call that made it (`withBorrowedBytes(of:_:)`,
/// `AudioStreamParser.parse`): never keep one after that call returns.
struct BorrowedBytes: RandomAccessCollection {
    /// The viewed bytes.
    private let base: UnsafeRawBufferPointer

    /// A view of `base`, which must stay valid for as long as the view is used.
    init(_ base: UnsafeRawBufferPointer) { self.base = base }

    /// Always 0.
    var startIndex: Int { 0 }
    /// The number of bytes.
    var endIndex: Int { base.count }

    /// The byte at `position` (checked: traps when outside `0..<count`).
    @inline(__always)
    subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < base.count, "BorrowedBytes: index out of range")
        return base[position]
    }

    /// A view of `range` of these bytes, indexed from 0 again (checked).
    func extracting(_ range: Range<Int>) -> BorrowedBytes {
        precondition(range.lowerBound >= 0 && range.upperBound <= base.count, "BorrowedBytes: range out of bounds")
        return BorrowedBytes(UnsafeRawBufferPointer(rebasing: base[range]))
    }

    /// Lets `Array.append(contentsOf:)` and friends copy the bytes in one piece.
    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(base.assumingMemoryBound(to: UInt8.self))
    }

    /// The raw pointer, for the other files of `Bytes/` and the public raw-pointer entry points only.
    var rawBuffer: UnsafeRawBufferPointer { base }
}

/// Calls `body` with a borrowed view of the bytes of `bytes`: its own storage when it has contiguous
/// storage (an `Array`, an `ArraySlice`, Foundation's `Data`), else a temporary copy. The view is valid
/// only during `body`.
func withBorrowedBytes<C: Collection<UInt8>, R, E: Error>(
    of bytes: C, _ body: (BorrowedBytes) throws(E) -> R
) throws(E) -> R {
    var outcome: Result<R, E>?
    _ = bytes.withContiguousStorageIfAvailable { buffer in
        outcome = Result { () throws(E) -> R in try body(BorrowedBytes(UnsafeRawBufferPointer(buffer))) }
    }
    if outcome == nil {
        Array(bytes).withUnsafeBytes { raw in
            outcome = Result { () throws(E) -> R in try body(BorrowedBytes(raw)) }
        }
    }
    // Safe to force unwrap: one of the two branches above ran `body`.
    return try outcome!.get()
}
