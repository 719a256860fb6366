/// An element located inside a parent held whole in memory: its header and where it lies, as
/// indices of the buffer the parent was read into. Formats work on these ranges and copy nothing but
/// the values they decode.
struct BufferedElement<Syntax: ElementSyntax>: Equatable {
    /// The header as written (an unknown size stays `nil` here; `end` is where it was resolved to).
    var header: ElementHeader<Syntax>
    /// Index of the first header byte.
    var start: Int
    /// Index after the last byte.
    var end: Int

    /// The element's ID.
    var id: Syntax.ID { header.id }
    /// The ID's printable name.
    var name: String { header.name }
    /// Index of the first body byte.
    var bodyStart: Int { start + header.headerSize }
    /// The body's indices.
    var body: Range<Int> { bodyStart..<end }
}

/// What the next step of a walk over a parent's children found.
enum ElementWalkStep<Syntax: ElementSyntax> {
    /// The next child, wholly inside the parent.
    case element(BufferedElement<Syntax>)
    /// The parent's children are all read.
    case end
    /// Fewer bytes are left than a header needs (`needed`, counted from the header's start): the
    /// parent's last bytes, `tail`. The walk ends (a format ignores them, or rejects them when they are
    /// not zero: a QuickTime list may end with a 32-bit zero).
    case partialHeader(tail: Range<Int>, needed: Int)
    /// The header at `at` cannot be right. The walk ends.
    case invalid(ElementHeaderFault<Syntax>, at: Int)
    /// The child at `at` declares more bytes than the `left` ones of its parent. The walk ends.
    case pastParent(ElementHeader<Syntax>, at: Int, left: Int)
    /// The parent lies deeper than `ParserLimits.maxNestingDepth`; nothing was read.
    case tooDeep
}

/// Walks the children of an element held whole in memory (a buffered MP4 `moov` or `moof`, a sample
/// entry, an EBML master read whole), one header at a time, without recursion: a format descends by
/// walking a child's body with `depth + 1`, so nesting costs no stack and is bounded by
/// `ParserLimits.maxNestingDepth`.
///
/// Rules, the same for every syntax (the wording of errors and diagnostics is the format's):
/// - every child lies inside its parent: a declared size past the parent's end stops the walk
///   (`pastParent`), before anything is read from it;
/// - a child of unknown size ends where its syntax says (`ElementSyntax.endOfUnknownSize`);
/// - bytes too few for a header at the end of the parent stop the walk (`partialHeader`);
/// - each step moves forward by at least one header, so a walk over `n` bytes takes at most
///   `n / (smallest header)` steps.
///
/// The walker itself is not generic (each step names the syntax, `next(MP4BoxSyntax.self)`): a value
/// of a generic type with a reference inside would have its metadata built at run time.
struct ElementWalker {
    /// The parent's children, read from `position` on.
    private var reader: ByteReader
    /// The depth limit was exceeded and not yet reported.
    private var isTooDeep: Bool

    /// The buffer holding the parent.
    var bytes: ArraySlice<UInt8> { reader.bytes }
    /// Index after the parent's last byte.
    var end: Int { reader.endIndex }
    /// Index of the next child's header.
    var position: Int { reader.startIndex + reader.offset }

    /// A walk over the children in `range` of `bytes` (clamped to `bytes`), with no depth limit: for
    /// decoders of a fixed, shallow layout (a sample entry and its configuration boxes).
    init(_ bytes: ArraySlice<UInt8>, in range: Range<Int>) {
        reader = ByteReader(bytes, range)
        isTooDeep = false
    }

    /// A walk over the children in `range` of `bytes`, a parent at `depth` (the top level's children
    /// are at depth 1); the first step is `.tooDeep` when `depth` exceeds `limits.maxNestingDepth`.
    init(_ bytes: ArraySlice<UInt8>, in range: Range<Int>, depth: Int, limits: ParserLimits) {
        self.init(bytes, in: range)
        isTooDeep = depth > limits.maxNestingDepth
    }

    /// Reads the next child's header in `syntax` and locates the child.
    mutating func next<Syntax: ElementSyntax>(_ syntax: Syntax.Type) -> ElementWalkStep<Syntax> {
        let at = position
        let left = reader.remaining
        if isTooDeep {
            isTooDeep = false
            _ = reader.skip(left)
            return .tooDeep
        }
        guard left > 0 else { return .end }
        switch Syntax.peekHeader(in: reader, at: 0) {
        case .needMoreData(let needed):
            _ = reader.skip(left)
            return .partialHeader(tail: at..<(at + left), needed: needed)
        case .invalid(let fault):
            _ = reader.skip(left)
            return .invalid(fault, at: at)
        case .header(let header):
            // The header was read from these bytes, so it fits: at < bodyStart <= end.
            let bodyStart = at + header.headerSize
            var elementEnd: Int
            if let size = header.size {
                guard size <= Int64(left) else {
                    _ = reader.skip(left)
                    return .pastParent(header, at: at, left: left)
                }
                elementEnd = at + Int(size)
            } else {
                elementEnd = Syntax.endOfUnknownSize(header, in: bytes, bodyStart: bodyStart, parentEnd: end)
                elementEnd = min(max(elementEnd, bodyStart), end)
            }
            _ = reader.skip(elementEnd - at)
            return .element(BufferedElement(header: header, start: at, end: elementEnd))
        }
    }
}
