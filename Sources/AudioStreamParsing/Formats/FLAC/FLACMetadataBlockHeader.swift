/// The 4-byte header in front of every FLAC metadata block (RFC 9639 §8.1).
///
/// ```
/// bit     0       1-7          8-31
///      +------+----------+----------------+
///      | last | type (7) | length (24) BE |
///      +------+----------+----------------+
/// ```
///
/// `last` is set on the last metadata block before the audio frames; `length` counts the bytes of the
/// block body that follows the header. Type 127 is forbidden (it would let a header look like a frame
/// sync code).
struct FLACMetadataBlockHeader: Hashable, Sendable {
    /// The byte size of the header.
    static let size = 4

    /// A metadata block type (RFC 9639 §8.1, table 5).
    struct BlockType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        var rawValue: UInt8
        init(rawValue: UInt8) { self.rawValue = rawValue }

        static let streamInfo = Self(rawValue: 0)
        static let padding = Self(rawValue: 1)
        static let application = Self(rawValue: 2)
        static let seekTable = Self(rawValue: 3)
        static let vorbisComment = Self(rawValue: 4)
        static let cueSheet = Self(rawValue: 5)
        static let picture = Self(rawValue: 6)
        /// Forbidden (RFC 9639 §8.1).
        static let forbidden = Self(rawValue: 127)

        var description: String {
            switch self {
            case .streamInfo: "STREAMINFO"
            case .padding: "PADDING"
            case .application: "APPLICATION"
            case .seekTable: "SEEKTABLE"
            case .vorbisComment: "VORBIS_COMMENT"
            case .cueSheet: "CUESHEET"
            case .picture: "PICTURE"
            default: "type \(rawValue)"
            }
        }
    }

    /// Set on the last metadata block before the audio frames.
    var isLast: Bool
    /// The block type.
    var type: BlockType
    /// Bytes of the block body after this header (24 bits).
    var length: Int

    /// Decodes the 4 header bytes (`b0` first). Never fails: callers reject `.forbidden`.
    init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        isLast = b0 & 0x80 != 0
        type = BlockType(rawValue: b0 & 0x7F)
        length = Int(b1) << 16 | Int(b2) << 8 | Int(b3)
    }

    init(isLast: Bool, type: BlockType, length: Int) {
        self.isLast = isLast
        self.type = type
        self.length = length
    }

    /// The 4 header bytes (`length` is truncated to 24 bits).
    var bytes: [UInt8] {
        [
            (isLast ? 0x80 : 0) | type.rawValue & 0x7F, UInt8(truncatingIfNeeded: length >> 16),
            UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
        ]
    }
}
