import AudioStreamParsing

/// One thing an HLS presentation reports, in order (``HLSEventSequence``, ``HLSParserDriver``).
public enum HLSEvent: Sendable {
    /// A master playlist was resolved to this variant or rendition (before anything else of it).
    case selected(HLSSelection)
    /// A Media Segment starts: its packets follow (an initialization section is not announced).
    case segment(HLSSegmentInfo)
    /// The bytes that follow do not continue the previous ones (`EXT-X-DISCONTINUITY`, a seek, segments
    /// lost from a live window): a new parser detects the format again and announces every property again;
    /// packet indices start at 0 again.
    case discontinuity
    /// After a discontinuity, the new parser's format differs from the one before.
    case formatChanged(from: StreamDescription, to: StreamDescription)
    /// What the parser reports for the segments' bytes, as ``AudioStreamEventSequence`` reports it for a
    /// byte stream (``AudioStreamEvent/endOfStream`` once, at the end of the presentation).
    case stream(AudioStreamEvent)
}

/// Where a segment sits (``HLSEvent/segment(_:)``).
public struct HLSSegmentInfo: Sendable, Equatable {
    /// The Media Sequence Number.
    public var sequenceNumber: Int64
    /// The segment's URL (resolved).
    public var url: String
    /// `EXTINF` duration, seconds.
    public var duration: Double
    /// `EXTINF` title.
    public var title: String?
    /// The start on the presentation's timeline, seconds (``HLSSegmentData/startTime``).
    public var startTime: Double
    /// `EXT-X-PROGRAM-DATE-TIME`, as written.
    public var programDateTime: String?
    /// Packed audio's ID3 `PRIV` transport stream timestamp, 90 kHz ticks.
    public var transportStreamTimestamp: Int64?
    /// The byte range fetched.
    public var byteRange: HLSByteRange?
}
