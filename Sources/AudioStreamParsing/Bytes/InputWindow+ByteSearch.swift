extension InputWindow {
    /// The offset (after the position) of the first `byte` at or after `start` and before `end`, or
    /// `nil` when there is none. Searches whole contiguous segments with `BorrowedBytes.firstIndex(of:)`
    /// (the C library's SIMD `memchr`) instead of peeking one byte at a time.
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

// MARK: CRC up to a sync code

extension InputWindow {
    /// Runs the CRC-16 of `table` over the readable bytes `start..<end` (after the position) from `crc`,
    /// up to the first possible sync code: a 0xFF followed by a byte `b` with `b & syncMask ==
    /// syncValue`, or a 0xFF that is the last byte of a contiguous segment (its next byte lies in the
    /// other segment or is not readable yet: the caller decides).
    ///
    /// Word at a time: 16 bytes without any 0xFF (tested on two 64-bit words) go through the sliced CRC
    /// in one step; only a block holding a 0xFF goes byte by byte. Used by the FLAC frame scan, whose
    /// frames end where the CRC-16 over them (footer included) is 0 right before a sync code.
    ///
    /// - Returns: the offset reached (after the position), whether it stopped at such a 0xFF (which is
    ///   not included in the CRC), and the CRC over `start..<offset`.
    func crc16ToPossibleSync(
        from start: Int, to end: Int, crc: UInt16, table: SlicedCRCTable<UInt16>, syncMask: UInt8,
        syncValue: UInt8
    ) -> (offset: Int, found: Bool, crc: UInt16) {
        let end = Swift.min(end, readable)
        guard start >= 0, start < end else { return (start, false, crc) }
        var stop = false
        var position = start
        var running = crc
        withContiguousSegments(at: start, count: end - start) { segment in
            guard !stop else { return }
            let (k, found, value) = table.updateToPossibleSync(
                running, segment, syncMask: syncMask, syncValue: syncValue)
            running = value
            stop = found
            position += k
        }
        return (position, stop, running)
    }
}
