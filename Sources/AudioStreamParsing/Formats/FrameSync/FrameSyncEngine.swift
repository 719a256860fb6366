/// The state the frame-sync engine keeps for a parser: tags at frame boundaries, the packet offset
/// table, and the fast-path switch.
struct FrameSyncEngine {
    /// Whether the parser's fast path (``FrameSyncParser/walkFrames(_:_:)``) runs
    /// (`ParserOptions.usesFrameSyncFastPath`, internal: tests turn it off to prove that it takes the
    /// general path's decisions).
    let usesFastPath: Bool
    /// Tags met at frame boundaries since the last frame, and the ID3v2 tag being read.
    var tags = FrameBoundaryTags()
    /// Where the packets parsed in order start.
    var offsets = FrameOffsetTable()
    /// Where a fast path's look-ahead loads go (``HeaderPrefetch``; stored so they are not removed).
    var prefetchSink: UInt8 = 0

    init(usesFastPath: Bool = true) {
        self.usesFastPath = usesFastPath
    }
}
