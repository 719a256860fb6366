/// Matroska (RFC 9559) and WebM container parser: `.mka`, `.mkv`, `.webm`, on the element-tree engine
/// with the EBML syntax (RFC 8794, `EBMLSyntax`).
///
/// The stream is an `EBML` header (its DocType `matroska` or `webm` chose the file type) and one or more
/// `Segment`s; the parser walks the elements as the bytes arrive, keeping a stack of the elements it
/// has entered (`Segment`, `Cluster`, `BlockGroup`) whose children it reads as elements of the stream:
/// - An element of unknown size (a live stream's `Segment` and `Cluster`) ends where the next element
///   of its level or a higher one starts (RFC 8794 §6.2; `MatroskaElementID.level`); a known size ends
///   where it says.
/// - `Info`, `Tracks`, `Tags`, `Chapters`, `Attachments` are buffered whole (up to
///   `ParserLimits.maxBufferedBytes`, Tags and Chapters up to `maxTagBytes`; above it skipped with a
///   `limitExceeded` diagnostic, or `limitExceeded` thrown for Info and Tracks) and decoded
///   (`MatroskaSegmentInfo`, `MatroskaTrackEntry`, `MatroskaTags`, `MatroskaChapters`,
///   `MatroskaAttachments`); `SeekHead`, `Cues`, `Void`, `CRC-32` and the other known elements are
///   skipped without buffering, unknown ones too, with an `unknownStructure` diagnostic.
/// - The header is published at the first `Cluster` (`dataOffset` = where that Cluster starts): the
///   parsed track is `ParserOptions.trackID` (a TrackNumber) or the first audio track, its codec read by
///   `MatroskaAudioCodec`.
/// - A `SimpleBlock` or `Block` of the parsed track is held until its bytes are readable (at most
///   `maxPacketBytes`) and each of its frames (`MatroskaBlock`: Xiph, EBML or fixed lacing) is emitted as
///   its own packet, zero-copy; blocks of other tracks (video, subtitles) are skipped without buffering.
/// - Damage inside a Cluster (a header that cannot be right, a block that does not decode) costs only
///   the blocks it hides: the parser searches for the next `Cluster` or block of a known track
///   (`MatroskaParser+Resync.swift`) with a diagnostic.
///
/// Seeking and translations: every packet parsed is placed (the start of its block, so that feeding
/// from there parses the block again; the frames of a laced block share it) with its first frame;
/// seeking is exact to any packet parsed so far. `finish` announces the exact byte and packet counts
/// and the gapless information (Opus CodecDelay → priming, the last DiscardPadding → remainder).
/// See docs/formats/matroska.md.
struct MatroskaParser: FormatParser {
    /// Where the parser is.
    enum State: Equatable {
        /// At the `EBML` header.
        case ebmlHeader
        /// At an element header of the stream.
        case elements
        /// Searching for the next Cluster or block after damage or a discontinuity.
        case resync(scanned: Int64)
    }

    /// An element the parser has entered and whose children it reads from the stream.
    struct OpenElement: Equatable {
        var id: UInt32
        var level: Int
        /// Where it ends; `nil` for an unknown size.
        var end: Int64?
    }

    let options: ParserOptions
    var state: State = .ebmlHeader
    var docType = ""
    var open: [OpenElement] = []
    var info = MatroskaSegmentInfo()
    var trackEntries: [MatroskaTrackEntry] = []
    var track: MatroskaTrackEntry?
    var codec: MatroskaAudioCodec?
    /// Metadata read so far (`metadata` assembles it).
    var simpleTags: [MatroskaTags.SimpleTag] = []
    var chapters: [AudioMetadata.Chapter] = []
    var artwork: [AudioMetadata.Artwork] = []
    var published = false
    /// The first frame of the parsed A_AAC track, found by the look-ahead at the first Cluster (implicit
    /// HE-AAC, `MatroskaParser+ImplicitSBR.swift`); `nil` when not looked for or not found.
    var firstAACFrame: [UInt8]?
    /// Where the look-ahead for ``firstAACFrame`` resumes after waiting for bytes: the first Cluster's
    /// absolute offset (the window's position while the header is held) and a child's start after it;
    /// `nil` (or another Cluster) to start at its first child.
    var firstFrameScanResume: (cluster: Int64, at: Int)?
    var dataOffset: Int64?
    /// Packet starts (the start of their block) relative to `dataOffset`, and their first frames.
    var offsets = FrameOffsetTable()
    var startFrames = FrameOffsetTable()
    /// The next packet's first frame, while the stream is parsed in order from packet 0.
    var nextFrame: Int64 = 0
    /// Bytes and packets emitted, and the largest packet.
    var emittedBytes: Int64 = 0
    var emittedPackets: Int64 = 0
    var largestPacket = 0
    /// The DiscardPadding (nanoseconds) of the last BlockGroup of the parsed track.
    var lastDiscardPadding: Int64 = 0
    /// The current BlockGroup holds a block of the parsed track.
    var groupIsParsedTrack = false
    /// After a seek into a laced block: the frames of the next block of the parsed track to drop.
    var framesToDrop = 0
    /// Where the element being waited for ends (a discontinuity resumes there).
    var waitingEnd: Int64?
    /// Where the last "runs past its parent" diagnostic was given (not repeated while its element is
    /// waited for).
    var pastParentDiagnosedAt: Int64?
    /// Set by a discontinuity: the next element starts here.
    var resumeAt: Int64?
    /// The stream had a seek or a discontinuity.
    var hadJump = false
    /// Where the Segment's data starts and where it ends (`nil`: unknown size); Cue and Seek positions
    /// count from its start.
    var segmentDataStart: Int64?
    var segmentEnd: Int64?
    /// The cue points read (every track), and the Cues' position a SeekHead gave.
    var cuePoints: [MatroskaCuePoint] = []
    var cuesPosition: UInt64?
    /// The Cues fetched with a byte range request before the first Cluster.
    var cuesFetch = CuesFetch.none
    /// The current Cluster's Timestamp.
    var clusterTimestamp: UInt64?
    /// A seek past the parsed packets: what was delivered since, and when placed, its frame.
    var landing: OggSeekLanding?
    /// The block start (relative to `dataOffset`) of each packet the landing recorded, and whether their
    /// indices are exact (counted from an exact cue point's label).
    var landingOffsets: [Int64] = []
    var landingIsExact = false
    /// After a seek to a Cluster a cue point names: the packets to drop before `dropUntil`, the packet
    /// sought (they are counted into the landing, not delivered).
    var packetsToDrop = 0
    var dropUntil: Int64 = 0
    var isFinished = false
    /// The fast path's step arrays, kept between runs for their capacity (`walkBlocks`).
    var placedRun = PlacedRun()
    /// Where the fast path's look-ahead loads go (``HeaderPrefetch``; stored so they are not removed).
    var prefetchSink: UInt8 = 0

    init(options: ParserOptions) {
        self.options = options
    }

    var limits: ParserLimits { options.limits }

    var tracks: [TrackInfo] {
        trackEntries.map { t in
            let scale = info.timestampScale
            let timescale = UInt32(clamping: 1_000_000_000 / max(scale, 1))
            return TrackInfo(
                id: UInt32(clamping: t.number), handlerType: t.handlerType, sampleEntryType: t.codecID,
                timescale: timescale, duration: UInt64(min(max(info.duration ?? 0, 0), 9e18)), sampleCount: 0,
                language: t.language,
                isSelected: t.number == track?.number, isChapterTrack: false)
        }
    }

    // MARK: Stepping

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        if let resume = resumeAt {
            resumeAt = nil
            let position = context.window.position
            if resume > position { return .skip(resume - position) }
        }
        switch state {
        case .ebmlHeader: return try stepEBMLHeader(&context)
        case .elements: return try stepElement(&context)
        case .resync(let scanned): return try stepResync(&context, scanned: scanned)
        }
    }

    /// The `EBML` header: read whole, its DocType checked.
    mutating func stepEBMLHeader(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        let header: EBMLHeader
        switch ElementStream<EBMLSyntax>.peekHeader(context.window) {
        case .needMoreData(let n): return .needMoreData(atLeast: n)
        case .invalid(let fault): throw context.error(fault.error)
        case .header(let h): header = h
        }
        guard header.id == MatroskaElementID.ebml else {
            throw context.error(.invalidFile, .mkv, "the stream does not start with an EBML header")
        }
        let bytes: [UInt8]
        switch ElementStream.wholeElement(header, in: context.window, limit: limits.maxHeaderChunkBytes) {
        case .bytes(let b): bytes = b
        case .needMoreData(let n): return .needMoreData(atLeast: n)
        case .unknownSize: throw context.error(.invalidFile, .mkv("EBML"), "EBML header of unknown size")
        case .overLimit(let size, _):
            throw context.error(
                .limitExceeded, .mkv("EBML"), "EBML header of \(size) bytes exceeds maxHeaderChunkBytes")
        }
        do throws(StructureError) {
            let master = try EBMLMaster(whole: bytes[...], depth: 1, limits: limits)
            docType = master.string(MatroskaElementID.docType) ?? "matroska"
            if let read = master.unsigned(MatroskaElementID.ebmlReadVersion), read > 1 {
                throw Structure.mkv("EBML").unsupported("EBMLReadVersion \(read)")
            }
        } catch {
            throw context.error(error)
        }
        context.window.consume(bytes.count)
        state = .elements
        return .continue
    }

    // MARK: Discontinuity, seeking

    mutating func discontinuity(_ context: inout ParseContext) {
        hadJump = true
        resetCodecState()
        // Packets were lost: the next ones are placed by the next Cluster's Timestamp, not the tables.
        landing = OggSeekLanding(firstIndex: context.nextPacketIndex)
        landingOffsets = []
        landingIsExact = false
        let position = context.window.position
        if let end = waitingEnd, end > position {
            // The element being waited for is lost; the next one starts where it ends.
            resumeAt = end
            context.diagnose(.discontinuity, .mkv, "discontinuity inside an element; resuming after it")
        } else if case .elements = state, published {
            state = .resync(scanned: 0)
            context.diagnose(.discontinuity, .mkv, "discontinuity; searching for the next Cluster or block")
        }
        waitingEnd = nil
    }

    /// Forgets what the next packet's frame count depends on (Vorbis: the previous block size).
    mutating func resetCodecState() {
        if case .vorbis(var counter)? = codec?.frameCounter {
            counter.reset()
            codec?.frameCounter = .vorbis(counter)
        }
    }
}
