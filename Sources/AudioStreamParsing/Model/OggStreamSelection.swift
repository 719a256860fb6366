/// Which logical bitstream of a multiplexed Ogg file the parser follows (RFC 3533 §4: several logical
/// bitstreams can be interleaved page by page; each starts with a beginning-of-stream page, and all
/// beginning-of-stream pages of a group come first).
///
/// Pages of the other logical streams are skipped without buffering. The selection applies to the
/// first group of streams; in a chained file (a new group after the chosen stream's end) the first
/// audio stream of each later group is followed.
public enum OggStreamSelection: Hashable, Sendable {
    /// The first logical stream whose first packet is a known audio header (Vorbis, Opus, FLAC).
    case firstAudio
    /// The `index`-th (0-based) audio stream, in the order of the beginning-of-stream pages.
    case audioStream(index: Int)
    /// The logical stream with this serial number.
    case serialNumber(UInt32)
}
