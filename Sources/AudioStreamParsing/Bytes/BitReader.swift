/// Reads a bitstream held whole in memory (a codec configuration, a header packet), in either of the
/// two bit orders codecs use.
///
/// ```
///  byte 0: [b7 b6 b5 b4 b3 b2 b1 b0]  byte 1: [b7 … b0]
///
///  .mostSignificantFirst   read order b7, b6, …, b0, then byte 1's b7 …; a value's first bit is its
///                          most significant (MPEG "bslbf"/"uimsbf", ISO/IEC 14496-3 §1.5.1.1)
///  .leastSignificantFirst  read order b0, b1, …, b7, then byte 1's b0 …; a value's first bit is its
///                          least significant (Vorbis I §2.1.4 "bitpacking")
/// ```
///
/// Contract: every read returns `nil` (and `skip`/`alignToByte` false) when too few bits are left, and
/// the cursor then does not move; it never traps. Vorbis calls running out "end of packet", an error
/// while decoding a header (§2.1.4).
struct BitReader {
    /// Which bit of a byte comes first.
    enum BitOrder {
        /// MPEG audio and systems: bit 7 first, values most significant bit first.
        case mostSignificantFirst
        /// Vorbis: bit 0 first, values least significant bit first.
        case leastSignificantFirst
    }

    /// The bytes being read.
    let bytes: ArraySlice<UInt8>
    /// The bit order.
    let order: BitOrder
    /// The index of the next bit, counted from the first bit of `bytes`.
    private(set) var bitPosition: Int = 0

    /// A reader over `bytes` from its first bit.
    init(_ bytes: ArraySlice<UInt8>, order: BitOrder) {
        self.bytes = bytes
        self.order = order
    }

    /// A reader over `bytes` from its first bit.
    init(_ bytes: [UInt8], order: BitOrder) {
        self.init(bytes[...], order: order)
    }

    /// The bits in `bytes`.
    var bitCount: Int { bytes.count &* 8 }  // bytes held in memory: far fewer than Int.max / 8
    /// The bits not yet read.
    var remainingBits: Int { bitCount - bitPosition }

    /// The next `count` bits (0…32) as an unsigned value, in the reader's bit order; `nil` when fewer
    /// remain.
    mutating func read(_ count: Int) -> UInt32? {
        guard count >= 0, count <= 32, count <= remainingBits else { return nil }
        var value: UInt64 = 0
        var done = 0
        var position = bitPosition
        // A byte's bits at a time: at most 5 turns for 32 bits.
        switch order {
        case .mostSignificantFirst:
            while done < count {
                let byte = UInt64(bytes[bytes.startIndex + (position >> 3)])
                let used = position & 7
                let take = min(8 - used, count - done)
                let bits = (byte >> UInt64(8 - used - take)) & ((1 << UInt64(take)) - 1)
                value = (value << UInt64(take)) | bits
                done += take
                position += take
            }
        case .leastSignificantFirst:
            while done < count {
                let byte = UInt64(bytes[bytes.startIndex + (position >> 3)])
                let used = position & 7
                let take = min(8 - used, count - done)
                let bits = (byte >> UInt64(used)) & ((1 << UInt64(take)) - 1)
                value |= bits << UInt64(done)
                done += take
                position += take
            }
        }
        bitPosition = position
        return UInt32(truncatingIfNeeded: value)
    }

    /// The next `count` bits (most significant first) packed into `(count + 7) / 8` bytes, the last
    /// one's unused low bits zero: a bit-aligned payload copied out byte-aligned (an LATM
    /// AudioMuxElement's payloads start at any bit). `nil` (and no move) when fewer remain, `count` is
    /// negative or the order is not ``BitOrder/mostSignificantFirst``.
    mutating func readBits(_ count: Int) -> [UInt8]? {
        guard order == .mostSignificantFirst, count >= 0, count <= remainingBits else { return nil }
        let whole = count >> 3
        let shift = bitPosition & 7
        let first = bytes.startIndex + (bitPosition >> 3)
        var out: [UInt8]
        if shift == 0 {
            out = Array(bytes[first..<(first + whole)])
        } else {
            out = [UInt8](repeating: 0, count: whole)
            // Byte k of the output is the low (8 - shift) bits of input byte k and the high `shift` bits
            // of byte k + 1 (which exists: the bits read lie inside `bytes`).
            for k in 0..<whole {
                let high = bytes[first + k] << UInt8(shift)
                let low = bytes[first + k + 1] >> UInt8(8 - shift)
                out[k] = high | low
            }
        }
        bitPosition += whole << 3
        let rest = count & 7
        if rest > 0, let tail = read(rest) { out.append(UInt8(tail << UInt32(8 - rest))) }
        return out
    }

    /// The next bit as a flag; `nil` when none is left.
    mutating func readFlag() -> Bool? { read(1).map { $0 == 1 } }

    /// Skips `count` bits; false (and no move) when fewer remain or `count` is negative.
    mutating func skip(_ count: some BinaryInteger) -> Bool {
        guard count >= 0, count <= remainingBits else { return false }
        bitPosition += Int(count)  // ≤ remainingBits: fits
        return true
    }

    /// Moves to the next byte boundary, counted from the first bit of `bytes` (ISO/IEC 14496-3
    /// `byte_alignment()`); false when the bytes end first.
    mutating func alignToByte() -> Bool { skip((8 - bitPosition & 7) & 7) }
}
