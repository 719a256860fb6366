/// Caps that keep memory bounded whatever the input's length fields claim (docs/limits.md).
///
/// A length field is never trusted for an allocation: tables grow only as their bytes arrive, and
/// the parser never holds more unconsumed input than `maxBufferedBytes`. Exceeding a cap throws an
/// `AudioStreamError` with code ``AudioStreamError/Code/limitExceeded`` (or, for metadata, skips
/// the item with a diagnostic). Memory stays below what these caps allow plus a small constant per
/// parser, whatever lengths the input claims.
public struct ParserLimits: Hashable, Sendable {
    /// The most input bytes the parser holds back while waiting for a header, chunk or packet to
    /// complete. Default: 16 MiB.
    public var maxBufferedBytes: Int
    /// The largest header chunk (format, packet table excepted, metadata) parsed in one piece.
    /// Default: 1 MiB.
    public var maxHeaderChunkBytes: Int
    /// The largest tag/metadata chunk that is parsed; larger ones are skipped with a diagnostic.
    /// Default: 1 MiB.
    public var maxTagBytes: Int
    /// The largest artwork kept; larger pictures are skipped with a diagnostic. Default: 16 MiB.
    public var maxArtworkBytes: Int
    /// The most packet-table entries kept (CAF `pakt`, MP4 sample tables). Default: 16 Mi entries.
    public var maxPacketTableEntries: Int
    /// The deepest nesting of boxes or chunks. Default: 32.
    public var maxNestingDepth: Int
    /// The largest packet accepted. Default: 16 MiB.
    public var maxPacketBytes: Int
    /// The most bytes a framed stream (MPEG audio, ADTS, FLAC, Ogg) scans without finding a frame or
    /// page once sync is lost (or before the first one, after detection); beyond it the parser throws
    /// `limitExceeded`. The scanned bytes are dropped as the search goes, so this bounds the time spent
    /// on bytes that are not audio, not memory. Default: 16 MiB.
    public var maxSyncScanBytes: Int

    /// Creates limits; every parameter has the documented default.
    public init(
        maxBufferedBytes: Int = 16 << 20, maxHeaderChunkBytes: Int = 1 << 20, maxTagBytes: Int = 1 << 20,
        maxArtworkBytes: Int = 16 << 20, maxPacketTableEntries: Int = 16 << 20, maxNestingDepth: Int = 32,
        maxPacketBytes: Int = 16 << 20, maxSyncScanBytes: Int = 16 << 20
    ) {
        self.maxBufferedBytes = maxBufferedBytes
        self.maxHeaderChunkBytes = maxHeaderChunkBytes
        self.maxTagBytes = maxTagBytes
        self.maxArtworkBytes = maxArtworkBytes
        self.maxPacketTableEntries = maxPacketTableEntries
        self.maxNestingDepth = maxNestingDepth
        self.maxPacketBytes = maxPacketBytes
        self.maxSyncScanBytes = maxSyncScanBytes
    }
}
