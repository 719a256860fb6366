/// What the AIFF parser does with a registered chunk.
enum AIFFChunkRole: Hashable, Sendable {
    /// `COMM`: the stream's format (buffered whole).
    case common
    /// `SSND`: the audio.
    case soundData
    /// `NAME`, `AUTH`, `(c) `, `ANNO`: one text string.
    case text(AIFFText.Chunk)
    /// `COMT`: timestamped comments.
    case comments
    /// `ID3 ` / `id3 `: an ID3v2 tag.
    case id3
    /// A chunk defined by the specs (or by a common writer) that carries nothing this library reports;
    /// skipped without a diagnostic.
    case ignored
}

/// The AIFF / AIFF-C chunk container (`FORM`, "EA IFF 85") for `ChunkWalker`: its chunk registry, its
/// rules and the words of its messages.
///
/// Rules (AIFF 1.3 "Chunks"): chunks are word-aligned (a pad byte follows an odd `ckSize`, which does
/// not count it); sizes are never cut at the FORM end; a registered chunk at or after the FORM end is
/// read (reported once), anything else there is trailing data.
enum AIFFContainer: ChunkContainer {
    static let structure = Structure("aiff")

    /// Every known `ckID` and its role, from AIFF 1.3, the AIFF-C draft (1991-08-26) and common writers,
    /// in specification order. No ID appears twice (checked by a unit test).
    static let registry = ChunkRegistry<AIFFChunkRole>([
        (ChunkID("FVER"), .ignored),  // AIFF-C: format version
        (ChunkID("COMM"), .common),
        (ChunkID("SSND"), .soundData),
        (ChunkID("MARK"), .ignored),  // markers
        (ChunkID("INST"), .ignored),  // instrument
        (ChunkID("MIDI"), .ignored),  // MIDI data
        (ChunkID("AESD"), .ignored),  // AES channel status
        (ChunkID("APPL"), .ignored),  // application specific
        (ChunkID("COMT"), .comments),
        (ChunkID("NAME"), .text(.name)),
        (ChunkID("AUTH"), .text(.author)),
        (ChunkID("(c) "), .text(.copyright)),
        (ChunkID("ANNO"), .text(.annotation)),
        (ChunkID("SAXL"), .ignored),  // AIFF-C: sound accelerator
        (ChunkID("CHAN"), .ignored),  // Apple: AudioChannelLayout
        (ChunkID("PEAK"), .ignored),  // libsndfile: peak envelope
        (ChunkID("FLLR"), .ignored),  // Apple: filler
        (ChunkID("ID3 "), .id3),
        (ChunkID("id3 "), .id3),
    ])

    static let rules = ChunkContainerRules(containerEnd: .registeredChunksReadOn, missingPad: .printableIdentifierHere)

    /// The `FORM` chunk, for messages.
    static let form = structure("FORM")

    static func unknownChunkSkipped(_ chunk: ChunkHeader) -> String {
        structure.message("unknown chunk '\(chunk.name)' (\(chunk.sizeField) bytes) skipped")
    }

    static func chunkOverLimit(_ chunk: ChunkHeader, _ limit: ChunkBodyLimit) -> String {
        switch limit {
        case .headerChunk: return structure(chunk.name).message("chunk larger than maxHeaderChunkBytes")
        case .optionalHeaderChunk: return structure(chunk.name).message("chunk larger than maxHeaderChunkBytes skipped")
        case .tag: return structure(chunk.name).message("chunk larger than maxTagBytes skipped")
        }
    }

    static func chunkPastContainerEnd(_ chunk: ChunkHeader, end: Int64) -> String {
        form.message("chunk '\(chunk.name)' lies after the end of the FORM (at \(end)); read anyway")
    }

    static func junkPastContainerEnd(end: Int64) -> String? {
        structure.message("data after the end of the FORM (at \(end)) ignored")
    }

    static let padMissing = structure.message("the pad byte after an odd-sized chunk is missing")

    static let chunkBoundariesLost = structure.message("a discontinuity before the audio data lost the chunk structure")
}
