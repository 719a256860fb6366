/// A format parser built on the frame-sync engine: its format description, its own state, and the
/// engine's (``FrameSyncEngine``).
///
/// The engine's fast-path hook: when the parser is in sync at a frame boundary, no tag is pending and
/// no carried-over byte is readable (the window's position is in the caller's chunk), ``stepFast(_:)``
/// lets the parser walk many whole frames of the chunk in one step (``walkFrames(_:_:)``: word loads
/// through a ``ChunkCursor``, no header structs, no window copies). A walk takes exactly the decisions
/// the parser's general path takes for those frames and stops at the first frame that needs anything
/// else (a tag, junk, a format change, a free-format frame, a frame whose end is not in the chunk);
/// the general path then handles that frame. The `FrameSyncFastPathTests` run every fixture with the
/// walk on and off and compare the event logs.
protocol FrameSyncParser: FormatParser {
    /// The engine's state.
    var engine: FrameSyncEngine { get set }

    /// Walks the whole frames at the position that the fast path can decide, in the chunk seen
    /// through `cursor`, emitting them (``ParseContext/emitPacketInChunk(size:variableFrames:frames:)``).
    ///
    /// - Returns: true when it emitted a frame (the step made progress).
    mutating func walkFrames(_ cursor: ChunkCursor, _ context: inout ParseContext) -> Bool
}

extension FrameSyncParser {
    /// The fast path, when it applies (see ``FrameSyncParser``); true when it emitted a frame.
    @inline(__always)
    mutating func stepFast(_ context: inout ParseContext) -> Bool {
        guard engine.usesFastPath, engine.tags.isEmpty, let cursor = context.window.chunkCursor else { return false }
        return walkFrames(cursor, &context)
    }
}
