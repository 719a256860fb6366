/// The two CRCs of a FLAC frame (RFC 9639 §9.1.8 and §9.3), table-driven, MSB first, initial value 0,
/// no final XOR.
///
/// - CRC-8, polynomial x^8 + x^2 + x + 1 (0x07), over the frame header up to its CRC byte.
/// - CRC-16, polynomial x^16 + x^15 + x^2 + 1 (0x8005), over the whole frame up to the footer.
///
/// Because neither CRC has a final XOR, the CRC over data followed by its own big-endian CRC is 0: the
/// frame scanner runs the CRC-16 over every byte as it passes and recognises the end of a frame where the
/// running value is 0 (footer included) just before the next frame header.
///
/// The CRC-16 runs sliced by 16 (`step16`): 16 bytes per step as two big-endian words, one lookup per
/// byte in 16 tables (`tables16[k × 256 + n]` is the CRC-16 of the byte `n` followed by `k` zero bytes),
/// the lookups independent of each other. The tables are built once, lazily.
enum FLACCRC {
    static let table8: [UInt8] = (0..<256).map { n in
        var c = UInt8(n)
        for _ in 0..<8 { c = c & 0x80 != 0 ? c << 1 ^ 0x07 : c << 1 }
        return c
    }

    /// `tables16[k × 256 + n]`: the CRC-16 of the byte `n` followed by `k` zero bytes (`k` in 0..<16).
    static let tables16: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 16 * 256)
        for n in 0..<256 {
            var c = UInt16(n) << 8
            for _ in 0..<8 { c = c & 0x8000 != 0 ? c << 1 ^ 0x8005 : c << 1 }
            t[n] = c
        }
        for k in 1..<16 {
            for n in 0..<256 {
                let previous = t[(k - 1) * 256 + n]
                t[k * 256 + n] = previous << 8 ^ t[Int(previous >> 8)]
            }
        }
        return t
    }()

    /// The CRC-8 of `bytes`, continuing from `crc`.
    static func crc8<C: Sequence>(_ bytes: C, from crc: UInt8 = 0) -> UInt8 where C.Element == UInt8 {
        var c = crc
        for b in bytes { c = table8[Int(c ^ b)] }
        return c
    }

    /// The CRC-16 of `bytes`, continuing from `crc`.
    static func crc16<C: Sequence>(_ bytes: C, from crc: UInt16 = 0) -> UInt16 where C.Element == UInt8 {
        var c = crc
        tables16.withUnsafeBufferPointer { t in
            for b in bytes { c = c << 8 ^ t[Int(UInt8(truncatingIfNeeded: c >> 8) ^ b)] }
        }
        return c
    }

    /// The CRC-16 of `bytes` (any length), continuing from `crc`, sliced by 16.
    static func crc16(_ bytes: UnsafeRawBufferPointer, from crc: UInt16 = 0) -> UInt16 {
        guard let base = bytes.baseAddress else { return crc }
        let count = bytes.count
        var c = crc
        tables16.withUnsafeBufferPointer { tables in
            guard let t = tables.baseAddress else { return }
            var k = 0
            while k + 16 <= count {
                c = step16(
                    c, UInt64(bigEndian: base.loadUnaligned(fromByteOffset: k, as: UInt64.self)),
                    UInt64(bigEndian: base.loadUnaligned(fromByteOffset: k + 8, as: UInt64.self)), t)
                k += 16
            }
            while k < count {
                c = c << 8 ^ t[Int(UInt8(truncatingIfNeeded: c >> 8) ^ base.load(fromByteOffset: k, as: UInt8.self))]
                k += 1
            }
        }
        return c
    }

    /// 16 bytes of CRC-16: `hi` holds the first 8 bytes, `lo` the next 8, both big-endian; `t` points at
    /// `tables16`.
    @inline(__always)
    static func step16(_ crc: UInt16, _ hi: UInt64, _ lo: UInt64, _ t: UnsafePointer<UInt16>) -> UInt16 {
        let h = hi ^ UInt64(crc) << 48
        return t[15 * 256 + Int(h >> 56)] ^ t[14 * 256 + Int(h >> 48 & 0xFF)]
            ^ t[13 * 256 + Int(h >> 40 & 0xFF)] ^ t[12 * 256 + Int(h >> 32 & 0xFF)]
            ^ t[11 * 256 + Int(h >> 24 & 0xFF)] ^ t[10 * 256 + Int(h >> 16 & 0xFF)]
            ^ t[9 * 256 + Int(h >> 8 & 0xFF)] ^ t[8 * 256 + Int(h & 0xFF)]
            ^ t[7 * 256 + Int(lo >> 56)] ^ t[6 * 256 + Int(lo >> 48 & 0xFF)]
            ^ t[5 * 256 + Int(lo >> 40 & 0xFF)] ^ t[4 * 256 + Int(lo >> 32 & 0xFF)]
            ^ t[3 * 256 + Int(lo >> 24 & 0xFF)] ^ t[2 * 256 + Int(lo >> 16 & 0xFF)]
            ^ t[1 * 256 + Int(lo >> 8 & 0xFF)] ^ t[Int(lo & 0xFF)]
    }

    /// One CRC-16 step.
    @inline(__always)
    static func crc16(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        crc << 8 ^ tables16[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
    }
}
