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
        guard let type = window.peekInteger(at: 0, as: UInt32.self, endianness: .big), type == fileType,
            let version = window.peekInteger(at: 4, as: UInt16.self, endianness: .big),
            let flags = window.peekInteger(at: 6, as: UInt16.self, endianness: .big)
        else { return nil }
        return CAFFileHeader(version: version, flags: flags)
    }
}
