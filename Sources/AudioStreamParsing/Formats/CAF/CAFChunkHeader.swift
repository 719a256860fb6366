/// The CAF file header (Apple "Core Audio Format Specification", "CAF File Header").
///
/// ```
/// offset  size  field          value
///      0     4  mFileType      'caff'
///      4     2  mFileVersion   1 (UInt16, big-endian)
///      6     2  mFileFlags     0 (reserved; ignored when not 0)
/// ```
struct CAFFileHeader: Equatable {
    /// The header's size in bytes.
    static let byteCount = 8
    /// `'caff'`.
    static let fileType: UInt32 = 0x6361_6666
    /// The only version the specification defines.
    static let supportedVersion: UInt16 = 1

    /// `mFileVersion`.
    var version: UInt16
    /// `mFileFlags`.
    var flags: UInt16

    /// Decodes the header at the window's position, or `nil` when fewer than 8 bytes are readable or the
    /// type is not `'caff'`.
    static func peek(_ window: InputWindow) -> CAFFileHeader? {
        guard let type = window.peekInteger(at: 0, as: UInt32.self, endianness: .big), UInt32(type) == fileType,
            let version = window.peekInteger(at: 4, as: UInt16.self, endianness: .big),
            let flags = window.peekInteger(at: 6, as: UInt16.self, endianness: .big)
        else { return nil }
        return CAFFileHeader(version: UInt16(version), flags: UInt16(flags))
    }
}

/// A CAF chunk header (Apple "Core Audio Format Specification", "CAF Chunk Header").
///
/// ```
/// offset  size  field        value
///      0     4  mChunkType   four-character code (CAFChunkType)
///      4     8  mChunkSize   SInt64, big-endian: body bytes, excluding this header;
///                            -1 only for a 'data' chunk whose size is not known (it must be last)
/// ```
///
/// CAF chunks are not padded: the next chunk starts right after `mChunkSize` body bytes.
struct CAFChunkHeader: Equatable {
    /// The header's size in bytes.
    static let byteCount = 12

    /// `mChunkType`.
    var type: CAFChunkType
    /// `mChunkSize` as written (signed).
    var size: Int64

    /// Decodes the header at the window's position, or `nil` when fewer than 12 bytes are readable.
    static func peek(_ window: InputWindow) -> CAFChunkHeader? {
        guard let type = window.peekInteger(at: 0, as: UInt32.self, endianness: .big),
            let size = window.peekInteger(at: 4, as: UInt64.self, endianness: .big)
        else { return nil }
        return CAFChunkHeader(type: CAFChunkType(rawValue: UInt32(type)), size: Int64(bitPattern: size))
    }

    /// True for the "size not known" marker of a `data` chunk.
    var runsToEndOfStream: Bool { type == .audioData && size == -1 }
}
