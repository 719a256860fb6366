/// The 12-byte header that opens a WAVE file: the outer RIFF chunk's ID and size, and the form type.
///
/// ```
///  offset  size  field
///  0       4     ckID      'RIFF' (little-endian sizes), 'RIFX' (big-endian sizes),
///                          'RF64' (EBU Tech 3306) or 'BW64' (ITU-R BS.2088)
///  4       4     ckSize    bytes after this field (RIFF/RIFX); 0xFFFFFFFF in RF64/BW64, whose real
///                          size is the ds64 chunk's riffSize
///  8       4     formType  'WAVE'
/// ```
///
/// References: Microsoft "Multimedia Programming Interface and Data Specifications 1.0" (1991),
/// chapter 2 (RIFF) and 3 (WAVE); EBU Tech 3306 §3.4 (RF64); ITU-R BS.2088-1 §3 (BW64).
struct RIFFHeader: Equatable {
    /// The outer chunk's identifier.
    enum Kind: Equatable {
        /// `RIFF`: little-endian.
        case riff
        /// `RIFX`: the same structure with big-endian sizes, format fields and samples.
        case rifx
        /// `RF64` (EBU Tech 3306): sizes that do not fit 32 bits live in the `ds64` chunk.
        case rf64
        /// `BW64` (ITU-R BS.2088): the RF64 layout under another name.
        case bw64

        /// Whether 64-bit sizes come from a `ds64` chunk.
        var usesDataSize64: Bool { self == .rf64 || self == .bw64 }

        /// The file type reported for this kind (RIFX reports `.wave`).
        var fileType: AudioFileType {
            switch self {
            case .riff, .rifx: return .wave
            case .rf64: return .rf64
            case .bw64: return .bw64
            }
        }
    }

    /// The byte length of the header.
    static let byteCount = 12

    /// The four identifiers, in probe order, as written.
    static let magics: [(bytes: [UInt8], kind: Kind)] = [
        (Array("RIFF".utf8), .riff), (Array("RIFX".utf8), .rifx),
        (Array("RF64".utf8), .rf64), (Array("BW64".utf8), .bw64),
    ]
    /// The form type of a WAVE file.
    static let waveFormType: [UInt8] = Array("WAVE".utf8)

    /// The outer chunk's identifier.
    var kind: Kind
    /// The outer chunk's 32-bit size field as written.
    var size: UInt32

    /// Whether sizes and format fields are big-endian.
    var isBigEndian: Bool { kind == .rifx }

    /// What the first bytes of a stream say, for the content probe.
    enum Match {
        case header(RIFFHeader)
        case noMatch
        /// Every readable byte agrees with a WAVE header so far; this many bytes are needed to say
        /// more.
        case needMoreData(atLeast: Int)
    }

    /// Decodes the header at the window's position without consuming it.
    ///
    /// Every readable byte of the magic and the form type is checked, and while the header is
    /// incomplete one more byte is asked for: the answer for a prefix never contradicts the answer
    /// for a longer one, so detection gives the same result however the bytes are chunked.
    static func peek(_ window: InputWindow) -> Match {
        let available = min(window.readable, byteCount)
        let prefix = min(available, 4)
        guard
            let kind = magics.first(where: { magic in
                (0..<prefix).allSatisfy { window.peekUInt8(at: $0) == magic.bytes[$0] }
            })?.kind
        else { return .noMatch }
        for i in 8..<max(8, available) where window.peekUInt8(at: i) != waveFormType[i - 8] { return .noMatch }
        guard available >= byteCount else { return .needMoreData(atLeast: available + 1) }
        // Safe to force unwrap: `available >= byteCount` proved the bytes are readable.
        let size = UInt32(window.peekInteger(at: 4, as: UInt32.self, endianness: (kind == .rifx) ? .big : .little)!)
        return .header(RIFFHeader(kind: kind, size: size))
    }
}

/// The 8-byte header of a chunk inside the RIFF body.
///
/// ```
///  offset  size  field
///  0       4     ckID    four ASCII characters ('fmt ', 'data', 'LIST', …)
///  4       4     ckSize  body bytes, not counting this header or the pad byte; little-endian
///                        (big-endian in RIFX); 0xFFFFFFFF in RF64/BW64 means "see ds64"
///  8       n     body, then one pad byte when ckSize is odd (word alignment)
/// ```
struct RIFFChunkHeader: Equatable {
    /// The byte length of a chunk header.
    static let byteCount = 8

    /// The chunk identifier as a big-endian four-character code.
    var id: UInt32
    /// The 32-bit size field as written.
    var size: UInt32

    /// The identifier as text, for messages.
    var name: String { FourCharCode.string(id) }

    /// Decodes a chunk header at `offset` after the window's position, or `nil` when not all 8 bytes
    /// are readable.
    static func peek(_ window: InputWindow, at offset: Int = 0, bigEndian: Bool) -> RIFFChunkHeader? {
        guard let id = window.peekInteger(at: offset, as: UInt32.self, endianness: .big),
            let size = window.peekInteger(at: offset + 4, as: UInt32.self, endianness: (bigEndian) ? .big : .little)
        else { return nil }
        return RIFFChunkHeader(id: UInt32(id), size: UInt32(size))
    }

    /// Whether a four-character code looks like a chunk identifier: four printable ASCII characters.
    /// Used only where the RIFF structure gives no other guidance (after the RIFF size, at a pad byte).
    static func isPlausibleID(_ id: UInt32) -> Bool {
        (0..<4).allSatisfy { i in
            let byte = UInt8(truncatingIfNeeded: id >> (8 * UInt32(i)))
            return byte >= 0x20 && byte < 0x7F
        }
    }
}

/// What the WAVE parser does with a chunk, by identifier.
enum WAVEChunkKind: Equatable {
    /// `fmt `: the audio format (read whole, required before `data`).
    case format
    /// `data`: the audio.
    case data
    /// `fact`: the sample length of compressed audio.
    case fact
    /// `ds64` (RF64/BW64): 64-bit sizes.
    case dataSize64
    /// `LIST`: an `INFO` list holds tags; other list types are skipped.
    case list
    /// `bext` (EBU Tech 3285): broadcast metadata.
    case broadcastExtension
    /// `id3 ` / `ID3 `: an ID3v2 tag.
    case id3
    /// Anything else: skipped unread.
    case other
}

/// The chunk registry: every chunk identifier the WAVE parser acts on, in one table.
enum WAVEChunkRegistry {
    /// Identifier (as written) and role. Identifiers are unique (checked by a unit test).
    static let entries: [(id: UInt32, kind: WAVEChunkKind)] = [
        (FourCharCode.value("fmt "), .format),
        (FourCharCode.value("data"), .data),
        (FourCharCode.value("fact"), .fact),
        (FourCharCode.value("ds64"), .dataSize64),
        (FourCharCode.value("LIST"), .list),
        (FourCharCode.value("bext"), .broadcastExtension),
        (FourCharCode.value("id3 "), .id3),
        (FourCharCode.value("ID3 "), .id3),
    ]

    /// The list type of a `LIST` chunk that holds RIFF INFO tags.
    static let infoListType = FourCharCode.value("INFO")

    /// The role of a chunk.
    static func kind(of id: UInt32) -> WAVEChunkKind {
        entries.first { $0.id == id }?.kind ?? .other
    }
}
