/// An IEEE 754 80-bit extended-precision number (Apple SANE `extended`, Motorola 68881 format), the
/// type of AIFF's `COMM.sampleRate`.
///
/// AIFF 1.3, "Data Types": `extended` is "80 bit IEEE Standard 754 floating point number (Standard
/// Apple Numeric Environment [SANE] data type Extended)". Unlike `binary32`/`binary64`, the
/// significand stores its integer bit explicitly:
///
/// ```
///  byte   0          1          2                                   9
///        ┌─┬─────────────────────┬─┬───────────────────────────────────┐
///        │s│ exponent (15 bits)  │i│ fraction (63 bits)                │
///        └─┴─────────────────────┴─┴───────────────────────────────────┘
///         sign   bias 16383      └──── significand (64 bits) ─────────┘
///
///  value = (-1)^s × significand × 2^(exponent − 16383 − 63)
///  exponent 0x7FFF: fraction 0 → ±infinity, otherwise NaN
///  exponent 0:      denormal (the effective exponent is 1 − 16383)
/// ```
///
/// For example 44100 Hz is `40 0E AC 44 00 00 00 00 00 00`: 44100 = 0xAC44 has 16 significant bits,
/// so the significand is 0xAC44 << 48 and the exponent 16383 + 15 = 0x400E.
struct ExtendedFloat: Hashable, Sendable {
    /// True for negative numbers.
    var isNegative: Bool
    /// The biased 15-bit exponent (0…0x7FFF).
    var biasedExponent: UInt16
    /// The 64-bit significand, integer bit included (bit 63).
    var significand: UInt64

    /// The exponent bias.
    static let bias = 16_383
    /// The biased exponent of infinities and NaNs.
    static let specialExponent: UInt16 = 0x7FFF

    /// Decodes 10 big-endian bytes.
    ///
    /// - Parameter bytes: exactly 10 bytes, as stored in an AIFF `COMM` chunk.
    /// - Returns: `nil` when `bytes` does not hold exactly 10 bytes.
    init?<C: Collection>(bigEndianBytes bytes: C) where C.Element == UInt8 {
        guard bytes.count == 10 else { return nil }
        var iterator = bytes.makeIterator()
        var head: UInt16 = 0
        for _ in 0..<2 { head = head << 8 | UInt16(iterator.next() ?? 0) }
        var significand: UInt64 = 0
        for _ in 0..<8 { significand = significand << 8 | UInt64(iterator.next() ?? 0) }
        self.isNegative = head & 0x8000 != 0
        self.biasedExponent = head & 0x7FFF
        self.significand = significand
    }

    /// Creates a number from its fields.
    init(isNegative: Bool, biasedExponent: UInt16, significand: UInt64) {
        self.isNegative = isNegative
        self.biasedExponent = biasedExponent & 0x7FFF
        self.significand = significand
    }

    /// True for ±infinity (exponent 0x7FFF, fraction 0; the integer bit is ignored).
    var isInfinite: Bool { biasedExponent == Self.specialExponent && significand << 1 == 0 }
    /// True for NaNs (exponent 0x7FFF, fraction not 0).
    var isNaN: Bool { biasedExponent == Self.specialExponent && significand << 1 != 0 }

    /// The nearest `Double`, never trapping.
    ///
    /// NaN stays NaN, infinities stay infinite, zero keeps its sign. A finite value beyond
    /// `Double.greatestFiniteMagnitude` becomes infinity, one below the smallest subnormal becomes
    /// zero. Values in `Double`'s normal range are rounded once, to nearest (the 64-bit significand
    /// is rounded to 53 bits; scaling by a power of two is exact).
    var doubleValue: Double {
        if biasedExponent == Self.specialExponent {
            if isInfinite { return isNegative ? -.infinity : .infinity }
            return .nan
        }
        if significand == 0 { return isNegative ? -0.0 : 0.0 }
        // Denormals (exponent 0) use the minimum exponent 1 − bias; "unnormals" (integer bit clear with a
        // non-zero exponent) are read with the same formula.
        let exponent = max(1, Int(biasedExponent)) - Self.bias - 63
        // `Double(UInt64)` rounds to nearest; `Double(sign:exponent:significand:)` scales by 2^exponent and
        // saturates to infinity or zero instead of trapping.
        return Double(sign: isNegative ? .minus : .plus, exponent: exponent, significand: Double(significand))
    }
}
