/// An incremental audio container parser: push bytes in, get stream properties and audio packets
/// out (the counterpart of CoreAudio's Audio File Stream Services, `AudioFileStreamOpen` …
/// `AudioFileStreamClose`).
///
/// ```swift
/// let parser = AudioStreamParser()
/// parser.propertyListener = { parser, property in
///     if property == .readyToProducePackets { print(parser.dataFormat!) }
/// }
/// parser.packetsHandler = { batch in
///     batch.forEachPacket { description, packet in … }   // packet: a RawSpan, borrowed
/// }
/// while let chunk = read() { try parser.parse(chunk) }
/// try parser.finish()
/// ```
///
/// Callbacks run synchronously inside `parse` and `finish`, on the caller's thread, in stream order.
/// Calling `parse`, `finish` or `seek` from inside a callback throws `illegalOperation` (`nope`);
/// getters, `value(of:)` and translations may be called anywhere.
///
/// After an error is thrown the parser is terminal: every later `parse`, `finish` or `seek` throws it
/// again. The parser is not thread-safe (and not `Sendable`); use it from one isolation domain.
public final class AudioStreamParser {
    /// Called when a property's value is parsed or changes (`AudioFileStream_PropertyListenerProc`).
    /// Read the value with the typed getters or `value(of:)`; it stays cached.
    public typealias PropertyListener = (AudioStreamParser, AudioStreamPropertyID) -> Void
    /// Called with each batch of packets (`AudioFileStream_PacketsProc`). The batch's bytes are
    /// borrowed: valid only during the call.
    public typealias PacketsHandler = (PacketBatch) -> Void
    /// Called for each recoverable oddity.
    public typealias DiagnosticHandler = (ParserDiagnostic) -> Void

    // The callbacks are read once per event while a delivery runs; every access is a whole read or
    // write (never held across user code), so the run-time exclusivity check would only cost time.
    // `@safe` states that for strict memory safety checking, which flags every use of unchecked exclusivity.

    /// The property listener.
    @safe @exclusivity(unchecked) public var propertyListener: PropertyListener?
    /// The packets handler.
    @safe @exclusivity(unchecked) public var packetsHandler: PacketsHandler?
    /// The diagnostics handler (diagnostics are also kept in `diagnostics`).
    @safe @exclusivity(unchecked) public var diagnosticHandler: DiagnosticHandler?

    /// The file type hint given at creation (needed only for containers content cannot identify).
    public let fileTypeHint: AudioFileType?
    /// The options given at creation.
    public let options: ParserOptions

    /// Every property value known so far.
    public private(set) var properties = StreamProperties()
    /// The first 1,000 diagnostics reported (all of them go to `diagnosticHandler`).
    public private(set) var diagnostics: [ParserDiagnostic] = []
    /// The number of diagnostics reported in total.
    public private(set) var diagnosticCount = 0

    // The parse state. `@exclusivity(unchecked)`: a stored property of a class otherwise costs a dynamic
    // exclusivity check (`swift_beginAccess`/`swift_endAccess`, about 100 instructions) on every access,
    // which dominated `parse` calls of a few bytes. Exclusivity still holds by construction: only this
    // class's methods touch these properties; no method is re-entered (callbacks run with `inCallback`
    // set, every entry point checks it before touching the parse state, and `absorbIfShort`'s budget is 0
    // while events are delivered); `deliver()` holds no access while user code runs. Hence `@safe` (strict
    // memory safety checking would otherwise ask for a marker at each of the ~120 uses).
    @safe @exclusivity(unchecked) private var context: ParseContext
    /// The format parser, once detected (read by the seek-by-time extension).
    @safe @exclusivity(unchecked) private(set) var format: (any FormatParser)?
    /// `format != nil`, kept apart: testing the optional existential copies it (about 200 instructions).
    @safe @exclusivity(unchecked) private var hasFormat = false
    @safe @exclusivity(unchecked) private var needed = 0
    @safe @exclusivity(unchecked) private var skipRemaining: Int64 = 0
    @safe @exclusivity(unchecked) private var failure: AudioStreamError?
    @safe @exclusivity(unchecked) private var inCallback = false
    @safe @exclusivity(unchecked) private var isFinished = false
    @safe @exclusivity(unchecked) private var seekPending = false
    /// The offset of the last `ParseStep.request`, until the next `.discontinuity` (which then starts there)
    /// or seek.
    @safe @exclusivity(unchecked) private var requestPending: Int64?
    /// The pending request was at or ahead of the position when it was made (reached by skipping).
    @safe @exclusivity(unchecked) private var requestIsForward = false
    /// `context.emittedPackets` when the position was last established (creation, a seek, a followed
    /// request, an honoured discontinuity): a `.discontinuity` is honoured only once packets were emitted
    /// since (the discontinuity rule, `ParseFlags.discontinuity`).
    @safe @exclusivity(unchecked) private var emittedAtLastJump: Int64 = 0
    /// A `.discontinuity` given with an empty chunk: it applies to the next bytes.
    @safe @exclusivity(unchecked) private var discontinuityPending = false
    /// The emission totals count every packet from the start of the stream (no seek, no honoured
    /// discontinuity since creation): `estimatedDuration` may then use the parsed frames.
    @safe @exclusivity(unchecked) private var totalsCountFromStart = true
    /// An honoured `.discontinuity` skipped bytes of the stream (a caller that read the head and then the
    /// tail, or lost data): end values found at `finish` are then estimates (`estimatedDuration`).
    @safe @exclusivity(unchecked) private var skippedBytes = false

    /// Creates a parser (`AudioFileStreamOpen`).
    ///
    /// - Parameters:
    ///   - fileTypeHint: the container, when the caller knows it and content cannot tell (raw ADTS,
    ///     AC-3). Content detection still runs first for self-identifying containers.
    ///   - options: limits and detection settings; see `ParserOptions`.
    public init(fileTypeHint: AudioFileType? = nil, options: ParserOptions = ParserOptions()) {
        self.fileTypeHint = fileTypeHint
        self.options = options
        self.context = ParseContext(limits: options.limits)
        self.context.fileTypeHint = fileTypeHint
    }

    // MARK: Feeding

    /// `parse(_:flags:)` for every kind of input (the public overloads turn theirs into a view).
    func parse(borrowed bytes: BorrowedBytes, flags: ParseFlags) throws(AudioStreamError) {
        // The bytes do not complete what the parser waits for: keeping them is exactly what the general
        // path would do (no step runs, nothing is queued). Bytes fed in small pieces cost one append each.
        if flags.isEmpty && context.absorbIfShort(bytes) { return }
        try parseChunk(bytes, flags: flags)
    }

    /// `parse` beyond the absorbing fast path, out of line so that path stays a few instructions long.
    @inline(never)
    private func parseChunk(_ bytes: BorrowedBytes, flags: ParseFlags) throws(AudioStreamError) {
        if bytes.isEmpty {
            // Harmless (Apple clients flush with a zero-byte parse): no event, nothing parsed, only the errors
            // every call gets (a terminal failure, a call from a callback). A discontinuity flag describes the
            // bytes that follow (a new response that starts with an empty read): it is kept for them.
            if let failure { throw failure }
            if inCallback { throw reentryError }
            if flags.contains(.discontinuity) {
                discontinuityPending = true
                context.absorbableBytes = 0
            }
            return
        }
        context.absorbableBytes = 0
        try checkUsable(finishing: false)
        var flags = flags
        if discontinuityPending {
            flags.insert(.discontinuity)
            discontinuityPending = false
        }
        if flags.contains(.discontinuity), !seekPending, let requested = requestPending {
            // The caller follows the parser's request: these bytes start at the requested offset. A forward
            // request the stream already reached by skipping: the bytes up to where the parser is are replayed,
            // so they are skipped again.
            let reached = context.window.position
            context.window.reset(at: requested)
            needed = 0
            skipRemaining = requestIsForward && reached > requested ? reached - requested + skipRemaining : 0
            requestPending = nil
            emittedAtLastJump = context.emittedPackets
        } else if flags.contains(.discontinuity) && !seekPending && context.emittedPackets > emittedAtLastJump {
            // Packets were produced since the position was last established: these bytes do not follow them.
            // (Before that, the flag has nothing to be discontinuous with and is ignored: the habit of
            // flagging every call until the first packet arrives loses nothing.)
            let resume = context.window.position + Int64(context.window.pendingRemaining)
            context.window.reset(at: resume)
            needed = 0
            skipRemaining = 0
            format?.discontinuity(&context)
            emittedAtLastJump = context.emittedPackets
            totalsCountFromStart = false
            skippedBytes = true
            context.loseSeekLandingCount()
        }
        seekPending = false
        context.window.beginChunk(bytes)
        do throws(AudioStreamError) {
            try run()
        } catch {
            // Deliver what was queued while the chunk is still readable, then let it go.
            let failure = fail(error)
            context.window.endChunk()
            throw failure
        }
        context.window.endChunk()
        let readable = context.window.readable
        if readable > options.limits.maxBufferedBytes {
            throw fail(context.error(.limitExceeded, Structure("parser"), "more than maxBufferedBytes held back"))
        }
        if skipRemaining == 0 && !seekPending && !isFinished && failure == nil && requestPending == nil {
            // `needed` never exceeds maxBufferedBytes (`run` throws first), so neither do the bytes kept.
            context.absorbableBytes = max(0, needed - readable)
        }
    }

    /// Parses the next bytes of the stream. See `parse(_:flags:)`. A zero-byte call is harmless: no
    /// callback, nothing parsed or flushed (`finish()` flushes).
    public func parse(_ bytes: [UInt8], flags: ParseFlags = []) throws(AudioStreamError) {
        try withBorrowedBytes(of: bytes) { (view) throws(AudioStreamError) in try parse(borrowed: view, flags: flags) }
    }

    /// Parses the next bytes of the stream. See `parse(_:flags:)`.
    public func parse(_ bytes: ArraySlice<UInt8>, flags: ParseFlags = []) throws(AudioStreamError) {
        try withBorrowedBytes(of: bytes) { (view) throws(AudioStreamError) in try parse(borrowed: view, flags: flags) }
    }

    /// Parses the next bytes of the stream from any sequence of bytes: Foundation's `Data`, a
    /// `ContiguousArray<UInt8>`, an `UnsafeBufferPointer<UInt8>`, swift-nio's `ByteBuffer` through its
    /// `readableBytesView`, a `String.UTF8View` …, without the library depending on their modules.
    /// See `parse(_:flags:)`.
    ///
    /// Bytes held in contiguous storage (`withContiguousStorageIfAvailable` gives it: `Data`,
    /// `ByteBufferView`, the arrays and buffer pointers) are read in place, as `[UInt8]` is, and
    /// packet batches point into them; any other sequence is copied once into a temporary array. The
    /// bytes are not referenced after the call returns. `[UInt8]`, `ArraySlice<UInt8>` and
    /// `UnsafeRawBufferPointer` have their own overloads, which the compiler prefers.
    ///
    /// - Parameters:
    ///   - bytes: the next bytes.
    ///   - flags: `.discontinuity` when the bytes do not follow the previous ones.
    /// - Throws: `AudioStreamError`; afterwards the parser is terminal.
    public func parse<Bytes: Sequence<UInt8>>(_ bytes: Bytes, flags: ParseFlags = []) throws(AudioStreamError) {
        try withBorrowedBytes(of: bytes) { (view) throws(AudioStreamError) in try parse(borrowed: view, flags: flags) }
    }

    /// Ends the stream (`AudioFileStreamParseBytes(stream, 0, NULL, 0)`): delivers the last packets,
    /// announces exact end-of-stream values (packet and byte counts, trailing tags) and reports a stream
    /// that ended too early.
    ///
    /// A zero-byte `parse` does not flush; this does. What only the end completes: the last frame of MPEG
    /// audio and ADTS (a frame is confirmed by the sync that follows it) and of FLAC (a frame ends where
    /// the next starts); every other format's packets were delivered as their bytes arrived.
    ///
    /// - Throws: `AudioStreamError` when the stream ended where it cannot end (inside the container
    ///   header) or its type was never recognised (`typ?`).
    public func finish() throws(AudioStreamError) {
        context.absorbableBytes = 0
        try checkUsable(finishing: true)
        // A flag left by a zero-byte flush (`AudioFileStreamParseBytes(stream, 0, NULL, Discontinuity)`)
        // has no bytes to apply to.
        discontinuityPending = false
        context.window.isFinal = true
        // Detect, or step, once more with `isFinal` set even when fewer bytes than last asked for are
        // readable: detection decides on exactly the bytes there are, however they were chunked, and a
        // parser can accept a last unit whose end is the end of the stream.
        if format == nil || context.window.readable > 0 { needed = 0 }
        do throws(AudioStreamError) {
            try run()
            if skipRemaining > 0 {
                context.diagnose(
                    .truncated, driver, "stream ends \(skipRemaining) bytes before the end of a skipped chunk")
                skipRemaining = 0
            }
            if format == nil { throw streamTooShortError }
            try format?.finish(&context)
            placeEstimatedLanding()
            deliver()
        } catch {
            throw fail(error)
        }
        isFinished = true
    }

    /// At the end of a stream fed from an estimated seek landing to its end: a declared packet count (an
    /// MP3 Xing/VBRI frame count) says which packet the landing was.
    private func placeEstimatedLanding() {
        guard context.indicesEstimated, let total = format?.packetMap.packetCount,
            let landing = context.placeSeekLanding(totalPackets: total), let trueIndex = landing.trueIndex
        else { return }
        context.diagnose(
            .positionCorrected, driver,
            "the stream has \(total) packets: the first packet after the estimated seek was packet \(trueIndex)"
                + " (labelled \(landing.labelledIndex))")
    }

    private func checkUsable(finishing: Bool) throws(AudioStreamError) {
        if let failure { throw failure }
        if inCallback { throw reentryError }
        if isFinished {
            throw context.error(
                .illegalOperation, Structure("parser"), "the stream was finished; seek before parsing again")
        }
    }

    /// `parse`, `finish` or `seek` from inside a callback.
    private var reentryError: AudioStreamError {
        context.error(
            .illegalOperation, Structure("parser"), "parse, finish and seek cannot be called from inside a callback")
    }

    private func fail(_ error: AudioStreamError) -> AudioStreamError {
        context.absorbableBytes = 0
        deliver()
        failure = error
        return error
    }

    /// The container for messages of the driver itself (`"parser"` before one is recognised).
    private var driver: Structure { Structure(context.fileType.map { $0.description } ?? "parser") }

    /// The step loop: detect, then step the format parser until it needs more bytes.
    private func run() throws(AudioStreamError) {
        while true {
            if skipRemaining > 0 {
                let n = min(skipRemaining, Int64(context.window.readable))
                context.window.consume(Int(n))
                skipRemaining -= n
                if skipRemaining > 0 { break }
            }
            if context.window.readable < needed { break }
            if !hasFormat {
                guard try detect() else { break }
            }
            // Safe to force unwrap: detect() returned true, so a format parser is set.
            let step = try format!.step(&context)
            switch step {
            case .continue:
                needed = 0
            case .needMoreData(let n):
                if n <= context.window.readable {
                    throw context.error(.unspecifiedError, driver, "parser asked for bytes it already has")
                }
                if n > options.limits.maxBufferedBytes {
                    throw context.error(.limitExceeded, driver, "a structure needs more than maxBufferedBytes")
                }
                needed = n
                deliver()
                if context.window.isFinal { return }
            case .skip(let n):
                needed = 0
                skipRemaining = max(0, n)
            case .request(let offset):
                needed = 0
                requestPending = offset
                let position = context.window.position
                requestIsForward = offset >= position
                if offset >= position {
                    skipRemaining = offset - position
                } else {
                    // Behind us: drop what is readable and wait for the caller to feed from `offset`.
                    context.window.consume(context.window.readable)
                    deliver()
                    return
                }
            }
            if context.shouldDeliver { deliver() }
        }
        deliver()
    }

    /// Runs format detection; true when a format parser was chosen.
    private func detect() throws(AudioStreamError) -> Bool {
        switch FormatDetector.detect(context.window, hint: fileTypeHint, options: options) {
        case .found(let type, let parser):
            format = parser
            hasFormat = true
            context.fileType = type
            context.announce(.fileFormat(type))
            return true
        case .prefix(let parser):
            format = parser
            hasFormat = true
            return true
        case .needMoreData(let n):
            if context.window.isFinal { throw streamTooShortError }
            needed = n
            return false
        case .unsupported:
            throw context.error(.unsupportedFileType, Structure("parser"), "no supported container recognised")
        }
    }

    /// The stream ended before its type could be recognised (the same error whether or not an empty chunk
    /// was parsed before `finish`).
    private var streamTooShortError: AudioStreamError {
        context.error(
            .unsupportedFileType,
            context.window.position == 0 && context.window.readable == 0
                ? Structure("parser").message("empty stream")
                : Structure("parser").message("stream too short to identify its type"))
    }

    /// Delivers queued events to the callbacks, in order.
    private func deliver() {
        // The common case when bytes arrive in small pieces: nothing to deliver, nothing to recycle.
        guard context.hasQueuedEvents else { return }
        var events = context.takeEvents()
        if events.isEmpty {
            context.recycle(&events)
            return
        }
        inCallback = true
        do {
            // Local references keep the storage alive and avoid holding an access to `self` while user
            // code runs.
            let pending = context.window.pending
            let chunk = context.window.chunkBytes
            let scratch = context.scratch
            let descriptions = context.descriptions
            var cachedThrough = 0
            for (index, event) in events.enumerated() {
                switch event {
                case .property(let value):
                    if index >= cachedThrough { cachedThrough = cacheAhead(events, from: index) }
                    properties.apply(value)
                    propertyListener?(self, value.id)
                case .diagnostic(let diagnostic):
                    diagnosticCount += 1
                    if diagnostics.count < 1000 { diagnostics.append(diagnostic) }
                    diagnosticHandler?(diagnostic)
                case .packets(let run):
                    guard let handler = packetsHandler else { continue }
                    let descs: PacketDescriptions
                    switch run.kind {
                    case .constant(let size): descs = PacketDescriptions(constantSize: size, count: run.count)
                    case .explicit:
                        descs = PacketDescriptions(
                            descriptions[run.descriptionStart..<(run.descriptionStart + run.count)])
                    }
                    func hand(_ base: BorrowedBytes, _ start: Int) {
                        handler(
                            PacketBatch(
                                bytes: base.extracting(start..<(start + run.byteCount)), descriptions: descs,
                                firstPacketIndex: run.firstPacketIndex, fileOffset: run.fileOffset,
                                isIndexEstimated: run.indexEstimated))
                    }
                    switch run.source {
                    case .pending(let i): withBorrowedBytes(of: pending) { hand($0, i) }
                    case .chunk(let i): hand(chunk, i)
                    case .scratch(let i): withBorrowedBytes(of: scratch) { hand($0, i) }
                    }
                }
            }
        }
        inCallback = false
        context.recycle(&events)
    }

    /// Caches the values of the run of property announcements that starts at `start` before the first
    /// listener call about them, so that a listener reads every value of a header in its first callback
    /// (StreamingKit reads the magic cookie in its `dataFormat` callback, AudioStreaming the packet size
    /// bounds). The run ends at a packet batch, at a property announced a second time (its callback must
    /// read the earlier value) and before `readyToProducePackets` (set by its own callback: it says the
    /// header was delivered). Diagnostics do not end it. Returns the index after the run.
    private func cacheAhead(_ events: [ParseContext.Event], from start: Int) -> Int {
        var seen: UInt32 = 0  // one bit per `announcementOrder`
        var index = start
        scan: while index < events.count {
            switch events[index] {
            case .property(let value):
                let bit: UInt32 = 1 << UInt32(value.announcementOrder)
                if value.id == .readyToProducePackets || seen & bit != 0 { break scan }
                seen |= bit
                properties.apply(value)
            case .diagnostic:
                break
            case .packets:
                break scan
            }
            index += 1
        }
        return max(index, start + 1)
    }

    // MARK: Seeking

    /// Prepares to continue at packet `packet` (`AudioFileStreamSeek`).
    ///
    /// Feed the stream from `target.absoluteOffset` (that is `dataOffset + target.byteOffset`) with
    /// `.discontinuity`; packets then resume at `packet`. Seeking is possible once
    /// `readyToProducePackets` was announced, also after `finish()`.
    ///
    /// When the offset is an estimate but the packet's first frame is exact (`packetToFrame`: constant
    /// frames per packet, fixed-blocksize FLAC), the format aims the landing at that frame as after
    /// `seek(toFrame:)` (FLAC and Ogg FLAC skip the packets before it when the landing is early). No byte
    /// requests are made for it (docs/streaming.md, "Refined packet seeks").
    ///
    /// - Returns: the byte offset relative to `dataOffset` and whether it is an estimate.
    /// - Throws: `invalidPacketOffset` (`pck?`) for a negative packet or one past the end;
    ///   `dataUnavailable` (`more`) before the audio data was reached.
    public func seek(toPacket packet: Int64) throws(AudioStreamError) -> SeekTarget {
        let target = try seekPacket(packet)
        if target.isEstimated, let frame = packetToFrame(packet), !frame.isEstimated {
            aimSeekLanding(atFrame: frame.value)
        }
        return target
    }

    /// `seek(toPacket:)` without the refinement (`seek(toFrame:)` refines towards its own frame).
    func seekPacket(_ packet: Int64) throws(AudioStreamError) -> SeekTarget {
        context.absorbableBytes = 0
        if let failure { throw failure }
        if inCallback { throw reentryError }
        guard format != nil, let dataOffset = context.announced.dataOffset else {
            throw context.error(.dataUnavailable, driver, "cannot seek before the audio data is reached")
        }
        // Safe to force unwrap: checked just above.
        let map = format!.packetMap
        if packet < 0 || (map.packetCount.map { packet > $0 } ?? false) {
            throw context.error(.invalidPacketOffset, driver, "seek target outside the stream's packets")
        }
        guard let byte = map.packetToByte(packet) else {
            throw context.error(.dataUnavailable, driver, "packet position not known yet")
        }
        guard format!.prepareForSeek(toPacket: packet, byteOffset: byte.value) else {
            throw context.error(.dataUnavailable, driver, "cannot seek here yet")
        }
        let absolute = dataOffset + byte.value
        context.window.reset(at: absolute)
        context.nextPacketIndex = packet
        context.beginSeekLanding(at: packet, isEstimated: byte.isEstimated)
        context.resetEmissionTotals()
        totalsCountFromStart = false
        emittedAtLastJump = 0
        discontinuityPending = false
        needed = 0
        skipRemaining = 0
        requestPending = nil
        isFinished = false
        seekPending = true
        return SeekTarget(byteOffset: byte.value, isEstimated: byte.isEstimated, absoluteOffset: absolute)
    }

    /// After an estimated `seek(toFrame:)`: tells the format the frame its landing aims at
    /// (`FormatParser.aimSeekLanding(atFrame:)`).
    func aimSeekLanding(atFrame frame: Int64) { format?.aimSeekLanding(atFrame: frame) }

    /// After an estimated `seek(toFrame:)`: lets the format refine the landing towards `frame` with byte
    /// requests (`FormatParser.refineSeek(toFrame:)`) when the caller allows them. Returns the seek's new
    /// target (the search's first offset), or nil when the estimated landing stands.
    func refineSeek(toFrame frame: Int64) -> SeekTarget? {
        guard options.allowsByteRangeRequests, hasFormat, let dataOffset = context.announced.dataOffset,
            let start = format?.refineSeek(toFrame: frame)
        else { return nil }
        context.window.reset(at: start)
        return SeekTarget(byteOffset: start - dataOffset, isEstimated: true, absoluteOffset: start)
    }

    /// The checks every seek makes first: a terminal failure, a call from inside a callback.
    func checkSeekCall() throws(AudioStreamError) {
        if let failure { throw failure }
        if inCallback { throw reentryError }
    }

    /// An error of a seek, at the current position.
    func seekError(_ code: AudioStreamError.Code, _ text: String) -> AudioStreamError {
        context.error(code, driver, text)
    }

    // MARK: Translations

    /// The first frame of `packet` (`kAudioFileStreamProperty_PacketToFrame`), or `nil` when unknown.
    public func packetToFrame(_ packet: Int64) -> Translation<Int64>? { format?.packetMap.packetToFrame(packet) }
    /// The packet holding `frame` and the frame's offset in it (`kAudioFileStreamProperty_FrameToPacket`).
    public func frameToPacket(_ frame: Int64) -> Translation<PacketPosition>? { format?.packetMap.frameToPacket(frame) }
    /// The byte offset of `packet` relative to `dataOffset` (`kAudioFileStreamProperty_PacketToByte`).
    public func packetToByte(_ packet: Int64) -> Translation<Int64>? { format?.packetMap.packetToByte(packet) }
    /// The packet holding data byte `byte` (relative to `dataOffset`) and the byte's offset in it
    /// (`kAudioFileStreamProperty_ByteToPacket`).
    public func byteToPacket(_ byte: Int64) -> Translation<PacketPosition>? { format?.packetMap.byteToPacket(byte) }

    // MARK: Properties

    /// The value of a property (`AudioFileStreamGetProperty`).
    ///
    /// - Throws: `unsupportedProperty` (`pty?`) for translation properties (use the translation
    ///   methods) and IDs this parser does not know; `dataUnavailable` (`more`) when the value is not
    ///   known yet and the audio data has not been reached; `valueUnknown` (`unk?`) when the stream
    ///   does not carry it.
    public func value(of id: AudioStreamPropertyID) throws(AudioStreamError) -> AudioStreamPropertyValue {
        let stored: [AudioStreamPropertyID] = [
            .readyToProducePackets, .fileFormat, .dataFormat, .formatList, .magicCookieData, .audioDataByteCount,
            .audioDataPacketCount, .maximumPacketSize, .dataOffset, .channelLayout, .restrictsRandomAccess,
            .packetTableInfo, .packetSizeUpperBound, .averageBytesPerPacket, .bitRate, .infoDictionary,
            .requestedByteOffset,
        ]
        guard stored.contains(id) else {
            throw context.error(
                .unsupportedProperty, Structure("parser"),
                "property \(id) is not a stored property; use the translation methods")
        }
        if let value = properties.value(of: id) { return value }
        throw context.error(
            properties.isReadyToProducePackets ? .valueUnknown : .dataUnavailable, Structure("parser"),
            "property \(id) is not known")
    }

    /// `redy`: the audio data was reached.
    public var isReadyToProducePackets: Bool { properties.isReadyToProducePackets }
    /// `ffmt`
    public var fileFormat: AudioFileType? { properties.fileFormat }
    /// `dfmt`
    public var dataFormat: StreamDescription? { properties.dataFormat }
    /// `flst`
    public var formatList: [FormatListItem]? { properties.formatList }
    /// `mgic`
    public var magicCookie: [UInt8]? { properties.magicCookie }
    /// `cmap`
    public var channelLayout: ChannelLayout? { properties.channelLayout }
    /// `bcnt`
    public var audioDataByteCount: UInt64? { properties.audioDataByteCount }
    /// `pcnt`
    public var audioDataPacketCount: UInt64? { properties.audioDataPacketCount }
    /// `psze`
    public var maximumPacketSize: UInt32? { properties.maximumPacketSize }
    /// `pkub`
    public var packetSizeUpperBound: UInt32? { properties.packetSizeUpperBound }
    /// `abpp`
    public var averageBytesPerPacket: Double? { properties.averageBytesPerPacket }
    /// `brat`
    public var bitRate: UInt32? { properties.bitRate }
    /// `doff`
    public var dataOffset: Int64? { properties.dataOffset }
    /// `pnfo`
    public var packetTableInfo: PacketTableInfo? { properties.packetTableInfo }
    /// `info`: info dictionary, raw tags, artwork, chapters.
    public var metadata: AudioMetadata? { properties.metadata }
    /// `rrap`
    public var restrictsRandomAccess: Bool? { properties.restrictsRandomAccess }
    /// `rqof` (private to this library): the absolute offset to feed from next, when
    /// `ParserOptions.allowsByteRangeRequests` is set and the parser needs bytes elsewhere (an MP4 `moov`
    /// after the media data, then the media data again; a CAF `pakt` after the audio data, then the
    /// audio). Feed from there with `.discontinuity`; an offset ahead of what was fed may also be reached
    /// by feeding on without the flag.
    public var requestedByteOffset: Int64? { properties.requestedByteOffset }
    /// The offset of a byte request the caller has not yet followed (`requestedByteOffset` stays cached
    /// after it was followed; this is `nil` then). Used by the async adapter.
    var pendingByteRequest: Int64? { requestPending }
    /// The tracks of a multi-track container (MP4), known once its header (`moov`) was parsed; empty for
    /// single-stream containers. Choose another audio track with `ParserOptions.trackID`.
    public var tracks: [TrackInfo] { format?.tracks ?? [] }
    /// The links of a chained stream met so far (Ogg: several complete streams one after the other, each
    /// with its own format, tags and duration; one link for an unchained stream), in stream order. A
    /// link's frame count and trimming are known once it ended (the next link began, or `finish()`).
    /// Empty for formats without links. See `StreamLink`.
    public var links: [StreamLink] { format?.links ?? [] }

    /// The last seek's landing: the index its first packet was labelled with and, after an estimated seek,
    /// its true index once the stream told it (`nil` before any seek). See `PacketBatch.isIndexEstimated`.
    public var seekLanding: SeekLanding? { context.seekLanding }

    /// The stream's duration by the library's one rule (``StreamDuration``: gapless info, else packet
    /// count × frames per packet, else the frames parsed when the whole stream was, else byte count and bit
    /// rate), with whether it is exact; `nil` when nothing tells it yet. Exact only after `finish()`, and
    /// only when no `.discontinuity` skipped bytes of the stream: after a jump (a scanner that reads the
    /// header and the tail, such as `audioinspect --quick`) the values found at the end describe a stream
    /// that was not read whole, so they are estimates.
    public var estimatedDuration: StreamDuration? {
        let isComplete = isFinished && failure == nil && !skippedBytes
        if let chain = StreamDuration.sum(of: links, isComplete: isComplete) { return chain }
        return StreamDuration.estimate(
            packetTableInfo: properties.packetTableInfo, packetCount: properties.audioDataPacketCount,
            byteCount: properties.audioDataByteCount, bitRate: properties.bitRate, format: properties.dataFormat,
            parsedFrames: totalsCountFromStart ? context.emittedFrames : nil, isComplete: isComplete)
    }

    /// The average bit rate, in bits per second: `audioDataByteCount × 8 / duration` once the stream was
    /// parsed to its end and both are exact (then not estimated), else the bit rate the stream announced
    /// (`bitRate`, `brat`: a header's nominal or running value; estimated). `nil` when neither is known.
    public var estimatedBitRate: Translation<UInt32>? {
        if let duration = estimatedDuration, !duration.isEstimated, let seconds = duration.seconds, seconds > 0,
            let bytes = properties.audioDataByteCount
        {
            let bits = (Double(bytes) * 8 / seconds).rounded()
            if bits < Double(UInt32.max) { return Translation(value: UInt32(bits), isEstimated: false) }
        }
        return properties.bitRate.map { Translation(value: $0, isEstimated: true) }
    }

    /// Packets emitted since creation or the last seek.
    public var parsedPacketCount: Int64 { context.emittedPackets }
    /// Packet bytes emitted since creation or the last seek.
    public var parsedByteCount: Int64 { context.emittedBytes }
    /// Frames in the packets emitted since creation or the last seek.
    public var parsedFrameCount: Int64 { context.emittedFrames }
    /// True after `finish()` completed.
    public var isComplete: Bool { isFinished }
}

@available(*, unavailable)
extension AudioStreamParser: Sendable {}
