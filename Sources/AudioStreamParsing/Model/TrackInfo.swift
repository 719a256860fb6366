/// One track of a multi-track container (an MP4 `trak`), as listed by `AudioStreamParser.tracks`.
///
/// The parser produces the packets of one audio track: the first `soun` track, or the one chosen with
/// `ParserOptions.trackID`. The others are listed so a caller can choose one and parse again.
public struct TrackInfo: Hashable, Sendable {
    /// The track ID (`tkhd` `track_ID`).
    public var id: UInt32
    /// The handler type (`hdlr` `handler_type`): `soun` for audio, `vide`, `text`, `sbtl`, `subt`, …
    public var handlerType: String
    /// The first sample entry's type (`stsd`): `mp4a`, `alac`, `Opus`, `avc1`, `text`, … or `nil`.
    public var sampleEntryType: String?
    /// The media timescale (`mdhd`), units per second.
    public var timescale: UInt32
    /// The media duration in `timescale` units (`mdhd`; for fragmented files the sum of what the sample
    /// tables list, often 0).
    public var duration: UInt64
    /// The samples the track's sample tables list (0 in the `moov` of a fragmented file).
    public var sampleCount: Int64
    /// The ISO 639-2/T language code (`mdhd`), when given.
    public var language: String?
    /// True for the track whose packets the parser produces.
    public var isSelected: Bool
    /// True when the track is a QuickTime chapter text track referenced by the selected track (`tref/chap`).
    public var isChapterTrack: Bool

    /// Creates a track description.
    public init(
        id: UInt32, handlerType: String, sampleEntryType: String?, timescale: UInt32, duration: UInt64,
        sampleCount: Int64, language: String?, isSelected: Bool, isChapterTrack: Bool
    ) {
        self.id = id
        self.handlerType = handlerType
        self.sampleEntryType = sampleEntryType
        self.timescale = timescale
        self.duration = duration
        self.sampleCount = sampleCount
        self.language = language
        self.isSelected = isSelected
        self.isChapterTrack = isChapterTrack
    }
}
