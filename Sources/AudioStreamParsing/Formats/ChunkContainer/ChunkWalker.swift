/// Where a `ChunkWalker` is. Not generic, so that the walk state is a plain value whatever the
/// container (the role of a body being read is kept by the walker).
enum ChunkWalkState: Equatable {
    /// Expecting a chunk header at this offset.
    case header(at: Int64)
    /// Expecting `count` pad bytes at this offset.
    case pad(at: Int64, count: Int)
    /// Reading a chunk's body whole: the body starts at the position, or after the header when the
    /// header waits for the body (`ChunkContainerRules.headerWaitsForBody`).
    case body(ChunkHeader)
    /// The format reads the current chunk itself; it calls `endChunk` when the chunk ends.
    case handedOff
    /// The rest of the stream is not chunks: consumed as it arrives and counted.
    case ignoringRest(IgnoredBytes)
    /// A discontinuity lost the chunk boundaries before the audio: the next step throws.
    case lost

    /// Bytes the walk consumes without reading them, and why.
    struct IgnoredBytes: Equatable {
        /// Why the rest of the stream is ignored.
        enum Reason: Equatable {
            /// Bytes past the container end that are not a chunk.
            case pastContainerEnd
            /// A discontinuity after the audio lost the chunk boundaries.
            case afterDiscontinuity
            /// Audio that nothing describes in a data chunk that runs to the end of the stream.
            case afterAudio
        }

        /// Absolute offset of the first ignored byte.
        var start: Int64
        /// Bytes ignored so far.
        var count: Int64 = 0
        /// Why.
        var reason: Reason
    }
}

/// The chunk walk shared by every chunk container (WAVE/RF64/BW64, AIFF/AIFF-C, CAF; Wave64 next):
/// chunk headers, sizes, the container end, pad bytes, unknown chunks and the bodies read whole.
///
/// A format parser keeps one walker and asks it for the next thing in the stream (`next`):
///
/// - `.step(s)`: the walker consumed something, skipped something or needs bytes; the format returns
///   `s` from its own `step`.
/// - `.chunk(header, role)`: a registered chunk's header is readable at the position (not yet
///   consumed). The format decides: `read(_:_:within:_:)` buffers the body whole (up to a
///   `ParserLimits` cap), `skip(_:_:)` discards it unbuffered, `enter(_:_:)` hands the body to the
///   format (audio data, a table read entry by entry), after which the format calls `endChunk` to
///   give the walk back.
/// - `.body(header, role, bytes)`: the body of a chunk being read is all readable (the window is at
///   its start, or at its header for a container whose header waits for the body); the format
///   interprets it and calls `consumeBody(of:_:)`.
///
/// What the walker does on its own, in this order, for every header: a header at or past the
/// container end (`ChunkContainerRules.containerEnd`); the first chunk's identifier
/// (`ChunkContainerRules.firstChunk`); sizes that are negative or run past the largest offset
/// (`invalidFile`); 64-bit sizes from the container's table (`largeChunkSizes`, RF64 `ds64`);
/// sizes cut at the container end (`cutsSizesAtContainerEnd`); an unregistered chunk skipped with a
/// diagnostic. After each body it expects the layout's pad bytes, and recognises a writer that left
/// them out (`ChunkContainerRules.missingPad`). Unknown and skipped chunks are discarded as they
/// arrive (`ParseStep.skip`), never buffered. Every state that expects a structure carries its
/// offset, so bytes still to be skipped (after a discontinuity the format let pass) are skipped
/// first.
///
/// The type itself puts no requirement on `Container` (its methods do): its stored properties do not
/// depend on the container, so instantiating it costs no conformance lookup at run time.
struct ChunkWalker<Container> {
    /// Where the walk is.
    typealias State = ChunkWalkState
    /// Bytes the walk consumes without reading them, and why.
    typealias IgnoredBytes = ChunkWalkState.IgnoredBytes

    /// How chunk headers are written.
    var layout: ChunkLayout
    /// The container's rules (`Container.rules`, kept here so that reading them costs no copy).
    let rules: ChunkContainerRules
    /// Absolute offset where the container ends by its size (RIFF, FORM), when the size is known
    /// and trusted.
    var containerEnd: Int64?
    /// The body sizes of chunks whose 32-bit size field is 0xFFFFFFFF (RF64/BW64: the `ds64`
    /// table, EBU Tech 3306 §3.4).
    var largeChunkSizes: [ChunkID: UInt64] = [:]
    /// Where the walk is.
    private(set) var state: State
    /// The chunk the next header must be, until a first chunk header is consumed
    /// (`ChunkContainerRules.firstChunk`).
    private var requiredFirstChunk: ChunkID?
    /// Whether a registered chunk past the container end was reported (IFF reports it once).
    private var reportedChunkPastEnd = false
    /// The offset of the header last checked and not consumed yet, so that a format waiting at a
    /// header (for the bytes after it) does not get its diagnostics twice.
    private var checkedHeader: Int64?

    /// The chunk whose body is being read whole and is not complete yet.
    var incompleteChunk: ChunkHeader? {
        if case .body(let chunk) = state { return chunk }
        return nil
    }
}

extension ChunkWalker where Container: ChunkContainer {
    /// A walk that expects the first chunk header at `offset`.
    init(layout: ChunkLayout, at offset: Int64, containerEnd: Int64? = nil) {
        self.layout = layout
        self.rules = Container.rules
        self.requiredFirstChunk = Container.rules.firstChunk
        self.containerEnd = containerEnd
        self.state = .header(at: offset)
    }

    /// What `next` found.
    enum Event {
        /// Return this step from the format's `step`.
        case step(ParseStep)
        /// A registered chunk's header at the position (not consumed).
        case chunk(ChunkHeader, Container.Role)
        /// The whole body of the chunk being read (the window is at its start, or at the chunk's
        /// header when the header waits for the body).
        case body(ChunkHeader, Container.Role, [UInt8])
    }

    // MARK: Stepping

    /// The next thing in the stream; see the type's discussion.
    ///
    /// - Throws: `invalidFile` for a first chunk of the wrong type or a size no stream can have;
    ///   `discontinuityCantRecover` after `lose()`.
    mutating func next(_ context: inout ParseContext) throws(AudioStreamError) -> Event {
        switch state {
        case .header(let offset):
            if let skip = Self.skip(to: offset, from: context.window.position) { return .step(skip) }
            return try readHeader(&context)
        case .pad(let offset, let count):
            if let skip = Self.skip(to: offset, from: context.window.position) { return .step(skip) }
            return .step(readPad(at: offset, count: count, &context))
        case .body(let chunk):
            // Safe to force unwrap: `read` is given chunks `next` found in the registry.
            let role = Container.registry.role(of: chunk.id)!
            // Safe: a body is read only when its size is at most a limit, an `Int`.
            let count = Int(chunk.size ?? 0)
            let start = rules.headerWaitsForBody ? chunk.headerByteCount : 0
            guard let body = context.window.peekBytes(at: start, count: count) else {
                return .step(.needMoreData(atLeast: start + count))
            }
            return .body(chunk, role, body)
        case .handedOff:
            preconditionFailure("ChunkWalker.next while the format reads the chunk")
        case .ignoringRest(var ignored):
            let count = context.window.readable
            context.window.consume(count)
            ignored.count += Int64(count)
            state = .ignoringRest(ignored)
            return .step(.needMoreData(atLeast: 1))
        case .lost:
            throw context.error(.discontinuityCantRecover, Container.chunkBoundariesLost)
        }
    }

    /// `.skip` to `offset` when the position is before it.
    private static func skip(to offset: Int64, from position: Int64) -> ParseStep? {
        position < offset ? .skip(offset - position) : nil
    }

    /// Reads and checks the header at the position; see the type's discussion for the order.
    private mutating func readHeader(_ context: inout ParseContext) throws(AudioStreamError) -> Event {
        guard var chunk = ChunkHeader.peek(context.window, layout) else {
            return .step(.needMoreData(atLeast: layout.headerByteCount))
        }
        let position = chunk.offset
        let isNew = checkedHeader != position
        checkedHeader = position
        if let end = containerEnd, let rule = rules.containerEnd {
            switch rule {
            case .printableChunkVoidsSize where position + Int64(layout.headerByteCount) > end:
                guard chunk.id.isPrintable else {
                    ignoreRest(from: position, .pastContainerEnd)
                    return .step(.continue)
                }
                context.diagnose(.sizeCorrected, Container.chunkPastContainerEnd(chunk, end: end))
                containerEnd = nil
            case .registeredChunksReadOn where position >= end:
                guard Container.registry.contains(chunk.id) else {
                    if let message = Container.junkPastContainerEnd(end: end) {
                        context.diagnose(.junkSkipped, message)
                    }
                    ignoreRest(from: position, .pastContainerEnd)
                    return .step(.continue)
                }
                if !reportedChunkPastEnd {
                    reportedChunkPastEnd = true
                    context.diagnose(.sizeCorrected, Container.chunkPastContainerEnd(chunk, end: end))
                }
            default:
                break
            }
        }
        if let first = requiredFirstChunk, chunk.id != first {
            throw context.error(
                .invalidFile, Container.structure, "the first chunk is '\(chunk.name)'; it must be '\(first)'")
        }
        let plainSize =
            (!layout.sizeIsSigned || chunk.signedSizeField >= 0) && !layout.sizeIncludesHeader
            && chunk.sizeField <= UInt64(Int64.max - chunk.bodyStart)
        if !plainSize, let error = Self.sizeError(chunk, layout, unknownSizeAllowed: rules.chunkOfUnknownSize) {
            throw context.error(error)
        }
        if layout.sizeByteCount == 4, chunk.sizeField == 0xFFFF_FFFF, let size = largeChunkSizes[chunk.id] {
            chunk.declaredSize = size
            chunk.size = size
        }
        if rules.cutsSizesAtContainerEnd, let end = containerEnd, let declared = chunk.declaredSize,
            !rules.uncutChunks.contains(chunk.id)
        {
            // The container-end check above made `bodyStart <= end` or forgot the end.
            let room = UInt64(max(0, end - chunk.bodyStart))
            if declared > room {
                chunk.size = room
                if isNew {
                    context.diagnose(
                        .sizeCorrected, at: position,
                        Container.chunkCutAtContainerEnd(chunk, declared: declared, size: room))
                }
            }
        }
        guard let role = Container.registry.role(of: chunk.id) else {
            context.diagnose(.unknownStructure, at: position, Container.unknownChunkSkipped(chunk))
            return .step(skip(chunk, &context))
        }
        return .chunk(chunk, role)
    }

    /// The error for a size field no stream can have: negative (but for the chunk that may say -1),
    /// smaller than a header it counts, or reaching past the largest stream offset.
    ///
    /// (The helpers of the mutating walk are static: a non-mutating call on the walker would copy it.)
    private static func sizeError(
        _ chunk: ChunkHeader, _ layout: ChunkLayout, unknownSizeAllowed: ChunkID?
    ) -> StructureError? {
        if layout.sizeIsSigned && chunk.signedSizeField < 0 {
            guard chunk.signedSizeField == -1, chunk.id == unknownSizeAllowed else {
                return Container.structure(chunk.name).invalid("negative chunk size \(chunk.signedSizeField)")
            }
            return nil
        }
        guard let size = chunk.declaredSize else {
            return Container.structure(chunk.name).invalid(
                "chunk size \(chunk.sizeField) is smaller than its \(layout.headerByteCount)-byte header")
        }
        if size > UInt64(Int64.max - chunk.bodyStart) {
            return Container.structure(chunk.name).invalid("chunk size runs past the largest stream offset")
        }
        return nil
    }

    /// The bytes after an odd-sized body; see `ChunkContainerRules.MissingPad`.
    private mutating func readPad(at offset: Int64, count: Int, _ context: inout ParseContext) -> ParseStep {
        switch rules.missingPad {
        case .chunkStartsHereRatherThanAfter:
            if let end = containerEnd, offset >= end {
                state = .header(at: offset)
                return .continue
            }
            guard context.window.readable > 0 else { return .needMoreData(atLeast: 1) }
            if !Self.padBytesAreZero(count, context.window) {
                let needed = layout.idByteCount + count
                if context.window.readable < needed && !context.window.isFinal { return .needMoreData(atLeast: needed) }
                if let here = ChunkHeader.peekID(context.window, at: 0, layout),
                    let after = ChunkHeader.peekID(context.window, at: count, layout),
                    Self.startsChunk(here, ratherThan: after)
                {
                    context.diagnose(.sizeCorrected, Container.padMissing)
                    state = .header(at: offset)
                    return .continue
                }
            }
        case .printableIdentifierHere:
            guard let first = context.window.peekUInt8() else { return .needMoreData(atLeast: 1) }
            if first != 0 {
                guard let here = ChunkHeader.peekID(context.window, at: 0, layout) else {
                    return .needMoreData(atLeast: layout.idByteCount)
                }
                if here.isPrintable {
                    context.diagnose(.sizeCorrected, Container.padMissing)
                    state = .header(at: offset)
                    return .continue
                }
            }
        }
        context.window.consume(count)
        state = .header(at: offset + Int64(count))
        return .continue
    }

    /// Whether the readable ones of `count` pad bytes are zero.
    private static func padBytesAreZero(_ count: Int, _ window: borrowing InputWindow) -> Bool {
        for i in 0..<count where (window.peekUInt8(at: i) ?? 0) != 0 { return false }
        return true
    }

    /// Whether `here` looks more like a chunk identifier than `after` (the bytes one pad later): a
    /// registered identifier wins, else a printable one.
    private static func startsChunk(_ here: ChunkID, ratherThan after: ChunkID) -> Bool {
        let hereKnown = Container.registry.contains(here)
        if hereKnown != Container.registry.contains(after) { return hereKnown }
        return here.isPrintable && !after.isPrintable
    }

    // MARK: What the format decides

    /// Consumes `chunk`'s header and skips its body unbuffered, then its pad bytes.
    mutating func skip(_ chunk: ChunkHeader, _ context: inout ParseContext) -> ParseStep {
        consumeHeader(chunk, &context)
        endChunk(chunk)
        let size = Int64(clamping: chunk.size ?? 0)
        return size > 0 ? .skip(size) : .continue
    }

    /// Reads `chunk`'s body whole: the body comes back as `.body` once it is all readable. The header is
    /// consumed now, or with the body when the container's header waits for the body.
    ///
    /// Above `limit` the chunk is skipped with a `limitExceeded` diagnostic, or for
    /// `ChunkBodyLimit.headerChunk` the parse fails.
    ///
    /// - Throws: `limitExceeded` at the chunk for a header chunk larger than `maxHeaderChunkBytes`.
    mutating func read(
        _ chunk: ChunkHeader, within limit: ChunkBodyLimit, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        guard let size = chunk.size, size <= UInt64(limit.bytes(context.limits)) else {
            let message = Container.chunkOverLimit(chunk, limit)
            if limit == .headerChunk { throw context.error(.limitExceeded, at: chunk.offset, message) }
            context.diagnose(.limitExceeded, at: chunk.offset, message)
            return skip(chunk, &context)
        }
        if !rules.headerWaitsForBody { consumeHeader(chunk, &context) }
        state = .body(chunk)
        return .continue
    }

    /// Consumes the body `.body` delivered (and its header, when it waited), then expects its pad
    /// bytes.
    mutating func consumeBody(of chunk: ChunkHeader, _ context: inout ParseContext) -> ParseStep {
        if rules.headerWaitsForBody { consumeHeader(chunk, &context) }
        // Safe: the body was readable whole, so its size is an `Int`.
        context.window.consume(Int(chunk.size ?? 0))
        endChunk(chunk)
        return .continue
    }

    /// Skips the body being read (and its header, when it waited), unbuffered.
    mutating func skipBody(of chunk: ChunkHeader, _ context: inout ParseContext) -> ParseStep {
        if rules.headerWaitsForBody { consumeHeader(chunk, &context) }
        endChunk(chunk)
        let size = Int64(clamping: chunk.size ?? 0)
        return size > 0 ? .skip(size) : .continue
    }

    /// Consumes `chunk`'s header and hands its body to the format, which calls `endChunk` when the
    /// chunk ends.
    mutating func enter(_ chunk: ChunkHeader, _ context: inout ParseContext) {
        consumeHeader(chunk, &context)
        state = .handedOff
    }

    /// The walk goes on after `chunk`'s body (and its pad bytes).
    mutating func endChunk(_ chunk: ChunkHeader) {
        endChunk(at: chunk.bodyEnd, declaredSize: chunk.declaredSize ?? 0)
    }

    /// The walk goes on after a body that ends at `bodyEnd` and declares `declaredSize` bytes (whose
    /// parity decides the pad bytes).
    mutating func endChunk(at bodyEnd: Int64, declaredSize: UInt64) {
        let pad = layout.padding(afterBodyOf: declaredSize)
        state = pad > 0 ? .pad(at: bodyEnd, count: pad) : .header(at: bodyEnd)
    }

    /// The rest of the stream, from `start`, is not chunks.
    mutating func ignoreRest(from start: Int64, _ reason: IgnoredBytes.Reason) {
        state = .ignoringRest(IgnoredBytes(start: start, reason: reason))
    }

    /// The walk goes on at the chunk header at `offset` (where the format asked the caller to feed from
    /// with a byte range request).
    mutating func restart(at offset: Int64) {
        state = .header(at: offset)
        checkedHeader = nil
    }

    /// The chunk boundaries are lost (a discontinuity before the audio): the next step throws
    /// `discontinuityCantRecover`.
    mutating func lose() {
        state = .lost
    }

    private mutating func consumeHeader(_ chunk: ChunkHeader, _ context: inout ParseContext) {
        context.window.consume(chunk.headerByteCount)
        requiredFirstChunk = nil
        checkedHeader = nil
    }
}
