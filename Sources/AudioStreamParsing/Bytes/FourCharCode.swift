/// Helpers for four-character codes (CoreAudio's `FourCharCode`, `OSType`).
///
/// A four-character code is a big-endian `UInt32` whose bytes are ASCII: `'redy'` is
/// `0x72656479`. Every code set in this library stores the exact CoreAudio value.
enum FourCharCode {
    /// The `UInt32` value of a four-character ASCII string (exactly four bytes of UTF-8).
    ///
    /// Only used for literals in this library's tables; a string of another length gives 0.
    static func value(_ string: StaticString) -> UInt32 {
        guard string.utf8CodeUnitCount == 4 else { return 0 }
        return UInt32(string.utf8CodeUnit(at: 0)) << 24 | UInt32(string.utf8CodeUnit(at: 1)) << 16
            | UInt32(string.utf8CodeUnit(at: 2)) << 8 | UInt32(string.utf8CodeUnit(at: 3))
    }

    /// A printable form of a code: the four characters when all are printable ASCII,
    /// otherwise `0x` and eight hex digits.
    static func string(_ value: UInt32) -> String {
        let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return "0x" + hex(value, digits: 8)
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
