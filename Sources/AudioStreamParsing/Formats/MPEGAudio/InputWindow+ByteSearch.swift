extension InputWindow {
    /// The offset (after the position) of the first `byte` at or after `start` and before `end`, or
    /// `nil` when there is none. Searches whole contiguous segments with the standard library's
    /// `firstIndex(of:)` instead of peeking one byte at a time.
    func firstIndex(of byte: UInt8, from start: Int, to end: Int) -> Int? {
        let end = min(end, readable)
        guard start >= 0, start < end else { return nil }
        var found: Int?
        var base = start
        withContiguousSegments(at: start, count: end - start) { segment in
            guard found == nil else { return }
            if let i = segment.firstIndex(of: byte) { found = base + i }
            base += segment.count
        }
        return found
    }

    /// True when the bytes at `offset` after the position equal `magic` (false when not all are
    /// readable).
    func matches(_ magic: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset <= readable - magic.count else { return false }
        for (i, byte) in magic.enumerated() where peekUInt8(at: offset + i) != byte { return false }
        return true
    }

    /// True when the readable bytes at `offset` are a prefix of `magic` (or all of it): the magic
    /// may still be there once more bytes arrive.
    func couldMatch(_ magic: [UInt8], at offset: Int) -> Bool {
        let n = min(magic.count, readable - offset)
        guard offset >= 0, n >= 0 else { return false }
        for i in 0..<n where peekUInt8(at: offset + i) != magic[i] { return false }
        return true
    }
}
