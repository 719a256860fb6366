/// The Ogg page checksum (RFC 3533 §6, libogg `framing.c`): CRC-32 with the generator polynomial
/// 0x04C11DB7, MSB first (not reflected), initial value 0, no final XOR. It covers the whole page with
/// the 4 checksum bytes (header offset 22) taken as zero.
///
/// Table-driven, one table lookup per byte; `update` can be called on consecutive pieces of a page as
/// they pass (the page may straddle the parser's carry-over buffer and the caller's chunk).
struct OggCRC {
    /// The running value.
    private(set) var value: UInt32 = 0

    /// Feeds `bytes`.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = value
        for byte in bytes {
            crc = (crc << 8) ^ OggCRC.table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ byte)]
        }
        value = crc
    }

    /// Feeds `count` zero bytes (the checksum field).
    mutating func updateZeros(_ count: Int) {
        for _ in 0..<count {
            value = (value << 8) ^ OggCRC.table[Int(UInt8(truncatingIfNeeded: value >> 24))]
        }
    }

    /// `table[i]` is the CRC of the byte `i` followed by 32 zero bits.
    static let table: [UInt32] = (0..<256).map { i -> UInt32 in
        var r = UInt32(i) << 24
        for _ in 0..<8 {
            r = (r & 0x8000_0000) != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1
        }
        return r
    }
}
