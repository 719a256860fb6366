/// The identifier of a chunk: a four-character code (RIFF, RIFX, RF64, BW64, IFF/AIFF, CAF), or a
/// 16-byte GUID (Sony Wave64).
///
/// ```
///  four-character code   0  4  ckID   ASCII, in the order written ('fmt ', 'COMM', 'desc')
///  GUID (Wave64)         0 16  GUID   Data1 (4, little-endian), Data2 (2, LE), Data3 (2, LE),
///                                     Data4 (8 bytes); written so that the first four bytes of
///                                     the chunk GUIDs Wave64 derives from RIFF spell the RIFF ckID
///                                     ('fmt ' = 20746D66-ACF3-11D3-8CD1-00C04F8EDB8A)
/// ```
///
/// A GUID whose last 12 bytes are the suffix its `ChunkLayout` names is read as the four-character
/// code of its first four bytes, so a Wave64 stream looks its chunks up in the WAVE registry.
struct ChunkID: Hashable, Sendable, CustomStringConvertible {
    /// Bytes 4…15 of a GUID identifier, as written (big-endian).
    struct GUIDTail: Hashable, Sendable {
        /// Bytes 4…11.
        var high: UInt64
        /// Bytes 12…15.
        var low: UInt32
    }

    /// Bytes 4…11 of a GUID identifier (0 for a four-character code).
    private let tailHigh: UInt64
    /// The first four bytes as written, as a big-endian `UInt32`: the whole identifier when it is a
    /// four-character code.
    let code: UInt32
    /// Bytes 12…15 of a GUID identifier (0 for a four-character code).
    private let tailLow: UInt32

    /// The rest of a GUID identifier, or `nil` for a four-character code (a GUID whose last 12 bytes
    /// are all zero reads as the four-character code of its first four bytes).
    var guidTail: GUIDTail? {
        tailHigh == 0 && tailLow == 0 ? nil : GUIDTail(high: tailHigh, low: tailLow)
    }

    /// A four-character code from its big-endian value.
    init(code: UInt32) {
        self.code = code
        self.tailHigh = 0
        self.tailLow = 0
    }

    /// A four-character code from its four ASCII characters (for registries).
    init(_ characters: StaticString) {
        self.init(code: FourCharCode.value(characters))
    }

    /// A GUID identifier from its 16 bytes as written.
    init(code: UInt32, guidTail: GUIDTail) {
        self.code = code
        self.tailHigh = guidTail.high
        self.tailLow = guidTail.low
    }

    /// The four characters (or `0x` and hex when not printable); a GUID in its registry form.
    var description: String {
        guard let tail = guidTail else { return FourCharCode.string(code) }
        // Data1, Data2 and Data3 are little-endian on disk; Data4 is a byte string.
        let data1 = code.byteSwapped
        let data2 = UInt16(truncatingIfNeeded: tail.high >> 48).byteSwapped
        let data3 = UInt16(truncatingIfNeeded: tail.high >> 32).byteSwapped
        let data4 = (tail.high & 0xFFFF_FFFF) << 32 | UInt64(tail.low)
        func hex<T: FixedWidthInteger>(_ value: T, _ digits: Int) -> String {
            let s = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - s.count)) + s
        }
        return hex(data1, 8) + "-" + hex(data2, 4) + "-" + hex(data3, 4) + "-" + hex(data4 >> 48, 4) + "-"
            + hex(data4 & 0xFFFF_FFFF_FFFF, 12)
    }

    /// Whether the identifier looks like a chunk ID when nothing else tells: a four-character code of
    /// four printable ASCII characters (space to `~`), as every RIFF, IFF and CAF `ckID` is.
    var isPrintable: Bool {
        guard guidTail == nil else { return false }
        return (0..<4).allSatisfy { i in
            let byte = UInt8(truncatingIfNeeded: code >> (8 * UInt32(i)))
            return byte >= 0x20 && byte < 0x7F
        }
    }
}
