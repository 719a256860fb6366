/// What the WAVE parser does with a registered chunk.
enum WAVEChunkRole: Equatable, Sendable {
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

    /// Tag chunks, read up to `maxTagBytes` and announced again when they follow the audio.
    var isTag: Bool { self == .list || self == .broadcastExtension || self == .id3 }
}

/// The RIFF WAVE chunk container (RIFF, RIFX, RF64, BW64) for `ChunkWalker`: its chunk registry, its
/// rules and the words of its messages.
///
/// Rules (Microsoft RIFF 1991 §2; EBU Tech 3306 §3.4): chunks are word-aligned (a pad byte follows an
/// odd size); chunk sizes past the RIFF size are cut at it, except `fmt ` and `ds64` (read whole or
/// not at all) and `data` (its size rules are the parser's); a chunk that starts past the RIFF size
/// with a printable identifier voids the RIFF size, other bytes there are reported at `finish` with
/// their count.
enum WAVEContainer: ChunkContainer {
    static let structure = Structure("wave")

    /// Every chunk identifier the WAVE parser acts on. Identifiers are unique (checked by a unit test).
    static let registry = ChunkRegistry<WAVEChunkRole>([
        (ChunkID("fmt "), .format),
        (ChunkID("data"), .data),
        (ChunkID("fact"), .fact),
        (ChunkID("ds64"), .dataSize64),
        (ChunkID("LIST"), .list),
        (ChunkID("bext"), .broadcastExtension),
        (ChunkID("id3 "), .id3),
        (ChunkID("ID3 "), .id3),
    ])

    /// `LIST`.
    static let list = ChunkID("LIST")
    /// The list type of a `LIST` chunk that holds RIFF INFO tags.
    static let infoListType = FourCharCode.value("INFO")

    static let rules = ChunkContainerRules(
        containerEnd: .printableChunkVoidsSize, missingPad: .chunkStartsHereRatherThanAfter,
        cutsSizesAtContainerEnd: true, uncutChunks: [ChunkID("fmt "), ChunkID("ds64"), ChunkID("data")])

    static func unknownChunkSkipped(_ chunk: ChunkHeader) -> String {
        structure.message("chunk '\(chunk.name)' (\(chunk.size ?? 0) bytes) skipped")
    }

    static func chunkOverLimit(_ chunk: ChunkHeader, _ limit: ChunkBodyLimit) -> String {
        let size = chunk.size ?? 0
        switch limit {
        case .headerChunk: return structure(chunk.name).message("chunk of \(size) bytes exceeds maxHeaderChunkBytes")
        case .optionalHeaderChunk: return skipped(chunk, "larger than maxHeaderChunkBytes; skipped")
        case .tag: return skipped(chunk, "larger than maxTagBytes; skipped")
        }
    }

    static func chunkPastContainerEnd(_ chunk: ChunkHeader, end: Int64) -> String {
        structure.message("chunk '\(chunk.name)' starts past the RIFF size (\(end)); the RIFF size is ignored")
    }

    static func chunkCutAtContainerEnd(_ chunk: ChunkHeader, declared: UInt64, size: UInt64) -> String {
        structure.message("chunk '\(chunk.name)' declares \(declared) bytes, past the RIFF size; cut to \(size)")
    }

    static let padMissing = structure.message("pad byte missing after an odd-sized chunk")

    static let chunkBoundariesLost = structure.message(
        "discontinuity before the data chunk; the chunk walk cannot resume")

    /// `wave: chunk 'name' (size bytes) <why>`: a chunk skipped for a reason of the parser's.
    static func skipped(_ chunk: ChunkHeader, _ why: String) -> String {
        structure.message("chunk '\(chunk.name)' (\(chunk.size ?? 0) bytes) \(why)")
    }
}
