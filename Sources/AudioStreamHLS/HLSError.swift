/// Why an HLS presentation cannot be played (or a playlist read). Every case says what failed and where;
/// ``description`` is one line for a person.
public enum HLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The resource is not a playlist: its first line is not `#EXTM3U` (RFC 8216 section 4.3.1.1).
    case notAPlaylist(url: String)
    /// The playlist breaks a rule the session needs, at a line (1-based).
    case invalidPlaylist(url: String, line: Int, reason: String)
    /// The playlist is larger than ``HLSLimits`` allow (bytes, line length or entries).
    case playlistTooLarge(url: String, reason: String)
    /// A master playlist offers nothing playable as audio (or the caller's choice is not in it).
    case noAudioVariant(url: String, reason: String)
    /// `EXT-X-KEY` with a method this product does not decrypt (`SAMPLE-AES`, `SAMPLE-AES-CTR`, …).
    case unsupportedEncryption(method: String, segment: Int64)
    /// A key that is not 16 bytes, or a segment that does not decrypt with it (bad padding, length).
    case decryptionFailed(segment: Int64, reason: String)
    /// A resource could not be fetched after the allowed attempts.
    case fetchFailed(url: String, attempts: Int, reason: String)
    /// A live playlist gave no new segment for `seconds` (``HLSSessionOptions/stallTimeout``).
    case playlistStalled(url: String, seconds: Double)
    /// The parser failed on a segment's bytes.
    case parser(segment: Int64, error: String)
    /// A seek outside the presentation, or on a live playlist.
    case cannotSeek(reason: String)

    /// One line for a person.
    public var description: String {
        switch self {
        case .notAPlaylist(let url): "'\(url)' is not an HLS playlist (no #EXTM3U)"
        case .invalidPlaylist(let url, let line, let reason): "'\(url)' line \(line): \(reason)"
        case .playlistTooLarge(let url, let reason): "'\(url)': \(reason)"
        case .noAudioVariant(let url, let reason): "'\(url)': \(reason)"
        case .unsupportedEncryption(let method, let segment):
            "segment \(segment): encryption METHOD=\(method) is not supported (only NONE and AES-128)"
        case .decryptionFailed(let segment, let reason): "segment \(segment): AES-128 decryption failed: \(reason)"
        case .fetchFailed(let url, let attempts, let reason):
            "cannot fetch '\(url)' (\(attempts) attempt\(attempts == 1 ? "" : "s")): \(reason)"
        case .playlistStalled(let url, let seconds): "live playlist '\(url)' gave no new segment for \(seconds) s"
        case .parser(let segment, let error): "segment \(segment): \(error)"
        case .cannotSeek(let reason): "cannot seek: \(reason)"
        }
    }
}

/// Bounds on what a playlist may make the session hold (docs/hls.md, "Limits"). A playlist over a bound
/// fails with ``HLSError/playlistTooLarge(url:reason:)``; nothing is allocated from a count in the input.
public struct HLSLimits: Sendable, Equatable {
    /// The largest playlist accepted, in bytes (a 24-hour VOD with 6 s segments is about 1 MB).
    public var maxPlaylistBytes = 4 * 1024 * 1024
    /// The longest line, in bytes.
    public var maxLineBytes = 16 * 1024
    /// The most segments (media) or variants plus renditions (master) in one playlist.
    public var maxEntries = 100_000
    /// The largest segment or initialization section the session hands on, in bytes.
    public var maxSegmentBytes = 64 * 1024 * 1024

    /// The defaults.
    public init() {}
}
