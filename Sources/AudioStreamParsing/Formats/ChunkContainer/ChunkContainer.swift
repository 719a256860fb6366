/// A container made of chunks (WAVE, AIFF, CAF): what `ChunkWalker` needs to know about it.
///
/// A conforming type is a caseless enum holding the container's constants: its registry, its rules
/// and the words of its messages. The walker decides what happened (an unknown chunk was skipped, a
/// size was cut at the container end, a pad byte is missing) and the kind of the diagnostic; the
/// container says it in its own words, so every message stays the one its format always wrote.
protocol ChunkContainer {
    /// What the format does with a registered chunk.
    associatedtype Role: Equatable, Sendable

    /// The container's name in messages (`wave`, `aiff`, `caf`).
    static var structure: Structure { get }
    /// The registered chunks.
    static var registry: ChunkRegistry<Role> { get }
    /// The container's rules for sizes, the container end and pad bytes.
    static var rules: ChunkContainerRules { get }

    /// An unregistered chunk skipped unread (diagnostic `unknownStructure`).
    static func unknownChunkSkipped(_ chunk: ChunkHeader) -> String
    /// A chunk too large for `limit` (the error, or the `limitExceeded` diagnostic when skipped).
    static func chunkOverLimit(_ chunk: ChunkHeader, _ limit: ChunkBodyLimit) -> String
    /// A chunk found past the container end and read anyway (diagnostic `sizeCorrected`).
    static func chunkPastContainerEnd(_ chunk: ChunkHeader, end: Int64) -> String
    /// Bytes past the container end that are not a chunk, reported when they are found (diagnostic
    /// `junkSkipped`); `nil` when the format reports them at `finish` with their count.
    static func junkPastContainerEnd(end: Int64) -> String?
    /// A chunk whose declared size was cut at the container end (diagnostic `sizeCorrected`).
    static func chunkCutAtContainerEnd(_ chunk: ChunkHeader, declared: UInt64, size: UInt64) -> String
    /// The pad byte after an odd-sized chunk is missing (diagnostic `sizeCorrected`).
    static var padMissing: String { get }
    /// A discontinuity lost the chunk boundaries before the audio (error `discontinuityCantRecover`).
    static var chunkBoundariesLost: String { get }
}

extension ChunkContainer {
    /// For a container without a size (its rules have no `containerEnd`).
    static func chunkPastContainerEnd(_ chunk: ChunkHeader, end: Int64) -> String {
        structure.message("chunk '\(chunk.name)' starts past the container end (\(end)); read anyway")
    }

    /// For a container without a size: junk past its end is reported at `finish`, if at all.
    static func junkPastContainerEnd(end: Int64) -> String? { nil }

    /// For a container whose rules do not cut sizes.
    static func chunkCutAtContainerEnd(_ chunk: ChunkHeader, declared: UInt64, size: UInt64) -> String {
        structure.message("chunk '\(chunk.name)' declares \(declared) bytes, past the container end; cut to \(size)")
    }

    /// For a container whose layout pads chunks.
    static var padMissing: String { structure.message("pad bytes missing after a chunk") }
}

/// A cap on a chunk body read whole, and what happens above it.
enum ChunkBodyLimit: Equatable, Sendable {
    /// `maxHeaderChunkBytes` for a chunk the stream needs: above it the parse fails (`limitExceeded`).
    case headerChunk
    /// `maxHeaderChunkBytes` for an optional chunk: above it the chunk is skipped with a diagnostic.
    case optionalHeaderChunk
    /// `maxTagBytes`: above it the chunk is skipped with a diagnostic.
    case tag

    /// The cap in force.
    func bytes(_ limits: ParserLimits) -> Int {
        self == .tag ? limits.maxTagBytes : limits.maxHeaderChunkBytes
    }
}

/// Where chunk containers differ beyond their header layout: what the container size means, and how
/// a missing pad byte is recognised. Each rule is the one its format has always followed.
struct ChunkContainerRules: Sendable {
    /// What a chunk found at or past the container end means.
    enum ContainerEnd: Sendable {
        /// RIFF: a chunk header that does not fit before the RIFF end, with a printable identifier, is
        /// a chunk a writer appended without updating the RIFF size: it is read, and the RIFF size is
        /// ignored from then on. Anything else there is trailing junk.
        case printableChunkVoidsSize
        /// IFF: a chunk that starts at or after the FORM end with a registered identifier is read
        /// (reported once; the FORM end still holds for what follows). Anything else there is
        /// trailing junk.
        case registeredChunksReadOn
    }

    /// How a missing pad byte is recognised when the byte after an odd-sized body is not zero.
    enum MissingPad: Sendable {
        /// RIFF: a chunk starts here rather than one byte later: a registered identifier here and
        /// not there, else a printable one here and not there. Decided on the identifier's bytes and
        /// the pad byte (fewer at the end of the stream, where the byte is taken as the pad). No pad
        /// byte is expected at or after the container end.
        case chunkStartsHereRatherThanAfter
        /// IFF: four printable characters start here.
        case printableIdentifierHere
    }

    /// What a chunk past the container end means (`nil` for a container without a size: CAF).
    var containerEnd: ContainerEnd?
    /// How a missing pad byte is recognised (unused when the layout does not pad).
    var missingPad: MissingPad
    /// Whether body sizes past the container end are cut at it (RIFF), except for the chunks in
    /// `uncutChunks` (read whole whatever the RIFF size, or sized by the format itself).
    var cutsSizesAtContainerEnd = false
    /// The chunks whose size is never cut.
    var uncutChunks: [ChunkID] = []
    /// The chunk that must come first (CAF: `desc`), if any.
    var firstChunk: ChunkID?
    /// The chunk that may declare a size of -1, "to the end of the stream" (CAF: `data`), if any.
    var chunkOfUnknownSize: ChunkID?
    /// Whether a chunk read whole keeps its header in the window until its body is readable, so that
    /// the position stays at the chunk while the parser waits (CAF). RIFF and IFF consume the header
    /// first.
    var headerWaitsForBody = false
}
