import AudioStreamParsing

/// The caller's transport: fetches a URL (or path), or only `request.byteRange` of it, and returns the
/// bytes. The HLS product does no HTTP itself: an app passes URLSession, AsyncHTTPClient, a file reader.
/// Throwing any error (an HTTP status that is not 2xx, a connection error) counts as one failed attempt
/// (``HLSSessionOptions/maxAttempts``); `CancellationError` ends the sequence.
public protocol HLSFetcher: Sendable {
    /// The resource's bytes (at most `request.maxBytes`; more fails the attempt).
    func fetch(_ request: HLSResourceRequest) async throws -> [UInt8]
}

/// An HLS presentation as an `AsyncSequence` of ``HLSEvent``s: the same parser events
/// ``AudioStreamEventSequence`` yields for a byte stream (wrapped in ``HLSEvent/stream(_:)``), plus the
/// segment boundaries, discontinuities and the variant chosen.
///
/// ```swift
/// for try await event in HLSEventSequence(url: "https://example.com/radio.m3u8", fetcher: myFetcher) {
///     if case .stream(.packets(let batch)) = event { decoder.enqueue(batch) }
/// }
/// ```
///
/// Live playlists are reloaded with `Task.sleep` on the continuous clock; cancelling the task ends the
/// sequence with `CancellationError`. Errors are ``HLSError``s (the fetcher's errors after the last attempt
/// become ``HLSError/fetchFailed(url:attempts:reason:)``).
public struct HLSEventSequence<Fetcher: HLSFetcher>: AsyncSequence, Sendable {
    public typealias Element = HLSEvent
    public typealias Failure = any Error

    /// The playlist URL.
    public let url: String
    /// The transport.
    public let fetcher: Fetcher
    /// Session options (variant choice, retries, stall bound, limits).
    public let options: HLSSessionOptions
    /// The parsers' options.
    public let parserOptions: ParserOptions

    /// A sequence for the playlist at `url`.
    public init(
        url: String, fetcher: Fetcher, options: HLSSessionOptions = HLSSessionOptions(),
        parserOptions: ParserOptions = ParserOptions()
    ) {
        self.url = url
        self.fetcher = fetcher
        self.options = options
        self.parserOptions = parserOptions
    }

    /// A new iterator: its own session and parsers.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            session: HLSSession(url: url, options: options), driver: HLSParserDriver(options: parserOptions),
            fetcher: fetcher)
    }

    /// Plays the presentation; not `Sendable` (the parsers live in the consuming task).
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = HLSEvent
        public typealias Failure = any Error

        /// The session (playlist, selection, counts).
        public let session: HLSSession
        /// The driver (the current parser).
        public let driver: HLSParserDriver
        private let fetcher: Fetcher
        private let clock = ContinuousClock()
        private let origin: ContinuousClock.Instant
        private var done = false
        /// The driver's events not yet returned, last first.
        private var pending: [HLSEvent] = []
        private var announcedSelection = false

        init(session: HLSSession, driver: HLSParserDriver, fetcher: Fetcher) {
            self.session = session
            self.driver = driver
            self.fetcher = fetcher
            origin = clock.now
        }

        private var now: Double {
            let elapsed = clock.now - origin
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }

        /// The next event.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> HLSEvent? {
            while true {
                if let event = pending.popLast() { return event }
                pending = driver.takeEvents().reversed()
                if let event = pending.popLast() { return event }
                if done { return nil }
                do {
                    try await advance(isolation: actor)
                } catch {
                    done = true
                    throw error
                }
            }
        }

        /// The next event.
        public mutating func next() async throws -> HLSEvent? { try await next(isolation: nil) }

        /// Moves to `seconds` on the presentation's timeline (VOD): the segment that holds it is fetched
        /// next, after a ``HLSEvent/discontinuity``; packets before the time inside it are dropped.
        @discardableResult
        public mutating func seek(toTime seconds: Double) throws(HLSError) -> HLSSeekLanding {
            let landing = try session.seek(toTime: seconds)
            pending = []
            _ = driver.takeEvents()
            driver.skip(seconds: landing.offsetInSegment)
            done = false
            return landing
        }

        private mutating func advance(isolation actor: isolated (any Actor)?) async throws {
            try Task.checkCancellation()
            switch try session.next(now: now) {
            case .fetch(let request):
                let result: Result<[UInt8], HLSFetchFailure>
                do {
                    result = .success(try await fetcher.fetch(request))
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    result = .failure(HLSFetchFailure("\(error)"))
                }
                try session.deliver(result, now: now)
                if !announcedSelection, let selection = session.selection {
                    announcedSelection = true
                    driver.report(.selected(selection))
                }
            case .wait(let seconds):
                try await Task.sleep(for: .seconds(Swift.max(0, seconds)))
            case .data(let data):
                let base = session.mediaPlaylistURL ?? session.url
                try driver.feed(data, url: HLSURL.resolve(data.segment.uri, against: base))
            case .end:
                try driver.finish()
                done = true
            }
        }
    }
}

@available(*, unavailable)
extension HLSEventSequence.Iterator: Sendable {}

/// Plays a session with a blocking fetcher (command-line tools, threads): the segment bytes in order.
///
/// `fetch` returns the bytes or the failure; `sleep` waits (live reloads, retries); `now` is a monotonic
/// clock in seconds. ``next()`` returns `nil` at the end of the presentation.
public final class HLSBlockingReader {
    /// The session.
    public let session: HLSSession
    private let fetch: (HLSResourceRequest) -> Result<[UInt8], HLSFetchFailure>
    private let sleep: (Double) -> Void
    private let now: () -> Double

    /// A reader over `session`.
    public init(
        session: HLSSession, fetch: @escaping (HLSResourceRequest) -> Result<[UInt8], HLSFetchFailure>,
        sleep: @escaping (Double) -> Void, now: @escaping () -> Double
    ) {
        self.session = session
        self.fetch = fetch
        self.sleep = sleep
        self.now = now
    }

    /// The next segment's (or initialization section's) bytes, `nil` at the end.
    public func next() throws(HLSError) -> HLSSegmentData? {
        while true {
            switch try session.next(now: now()) {
            case .fetch(let request): try session.deliver(fetch(request), now: now())
            case .wait(let seconds): sleep(seconds)
            case .data(let data): return data
            case .end: return nil
            }
        }
    }
}
