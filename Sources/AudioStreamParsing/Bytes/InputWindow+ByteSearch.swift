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
