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
/// The CRC-16 runs sliced by 16 (`SlicedCRCTable`), its tables built once, lazily.
enum FLACCRC {
    static let table8: [UInt8] = (0..<256).map { n in
        var c = UInt8(n)
        for _ in 0..<8 { c = c & 0x80 != 0 ? c << 1 ^ 0x07 : c << 1 }
        return c
    }

    /// The CRC-16 tables (one-byte and sliced by 16).
    static let table16 = SlicedCRCTable<UInt16>(polynomial: 0x8005)

    /// The CRC-8 of `bytes`, continuing from `crc`.
    static func crc8<C: Sequence>(_ bytes: C, from crc: UInt8 = 0) -> UInt8 where C.Element == UInt8 {
        var c = crc
        for b in bytes { c = table8[Int(c ^ b)] }
        return c
    }

    /// The CRC-16 of `bytes`, continuing from `crc`.
    static func crc16<C: Sequence>(_ bytes: C, from crc: UInt16 = 0) -> UInt16 where C.Element == UInt8 {
        var c = crc
        for b in bytes { c = table16.update(c, b) }
        return c
    }

    /// One CRC-16 step.
    @inline(__always)
    static func crc16(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        table16.update(crc, byte)
    }
}
