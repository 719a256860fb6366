/// Options fixed when a parser is created.
public struct ParserOptions: Sendable {
    /// Bounds on what the parser buffers and accepts.
    public var limits: ParserLimits
    /// How many bytes of unknown data the format detector looks at before giving up with `typ?`.
    ///
    /// Default: 64 KiB.
    public var detectionLookahead: Int
    /// The caller can feed the stream from any byte offset (a file, or HTTP range requests). A parser
    /// that needs bytes elsewhere (an MP4 `moov` after the media data, a CAF `pakt` after the audio data)
    /// then announces `requestedByteOffset`; the caller feeds from that offset with `.discontinuity` (an
    /// offset ahead of the current position may also be reached by feeding on). Default: false (such
    /// files throw `notOptimized`, as Apple's parser does).
    ///
    /// It also lets an estimated `seek(toTime:)` / `seek(toFrame:)` in Ogg and MPEG-TS search the page or
    /// PES packet holding the target with such requests (bisection on granule positions or PTS; no
    /// packet is delivered until it is found). See docs/streaming.md, "Refined time seeks".
    public var allowsByteRangeRequests: Bool
    /// For a pure stream without range access: how many bytes of media data that precede the
    /// information needed to delimit their packets (an MP4 `mdat` before the `moov`, a CAF `data` chunk
    /// before its `pakt`) the parser may hold back, to produce every packet once that information
    /// arrives. The bytes held also count against `limits.maxBufferedBytes`. Beyond it the parser throws
    /// `notOptimized`, with the offset it would need in the error. Default: 0 (never hold media back).
    public var bufferUnparsedMediaUpTo: Int
    /// In a multi-track container (MP4), the ID of the audio track to parse (`TrackInfo.id`); `nil`: the
    /// first audio track. A track ID that names no audio track throws `unsupportedDataFormat`. Default: nil.
    public var trackID: UInt32?
    /// Which logical stream of a multiplexed Ogg file to parse (docs/formats/ogg.md). Default: the first
    /// audio stream.
    public var oggStreamSelection: OggStreamSelection = .firstAudio
    /// Native FLAC: find the end of every frame by its footer CRC-16, so that a damaged frame is never
    /// a packet (it is dropped with a diagnostic). Default: false — a frame ends where the next frame
    /// header starts whose frame or sample number is exactly the next one (with its CRC-8 and every
    /// field agreeing with STREAMINFO), searched from STREAMINFO's minimum frame size on, which reads a
    /// fraction of the audio bytes; the CRC-16 still decides wherever that chain breaks (after junk, a
    /// seek or a discontinuity, a jump in numbers, no such header within the maximum frame size, the
    /// last frame). Damaged frames whose neighbours are intact are then packets, as in FFmpeg's FLAC
    /// demuxer; the decoder's own CRC-16 check catches them. See docs/formats/flac.md.
    public var verifiesFLACFrameCRC: Bool = false
    /// For fuzz harnesses and tests (not public API): when set, format detection asks only the probes of
    /// these file types (and the ID3v2 prefix probe), so a harness can force one format's parser on any
    /// input. Default: nil (every probe).
    var onlyFileTypes: Set<AudioFileType>?
    /// For tests (not public API): whether the frame-sync parsers (MPEG audio, ADTS, FLAC) take their
    /// fast path, walking many whole frames of the caller's chunk in one step
    /// (`FrameSyncParser.walkFrames`). Off, every frame takes the general path; the events are the same
    /// (`FrameSyncFastPathTests`). Default: true.
    var usesFrameSyncFastPath = true

    /// Creates options; every parameter has a documented default.
    public init(
        limits: ParserLimits = ParserLimits(), detectionLookahead: Int = 64 * 1024,
        allowsByteRangeRequests: Bool = false, bufferUnparsedMediaUpTo: Int = 0, trackID: UInt32? = nil
    ) {
        self.limits = limits
        self.detectionLookahead = detectionLookahead
        self.allowsByteRangeRequests = allowsByteRangeRequests
        self.bufferUnparsedMediaUpTo = bufferUnparsedMediaUpTo
        self.trackID = trackID
    }
}
