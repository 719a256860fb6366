/// Writes a bitstream most significant bit first (MPEG "bslbf"/"uimsbf", ISO/IEC 14496-3 §1.5.1.1):
/// the bit order `BitReader(_:order: .mostSignificantFirst)` reads back.
///
/// Used to build codec configurations (an AudioSpecificConfig from an ADTS header).
struct BitWriter {
    /// The bytes written so far (the last one possibly partial, its low bits zero).
    private(set) var bytes: [UInt8] = []
    /// The number of bits written.
    private(set) var bitCount: Int = 0

    /// Appends the low `count` bits (0…32) of `value`, most significant first; a count outside 0…32
    /// is clamped to it.
    mutating func write(_ value: UInt32, bits count: Int) {
        assert(count >= 0 && count <= 32, "BitWriter: bit count out of range")
        var i = min(max(count, 0), 32)
        while i > 0 {
            i -= 1
            let bit = UInt8((value >> UInt32(i)) & 1)
            if bitCount & 7 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= bit << (7 - UInt8(bitCount & 7))
            bitCount += 1
        }
    }

    /// Appends a flag as one bit.
    mutating func write(_ flag: Bool) { write(flag ? 1 : 0, bits: 1) }

    /// Pads with zero bits to the next byte boundary (counted from the first bit written).
    mutating func alignToByte() {
        let pad = (8 - bitCount & 7) & 7
        write(0, bits: pad)
    }
}
