/// Reads an MPEG bitstream most significant bit first (ISO/IEC 14496-3 §1.5.1.1 "bslbf"/"uimsbf"),
/// over bytes held whole in memory.
///
/// Contract: every read returns `nil` when the bits run out (it never traps); the cursor then does
/// not move.
struct AACBitReader {
    /// The bytes being read.
    let bytes: [UInt8]
    /// The index of the next bit (0 = the most significant bit of `bytes[0]`).
    private(set) var bitPosition: Int = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Bits left to read.
    var remainingBits: Int { bytes.count * 8 - bitPosition }

    /// The next `count` bits (0…32) as an unsigned integer.
    mutating func read(_ count: Int) -> UInt32? {
        guard count >= 0, count <= 32, count <= remainingBits else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            let byte = bytes[bitPosition >> 3]
            let bit = (byte >> (7 - UInt8(bitPosition & 7))) & 1
            value = value << 1 | UInt32(bit)
            bitPosition += 1
        }
        return value
    }

    /// The next bit as a flag.
    mutating func readFlag() -> Bool? { read(1).map { $0 == 1 } }

    /// Skips `count` bits; false (and no move) when fewer remain.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remainingBits else { return false }
        bitPosition += count
        return true
    }

    /// Moves to the next byte boundary (counted from the first bit of `bytes`), ISO/IEC 14496-3
    /// `byte_alignment()`.
    mutating func alignToByte() -> Bool { skip((8 - bitPosition & 7) & 7) }
}

/// Writes an MPEG bitstream most significant bit first.
struct AACBitWriter {
    /// The bytes written so far (the last one possibly partial, its low bits zero).
    private(set) var bytes: [UInt8] = []
    /// The number of bits written.
    private(set) var bitCount: Int = 0

    /// Appends the low `count` bits (0…32) of `value`.
    mutating func write(_ value: UInt32, bits count: Int) {
        assert(count >= 0 && count <= 32, "AACBitWriter: bit count out of range")
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
