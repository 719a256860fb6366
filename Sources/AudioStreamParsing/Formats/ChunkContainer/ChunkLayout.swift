/// How a family of chunk containers writes a chunk header: the identifier's width, the size field's
/// width, byte order and meaning, and the alignment of the chunks.
///
/// ```
///  RIFF, RF64, BW64 (.riff(.little)) and RIFX (.riff(.big)): Microsoft "Multimedia Programming
///  Interface and Data Specifications 1.0" (1991) §2 "Chunks"; EBU Tech 3306 §3.4; ITU-R BS.2088-1 §3
///   0   4  ckID     four-character code
///   4   4  ckSize   body bytes, little-endian (big-endian in RIFX); 0xFFFFFFFF in RF64/BW64 means
///                   "see the ds64 table"
///   8   n  body, then one pad byte when ckSize is odd
///
///  IFF (.iff: AIFF, AIFF-C): "EA IFF 85"; AIFF 1.3 (1989) "Chunks"
///   0   4  ckID
///   4   4  ckSize   body bytes, big-endian (a signed long in the spec, read unsigned: pipe writers
///                   use 0 and 0xFFFFFFFF)
///   8   n  body, then one pad byte when ckSize is odd
///
///  CAF (.caf): Apple "Core Audio Format Specification" 1.0, "CAF Chunk Header"
///   0   4  mChunkType
///   4   8  mChunkSize  SInt64, big-endian: body bytes; -1 only for a 'data' chunk of unknown size
///  12   n  body, no padding
///
///  Sony Wave64 (.wave64): "Sony Wave64" file format description
///   0  16  GUID     chunk identifier (see ChunkID)
///  16   8  size     UInt64, little-endian: the whole chunk, these 24 header bytes included
///  24   n  body, then zero bytes up to the next multiple of 8
/// ```
struct ChunkLayout: Hashable, Sendable {
    /// The form of the chunk identifier.
    enum Identifier: Hashable, Sendable {
        /// Four ASCII characters.
        case fourCharCode
        /// A 16-byte GUID. A GUID whose bytes 4…15 equal `fourCharCodeSuffix` is read as the
        /// four-character code of its first four bytes (Wave64's chunks derived from RIFF).
        case guid(fourCharCodeSuffix: ChunkID.GUIDTail)
    }

    /// The form of the chunk identifier.
    let identifier: Identifier
    /// The width of the size field: 4 or 8 bytes.
    let sizeByteCount: Int
    /// The byte order of the size field.
    let sizeEndianness: Endianness
    /// The size field is a two's-complement integer; -1 means "to the end of the stream" (CAF).
    let sizeIsSigned: Bool
    /// The size counts the header too (Wave64), not only the body.
    let sizeIncludesHeader: Bool
    /// Chunks start at multiples of this many bytes from the first one (a body is followed by pad
    /// bytes up to the next multiple): 2 for RIFF and IFF, 8 for Wave64, 1 (no padding) for CAF.
    let alignment: Int

    /// The width of the identifier.
    var idByteCount: Int {
        switch identifier {
        case .fourCharCode: return 4
        case .guid: return 16
        }
    }

    /// The width of a whole chunk header.
    var headerByteCount: Int { idByteCount + sizeByteCount }

    /// The pad bytes after a body of `bodySize` bytes (the header's width is a multiple of the
    /// alignment in every layout, so only the body counts).
    func padding(afterBodyOf bodySize: UInt64) -> Int {
        let alignment = UInt64(self.alignment)
        return Int((alignment - bodySize % alignment) % alignment)
    }

    /// RIFF, RF64 and BW64 (little-endian sizes) or RIFX (big-endian sizes).
    static func riff(_ endianness: Endianness) -> ChunkLayout {
        ChunkLayout(
            identifier: .fourCharCode, sizeByteCount: 4, sizeEndianness: endianness, sizeIsSigned: false,
            sizeIncludesHeader: false, alignment: 2)
    }

    /// IFF: AIFF and AIFF-C.
    static let iff = ChunkLayout(
        identifier: .fourCharCode, sizeByteCount: 4, sizeEndianness: .big, sizeIsSigned: false,
        sizeIncludesHeader: false, alignment: 2)

    /// Core Audio Format.
    static let caf = ChunkLayout(
        identifier: .fourCharCode, sizeByteCount: 8, sizeEndianness: .big, sizeIsSigned: true,
        sizeIncludesHeader: false, alignment: 1)

    /// Sony Wave64: GUID identifiers, 64-bit sizes that count the header, 8-byte alignment. Chunks
    /// derived from RIFF are named by GUIDs `xxxxxxxx-ACF3-11D3-8CD1-00C04F8EDB8A`, whose first four
    /// bytes on disk are the RIFF `ckID`.
    static let wave64 = ChunkLayout(
        identifier: .guid(fourCharCodeSuffix: ChunkID.GUIDTail(high: 0xF3AC_D311_8CD1_00C0, low: 0x4F8E_DB8A)),
        sizeByteCount: 8, sizeEndianness: .little, sizeIsSigned: false, sizeIncludesHeader: true, alignment: 8)
}
