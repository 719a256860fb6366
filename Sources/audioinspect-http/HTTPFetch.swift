import AsyncHTTPClient
import AudioInspectCommon
import Dispatch
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// Why no usable response arrived (the reason, for one line on standard error).
struct FetchError: Error {
    var reason: String
}

/// The response head `audioinspect` acts on, after redirects.
struct ResponseHead: Sendable {
    /// The status code (2xx: redirects and errors never get here).
    var status: Int
    /// The header fields, in order.
    var headers: [(String, String)]
    /// The URL that answered (the last redirect target).
    var url: WebURL
}

/// The time bounds of a transfer (docs/cli.md, "URLs and live streams"). `--max-seconds` bounds each of
/// them as well: none waits past the `--max-seconds` deadline.
struct HTTPTimeouts: Sendable {
    /// Establishing a TCP connection (and the TLS handshake).
    var connect: Double = 10
    /// From sending a request to its response head, connecting included, per request (each redirect
    /// is a request).
    var head: Double = 30
    /// Between two body reads: a server that sends nothing for this long fails the transfer.
    var idle: Double = TestHooks.idleSeconds ?? 30
    /// Redirects followed at most.
    var maxRedirects = 5

    /// `30`, `2.5`: seconds as written in messages.
    static func text(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : "\(seconds)"
    }
}

/// One HTTP stack for `http://` and `https://`: AsyncHTTPClient (SwiftNIO's HTTP/1 parser, llhttp, and
/// swift-nio-ssl, BoringSSL, with the system's trust roots and host name verification), with
///
/// - redirects followed here, not by the client, so that each target is validated (`WebURL.resolving`:
///   http or https only, printable ASCII only, at most `maxRedirects`);
/// - `Accept-Encoding: identity` on both schemes and a response in any other content coding refused
///   (no decompression, so no decompression bomb);
/// - the `--max-seconds` deadline bounding the connect and head timeouts;
/// - a response whose status line is SHOUTcast's `ICY 200 OK`, which the client refuses (llhttp:
///   "invalid constant string"), fetched again through `ICYStatusLine`, a thin NIO pipeline that rewrites
///   the status line to `HTTP/1.0 200 OK` in front of the same NIO HTTP/1 decoder (`http://` only).
///
/// The body is handed to the blocking reader through a `ResponseBodyQueue` (bounded: the connection is
/// read no further ahead than its capacity).
final class HTTPFetch: Sendable {
    /// The request header fields sent besides `Host` (which the client adds) and the caller's.
    /// `Connection: close` for a fetch with its own client: one request per connection (a redirect opens a
    /// new one), so a server that closes an idle keep-alive connection cannot fail the next request. A
    /// fetch on a shared client (``open(_:headers:timeouts:deadline:sharedClient:stop:)``: HLS) leaves it
    /// out, so that its connections are kept alive and reused (HTTP/1.1 §9.3).
    static let requestHeaders = [
        ("User-Agent", "audioinspect"), ("Accept", "*/*"), ("Accept-Encoding", "identity"), ("Connection", "close"),
    ]

    private let client: HTTPClient
    /// Whether `client` is this fetch's own (shut down by `close`) rather than shared.
    private let ownsClient: Bool
    private let timeouts: HTTPTimeouts
    /// `requestHeaders` and the caller's (`Icy-MetaData: 1`).
    private let headers: [(String, String)]
    /// The `--max-seconds` deadline (`MonotonicClock` seconds), if any.
    private let deadline: Double?
    private let outcome = Mutex<Result<(ResponseHead, ResponseBodyQueue), FetchError>?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let wake = DispatchSemaphore(value: 0)

    private init(timeouts: HTTPTimeouts, deadline: Double?, headers: [(String, String)], sharedClient: HTTPClient?) {
        self.timeouts = timeouts
        self.deadline = deadline
        if let sharedClient {
            self.headers = Self.requestHeaders.filter { $0.0 != "Connection" } + headers
            client = sharedClient
            ownsClient = false
        } else {
            self.headers = Self.requestHeaders + headers
            client = Self.makeClient(timeouts: timeouts, deadline: deadline)
            ownsClient = true
        }
    }

    /// A client with this stack's configuration: HTTP/1.1 only, no redirects or decompression by the
    /// client, the connect and read timeouts of `timeouts` bounded by `deadline`. Several fetches may share
    /// one (their connections are then pooled and kept alive); its owner shuts it down.
    static func makeClient(timeouts: HTTPTimeouts, deadline: Double?) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: Self.tlsConfiguration(), redirectConfiguration: .disallow,
            decompression: .disabled)
        configuration.httpVersion = .http1Only
        // The reader enforces the idle timeout (`ResponseBodyQueue.next`); the client's read timeout is a
        // backstop behind it. The connect timeout ends just before the --max-seconds deadline, so that a
        // connection that never completes is reported as such rather than as a missing response.
        configuration.timeout = .init(
            connect: Self.amount(Self.connectSeconds(timeouts.connect, by: deadline)),
            read: Self.amount(timeouts.idle + 5))
        // A refused connection fails at once instead of being retried until the head deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends `GET url` (following redirects) and waits for the final response head.
    ///
    /// - Parameters:
    ///   - headers: header fields to send besides `requestHeaders`.
    ///   - deadline: the `--max-seconds` deadline (`MonotonicClock` seconds), if any.
    ///   - sharedClient: a client from ``makeClient(timeouts:deadline:)`` to use, connections kept alive;
    ///     `nil`: a client of the fetch's own, one connection, closed.
    ///   - stop: checked every 100 ms while waiting (^C).
    /// - Returns: the head and the body; `close()` the fetch when done.
    /// - Throws: `FetchError` when no 2xx response arrives, with the reason.
    static func open(
        _ url: WebURL, headers: [(String, String)], timeouts: HTTPTimeouts = HTTPTimeouts(), deadline: Double?,
        sharedClient: HTTPClient? = nil, stop: () -> Bool
    ) throws(FetchError) -> (fetch: HTTPFetch, head: ResponseHead, body: ResponseBodyQueue) {
        let fetch = HTTPFetch(timeouts: timeouts, deadline: deadline, headers: headers, sharedClient: sharedClient)
        let task = Task { await fetch.run(url) }
        fetch.task.withLock { $0 = task }
        while true {
            if let result = fetch.outcome.withLock({ $0 }) {
                switch result {
                case .success(let (head, body)): return (fetch, head, body)
                case .failure(let error):
                    fetch.close()
                    throw error
                }
            }
            if stop() {
                fetch.close()
                throw FetchError(reason: "interrupted")
            }
            _ = fetch.wake.wait(timeout: .now() + .milliseconds(100))
        }
    }

    /// Cancels what is still running and shuts the client down (when it is the fetch's own).
    func close() {
        task.withLock { $0 }?.cancel()
        if ownsClient { try? client.syncShutdown() }
    }

    // MARK: The request loop (an async task)

    private func deliver(_ result: Result<(ResponseHead, ResponseBodyQueue), FetchError>) {
        outcome.withLock { if $0 == nil { $0 = result } }
        wake.signal()
    }

    private func run(_ first: WebURL) async {
        var url = first
        var redirects = 0
        let fail = { (reason: String) in FetchError(reason: reason) }
        do {
            while true {
                let response = try await request(url)
                if [301, 302, 303, 307, 308].contains(response.status),
                    let location = response.headers.first(where: { $0.0.lowercased() == "location" })?.1
                {
                    response.discard()
                    let target: WebURL
                    switch url.resolving(location) {
                    case .success(let next): target = next
                    case .failure(let refused):
                        throw fail("redirect to '\(location)' refused: the target \(refused.reason)")
                    }
                    guard redirects < timeouts.maxRedirects else {
                        throw fail("more than \(timeouts.maxRedirects) redirects (the last to '\(target)')")
                    }
                    redirects += 1
                    url = target
                    continue
                }
                guard (200..<300).contains(response.status) else {
                    response.discard()
                    let redirected = redirects > 0 ? " (from '\(url.absoluteString)')" : ""
                    throw fail("HTTP status \(response.status)\(redirected)")
                }
                if let coding = response.headers.first(where: { $0.0.lowercased() == "content-encoding" })?.1,
                    coding.trimmingSpaces().lowercased() != "identity"
                {
                    response.discard()
                    throw fail("the response has Content-Encoding '\(coding)' (audioinspect asks for identity)")
                }
                let head = ResponseHead(status: response.status, headers: response.headers, url: url)
                switch response.body {
                case .client(let clientResponse):
                    let body = ResponseBodyQueue()
                    deliver(.success((head, body)))
                    await Self.stream(clientResponse, into: body)
                case .icy(let body, let channel):
                    body.setOnClose { channel.close(promise: nil) }
                    deliver(.success((head, body)))
                }
                return
            }
        } catch let error as FetchError {
            deliver(.failure(error))
        } catch {
            deliver(.failure(fail(Self.describe(error, url: url, deadline: deadline))))
        }
    }

    /// One request: AsyncHTTPClient, or the ICY status-line layer when the client refused the status
    /// line of an `http://` response.
    private func request(_ url: WebURL) async throws -> HopResponse {
        let hopSeconds = Self.bounded(timeouts.head, by: deadline)
        var request = HTTPClientRequest(url: url.requestString)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await client.execute(request, deadline: .now() + Self.amount(hopSeconds))
            let headers = response.headers.map { ($0.name, $0.value) }
            return HopResponse(status: Int(response.status.code), headers: headers, body: .client(response))
        } catch let error as HTTPParserError where error == .invalidConstant && url.scheme == "http" {
            let remaining = Self.bounded(timeouts.head, by: deadline)
            let (head, body, channel) = try await ICYStatusLine.request(
                url, headers: headers, group: client.eventLoopGroup,
                connectTimeout: Self.amount(min(Self.connectSeconds(timeouts.connect, by: deadline), remaining)),
                deadline: .now() + Self.amount(remaining))
            return HopResponse(
                status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) },
                body: .icy(body, channel))
        }
    }

    /// A response of one request, its body not read yet.
    private struct HopResponse {
        enum Body {
            case client(HTTPClientResponse)
            /// The ICY layer's queue and channel (already streaming into the queue).
            case icy(ResponseBodyQueue, any Channel)
        }
        var status: Int
        var headers: [(String, String)]
        var body: Body

        /// Drops the body (a redirect or an error response).
        func discard() {
            if case .icy(let queue, let channel) = body {
                queue.close()
                channel.close(promise: nil)
            }
        }
    }

    /// Streams a client response's body into `queue` until its end, a failure, or the reader closing the
    /// queue (then the response is dropped, which cancels the request).
    private static func stream(_ response: HTTPClientResponse, into queue: ResponseBodyQueue) async {
        do {
            for try await buffer in response.body {
                guard await queue.push(buffer) else { return }
            }
            queue.finish(nil)
        } catch {
            queue.finish(error)
        }
    }

    // MARK: Helpers

    /// Seconds from now until the earlier of `seconds` from now and `deadline`.
    static func bounded(_ seconds: Double, by deadline: Double?) -> Double {
        guard let deadline else { return seconds }
        return max(0.001, min(seconds, deadline - MonotonicClock.now()))
    }

    /// The connect timeout: `seconds`, or 0.1 s less than what is left before `deadline`.
    static func connectSeconds(_ seconds: Double, by deadline: Double?) -> Double {
        guard let deadline else { return seconds }
        return max(0.05, min(seconds, deadline - MonotonicClock.now() - 0.1))
    }

    static func amount(_ seconds: Double) -> TimeAmount {
        .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }

    /// The TLS settings: the client's defaults (full certificate and host name verification against the
    /// system's trust roots, TLS 1.2 or later), plus the test hook's extra root in debug builds.
    static func tlsConfiguration() -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        // When the transfer ends (often by our choice: --max-seconds, ^C, an error), do not wait the default
        // 5 s for the server's close_notify.
        tls.shutdownTimeout = .milliseconds(100)
        if let file = TestHooks.extraTrustRootFile { tls.additionalTrustRoots = [.file(file)] }
        return tls
    }

    /// A one-line reason for a failed request.
    static func describe(_ error: any Error, url: WebURL, deadline: Double?) -> String {
        let limited = deadline.map { $0 - MonotonicClock.now() < 0.5 } ?? false
        let suffix = limited ? " (--max-seconds)" : ""
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "cannot connect to \(url.hostHeader): timed out\(suffix)"
            case .deadlineExceeded: return "no response in time\(suffix)"
            case .readTimeout: return "no data from the server in time (the client's read timeout)"
            case .remoteConnectionClosed: return "the server closed the connection before the response ended"
            case .tlsHandshakeTimeout: return "the TLS handshake timed out\(suffix)"
            default: return error.shortDescription
            }
        }
        if let error = error as? HTTPParserError { return describe(error) }
        if let error = error as? NIOConnectionError {
            guard let last = error.connectionErrors.last?.error else { return "cannot resolve host \(url.host)" }
            return "cannot connect to \(url.hostHeader): \((last as? IOError).map(describe) ?? "\(last)")"
        }
        if let error = error as? IOError { return "\(url.hostHeader): \(describe(error))" }
        if let error = error as? NIOSSLError {
            switch error {
            case .handshakeFailed(let reason):
                // BoringSSL's reason code, e.g. `CERTIFICATE_VERIFY_FAILED` (self-signed, an untrusted CA,
                // expired), without the source location that follows it.
                let text = "\(reason)"
                guard let marker = text.firstRange(of: "OPENSSL_internal:") else {
                    return "TLS handshake failed: \(text)"
                }
                let code = String(text[marker.upperBound...].prefix { $0.isUppercase || $0.isNumber || $0 == "_" })
                let hint =
                    code == "CERTIFICATE_VERIFY_FAILED"
                    ? " (the server's certificate is not trusted: self-signed, from an unknown CA, or expired)" : ""
                return "TLS handshake failed: \(code)\(hint)"
            default: return "TLS error: \(error)"
            }
        }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "TLS: the server's certificate is not valid for \(url.host)"
        }
        if let error = error as? NIOSSLExtraError { return "TLS error: \(error)" }
        if error is CancellationError { return "cancelled" }
        return "\(error)"
    }

    /// `strerror` of a socket error ("Connection refused").
    static func describe(_ error: IOError) -> String { HelperIO.describe(error.errnoCode) }

    /// The parser's reason, or what a cut body means.
    static func describe(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidEOFState: return "the connection closed before the end of the body"
        default: return "invalid HTTP response: \(error)"
        }
    }
}
