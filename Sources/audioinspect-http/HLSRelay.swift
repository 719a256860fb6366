import AsyncHTTPClient
import AudioInspectCommon
import AudioStreamHLS
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `audioinspect-http --hls URL`: plays an HLS playlist (AudioStreamHLS's session: master → media playlist,
/// keys, init sections, live reloads, retries) with this process's HTTP stack and writes the head, then
/// the segments' bytes, decrypted, one after the other: one stream for `audioinspect` to parse, like any
/// body (docs/hls.md, "audioinspect"). While a segment is written, the next one listed is fetched already
/// (one segment of prefetch). Every request goes through one client whose connections are kept alive:
/// the playlists, keys and segments of one origin reuse a connection instead of opening one each (docs/hls.md,
/// "Keep-alive").
///
/// The head is `200` with the Media Playlist's URL and three fields: `X-HLS-Media-Playlist`,
/// `X-HLS-Live: yes|no`, `X-HLS-Variant` (the chosen variant's BANDWIDTH and CODECS, when there was a
/// master playlist). A failure before the first segment (the playlist, its key) exits 1 with the reason,
/// like any failed request; after it, the reason goes to standard error and the exit status is 1.
enum HLSRelay {
    /// How every request of the session is made: the caller's header fields, the bounds, the shared client.
    struct Transfer: Sendable {
        var headers: [(String, String)]
        var deadline: Double?
        var timeouts: HTTPTimeouts
        var client: HTTPClient
    }

    static func run(url: WebURL, headers: [(String, String)], deadline: Double?, timeouts: HTTPTimeouts) -> Never {
        // Shut down by the process's exit (run never returns).
        let transfer = Transfer(
            headers: headers, deadline: deadline, timeouts: timeouts,
            client: HTTPFetch.makeClient(timeouts: timeouts, deadline: deadline))
        let prefetch = Prefetch(transfer)
        let session = HLSSession(url: url.absoluteString)
        let reader = HLSBlockingReader(
            session: session,
            fetch: { request in
                prefetch.take(request) ?? fetch(request, via: transfer)
            },
            sleep: { seconds in
                let until = min(MonotonicClock.now() + seconds, deadline ?? .infinity)
                while MonotonicClock.now() < until {
                    usleep(UInt32(min(100_000, max(1, (until - MonotonicClock.now()) * 1e6))))
                }
            },
            now: { MonotonicClock.now() })
        var wroteHead = false
        while true {
            if let deadline, MonotonicClock.now() >= deadline { HelperIO.exit(0) }
            let data: HLSSegmentData?
            do {
                data = try reader.next()
            } catch {
                HelperIO.writeErrorLine(TerminalText.sanitized(error.description))
                HelperIO.exit(1)
            }
            if !wroteHead {
                wroteHead = true
                let playlist = session.mediaPlaylistURL ?? url.absoluteString
                var fields = [
                    HelperProtocol.Header("X-HLS-Media-Playlist", playlist),
                    HelperProtocol.Header("X-HLS-Live", session.mediaPlaylist?.isLive == true ? "yes" : "no"),
                ]
                if let variant = session.selection?.variant {
                    fields.append(
                        HelperProtocol.Header(
                            "X-HLS-Variant",
                            "BANDWIDTH=\(variant.bandwidth) CODECS=\(variant.codecs.joined(separator: ","))"))
                }
                let head = HelperProtocol.Head(status: 200, url: playlist, headers: fields)
                guard HelperIO.writeOutput(HelperProtocol.encode(head)) else { HelperIO.exit(0) }
            }
            guard let data else { HelperIO.exit(0) }
            if !data.isInitialization, let next = session.upcomingSegmentRequest { prefetch.start(next) }
            guard data.bytes.withUnsafeBytes({ HelperIO.writeAll(1, $0) }) else { HelperIO.exit(0) }
        }
    }

    /// GET (with `Range` for a byte range), the whole body, at most `request.maxBytes`.
    static func fetch(_ request: HLSResourceRequest, via transfer: Transfer) -> Result<[UInt8], HLSFetchFailure> {
        let (deadline, timeouts) = (transfer.deadline, transfer.timeouts)
        guard let url = WebURL(string: request.url) else {
            return .failure(HLSFetchFailure(WebURL.problem(with: request.url) ?? "not a valid URL"))
        }
        var fields = transfer.headers
        if let range = request.byteRange, range.length > 0 {
            fields.append(("Range", "bytes=\(range.offset)-\(range.offset + range.length - 1)"))
        }
        let opened: (fetch: HTTPFetch, head: ResponseHead, body: ResponseBodyQueue)
        do {
            opened = try HTTPFetch.open(
                url, headers: fields, timeouts: timeouts, deadline: deadline, sharedClient: transfer.client,
                stop: { false })
        } catch {
            return .failure(HLSFetchFailure(error.reason))
        }
        defer { opened.fetch.close() }
        var bytes: [UInt8] = []
        while true {
            switch opened.body.next(until: deadline, idleSeconds: timeouts.idle, stop: { false }) {
            case .data(let buffer):
                bytes += buffer.readableBytesView
                if bytes.count > request.maxBytes {
                    return .failure(HLSFetchFailure("more than \(request.maxBytes) bytes"))
                }
            case .end:
                if let range = request.byteRange, opened.head.status == 200, range.offset + range.length <= bytes.count
                {
                    // A server that ignored the Range header: the sub-range of the whole resource.
                    return .success(Array(bytes[Int(range.offset)..<Int(range.offset + range.length)]))
                }
                return .success(bytes)
            case .failed(let error):
                return .failure(HLSFetchFailure(HTTPFetch.describe(error, url: url, deadline: nil)))
            case .idle: return .failure(HLSFetchFailure("no data for \(HTTPTimeouts.text(timeouts.idle)) s"))
            case .deadline, .stopped: return .failure(HLSFetchFailure("the --max-seconds deadline passed"))
            }
        }
    }

    /// One segment fetched ahead on a Dispatch worker while the current one is written.
    final class Prefetch: Sendable {
        private let transfer: Transfer
        private let state = Mutex<(request: HLSResourceRequest, done: DispatchSemaphore)?>(nil)
        private let result = Mutex<Result<[UInt8], HLSFetchFailure>?>(nil)

        init(_ transfer: Transfer) { self.transfer = transfer }

        /// Starts fetching `request` unless a prefetch is pending.
        func start(_ request: HLSResourceRequest) {
            let done = DispatchSemaphore(value: 0)
            let started = state.withLock { current -> Bool in
                guard current == nil else { return false }
                current = (request, done)
                return true
            }
            guard started else { return }
            let transfer = self.transfer
            DispatchQueue.global().async {
                let fetched = HLSRelay.fetch(request, via: transfer)
                self.result.withLock { $0 = fetched }
                done.signal()
            }
        }

        /// The prefetched result when it is for `request` (waiting for it); `nil` otherwise: a key, playlist
        /// or init section is fetched normally and the prefetch kept; a prefetch of another segment (the
        /// playlist changed) is waited for and dropped.
        func take(_ request: HLSResourceRequest) -> Result<[UInt8], HLSFetchFailure>? {
            guard request.kind == .segment, let pending = state.withLock({ $0 }) else { return nil }
            pending.done.wait()
            let fetched = result.withLock { value in
                defer { value = nil }
                return value
            }
            state.withLock { $0 = nil }
            return pending.request == request ? fetched : nil
        }
    }
}
