/// A bounds-checked, LSB-first bit reader over one Vorbis packet (Vorbis I §2.1.4 "bitpacking").
///
/// Vorbis packs values starting at the least significant bit of each byte: the first bit read is
/// bit 0 of byte 0, the ninth is bit 0 of byte 1, and a multi-bit value's first bit is its least
/// significant one.
///
/// ```
///  byte 0: [b7 b6 b5 b4 b3 b2 b1 b0]   ← read order: b0, b1, …, b7, then byte 1's b0 …
/// ```
///
/// `read` returns `nil` (and does not move) when the packet has too few bits left: Vorbis calls
/// that "end of packet", which is an error while decoding a header (§2.1.4). Never traps.
struct VorbisBitReader {
    /// The packet.
    let bytes: ArraySlice<UInt8>
    /// The index of the next bit, counted from the first bit of `bytes`.
    private(set) var bitPosition: Int = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The bits in the packet.
    var bitCount: Int { bytes.count &* 8 }  // a packet is far shorter than Int.max / 8 bytes
    /// The bits not yet read.
    var remainingBits: Int { bitCount - bitPosition }

    /// Reads `count` (0…32) bits as an unsigned value, first bit least significant; `nil` at the
    /// end of the packet.
    mutating func read(_ count: Int) -> UInt32? {
        guard count >= 0, count <= 32, count <= remainingBits else { return nil }
        var value: UInt64 = 0
        var done = 0
        var position = bitPosition
        while done < count {
            let byte = UInt64(bytes[bytes.startIndex + (position >> 3)])
            let shift = position & 7
            let take = min(8 - shift, count - done)
            let bits = (byte >> UInt64(shift)) & ((1 << UInt64(take)) - 1)
            value |= bits << UInt64(done)
            done += take
            position += take
        }
        bitPosition = position
        return UInt32(truncatingIfNeeded: value)
    }

    /// Reads one bit as a flag; `nil` at the end of the packet.
    mutating func readFlag() -> Bool? { read(1).map { $0 == 1 } }

    /// Skips `count` bits without reading them; false (and no move) when fewer remain.
    mutating func skip(bits count: Int64) -> Bool {
        guard count >= 0, count <= Int64(remainingBits) else { return false }
        bitPosition += Int(count)
        return true
    }

    /// `ilog(x)` (Vorbis I §9.2.1): the position of the highest set bit, counted from 1; 0 for
    /// values ≤ 0. ilog(0) = 0, ilog(1) = 1, ilog(2) = ilog(3) = 2, ilog(4) = 3, ilog(7) = 3.
    static func ilog(_ x: Int) -> Int {
        x <= 0 ? 0 : Int.bitWidth - x.leadingZeroBitCount
    }
}
