/// The CAF chunk container for `ChunkWalker`: its chunk registry, its rules and the words of its
/// messages.
///
/// Rules (Apple "Core Audio Format Specification", "CAF File Header and Chunk Headers"): chunks are
/// not padded; there is no container size; `desc` comes first; only `data` may declare the size -1
/// (its audio runs to the end of the stream, so it is the last chunk); a chunk read whole is consumed
/// with its header once all of it is readable.
enum CAFContainer: ChunkContainer {
    static let structure = Structure("caf")

    /// Every chunk type this parser knows, with its role (one row per code). Types not listed here are
    /// skipped with a diagnostic naming them.
    static let registry = ChunkRegistry<CAFChunkType.Role>(
        [
            (.audioDescription, .audioDescription),
            (.audioData, .audioData),
            (.packetTable, .packetTable),
            (.magicCookie, .magicCookie),
            (.channelLayout, .channelLayout),
            (.information, .information),
            (.strings, .skipped),
            (.marker, .skipped),
            (.region, .skipped),
            (.instrument, .skipped),
            (.midi, .skipped),
            (.overview, .skipped),
            (.peak, .skipped),
            (.editComments, .skipped),
            (.uniqueMaterialID, .skipped),
            (.uuid, .skipped),
            (.free, .skipped),
            (.formatList, .skipped),
            (.iXML, .skipped),
        ].map { (type: CAFChunkType, role: CAFChunkType.Role) in (type.id, role) })

    static let rules = ChunkContainerRules(
        containerEnd: nil, missingPad: .chunkStartsHereRatherThanAfter, firstChunk: CAFChunkType.audioDescription.id,
        chunkOfUnknownSize: CAFChunkType.audioData.id, headerWaitsForBody: true)

    static func unknownChunkSkipped(_ chunk: ChunkHeader) -> String {
        structure.message("unknown chunk '\(chunk.name)' (\(chunk.signedSizeField) bytes) skipped")
    }

    static func chunkOverLimit(_ chunk: ChunkHeader, _ limit: ChunkBodyLimit) -> String {
        let size = chunk.signedSizeField
        switch limit {
        case .headerChunk, .optionalHeaderChunk:
            return structure(chunk.name).message("chunk of \(size) bytes exceeds the header chunk limit")
        case .tag:
            return structure(chunk.name).message("chunk of \(size) bytes is larger than maxTagBytes; skipped")
        }
    }

    static let chunkBoundariesLost = structure.message(
        "discontinuity before the audio data; the chunk structure is lost")
}
