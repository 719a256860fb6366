#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension InputWindow {
    /// The offset (after the position) of the first `byte` at or after `start` and before `end`, or
    /// `nil` when there is none. Searches whole contiguous segments with `ByteScan.firstIndex` (the C
    /// library's SIMD `memchr`) instead of peeking one byte at a time.
    func firstIndex(of byte: UInt8, from start: Int, to end: Int) -> Int? {
        let end = min(end, readable)
        guard start >= 0, start < end else { return nil }
        var found: Int?
        var base = start
        withContiguousSegments(at: start, count: end - start) { segment in
            guard found == nil else { return }
            if let i = ByteScan.firstIndex(of: byte, in: segment) { found = base + i }
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

/// Byte search over contiguous memory.
enum ByteScan {
    /// The index of the first `byte` in `buffer`, or `nil`: `memchr` (vectorised in every C library this
    /// package builds with), or a word-at-a-time scan where no C library is imported.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in buffer: UnsafeRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let hit = memchr(base, Int32(byte), buffer.count) else { return nil }
        return UnsafeRawPointer(hit) - base
        #else
        return wordScan(byte, base, buffer.count)
        #endif
    }

    /// Eight bytes at a time: a word has a zero byte after XOR with the repeated byte when
    /// `(v - 0x01…01) & ~v & 0x80…80` is non-zero.
    static func wordScan(_ byte: UInt8, _ base: UnsafeRawPointer, _ count: Int) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let pattern = UInt64(byte) &* ones
        var i = 0
        while count - i >= 8 {
            let v = base.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
            if (v &- ones) & ~v & (ones << 7) != 0 { break }
            i += 8
        }
        while i < count {
            if base.load(fromByteOffset: i, as: UInt8.self) == byte { return i }
            i += 1
        }
        return nil
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
        table.entries.withUnsafeBufferPointer { tables in
            guard let t = tables.baseAddress else { return }
            withContiguousSegments(at: start, count: end - start) { segment in
                guard !stop, let base = segment.baseAddress else { return }
                let (k, found, value) = Self.crcToSync(
                    base, count: segment.count, from: running, t, syncMask: syncMask, syncValue: syncValue)
                running = value
                stop = found
                position += k
            }
        }
        return (position, stop, running)
    }

    /// `crc16ToPossibleSync` over one contiguous segment of `count` bytes at `base`.
    @inline(__always)
    private static func crcToSync(
        _ base: UnsafeRawPointer, count: Int, from crc: UInt16, _ t: UnsafePointer<UInt16>, syncMask: UInt8,
        syncValue: UInt8
    ) -> (offset: Int, found: Bool, crc: UInt16) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var c = crc
        var k = 0
        while k < count {
            let end: Int
            if k + 16 <= count {
                let hi = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: k, as: UInt64.self))
                let lo = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: k + 8, as: UInt64.self))
                // A byte of `w` is 0xFF exactly when that byte of `~w` is zero.
                let ffs = ((~hi &- ones) & hi | (~lo &- ones) & lo) & highs
                if ffs == 0 {
                    c = SlicedCRCTable<UInt16>.step(c, hi, lo, t)
                    k += 16
                    continue
                }
                end = k + 16
            } else {
                end = count
            }
            while k < end {
                let b = base.load(fromByteOffset: k, as: UInt8.self)
                if b == 0xFF
                    && (k + 1 == count
                        || base.load(fromByteOffset: k + 1, as: UInt8.self) & syncMask == syncValue)
                {
                    return (k, true, c)
                }
                c = c << 8 ^ t[Int(UInt8(truncatingIfNeeded: c >> 8) ^ b)]
                k += 1
            }
        }
        return (k, false, c)
    }
}
