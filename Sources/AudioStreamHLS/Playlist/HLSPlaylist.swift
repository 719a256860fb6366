/// A parsed HLS playlist (RFC 8216 section 4): a Master Playlist (variants and renditions) or a Media
/// Playlist (segments). URIs are kept as written; ``HLSURL/resolve(_:against:)`` makes them absolute
/// against the playlist's own URL.
public enum HLSPlaylist: Sendable, Equatable {
    /// A Master Playlist (section 4.3.4): the variant streams and the renditions.
    case master(HLSMasterPlaylist)
    /// A Media Playlist (section 4.3.3): the segments.
    case media(HLSMediaPlaylist)
}

/// A Master Playlist (RFC 8216 section 4.3.4).
public struct HLSMasterPlaylist: Sendable, Equatable {
    /// `EXT-X-STREAM-INF` entries, in playlist order (`EXT-X-I-FRAME-STREAM-INF` is skipped: video only).
    public var variants: [HLSVariant] = []
    /// `EXT-X-MEDIA` entries of every type, in playlist order.
    public var renditions: [HLSRendition] = []
    /// `EXT-X-VERSION`, when present.
    public var version: Int?

    /// An empty playlist.
    public init() {}
}

/// One `EXT-X-STREAM-INF` variant stream (RFC 8216 section 4.3.4.2).
public struct HLSVariant: Sendable, Equatable {
    /// The URI line after the tag.
    public var uri: String
    /// `BANDWIDTH` (required by the RFC; 0 when missing).
    public var bandwidth: Int
    /// `AVERAGE-BANDWIDTH`.
    public var averageBandwidth: Int?
    /// `CODECS`, split at commas (RFC 6381 strings: `mp4a.40.2`, `avc1.4d401e` …).
    public var codecs: [String]
    /// `AUDIO`: the `GROUP-ID` of the audio renditions this variant plays with.
    public var audioGroup: String?
    /// `RESOLUTION`: a variant with one carries video.
    public var resolution: String?

    /// A variant.
    public init(
        uri: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: [String] = [], audioGroup: String? = nil,
        resolution: String? = nil
    ) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.audioGroup = audioGroup
        self.resolution = resolution
    }

    /// True when the variant says it carries no video: no `RESOLUTION`, and `CODECS` lists only audio codecs
    /// (``HLSCodecs/isAudio(_:)``). A variant without `CODECS` is not known to be audio-only.
    public var isAudioOnly: Bool { resolution == nil && !codecs.isEmpty && codecs.allSatisfy(HLSCodecs.isAudio) }
}

/// One `EXT-X-MEDIA` rendition (RFC 8216 section 4.3.4.1).
public struct HLSRendition: Sendable, Equatable {
    /// `TYPE`: `AUDIO`, `VIDEO`, `SUBTITLES` or `CLOSED-CAPTIONS`.
    public var type: String
    /// `GROUP-ID`.
    public var groupID: String
    /// `NAME`.
    public var name: String
    /// `LANGUAGE`.
    public var language: String?
    /// `URI`: absent when the rendition is carried in the variant's own segments.
    public var uri: String?
    /// `DEFAULT=YES`.
    public var isDefault: Bool
    /// `AUTOSELECT=YES`.
    public var autoselect: Bool
    /// `CHANNELS` (e.g. `2`, `6`).
    public var channels: String?

    /// A rendition.
    public init(
        type: String, groupID: String, name: String, language: String? = nil, uri: String? = nil,
        isDefault: Bool = false, autoselect: Bool = false, channels: String? = nil
    ) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.language = language
        self.uri = uri
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.channels = channels
    }
}

/// A Media Playlist (RFC 8216 section 4.3.3).
public struct HLSMediaPlaylist: Sendable, Equatable {
    /// `EXT-X-TARGETDURATION` in seconds (required).
    public var targetDuration: Int = 0
    /// `EXT-X-MEDIA-SEQUENCE`: the Media Sequence Number of the first segment (0 when absent).
    public var mediaSequence: Int64 = 0
    /// `EXT-X-DISCONTINUITY-SEQUENCE` (0 when absent).
    public var discontinuitySequence: Int64 = 0
    /// `EXT-X-ENDLIST`: no segment will be added.
    public var hasEndList = false
    /// `EXT-X-PLAYLIST-TYPE`: `VOD` or `EVENT`.
    public var playlistType: String?
    /// `EXT-X-VERSION`, when present.
    public var version: Int?
    /// The segments, in order.
    public var segments: [HLSMediaSegment] = []

    /// An empty playlist.
    public init() {}

    /// The sum of the segment durations (`EXTINF`), in seconds.
    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// True when the playlist may still grow (no `EXT-X-ENDLIST`, not `VOD`).
    public var isLive: Bool { !hasEndList && playlistType != "VOD" }
}

/// A byte range of a resource (`EXT-X-BYTERANGE`, `EXT-X-MAP`'s `BYTERANGE`; RFC 8216 section 4.3.2.2):
/// `length` bytes from `offset`.
public struct HLSByteRange: Sendable, Equatable, Hashable {
    /// The number of bytes.
    public var length: Int64
    /// The offset of the first byte in the resource.
    public var offset: Int64

    /// A range.
    public init(length: Int64, offset: Int64) {
        self.length = length
        self.offset = offset
    }
}

/// An `EXT-X-KEY` (RFC 8216 section 4.3.2.4): how the segments that follow it are encrypted.
public struct HLSKey: Sendable, Equatable, Hashable {
    /// `METHOD`: `NONE`, `AES-128`, `SAMPLE-AES` (or another value, which is unsupported).
    public var method: String
    /// `URI` of the key (16 bytes for AES-128).
    public var uri: String?
    /// `IV`: the 16-byte initialization vector; absent: the segment's Media Sequence Number (section 5.2).
    public var iv: [UInt8]?
    /// `KEYFORMAT` (`identity` when absent).
    public var keyFormat: String?

    /// A key.
    public init(method: String, uri: String? = nil, iv: [UInt8]? = nil, keyFormat: String? = nil) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
    }
}

/// An `EXT-X-MAP` (RFC 8216 section 4.3.2.5): the Media Initialization Section of the segments that follow
/// it (an fMP4 `ftyp`+`moov`).
public struct HLSMap: Sendable, Equatable, Hashable {
    /// `URI`.
    public var uri: String
    /// `BYTERANGE`.
    public var byteRange: HLSByteRange?

    /// A map.
    public init(uri: String, byteRange: HLSByteRange? = nil) {
        self.uri = uri
        self.byteRange = byteRange
    }
}

/// One Media Segment (RFC 8216 section 3) with the tags that apply to it.
public struct HLSMediaSegment: Sendable, Equatable {
    /// The URI line.
    public var uri: String
    /// `EXTINF` duration in seconds.
    public var duration: Double
    /// `EXTINF` title (after the comma), when not empty.
    public var title: String?
    /// The Media Sequence Number (section 6.3.2).
    public var sequenceNumber: Int64
    /// `EXT-X-BYTERANGE`, with the offset resolved (an absent offset follows the previous range).
    public var byteRange: HLSByteRange?
    /// `EXT-X-DISCONTINUITY` precedes the segment.
    public var isDiscontinuity: Bool
    /// The `EXT-X-KEY` in force (`nil`: not encrypted).
    public var key: HLSKey?
    /// The `EXT-X-MAP` in force.
    public var map: HLSMap?
    /// `EXT-X-PROGRAM-DATE-TIME` of the segment's first sample, as written (ISO 8601), when tagged.
    public var programDateTime: String?

    /// A segment.
    public init(
        uri: String, duration: Double, title: String? = nil, sequenceNumber: Int64, byteRange: HLSByteRange? = nil,
        isDiscontinuity: Bool = false, key: HLSKey? = nil, map: HLSMap? = nil, programDateTime: String? = nil
    ) {
        self.uri = uri
        self.duration = duration
        self.title = title
        self.sequenceNumber = sequenceNumber
        self.byteRange = byteRange
        self.isDiscontinuity = isDiscontinuity
        self.key = key
        self.map = map
        self.programDateTime = programDateTime
    }
}

/// Codec strings (RFC 6381) as HLS uses them in `CODECS`.
public enum HLSCodecs {
    /// True for audio codecs: `mp4a.*` (AAC, MP3 as `mp4a.40.34`/`mp4a.6B`), `ac-3`, `ec-3`, `opus`, `flac`,
    /// `alac`, `mp3`.
    public static func isAudio(_ codec: String) -> Bool {
        let c = codec.lowercased()
        return c.hasPrefix("mp4a") || ["ac-3", "ec-3", "opus", "flac", "alac", "mp3", ".mp3"].contains(c)
    }
}
