/// The 10-byte header of an ID3v2 tag (ID3v2.4.0 "Main Structure" §3.1; the same layout in ID3v2.2
/// and 2.3), enough to know how long the tag is without reading it.
///
/// ```
///  offset  size  field
///  0       3     "ID3"
///  3       1     major version: 2, 3 or 4
///  4       1     revision (never 0xFF)
///  5       1     flags: 0x80 unsynchronisation, 0x40 extended header (2.2: compression),
///                0x20 experimental, 0x10 footer present (2.4)
///  6       4     size: syncsafe integer (4 × 7 bits, each byte < 0x80), the bytes after the
///                header, footer excluded
/// ```
///
/// A tag is `10 + size` bytes long, plus a 10-byte footer (`3DI` …) when the 2.4 footer flag is set.
struct ID3v2TagHeader: Hashable, Sendable {
    /// The header's length.
    static let byteCount = 10
    /// `ID3`.
    static let magic: [UInt8] = [0x49, 0x44, 0x33]

    let majorVersion: UInt8
    let revision: UInt8
    let flags: UInt8
    /// The syncsafe size: bytes after the header, footer excluded (at most 2^28 − 1).
    let size: Int

    /// True when a 10-byte footer follows the tag (ID3v2.4 flag 0x10).
    var hasFooter: Bool { majorVersion == 4 && flags & 0x10 != 0 }
    /// The whole tag's length: header, body and footer.
    var totalByteCount: Int { Self.byteCount + size + (hasFooter ? Self.byteCount : 0) }

    /// What the bytes at an offset are.
    enum Recognition: Equatable {
        case header(ID3v2TagHeader)
        case notATag
        /// The bytes so far could start a tag; this many readable bytes (from the position) decide.
        case needMoreData(atLeast: Int)
    }

    /// Looks for a tag header `offset` bytes after the window's position.
    static func recognise(_ window: InputWindow, at offset: Int) -> Recognition {
        guard window.couldMatch(magic, at: offset) else { return .notATag }
        guard let bytes = window.peekBytes(at: offset, count: byteCount) else {
            // A valid prefix so far (version and size bytes are checked once all are readable).
            if let version = window.peekUInt8(at: offset + 3), !(2...4).contains(version) { return .notATag }
            return .needMoreData(atLeast: offset + byteCount)
        }
        return decode(bytes).map { .header($0) } ?? .notATag
    }

    /// Decodes 10 header bytes; `nil` when they are not an ID3v2 header.
    static func decode(_ bytes: [UInt8]) -> ID3v2TagHeader? {
        guard bytes.count >= byteCount, Array(bytes[0..<3]) == magic, (2...4).contains(bytes[3]), bytes[4] != 0xFF,
            bytes[6..<10].allSatisfy({ $0 < 0x80 })
        else { return nil }
        let size = Int(bytes[6]) << 21 | Int(bytes[7]) << 14 | Int(bytes[8]) << 7 | Int(bytes[9])
        return ID3v2TagHeader(majorVersion: bytes[3], revision: bytes[4], flags: bytes[5], size: size)
    }
}
