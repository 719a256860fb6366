/// The top level of an element tree read as the stream passes (MP4's top-level boxes, an EBML
/// stream's `EBML` header and `Segment` children).
///
/// At each element the format peeks the header at the window's position (nothing consumed), looks
/// its ID up in its `ElementRegistry`, and then either buffers the element whole (`wholeElement`, up
/// to a `ParserLimits` cap), skips it without buffering (`skipBody`: the driver discards the bytes
/// as they arrive, `ParseStep.skip`), or consumes the header and reads the body as it streams past
/// (MP4 `mdat`). Nothing is consumed before the whole unit is there (peek, validate, commit).
enum ElementStream<Syntax: ElementSyntax> {
    /// The header at the window's position (nothing consumed).
    static func peekHeader(_ window: InputWindow) -> ElementHeaderPeek<Syntax> {
        Syntax.peekHeader(in: window, at: 0)
    }

    /// True when an element of `header` that starts at stream offset `start` ends at an offset an
    /// `Int64` can hold (always for an unknown size).
    static func endFits(_ header: ElementHeader<Syntax>, at start: Int64) -> Bool {
        guard let size = header.size else { return true }
        return !start.addingReportingOverflow(size).overflow
    }

    /// The whole element at the window's position when it is readable, without consuming it.
    ///
    /// - Parameters:
    ///   - header: its header, read at the window's position.
    ///   - limit: the most bytes it may have (a `ParserLimits` cap, `ElementBufferLimit.bytes(in:)`),
    ///     checked before anything is buffered.
    static func wholeElement(_ header: ElementHeader<Syntax>, in window: InputWindow, limit: Int) -> WholeElement {
        guard let size = header.size else { return .unknownSize }
        guard size <= Int64(limit) else { return .overLimit(size: size, limit: limit) }
        guard let bytes = window.peekBytes(at: 0, count: Int(size)) else { return .needMoreData(Int(size)) }
        return .bytes(bytes)
    }

    /// Consumes the header and returns the step that skips the body without buffering it: `.skip` of
    /// the body's size, or `.continue` for an empty body.
    ///
    /// - Returns: `nil` for an element of unknown size (the header is consumed): the stream does not
    ///   say where it ends, the format does (MP4: at the end of the stream, which is then ignored;
    ///   EBML: its children follow and are read as elements until one that may not be its descendant).
    static func skipBody(of header: ElementHeader<Syntax>, _ context: inout ParseContext) -> ParseStep? {
        context.window.consume(header.headerSize)
        guard let body = header.bodySize else { return nil }
        return body > 0 ? .skip(body) : .continue
    }
}

/// What buffering a whole element found (`ElementStream.wholeElement`).
enum WholeElement {
    /// The element, header included (a copy; nothing consumed).
    case bytes([UInt8])
    /// This many bytes must be readable first.
    case needMoreData(Int)
    /// The header declares an unknown size: the element cannot be buffered whole.
    case unknownSize
    /// The element is larger than the cap.
    case overLimit(size: Int64, limit: Int)
}
