/// The bytes the parser can currently read: an owned carry-over buffer followed by the caller's
/// borrowed chunk, addressed by absolute stream offsets.
///
/// ```
///   absolute offset ─▶
///   ┌──────── pending (owned) ────────┬──────── chunk (borrowed) ────────┐
///   │ consumed │ unconsumed           │ consumed │ unconsumed            │
///   └──────────┴──────────────────────┴──────────┴───────────────────────┘
///   pendingBase  ▲position (when pending is not exhausted)
/// ```
///
/// Bytes are consumed from `pending` first, then from `chunk`. At the end of a `parse` call the
/// unconsumed part of the chunk is copied into `pending` (only leftovers, never payloads that were
/// handed out), so a caller's chunk is never referenced after `parse` returns.
///
/// All reads are bounds-checked and return `nil` when the bytes are not there yet.
struct InputWindow {
    /// Owned bytes carried over from earlier chunks.
    private(set) var pending: [UInt8] = []
    /// Index in `pending` of the first unconsumed byte.
    private(set) var pendingRead: Int = 0
    /// Absolute offset of `pending[0]`.
    private(set) var pendingBase: Int64 = 0
    /// The caller's chunk, borrowed: valid only during `parse` (from `beginChunk` to `endChunk`).
    private(set) var chunk = BorrowedBytes()
    /// Bytes of `chunk` already consumed.
    private(set) var chunkRead: Int = 0
    /// The caller's chunk; valid only during `parse`.
    var chunkBytes: BorrowedBytes { chunk }
    /// Set by `finish()`: no more bytes will come.
    var isFinal = false

    /// Absolute offset of `chunk[0]`.
    var chunkBase: Int64 { pendingBase + Int64(pending.count) }
    /// Unconsumed bytes in `pending`.
    var pendingRemaining: Int { pending.count - pendingRead }
    /// Unconsumed bytes of the caller's chunk (`chunkRead` never passes `chunk.count`).
    var chunkRemaining: Int { chunk.count &- chunkRead }
    /// Unconsumed bytes in total.
    var readable: Int { pendingRemaining + chunkRemaining }
    /// Absolute offset of the next unconsumed byte.
    var position: Int64 {
        pendingRemaining > 0 ? pendingBase + Int64(pendingRead) : chunkBase + Int64(chunkRead)
    }

    // MARK: Feeding

    /// Makes `bytes` readable after the pending bytes. They must stay valid until `endChunk()`, which
    /// copies what is left of them and forgets them.
    mutating func beginChunk(_ bytes: BorrowedBytes) {
        chunk = bytes
        chunkRead = 0
    }

    /// Copies the unconsumed part of the chunk into `pending` and forgets the chunk.
    mutating func endChunk() {
        let rest = chunk.count - chunkRead
        if rest > 0 {
            if pendingRemaining == 0 {
                // Common case: start a fresh pending buffer at the chunk's unconsumed bytes.
                let base = chunkBase + Int64(chunkRead)
                pending.removeAll(keepingCapacity: true)
                appendToPending(chunk.extracting(chunkRead..<chunk.count))
                pendingRead = 0
                pendingBase = base
            } else {
                compactIfWorthwhile()
                appendToPending(chunk.extracting(chunkRead..<chunk.count))
            }
        } else if pendingRemaining == 0 {
            let base = position
            pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
            pendingRead = 0
            pendingBase = base
        }
        chunk = BorrowedBytes()
        chunkRead = 0
    }

    /// Keeps `bytes` as carried-over bytes without reading any: what `beginChunk` then `endChunk` do, in
    /// the few instructions a byte-at-a-time caller can afford per call.
    @inline(__always)
    mutating func absorb(_ bytes: BorrowedBytes) {
        if pendingRemaining == 0 {
            // Everything held was consumed: the bytes start a fresh pending buffer at the position.
            pendingBase += Int64(pending.count)
            pending.removeAll(keepingCapacity: true)
            pendingRead = 0
        } else if pendingRead >= 1024 {
            compactIfWorthwhile()
        }
        appendToPending(bytes)
    }

    /// Appends to `pending`: a few bytes one by one (cheaper than the generic `append(contentsOf:)` when
    /// input comes in tiny chunks), more in one copy.
    @inline(__always)
    private mutating func appendToPending(_ bytes: BorrowedBytes) {
        if bytes.count == 1 {
            pending.append(bytes[0])
        } else if bytes.count <= 16 {
            for byte in bytes { pending.append(byte) }
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    /// Drops every unconsumed byte and restarts at `offset` (after a seek or discontinuity).
    mutating func reset(at offset: Int64) {
        pending.removeAll(keepingCapacity: false)
        pendingRead = 0
        pendingBase = offset
        chunk = BorrowedBytes()
        chunkRead = 0
        isFinal = false
    }

    /// Removes consumed bytes at the front of `pending` when that frees a worthwhile amount
    /// (the swift-nio reclaim policy: at least 1 KiB and more than half the buffer).
    private mutating func compactIfWorthwhile() {
        if pendingRead >= 1024 && pendingRead * 2 >= pending.count {
            pending.removeSubrange(0..<pendingRead)
            pendingBase += Int64(pendingRead)
            pendingRead = 0
        }
    }

    // MARK: Consuming

    /// Consumes `count` bytes (at most `readable`).
    mutating func consume(_ count: Int) {
        var n = min(count, readable)
        let fromPending = min(n, pendingRemaining)
        pendingRead += fromPending
        n -= fromPending
        chunkRead += n
    }

    /// Consumes `count` bytes of the chunk when no pending byte is readable (the fast paths'
    /// `consume`); the caller has checked that they are readable.
    @inline(__always)
    mutating func consumeChunk(_ count: Int) {
        assert(pendingRemaining == 0 && count <= chunk.count - chunkRead, "consumeChunk: bytes not readable")
        chunkRead += count
    }

    // MARK: Reading without consuming

    /// When no carried-over byte is left to read, a cursor over the caller's chunk at the position (the
    /// readable bytes are its `index..<count`), so that a format parser's fast path can walk many
    /// structures with bounds-checked word loads; `nil` while pending bytes are readable. Valid until the
    /// window is next mutated (consuming chunk bytes excepted).
    var chunkCursor: ChunkCursor? {
        pendingRead == pending.count ? ChunkCursor(chunk, index: chunkRead, base: chunkBase) : nil
    }

    /// The byte `offset` bytes after the position, or `nil` when not yet available.
    @inline(__always)
    func peekUInt8(at offset: Int = 0) -> UInt8? {
        guard offset >= 0 else { return nil }
        let pr = pendingRemaining
        if offset < pr { return pending[pendingRead + offset] }
        // Past the pending bytes, the chunk's bounds check is the readability check (`offset < readable`
        // exactly when the index is below the chunk's count; a wrapped sum is negative, so out of bounds).
        return chunk.byte(at: chunkRead &+ (offset - pr))
    }

    /// The integer of `T`'s width at `offset` after the position in `endianness` order, or `nil` when
    /// not all its bytes are readable yet.
    @inline(__always)
    func peekInteger<T: FixedWidthInteger & UnsignedInteger>(
        at offset: Int = 0, as type: T.Type = T.self, endianness: Endianness
    ) -> T? {
        peekInteger(at: offset, byteCount: MemoryLayout<T>.size, as: type, endianness: endianness)
    }

    /// The `byteCount`-byte unsigned integer (1 … `T`'s width; 3 for 24-bit fields) at `offset` after
    /// the position, or `nil` when not all its bytes are readable yet.
    func peekInteger<T: FixedWidthInteger & UnsignedInteger>(
        at offset: Int = 0, byteCount: Int, as type: T.Type = T.self, endianness: Endianness
    ) -> T? {
        guard byteCount >= 1, byteCount <= MemoryLayout<T>.size, offset >= 0, offset <= readable - byteCount
        else { return nil }
        var value: T = 0
        switch endianness {
        case .big:
            for i in offset..<(offset + byteCount) {
                // Safe to force unwrap: the guard proved offset + byteCount <= readable.
                value = value << 8 | T(peekUInt8(at: i)!)
            }
        case .little:
            for i in (offset..<(offset + byteCount)).reversed() { value = value << 8 | T(peekUInt8(at: i)!) }
        }
        return value
    }

    /// A copy of `count` bytes at `offset` after the position, or `nil` when not all are available.
    func peekBytes(at offset: Int = 0, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= readable - count else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(count)
        withContiguousSegments(at: offset, count: count) { out.append(contentsOf: $0) }
        return out
    }

    /// Calls `body` with the one or two contiguous pieces that hold `count` bytes at `offset` after the
    /// position, as views valid only during `body`. The caller must have checked that the bytes are
    /// readable (a range outside the window traps).
    func withContiguousSegments(at offset: Int, count: Int, _ body: (BorrowedBytes) -> Void) {
        let pr = pendingRemaining
        var start = offset
        var left = count
        if start < pr {
            let n = min(left, pr - start)
            withBorrowedBytes(of: pending, in: (pendingRead + start)..<(pendingRead + start + n), body)
            left -= n
            start = pr
        }
        if left > 0 {
            let c = chunkRead + start - pr
            body(chunk.extracting(c..<(c + left)))
        }
    }

    /// Where `count` bytes at `offset` after the position live: wholly in one segment, or straddling both.
    func segment(at offset: Int, count: Int) -> Segment {
        let pr = pendingRemaining
        if offset + count <= pr { return .pending(index: pendingRead + offset) }
        if offset >= pr { return .chunk(index: chunkRead + offset - pr) }
        return .straddling
    }

    /// The storage that holds a range of readable bytes.
    enum Segment: Equatable {
        /// In `pending`, starting at this index.
        case pending(index: Int)
        /// In `chunk`, starting at this index.
        case chunk(index: Int)
        /// Partly in each; the bytes must be assembled.
        case straddling
    }
}
