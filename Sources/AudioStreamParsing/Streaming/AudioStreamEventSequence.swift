/// Parses an asynchronous sequence of byte chunks (a network body, a file read loop) and yields the
/// parser's events as an `AsyncSequence` of ``AudioStreamEvent``.
///
/// ```swift
/// let events = AudioStreamEventSequence(chunks)       // chunks: some AsyncSequence of [UInt8]
/// for try await event in events {
///     switch event {
///     case .property(let value): …                    // dataFormat, magicCookie, readyToProducePackets …
///     case .packets(let batch): player.enqueue(batch)  // owned bytes + descriptions
///     case .diagnostic(let d): log(d)
///     case .streamTitle(let m, let packet): showTitle(m.streamTitle, from: packet)
///     case .endOfStream: break
///     }
/// }
/// ```
///
/// - **Back-pressure**: the consumer pulls. The next chunk of the source is requested only when
///   every event of the previous chunk was consumed, so at most one chunk's events are queued and a
///   slow consumer slows the download (an `AsyncStream` source with a bounded buffering policy, or a
///   pull-based source, carries that back to the network).
/// - **Cancellation**: when the consuming task is cancelled, the iterator stops pulling from the
///   source and throws `CancellationError` (events already parsed from the last chunk are still
///   yielded first). A source that ends because its task was cancelled is not mistaken for the end
///   of the stream: `finish()` is not called.
/// - **Errors**: an `AudioStreamError` from the parser, or the source's own error, is thrown by
///   `next()` after the events that preceded it; afterwards the iterator returns `nil`.
/// - **ICY**: with `icyMetaInterval` (the `icy-metaint` response header, see ``ICYHeaders``) the
///   chunks are an ICY body: metadata blocks are removed before the parser sees the bytes (offsets
///   of packets are in the audio stream without them) and each title change is reported as
///   `.streamTitle(_, atPacket:)` between the packets before and after it.
/// - **Seek**: ``Iterator/seek(toPacket:from:)`` seeks the parser and continues with a new source
///   that starts at the returned offset (for example an HTTP `Range` request).
/// - **Range source**: with ``Iterator/rangeSource`` set (offset → a source from that offset), the
///   iterator follows the parser's byte requests by itself (`allowsByteRangeRequests`: an MP4 `moov`
///   after its media data, a CAF `pakt` after its audio) and ``Iterator/seek(toTime:)`` and its
///   siblings open the range they need. Cancellation is checked before a range is opened: a task
///   cancelled at a request ends without opening it.
///
/// The parser is created by each iterator and confined to it (it is not `Sendable`); the sequence
/// itself is `Sendable` when the source is.
public struct AudioStreamEventSequence<Source: AsyncSequence>: AsyncSequence
where Source.Element: Collection, Source.Element.Element == UInt8 {
    public typealias Element = AudioStreamEvent
    public typealias Failure = any Error

    /// The byte chunks.
    public let source: Source
    /// The container, when content cannot tell (raw ADTS, AC-3); see ``AudioStreamParser/init(fileTypeHint:options:)``.
    public let fileTypeHint: AudioFileType?
    /// Parser limits and detection settings.
    public let options: ParserOptions
    /// The `icy-metaint` interval when the source is an ICY body with interleaved metadata, else `nil`.
    public let icyMetaInterval: Int?

    /// Creates the sequence; nothing is read until iteration starts.
    public init(
        _ source: Source, fileTypeHint: AudioFileType? = nil, options: ParserOptions = ParserOptions(),
        icyMetaInterval: Int? = nil
    ) {
        self.source = source
        self.fileTypeHint = fileTypeHint
        self.options = options
        self.icyMetaInterval = icyMetaInterval
    }

    /// Creates an iterator with its own parser.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            source: source.makeAsyncIterator(),
            session: StreamingParserSession(
                fileTypeHint: fileTypeHint, options: options, icyMetaInterval: icyMetaInterval))
    }

    /// Pulls chunks from the source, one at a time, only when the previous chunk's events were consumed.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = AudioStreamEvent
        public typealias Failure = any Error

        private var source: Source.AsyncIterator
        private let session: StreamingParserSession
        /// Source chunks pulled so far (including empty ones), since creation or the last seek.
        public private(set) var chunksPulled = 0
        /// Opens the stream from an absolute offset (an HTTP `Range: bytes=<offset>-` request, a file read
        /// from there). When set, the iterator follows the parser's byte requests by itself: when it reports
        /// `.property(.requestedByteOffset(offset))` for a pending request (``pendingByteRequest``), it
        /// has already followed it with `rangeSource(offset)`, as ``followByteRequest(from:)`` does (a
        /// task cancelled by then ends with `CancellationError` instead of opening the range); and ``seek(toTime:)``, ``seek(toFrame:)`` and ``seek(toPacket:)`` continue
        /// from `rangeSource(target.absoluteOffset)`. `nil` (the default): the caller follows requests
        /// and passes a source to each seek.
        public var rangeSource: ((Int64) throws -> Source)?

        init(source: Source.AsyncIterator, session: StreamingParserSession) {
            self.source = source
            self.session = session
        }

        /// The next event; `nil` after `.endOfStream` or after an error was thrown.
        public mutating func next(
            isolation actor: isolated (any Actor)? = #isolation
        ) async throws -> AudioStreamEvent? {
            while true {
                if let event = session.dequeue() {
                    if let rangeSource, case .property(.requestedByteOffset(let offset)) = event,
                        session.pendingByteRequest == offset
                    {
                        // Followed when reported, as a caller would (`followByteRequest(from:)`).
                        do {
                            try Task.checkCancellation()
                            try followByteRequest(from: rangeSource)
                        } catch {
                            session.fail(error)
                        }
                    }
                    return event
                }
                if let failure = session.takeFailure() { throw failure }
                if session.isDone { return nil }
                do {
                    try Task.checkCancellation()
                    let chunk = try await source.next(isolation: actor)
                    if let chunk {
                        chunksPulled += 1
                        session.feed(chunk)
                    } else {
                        // A source that stops because the task was cancelled did not reach the end.
                        try Task.checkCancellation()
                        session.finish()
                    }
                } catch {
                    session.fail(error)
                }
            }
        }

        /// The next event (see `next(isolation:)`).
        public mutating func next() async throws -> AudioStreamEvent? {
            try await next(isolation: nil)
        }

        /// Seeks to `packet` and continues with a new source.
        ///
        /// Calls ``AudioStreamParser/seek(toPacket:)``, drops the events not yet consumed (they belong
        /// to the old position), then reads `makeSource(target)`, which must deliver the stream from
        /// `target.absoluteOffset` on (an HTTP `Range: bytes=<absoluteOffset>-` request, a file read
        /// from there). The first packet reported afterwards is `packet`. Works after `.endOfStream`
        /// too (the parser can seek after `finish`).
        ///
        /// - Throws: the parser's `AudioStreamError` (`more` before the audio data is reached, `pck?`
        ///   for a packet outside the stream, or the error that ended the stream).
        @discardableResult
        public mutating func seek(
            toPacket packet: Int64, from makeSource: (SeekTarget) throws -> Source
        ) throws -> SeekTarget {
            let target = try session.seek(toPacket: packet)
            source = try makeSource(target).makeAsyncIterator()
            chunksPulled = 0
            return target
        }

        /// Seeks to presentation frame `frame` and continues with a new source.
        ///
        /// Calls ``AudioStreamParser/seek(toFrame:)`` (priming frames and the decoder's pre-roll
        /// accounted for), drops the events not yet consumed, then reads `makeSource(result.target)`,
        /// which must deliver the stream from `result.target.absoluteOffset` on. The first packet reported
        /// afterwards is `result.startPacket`; decode from it and drop `result.framesToDiscard` frames.
        ///
        /// - Throws: the parser's `AudioStreamError` (as `seek(toFrame:)`), or `makeSource`'s error.
        @discardableResult
        public mutating func seek(
            toFrame frame: Int64, from makeSource: (SeekTarget) throws -> Source
        ) throws -> FrameSeekTarget {
            let result = try session.seek(toFrame: frame)
            source = try makeSource(result.target).makeAsyncIterator()
            chunksPulled = 0
            return result
        }

        /// Seeks to `seconds` on the presentation timeline and continues with a new source: ``seek(toFrame:from:)``
        /// at `seconds × sampleRate`, rounded to the nearest frame.
        ///
        /// - Throws: `pck?` for a time that is not in the stream, `more` before the sample rate is known,
        ///   the errors of ``seek(toFrame:from:)``.
        @discardableResult
        public mutating func seek(
            toTime seconds: Double, from makeSource: (SeekTarget) throws -> Source
        ) throws -> FrameSeekTarget {
            let frame = try session.parser.presentationFrame(atTime: seconds)
            return try seek(toFrame: frame, from: makeSource)
        }

        /// Seeks to `packet` and continues from ``rangeSource`` at the target (see
        /// ``seek(toPacket:from:)``).
        ///
        /// - Throws: `AudioStreamError` `illegalOperation` (`nope`) when ``rangeSource`` is `nil`; the
        ///   errors of ``seek(toPacket:from:)``.
        @discardableResult
        public mutating func seek(toPacket packet: Int64) throws -> SeekTarget {
            let open = try requireRangeSource()
            return try seek(toPacket: packet) { try open($0.absoluteOffset) }
        }

        /// Seeks to presentation frame `frame` and continues from ``rangeSource`` at the target (see
        /// ``seek(toFrame:from:)``).
        ///
        /// - Throws: `AudioStreamError` `illegalOperation` (`nope`) when ``rangeSource`` is `nil`; the
        ///   errors of ``seek(toFrame:from:)``.
        @discardableResult
        public mutating func seek(toFrame frame: Int64) throws -> FrameSeekTarget {
            let open = try requireRangeSource()
            return try seek(toFrame: frame) { try open($0.absoluteOffset) }
        }

        /// Seeks to `seconds` on the presentation timeline and continues from ``rangeSource`` at the
        /// target (see ``seek(toTime:from:)``).
        ///
        /// - Throws: `AudioStreamError` `illegalOperation` (`nope`) when ``rangeSource`` is `nil`; the
        ///   errors of ``seek(toTime:from:)``.
        @discardableResult
        public mutating func seek(toTime seconds: Double) throws -> FrameSeekTarget {
            let open = try requireRangeSource()
            return try seek(toTime: seconds) { try open($0.absoluteOffset) }
        }

        private func requireRangeSource() throws(AudioStreamError) -> (Int64) throws -> Source {
            guard let rangeSource else {
                throw AudioStreamError(
                    .illegalOperation, at: 0, format: session.parser.fileFormat,
                    "seek without a source: set rangeSource or pass one")
            }
            return rangeSource
        }

        /// The absolute offset the parser asked to be fed from and that was not followed yet
        /// (``ParserOptions/allowsByteRangeRequests``; an MP4 `moov` after its `mdat`, then the media data
        /// again; a CAF `pakt` after its `data` chunk, then the `data` chunk). It is first reported as `.property(.requestedByteOffset(offset))`.
        public var pendingByteRequest: Int64? { session.pendingByteRequest }

        /// Follows the parser's byte request with a new source.
        ///
        /// When the parser asked for the bytes from an offset (``pendingByteRequest``, reported as
        /// `.property(.requestedByteOffset(offset))`), reads `makeSource(offset)` from now on; it must
        /// deliver the stream from `offset` on (an HTTP `Range: bytes=<offset>-` request). The events
        /// already queued stay valid and are reported first. Call it when that property event arrives;
        /// without a request it does nothing and returns `nil`. (A request ahead of the current position
        /// may also be reached by reading on from the old source, at the cost of the bytes in between.)
        ///
        /// - Returns: the offset the new source must start at, or `nil` when no request was pending.
        @discardableResult
        public mutating func followByteRequest(from makeSource: (Int64) throws -> Source) rethrows -> Int64? {
            guard let offset = session.pendingByteRequest else { return nil }
            source = try makeSource(offset).makeAsyncIterator()
            _ = session.followByteRequest()
            chunksPulled = 0
            return offset
        }

        /// The parser, for its cached properties (`dataFormat`, `magicCookie` …) and translations
        /// (`packetToFrame` …). Do not call `parse`, `finish` or `seek` on it directly.
        public var parser: AudioStreamParser { session.parser }
    }
}

@available(*, unavailable)
extension AudioStreamEventSequence.Iterator: Sendable {}

extension AudioStreamEventSequence: Sendable where Source: Sendable {}

extension AsyncSequence where Element: Collection, Element.Element == UInt8 {
    /// Parses these byte chunks as an audio stream; see ``AudioStreamEventSequence``.
    public func audioStreamEvents(
        fileTypeHint: AudioFileType? = nil, options: ParserOptions = ParserOptions(), icyMetaInterval: Int? = nil
    ) -> AudioStreamEventSequence<Self> {
        AudioStreamEventSequence(self, fileTypeHint: fileTypeHint, options: options, icyMetaInterval: icyMetaInterval)
    }
}
