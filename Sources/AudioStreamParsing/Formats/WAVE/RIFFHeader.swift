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

        /// The byte order of sizes, format fields and samples: big-endian in RIFX only.
        var endianness: Endianness { self == .rifx ? .big : .little }

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
        let size = window.peekInteger(at: 4, as: UInt32.self, endianness: kind.endianness)!
        return .header(RIFFHeader(kind: kind, size: size))
    }
}
