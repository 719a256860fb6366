/// MPEG-4 / QuickTime container parser (ISO/IEC 14496-12 ISO base media file format, ISO/IEC 14496-14 MP4,
/// 3GPP TS 26.244, Apple QuickTime File Format): `.m4a`, `.m4b`, `.mp4`, `.3gp`, `.3g2`, `.mov`.
///
/// The file is a sequence of top-level boxes; the parser walks them as the bytes arrive:
/// - `ftyp` (read whole) says QuickTime or ISO (the file type itself was chosen by the probe).
/// - `moov` is buffered whole (up to `ParserLimits.maxBufferedBytes`) and decoded as a tree of byte ranges:
///   the tracks (`MP4Movie`), the parsed audio track's sample entry (`MP4AudioSampleEntry`), its sample
///   tables (`MP4SampleTable` → `MP4SampleList`: every sample's offset, size and duration), metadata
///   (`MP4ItemList`), chapters (`MP4Chapters`) and gapless information (`MP4Gapless`). The header is
///   published right after it (`dataOffset` = the first audio sample's offset, as ffprobe's `first_pos`).
/// - `mdat` is streamed, never buffered: each audio sample is emitted as a packet when its bytes pass, in file
///   order; bytes of other tracks are skipped; the samples of a QuickTime chapter text track (`tref/chap`)
///   are read (up to `maxTagBytes` each) and turned into chapters.
/// - `moof` (fragmented MP4) is buffered whole and appends its `trun`s to the sample list; the `mdat` after it
///   is streamed the same way.
/// - `free`, `skip`, `wide`, `sidx`, `mfra`, `styp`, `pdin`, `uuid`, … are skipped without buffering
///   (unknown types with a diagnostic).
///
/// An `mdat` before the `moov` (not "fast start"): with `ParserOptions.bufferUnparsedMediaUpTo`, the media is
/// held in the input window (not consumed) until the `moov` after it is readable; with
/// `ParserOptions.allowsByteRangeRequests`, the parser requests the `moov`'s offset, then the media's
/// (`ParseStep.request`, `requestedByteOffset`); otherwise it throws `notOptimized` (`optm`) as Apple's parser
/// does, with the offset where the `moov` should be. See docs/formats/mp4.md.
///
/// What `finish` does: throws `invalidFile` when no `moov` came (`notOptimized` when a requested offset was
/// never fed); announces the real byte and packet counts when the stream ended before the last sample
/// (truncated) or when they were not declared (fragmented); announces the chapters read so far.
struct MP4Parser: FormatParser {
    /// Detects an `ftyp` box at the start (the file type from its major brand), or a QuickTime file
    /// without `ftyp` starting with `moov`, `mdat`, `free`, `skip`, `wide` or `pnot`.
    ///
    /// Decided on every readable byte (so the answer does not depend on chunking): a first byte of 0x20 or
    /// more would make the first box 512 MiB or larger, which no `ftyp` is; such files (an old QuickTime file
    /// starting with a huge `mdat`) are not recognised (docs/formats/mp4.md, "Known gaps"). The type bytes are
    /// compared as they arrive.
    static let probe = FormatProbe(fileTypes: [.m4a, .m4b, .mpeg4, .threeGP, .threeGP2, .quickTime]) {
        window, options in
        if let first = window.peekUInt8(at: 0), first >= 0x20 { return .noMatch }
        let starts = ["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot"].map { Array($0.utf8) }
        var seen: [UInt8] = []
        for i in 0..<4 {
            guard let b = window.peekUInt8(at: 4 + i) else { break }
            seen.append(b)
        }
        if !starts.contains(where: { $0.starts(with: seen) }) { return .noMatch }
        guard let type = window.peekInteger(at: 4, as: UInt32.self, endianness: .big).map({ UInt32($0) }) else {
            return .needMoreData(atLeast: 8)
        }
        guard let size = window.peekInteger(at: 0, as: UInt32.self, endianness: .big),
            size == 1 || size == 0 || size >= 8
        else { return .noMatch }
        if type == MP4BoxType.ftyp {
            guard let brand = window.peekInteger(at: 8, as: UInt32.self, endianness: .big) else {
                return .needMoreData(atLeast: 12)
            }
            return .match(fileType(majorBrand: UInt32(brand)), MP4Parser(options: options))
        }
        let quickTimeStarts = [
            MP4BoxType.moov, MP4BoxType.mdat, MP4BoxType.wide, MP4BoxType.free, MP4BoxType.skip,
            MP4BoxType.pnot,
        ]
        if quickTimeStarts.contains(type) { return .match(.quickTime, MP4Parser(options: options)) }
        return .noMatch
    }

    /// The file type for an `ftyp` major brand (Apple's `kAudioFile*Type` where one exists).
    static func fileType(majorBrand brand: UInt32) -> AudioFileType {
        let s = FourCharCode.string(brand)
        switch s {
        case "M4A ", "M4P ": return .m4a
        case "M4B ": return .m4b
        case "qt  ": return .quickTime
        default:
            if s.hasPrefix("3gp") || s.hasPrefix("3gr") || s.hasPrefix("3gs") { return .threeGP }
            if s.hasPrefix("3g2") { return .threeGP2 }
            return .mpeg4
        }
    }

    /// Where the parser is.
    enum State: Equatable {
        /// At a top-level box header.
        case box
        /// Inside media data: emitting the samples whose bytes pass. `end`: where the `mdat` ends (`nil`: to
        /// the end of the stream, or not known after a seek or discontinuity).
        case media(end: Int64?)
        /// Asked the caller for the bytes at this offset (`ParseStep.request`).
        case awaitingRequest(Int64)
        /// Discarding the rest of the stream.
        case ignoringRest
    }

    /// The next sample to emit: run index, sample within the run, its absolute offset, its packet index.
    struct SampleCursor: Equatable {
        var run = 0
        var k = 0
        var offset: Int64 = 0
        var packet: Int64 = 0
    }

    /// A chapter text track being read from the media data.
    struct ChapterTrack {
        var samples: MP4SampleList
        var timescale: UInt32
        var duration: UInt64
        var cursor = SampleCursor()
        /// Titles by sample index (decode order).
        var titles: [Int: String] = [:]
        var isDone: Bool { cursor.run >= samples.runs.count }
    }

    let options: ParserOptions
    var state: State = .box
    var isQuickTime = true
    var movie: MP4Movie?
    /// Where the parsed `moov` starts (skipped when met again).
    var movieOffset: Int64?
    var track: MP4Track?
    var entry: MP4AudioSampleEntry?
    var samples = MP4SampleList()
    /// The packet index of each run's first sample.
    var runPackets: [Int64] = []
    var cursor = SampleCursor()
    var chapterTrack: ChapterTrack?
    var trackList: [TrackInfo] = []
    /// Metadata from the `moov` (and chapters).
    var metadata = AudioMetadata()
    var published = false
    /// The `moov` (or first fragment) is read but its header is held until the first audio sample's bytes
    /// are at hand, for implicit HE-AAC (`MP4Parser+ImplicitSBR.swift`).
    var headerAwaitsFirstSample = false
    var dataOffset: Int64?
    var map = PacketMap.unknown
    /// `mdat` boxes seen: start of the box header, end (nil: to the end of the stream).
    var mediaBoxes: [(start: Int64, end: Int64?)] = []
    /// The first `mdat` met before the `moov` (its header offset), in request mode.
    var mediaBeforeMovie: Int64?
    /// Set by a discontinuity before the media data: the box structure is lost.
    var lostStructure = false
    /// The box walk resumed where the last known fragment's data ends, not at a box boundary seen.
    var guessedBoundary = false
    /// Set at `finish`: a fragmented file's packet count is known.
    var isFinished = false
    /// After a discontinuity inside media held before the movie box: the next box starts here.
    var resumeAt: Int64?
    /// The stream had a seek or discontinuity (the counts at `finish` then come from the tables).
    var hadJump = false
    /// The gapless information last announced (`announceFragmentedGapless` compares with it).
    var announcedGapless: PacketTableInfo?

    init(options: ParserOptions) {
        self.options = options
    }

    var tracks: [TrackInfo] { trackList }
    var packetMap: PacketMap { map }

    // MARK: Stepping

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        if lostStructure {
            throw context.error(
                .discontinuityCantRecover, .mp4, "discontinuity before the media data; the box structure is lost")
        }
        if let resume = resumeAt {
            resumeAt = nil
            let position = context.window.position
            if resume > position { return .skip(resume - position) }
        }
        switch state {
        case .box: return try stepBox(&context)
        case .media(let end): return try stepMedia(&context, end: end)
        case .awaitingRequest(let offset):
            guard context.window.position == offset else {
                throw context.error(
                    .notOptimized, .mp4,
                    "the bytes from offset \(offset) were requested (requestedByteOffset), but the stream "
                        + "continued at \(context.window.position)")
            }
            state = .box
            return .continue
        case .ignoringRest:
            context.window.consume(context.window.readable)
            return .needMoreData(atLeast: 1)
        }
    }

    // MARK: Discontinuity, seeking

    mutating func discontinuity(_ context: inout ParseContext) {
        hadJump = true
        let position = context.window.position
        switch state {
        case .media(let end):
            let next = firstSample(atOrAfter: position)
            cursor = next
            context.nextPacketIndex = next.packet
            if let end, position >= end { state = .media(end: nil) }
            skipChapterSamples(before: position)
        case .box, .awaitingRequest:
            if movie == nil, let box = mediaBoxes.last, let end = box.end, position >= box.start, position < end {
                // Media held back before the movie box (bufferUnparsedMediaUpTo): its bytes are gone, but the
                // box structure resumes after it.
                context.diagnose(
                    .discontinuity, .mp4,
                    "discontinuity inside media data held before the movie box; its packets are lost")
                resumeAt = end
                state = .box
            } else if published || headerAwaitsFirstSample {
                cursor = firstSample(atOrAfter: position)
                context.nextPacketIndex = cursor.packet
                context.diagnose(
                    .discontinuity, .mp4, "discontinuity between boxes; continuing with the samples at or after it")
                state = .media(end: nil)
            } else {
                lostStructure = true
            }
        case .ignoringRest:
            break
        }
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard published, let dataOffset else { return false }
        hadJump = true
        lostStructure = false
        resumeAt = nil
        guessedBoundary = false
        cursor = sampleCursor(forPacket: packet)
        let target = dataOffset + byteOffset
        let box = mediaBoxes.last { $0.start <= target && ($0.end.map { target < $0 } ?? true) }
        state = .media(end: box?.end)
        skipChapterSamples(before: target)
        return true
    }
}
