/// The header of one local chunk inside an AIFF or AIFF-C `FORM` (AIFF 1.3, "Chunks"; "EA IFF 85").
///
/// ```
///  offset size
///   0     4   ckID     four ASCII characters
///   4     4   ckSize   bytes of ckData (big-endian; the header and the pad byte are not counted)
///   8     n   ckData
///   8+n  0/1  pad byte (0) when ckSize is odd, so that every chunk starts at an even offset
/// ```
struct AIFFChunkHeader: Hashable, Sendable {
    /// `ckID`.
    let id: UInt32
    /// `ckSize`, as written (a "signed long" in the spec; read unsigned so that sizes up to 2^32 − 1
    /// are representable; the sound data of pipe-written files uses 0 and 0xFFFFFFFF).
    let size: UInt32
    /// Absolute offset of `ckID`.
    let offset: Int64

    /// The size of the header.
    static let byteCount = 8

    /// Absolute offset of `ckData`.
    var bodyStart: Int64 { offset + Int64(Self.byteCount) }
    /// Absolute offset just after `ckData` (before any pad byte).
    var bodyEnd: Int64 { bodyStart + Int64(size) }
    /// True when a pad byte follows `ckData`.
    var isPadded: Bool { size & 1 == 1 }
    /// Absolute offset of the next chunk, after the pad byte.
    var nextChunk: Int64 { bodyEnd + (isPadded ? 1 : 0) }

    /// The chunk ID for messages (`'COMM'`, or hex when not printable).
    var name: String { FourCharCode.string(id) }
}

/// What the AIFF parser does with each chunk type: the chunk registry, keyed by `ckID`.
enum AIFFChunkKind: Hashable, Sendable {
    /// `COMM`: the stream's format (buffered whole).
    case common
    /// `SSND`: the audio.
    case soundData
    /// `NAME`, `AUTH`, `(c) `, `ANNO`: one text string, mapped to this info-dictionary key.
    case text(infoKey: InfoKey)
    /// `COMT`: timestamped comments.
    case comments
    /// `ID3 ` / `id3 `: an ID3v2 tag.
    case id3
    /// A chunk defined by the specs (or by a common writer) that carries nothing this library reports;
    /// skipped without a diagnostic.
    case ignored
}

/// The chunk registry (style rule "registries are data"): every known `ckID` and its kind, from AIFF
/// 1.3, the AIFF-C draft (1991-08-26) and common writers. An unknown ID is skipped with a diagnostic.
enum AIFFChunkRegistry {
    /// The registered chunks, in specification order. No ID appears twice (checked by a unit test).
    static let entries: [(id: UInt32, kind: AIFFChunkKind)] = [
        (FourCharCode.value("FVER"), .ignored),  // AIFF-C: format version
        (FourCharCode.value("COMM"), .common),
        (FourCharCode.value("SSND"), .soundData),
        (FourCharCode.value("MARK"), .ignored),  // markers
        (FourCharCode.value("INST"), .ignored),  // instrument
        (FourCharCode.value("MIDI"), .ignored),  // MIDI data
        (FourCharCode.value("AESD"), .ignored),  // AES channel status
        (FourCharCode.value("APPL"), .ignored),  // application specific
        (FourCharCode.value("COMT"), .comments),
        (FourCharCode.value("NAME"), .text(infoKey: InfoKey.title)),
        (FourCharCode.value("AUTH"), .text(infoKey: InfoKey.artist)),
        (FourCharCode.value("(c) "), .text(infoKey: InfoKey.copyright)),
        (FourCharCode.value("ANNO"), .text(infoKey: InfoKey.comments)),
        (FourCharCode.value("SAXL"), .ignored),  // AIFF-C: sound accelerator
        (FourCharCode.value("CHAN"), .ignored),  // Apple: AudioChannelLayout
        (FourCharCode.value("PEAK"), .ignored),  // libsndfile: peak envelope
        (FourCharCode.value("FLLR"), .ignored),  // Apple: filler
        (FourCharCode.value("ID3 "), .id3),
        (FourCharCode.value("id3 "), .id3),
    ]

    /// The kind of chunk `id`, or `nil` when it is not registered.
    static func kind(of id: UInt32) -> AIFFChunkKind? {
        for entry in entries where entry.id == id { return entry.kind }
        return nil
    }

    /// True when the four bytes of `id` are printable ASCII (space to `~`), as every IFF `ckID` is.
    static func isPlausibleID(_ id: UInt32) -> Bool {
        (0..<4).allSatisfy { i in
            let b = UInt8(truncatingIfNeeded: id >> (8 * UInt32(i)))
            return b >= 0x20 && b < 0x7F
        }
    }
}
