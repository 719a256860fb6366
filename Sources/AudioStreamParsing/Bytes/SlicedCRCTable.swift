/// The lookup tables of an MSB-first (not reflected) CRC of 16 or 32 bits, with slicing by 16.
///
/// `entries[k × 256 + n]` is the CRC of the byte `n` followed by `k` zero bytes (`k` in 0..<16); the
/// first 256 entries are the classic one-byte table. A slicing step reads 16 bytes as two big-endian
/// words and does one lookup per byte in its own table, the lookups independent of each other. Initial
/// value and final XOR are the caller's (the FLAC CRC-16 and the Ogg CRC-32 use 0 and none).
///
/// Long runs go through two lanes at once: the first `laneBytes` of each `2 × laneBytes` block
/// continue the running CRC, the second half starts from 0, the two slicing chains interleaved (each
/// step depends on the previous one of its own lane only, so the two overlap in the CPU). Because the
/// CRC is linear with no final XOR, CRC(A ‖ B) = CRC(A) advanced over `laneBytes` zero bytes ⊕ CRC(B);
/// `shift` advances a value over `laneBytes` zero bytes with one lookup per byte of the value:
///
/// ```
/// shift[k × 256 + n] = the CRC state n << 8k advanced over laneBytes zero bytes   (k < Word.bitWidth / 8)
/// advance(c)         = ⊕ over k of shift[k × 256 + (c >> 8k) & 0xFF]
/// ```
///
/// Used by `FLACCRC` (polynomial 0x8005, RFC 9639 §9.3) and `OggCRC` (0x04C11DB7, RFC 3533 §6).
///
/// The kernels below read the bytes through raw pointers (`BorrowedBytes.rawBuffer`) and look the tables
/// up through pointers to their storage, without a bounds check per load: every byte offset they load
/// is below the view's count by the loop that reaches it, and every table index is a byte (0…255) plus a
/// multiple of 256 below the table's size (16 × 256 entries, `Word.bitWidth / 8` × 256 for `shift`).
/// Their interface is safe: a `BorrowedBytes` in, a CRC value out.
struct SlicedCRCTable<Word: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable {
    /// 16 × 256 entries (see the type's documentation).
    let entries: [Word]
    /// (Word.bitWidth / 8) × 256 entries: a value advanced over `laneBytes` zero bytes, by byte.
    let shift: [Word]
    /// The length of each lane of the two-lane update (a multiple of 16).
    static var laneBytes: Int { 256 }

    /// Builds the tables for `polynomial` (without its leading x^width term).
    init(polynomial: Word) {
        let top = Word(1) << (Word.bitWidth - 1)
        var t = [Word](repeating: 0, count: 16 * 256)
        for n in 0..<256 {
            var c = Word(n) << (Word.bitWidth - 8)
            for _ in 0..<8 { c = c & top != 0 ? c << 1 ^ polynomial : c << 1 }
            t[n] = c
        }
        for k in 1..<16 {
            for n in 0..<256 {
                let previous = t[(k - 1) * 256 + n]
                t[k * 256 + n] = previous << 8 ^ t[Int(truncatingIfNeeded: previous >> (Word.bitWidth - 8))]
            }
        }
        entries = t
        // The state after `laneBytes` zero bytes is linear in the state before: advance each of the
        // Word.bitWidth single-bit states byte by byte, then combine them for every byte value.
        let width = Word.bitWidth / 8
        var basis = [Word](repeating: 0, count: Word.bitWidth)
        for bit in 0..<Word.bitWidth {
            var c = Word(1) << bit
            for _ in 0..<Self.laneBytes { c = c << 8 ^ t[Int(truncatingIfNeeded: c >> (Word.bitWidth - 8))] }
            basis[bit] = c
        }
        var z = [Word](repeating: 0, count: width * 256)
        for k in 0..<width {
            for n in 1..<256 {
                let low = n & -n
                z[k * 256 + n] = z[k * 256 + (n ^ low)] ^ basis[8 * k + low.trailingZeroBitCount]
            }
        }
        shift = z
    }

    /// `crc` advanced over `laneBytes` zero bytes; `z` points at `shift` (`Word.bitWidth / 8` × 256 words).
    @inline(__always)
    static func advance(_ crc: Word, _ z: UnsafePointer<Word>) -> Word {
        var r: Word = 0
        var k = 0
        while k < Word.bitWidth / 8 {
            r ^= unsafe z[k * 256 + Int(truncatingIfNeeded: crc >> (8 * k) & 0xFF)]
            k += 1
        }
        return r
    }

    /// `crc` continued over one byte; `t` points at `entries` (16 × 256 words).
    @inline(__always)
    static func update(_ crc: Word, _ byte: UInt8, _ t: UnsafePointer<Word>) -> Word {
        unsafe crc << 8 ^ t[Int(UInt8(truncatingIfNeeded: crc >> (Word.bitWidth - 8)) ^ byte)]
    }

    /// `crc` continued over 16 bytes: `hi` holds the first 8, `lo` the next 8, both big-endian; `t` points
    /// at `entries` (16 × 256 words).
    @inline(__always)
    static func step(_ crc: Word, _ hi: UInt64, _ lo: UInt64, _ t: UnsafePointer<Word>) -> Word {
        unsafe step(
            crc, UInt32(truncatingIfNeeded: hi >> 32), UInt32(truncatingIfNeeded: hi),
            UInt32(truncatingIfNeeded: lo >> 32), UInt32(truncatingIfNeeded: lo), t)
    }

    /// `crc` continued over the 16 bytes at `p`, read as four little-endian 32-bit words: each word's first
    /// byte is its low byte, looked up in the table a big-endian word would give its top byte, so the
    /// words need no byte swap (only the running CRC does, once per step).
    @inline(__always)
    static func step(_ crc: Word, at p: UnsafeRawPointer, _ t: UnsafePointer<Word>) -> Word {
        let w0 = unsafe UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
        let w1 = unsafe UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let w2 = unsafe UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        let w3 = unsafe UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        let w = w0 ^ (UInt32(crc) << (32 - Word.bitWidth)).byteSwapped
        return unsafe lookup4(littleEndian: w, 12, t) ^ lookup4(littleEndian: w1, 8, t)
            ^ lookup4(littleEndian: w2, 4, t) ^ lookup4(littleEndian: w3, 0, t)
    }

    /// `lookup4` of a word read little-endian (its first byte in the low 8 bits).
    @inline(__always)
    static func lookup4(littleEndian w: UInt32, _ k: Int, _ t: UnsafePointer<Word>) -> Word {
        unsafe t[(k + 3) &* 256 &+ Int(w & 0xFF)] ^ t[(k + 2) &* 256 &+ Int(w >> 8 & 0xFF)]
            ^ t[(k + 1) &* 256 &+ Int(w >> 16 & 0xFF)] ^ t[k &* 256 &+ Int(w >> 24)]
    }

    /// `crc` continued over 16 bytes given as four big-endian 32-bit words. Bytes are taken from 32-bit
    /// values, not 64-bit ones: on x86-64 the two low bytes of a 32-bit register are read without a
    /// shift (`movzbl %al`, `%ah`), fewer instructions per byte.
    @inline(__always)
    static func step(
        _ crc: Word, _ w0: UInt32, _ w1: UInt32, _ w2: UInt32, _ w3: UInt32, _ t: UnsafePointer<Word>
    ) -> Word {
        let w = w0 ^ UInt32(crc) << (32 - Word.bitWidth)
        return unsafe lookup4(w, 12, t) ^ lookup4(w1, 8, t) ^ lookup4(w2, 4, t) ^ lookup4(w3, 0, t)
    }

    /// The four lookups of a big-endian 32-bit word `w` in tables `k + 3`…`k` (its first byte in table
    /// `k + 3`).
    @inline(__always)
    static func lookup4(_ w: UInt32, _ k: Int, _ t: UnsafePointer<Word>) -> Word {
        unsafe t[(k + 3) &* 256 &+ Int(w >> 24)] ^ t[(k + 2) &* 256 &+ Int(w >> 16 & 0xFF)]
            ^ t[(k + 1) &* 256 &+ Int(w >> 8 & 0xFF)] ^ t[k &* 256 &+ Int(w & 0xFF)]
    }

    /// `crc` continued over one byte.
    @inline(__always)
    func update(_ crc: Word, _ byte: UInt8) -> Word {
        crc << 8 ^ entries[Int(UInt8(truncatingIfNeeded: crc >> (Word.bitWidth - 8)) ^ byte)]
    }

    /// `crc` continued over `bytes`: two lanes of 16 bytes per step while `2 × laneBytes` remain, then 16
    /// bytes per step, the tail byte by byte.
    func update(_ crc: Word, _ bytes: BorrowedBytes) -> Word {
        guard let base = unsafe bytes.rawBuffer.baseAddress else { return crc }
        let count = bytes.count
        return unsafe entries.withUnsafeBufferPointer { tables in
            // `entries` always holds 16 × 256 words, so its base address exists.
            guard let t = tables.baseAddress else { return crc }
            var c = crc
            var k = 0
            let lane = Self.laneBytes
            if count >= 2 * lane {
                unsafe shift.withUnsafeBufferPointer { shifts in
                    guard let z = shifts.baseAddress else { return }
                    // k + 2 × lane ≤ count: both lanes' 16-byte loads are inside the view.
                    // The index sums below cannot overflow (they stay below `count`): wrapping
                    // arithmetic spares the overflow checks in the loop.
                    while k &+ 2 &* lane <= count {
                        var a = c
                        var b: Word = 0
                        let first = unsafe base.advanced(by: k)
                        let second = unsafe first.advanced(by: lane)
                        var j = 0
                        while j < lane {
                            a = unsafe Self.step(a, at: first + j, t)
                            b = unsafe Self.step(b, at: second + j, t)
                            j &+= 16
                        }
                        c = unsafe Self.advance(a, z) ^ b
                        k &+= 2 &* lane
                    }
                }
            }
            while k &+ 16 <= count {
                c = unsafe Self.step(c, at: base + k, t)
                k &+= 16
            }
            while k < count {
                c = unsafe Self.update(c, base.load(fromByteOffset: k, as: UInt8.self), t)
                k += 1
            }
            return c
        }
    }
}

// MARK: CRC up to a sync code

extension SlicedCRCTable where Word == UInt16 {
    /// `crc` continued over `bytes` up to the first possible sync code in them: a 0xFF followed by a byte
    /// `b` with `b & syncMask == syncValue`, or a 0xFF that is the last byte of `bytes` (the caller
    /// decides what its next byte is). The kernel of `InputWindow.crc16ToPossibleSync`, which runs it over
    /// each contiguous segment of a window range.
    ///
    /// Word at a time: 16 bytes without any 0xFF (tested on two 64-bit words) go through the sliced CRC in
    /// one step; only a block holding a 0xFF goes byte by byte.
    ///
    /// - Returns: the index reached in `bytes`, whether it stopped at such a 0xFF (not included in the
    ///   CRC), and the CRC over the bytes before that index.
    @inline(__always)
    func updateToPossibleSync(
        _ crc: UInt16, _ bytes: BorrowedBytes, syncMask: UInt8, syncValue: UInt8
    ) -> (offset: Int, found: Bool, crc: UInt16) {
        guard let base = unsafe bytes.rawBuffer.baseAddress else { return (0, false, crc) }
        let count = bytes.count
        return unsafe entries.withUnsafeBufferPointer { tables in
            guard let t = tables.baseAddress else { return (0, false, crc) }
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            var c = crc
            var k = 0
            while k < count {
                let end: Int
                if k + 16 <= count {
                    let hi = UInt64(bigEndian: unsafe base.loadUnaligned(fromByteOffset: k, as: UInt64.self))
                    let lo = UInt64(bigEndian: unsafe base.loadUnaligned(fromByteOffset: k + 8, as: UInt64.self))
                    // A byte of `w` is 0xFF exactly when that byte of `~w` is zero.
                    let ffs = ((~hi &- ones) & hi | (~lo &- ones) & lo) & highs
                    if ffs == 0 {
                        c = unsafe Self.step(c, hi, lo, t)
                        k += 16
                        continue
                    }
                    end = k + 16
                } else {
                    end = count
                }
                // k < end ≤ count: byte loads inside the view (k + 1 only when below count).
                while k < end {
                    let b = unsafe base.load(fromByteOffset: k, as: UInt8.self)
                    if unsafe b == 0xFF
                        && (k + 1 == count
                            || base.load(fromByteOffset: k + 1, as: UInt8.self) & syncMask == syncValue)
                    {
                        return (k, true, c)
                    }
                    c = unsafe c << 8 ^ t[Int(UInt8(truncatingIfNeeded: c >> 8) ^ b)]
                    k += 1
                }
            }
            return (k, false, c)
        }
    }
}
