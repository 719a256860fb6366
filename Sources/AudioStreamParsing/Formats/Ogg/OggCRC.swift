/// The Ogg page checksum (RFC 3533 §6, libogg `framing.c`): CRC-32 with the generator polynomial
/// 0x04C11DB7, MSB first (not reflected), initial value 0, no final XOR. It covers the whole page with
/// the 4 checksum bytes (header offset 22) taken as zero.
///
/// Sliced by 16 (`SlicedCRCTable`, in `Bytes/`), its tables built once, lazily. `update` runs over a
/// range of the input window, which may straddle the parser's carry-over buffer and the caller's chunk.
struct OggCRC {
    /// The running value.
    private(set) var value: UInt32 = 0

    /// Feeds the `count` readable bytes at `offset` after the window's position.
    mutating func update(_ window: InputWindow, at offset: Int, count: Int) {
        value = window.crc(OggCRC.table, from: value, at: offset, count: count)
    }

    /// Feeds `count` zero bytes (the checksum field).
    mutating func updateZeros(_ count: Int) {
        for _ in 0..<count { value = OggCRC.table.update(value, 0) }
    }

    /// The CRC-32 tables (one-byte and sliced by 16).
    static let table = SlicedCRCTable<UInt32>(polynomial: 0x04C1_1DB7)
}
