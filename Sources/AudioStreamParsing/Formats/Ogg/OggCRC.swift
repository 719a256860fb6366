/// The Ogg page checksum (RFC 3533 §6, libogg `framing.c`): CRC-32 with the generator polynomial
/// 0x04C11DB7, MSB first (not reflected), initial value 0, no final XOR. It covers the whole page with
/// the 4 checksum bytes (header offset 22) taken as zero.
///
/// Slicing-by-16: 16 bytes per step, read as two big-endian words, with 16 tables of 256 entries
/// (`tables[k][n]` is the CRC of the byte `n` followed by `k` zero bytes, so each byte of the step is
/// one lookup and the lookups are independent); the tail goes byte by byte through `tables[0]`. The
/// tables are built once, lazily. `update` can be called on consecutive pieces of a page as they pass
/// (the page may straddle the parser's carry-over buffer and the caller's chunk).
struct OggCRC {
    /// The running value.
    private(set) var value: UInt32 = 0

    /// Feeds `bytes`.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let count = bytes.count
        var crc = value
        OggCRC.tables.withUnsafeBufferPointer { tables in
            // `tables` holds 16 × 256 entries: the count is fixed at build time.
            guard let t = tables.baseAddress else { return }
            var k = 0
            while k + 16 <= count {
                let hi = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: k, as: UInt64.self)) ^ UInt64(crc) << 32
                let lo = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: k + 8, as: UInt64.self))
                crc =
                    t[15 * 256 + Int(hi >> 56)] ^ t[14 * 256 + Int(hi >> 48 & 0xFF)]
                    ^ t[13 * 256 + Int(hi >> 40 & 0xFF)] ^ t[12 * 256 + Int(hi >> 32 & 0xFF)]
                    ^ t[11 * 256 + Int(hi >> 24 & 0xFF)] ^ t[10 * 256 + Int(hi >> 16 & 0xFF)]
                    ^ t[9 * 256 + Int(hi >> 8 & 0xFF)] ^ t[8 * 256 + Int(hi & 0xFF)]
                    ^ t[7 * 256 + Int(lo >> 56)] ^ t[6 * 256 + Int(lo >> 48 & 0xFF)]
                    ^ t[5 * 256 + Int(lo >> 40 & 0xFF)] ^ t[4 * 256 + Int(lo >> 32 & 0xFF)]
                    ^ t[3 * 256 + Int(lo >> 24 & 0xFF)] ^ t[2 * 256 + Int(lo >> 16 & 0xFF)]
                    ^ t[1 * 256 + Int(lo >> 8 & 0xFF)] ^ t[Int(lo & 0xFF)]
                k += 16
            }
            while k < count {
                crc = crc << 8 ^ t[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ base.load(fromByteOffset: k, as: UInt8.self))]
                k += 1
            }
        }
        value = crc
    }

    /// Feeds `count` zero bytes (the checksum field).
    mutating func updateZeros(_ count: Int) {
        for _ in 0..<count {
            value = (value << 8) ^ OggCRC.tables[Int(UInt8(truncatingIfNeeded: value >> 24))]
        }
    }

    /// `tables[k × 256 + n]` is the CRC of the byte `n` followed by `k` zero bytes (`k` in 0..<16); the
    /// first 256 entries are the classic one-byte table.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 16 * 256)
        for n in 0..<256 {
            var r = UInt32(n) << 24
            for _ in 0..<8 { r = (r & 0x8000_0000) != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
            t[n] = r
        }
        for k in 1..<16 {
            for n in 0..<256 {
                let previous = t[(k - 1) * 256 + n]
                t[k * 256 + n] = previous << 8 ^ t[Int(previous >> 24)]
            }
        }
        return t
    }()
}
