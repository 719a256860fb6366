/// The header that opens a WAVE file: the outer RIFF chunk's ID and size, and the form type. 12 bytes
/// in RIFF, RIFX, RF64 and BW64; 40 in Sony Wave64, whose identifiers are GUIDs.
///
/// ```
///  RIFF, RIFX, RF64, BW64
///  offset  size  field
///  0       4     ckID      'RIFF' (little-endian sizes), 'RIFX' (big-endian sizes),
///                          'RF64' (EBU Tech 3306) or 'BW64' (ITU-R BS.2088)
///  4       4     ckSize    bytes after this field (RIFF/RIFX); 0xFFFFFFFF in RF64/BW64, whose real
///                          size is the ds64 chunk's riffSize
///  8       4     formType  'WAVE'
///
///  Sony Wave64
///  0       16    GUID      'riff' 66666972-912E-11CF-A5D6-28DB04C10000
///  16      8     size      UInt64, little-endian: the whole file, these 40 bytes included
///  24      16    GUID      'wave' 65766177-ACF3-11D3-8CD1-00C04F8EDB8A
///  40            chunks:   16-byte GUID, 64-bit size counting the 24-byte header, 8-byte aligned
/// ```
///
/// References: Microsoft "Multimedia Programming Interface and Data Specifications 1.0" (1991),
/// chapter 2 (RIFF) and 3 (WAVE); EBU Tech 3306 §3.4 (RF64); ITU-R BS.2088-1 §3 (BW64); Sony Media
/// Software, "Wave64 file format" (2003).
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
        /// Sony Wave64: GUID chunk identifiers and 64-bit sizes throughout.
        case wave64

        /// Whether 64-bit sizes come from a `ds64` chunk.
        var usesDataSize64: Bool { self == .rf64 || self == .bw64 }

        /// The byte order of sizes, format fields and samples: big-endian in RIFX only.
        var endianness: Endianness { self == .rifx ? .big : .little }

        /// The file type reported for this kind (RIFX reports `.wave`).
        var fileType: AudioFileType {
            switch self {
            case .riff, .rifx: return .wave
            case .rf64: return .rf64
            case .bw64: return .bw64
            case .wave64: return .wave64
            }
        }

        /// The width of the file header.
        var headerByteCount: Int { self == .wave64 ? 40 : 12 }

        /// How the chunks after the header are written.
        var chunkLayout: ChunkLayout { self == .wave64 ? .wave64 : .riff(endianness) }
    }

    /// The byte length of the longest header (Wave64's).
    static let maximumByteCount = 40

    /// The identifiers, in probe order, as written, with the form type that must follow at its offset.
    static let magics: [(bytes: [UInt8], kind: Kind, formType: [UInt8], formTypeOffset: Int)] = [
        (Array("RIFF".utf8), .riff, waveFormType, 8), (Array("RIFX".utf8), .rifx, waveFormType, 8),
        (Array("RF64".utf8), .rf64, waveFormType, 8), (Array("BW64".utf8), .bw64, waveFormType, 8),
        (wave64RIFF, .wave64, wave64WAVE, 24),
    ]
    /// The form type of a WAVE file.
    static let waveFormType: [UInt8] = Array("WAVE".utf8)
    /// Wave64's `riff` GUID as written (Data1–3 little-endian).
    static let wave64RIFF: [UInt8] = [
        0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11, 0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00,
    ]
    /// Wave64's `wave` GUID as written.
    static let wave64WAVE: [UInt8] = [
        0x77, 0x61, 0x76, 0x65, 0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A,
    ]

    /// The outer chunk's identifier.
    var kind: Kind
    /// The outer chunk's size field as written (32 bits, or Wave64's 64).
    var size: UInt64

    /// The width of this header.
    var byteCount: Int { kind.headerByteCount }

    /// The byte order of sizes, format fields and samples.
    var endianness: Endianness { kind.endianness }

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
        // The magics differ within their first four bytes, so once four are readable at most one matches.
        let prefix = min(window.readable, 4)
        guard
            let magic = magics.first(where: { magic in
                (0..<prefix).allSatisfy { window.peekUInt8(at: $0) == magic.bytes[$0] }
            })
        else { return .noMatch }
        guard prefix == 4 else { return .needMoreData(atLeast: prefix + 1) }
        let byteCount = magic.kind.headerByteCount
        let available = min(window.readable, byteCount)
        for i in 4..<min(available, magic.bytes.count) where window.peekUInt8(at: i) != magic.bytes[i] {
            return .noMatch
        }
        let form = magic.formTypeOffset
        for i in form..<max(form, available) where window.peekUInt8(at: i) != magic.formType[i - form] {
            return .noMatch
        }
        guard available >= byteCount else { return .needMoreData(atLeast: available + 1) }
        let size: UInt64?
        if magic.kind == .wave64 {
            size = window.peekInteger(at: 16, as: UInt64.self, endianness: .little)
        } else {
            size = window.peekInteger(at: 4, as: UInt32.self, endianness: magic.kind.endianness).map { UInt64($0) }
        }
        guard let size else { return .needMoreData(atLeast: byteCount) }
        return .header(RIFFHeader(kind: magic.kind, size: size))
    }
}
