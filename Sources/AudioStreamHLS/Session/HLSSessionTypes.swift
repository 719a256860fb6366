/// A resource the session needs: the caller fetches it (HTTP GET, with `Range: bytes=` for a byte range, or
/// a file read) and hands the bytes to ``HLSSession/deliver(_:now:)``.
public struct HLSResourceRequest: Sendable, Equatable, Hashable {
    /// What the resource is for.
    public enum Kind: Sendable, Equatable, Hashable {
        /// The playlist given to the session (master or media).
        case playlist
        /// The Media Playlist chosen from a master playlist, or a reload of a live one.
        case mediaPlaylist
        /// An AES-128 key (16 bytes).
        case key
        /// An `EXT-X-MAP` Media Initialization Section.
        case initialization
        /// A Media Segment.
        case segment
    }

    /// The absolute URL (or path) to fetch.
    public var url: String
    /// Only these bytes of the resource, when set.
    public var byteRange: HLSByteRange?
    /// What it is for.
    public var kind: Kind
    /// The most bytes the session accepts for it (``HLSLimits``): a fetcher may stop reading past it.
    public var maxBytes: Int

    /// A request.
    public init(url: String, byteRange: HLSByteRange? = nil, kind: Kind, maxBytes: Int) {
        self.url = url
        self.byteRange = byteRange
        self.kind = kind
        self.maxBytes = maxBytes
    }
}

/// Why a fetch failed (the caller's words: an HTTP status, a connection error, a missing file).
public struct HLSFetchFailure: Error, Sendable, Equatable {
    /// One line for a person, e.g. `HTTP 404`.
    public var reason: String

    /// A failure.
    public init(_ reason: String) { self.reason = reason }
}

/// How the session plays a presentation.
public struct HLSSessionOptions: Sendable, Equatable {
    /// Which stream of a master playlist.
    public var variantChoice: HLSVariantChoice = .automatic()
    /// Attempts per resource (the first included) before ``HLSError/fetchFailed(url:attempts:reason:)``.
    public var maxAttempts = 3
    /// Seconds between two attempts at the same resource.
    public var retryDelay = 0.5
    /// A live playlist that gives no new segment for this many target durations fails with
    /// ``HLSError/playlistStalled(url:seconds:)`` (RFC 8216 section 6.3.4 lets the client decide).
    public var stallTargetDurations = 3.0
    /// A live playlist is joined this many segments before its end (section 6.3.3: not closer than three
    /// target durations to the end).
    public var liveStartSegments = 3
    /// Size bounds.
    public var limits = HLSLimits()

    /// The defaults.
    public init() {}
}

/// The bytes of a segment (or of its initialization section), decrypted, with where they belong.
public struct HLSSegmentData: Sendable {
    /// The bytes, decrypted.
    public var bytes: [UInt8]
    /// The segment (for an initialization section: the segment it precedes).
    public var segment: HLSMediaSegment
    /// True for an `EXT-X-MAP` Media Initialization Section.
    public var isInitialization: Bool
    /// True when the bytes do not continue the previous ones: `EXT-X-DISCONTINUITY`, a seek, segments lost
    /// from a live window. A parser must start afresh (format detection again).
    public var startsDiscontinuity: Bool
    /// The segment's start in seconds on the presentation's timeline (the sum of the durations before it;
    /// for a live playlist, from the first segment the session played).
    public var startTime: Double
    /// For packed audio (section 3.4): the ID3 `PRIV` transport stream timestamp, 90 kHz ticks.
    public var transportStreamTimestamp: Int64?
}

/// What the caller does next (``HLSSession/next(now:)``).
public enum HLSStep: Sendable {
    /// Fetch this resource, then call ``HLSSession/deliver(_:now:)`` with the bytes or the failure.
    case fetch(HLSResourceRequest)
    /// Wait this many seconds (a live reload or a retry), then call `next` again.
    case wait(seconds: Double)
    /// Parse these bytes.
    case data(HLSSegmentData)
    /// The presentation ended (`EXT-X-ENDLIST` and every segment handed out).
    case end
}

/// Where a time seek landed (``HLSSession/seek(toTime:)``).
public struct HLSSeekLanding: Sendable, Equatable {
    /// The Media Sequence Number of the segment that holds the time.
    public var sequenceNumber: Int64
    /// That segment's start on the timeline, in seconds.
    public var segmentStartTime: Double
    /// The requested time minus the segment's start: what is dropped inside the segment.
    public var offsetInSegment: Double
}
