import AudioStreamParsing
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP(S) response body as a blocking `ByteSource` for the inspector.
///
/// `http://` URLs are fetched by `SocketHTTPBody`, a small HTTP/1.1 client on a POSIX socket;
/// `https://` URLs by Foundation's `URLSession` with a data delegate (FoundationNetworking, libcurl,
/// on Linux). The socket client exists because FoundationNetworking rejects header lines without a
/// space after the colon, which Icecast sends (`icy-pub:0`, `icy-metaint:16000`): `URLSession` fails
/// with "Failed writing header" on every Icecast stream. It also accepts SHOUTcast v1's `ICY 200 OK`
/// status line.
///
/// The request sends `Icy-MetaData: 1`; when the server answers with `icy-metaint`, the ICY metadata
/// blocks are removed with `ICYMetadataDemuxer` before the parser sees the bytes, and each block is
/// kept in `titles` with its offset in the audio stream.
final class HTTPInput: ByteSource {
    /// The URL as given.
    let url: URL
    /// The `icy-metaint` interval, when the server sent one.
    private(set) var metaInterval: Int?
    /// The response headers.
    let headers: [(String, String)]
    /// ICY metadata blocks read so far, with the audio offset where each takes effect.
    private(set) var titles: [(metadata: ICYMetadata, audioOffset: Int64)] = []
    /// Body bytes received (metadata included).
    var bodyBytes: Int64 { body.received }

    private let body: any HTTPBody
    private var demuxer: ICYMetadataDemuxer?
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// When set, `read` returns 0 (end) once this time has passed or `stop` returns true.
    var deadline: Date?
    var stop: () -> Bool = { false }

    /// Sends the request and waits for the response headers.
    ///
    /// - Throws: `InputError` when the request fails or the status is not 2xx.
    init(url: URL, timeout: TimeInterval = 30) throws(InputError) {
        self.url = url
        let extra = [(ICYHeaders.requestHeaderName, ICYHeaders.requestHeaderValue)]
        let opened: (body: any HTTPBody, headers: [(String, String)])
        if url.scheme?.lowercased() == "http" {
            opened = try SocketHTTPBody.open(url, headers: extra, timeout: timeout)
        } else {
            opened = try URLSessionBody.open(url, headers: extra, timeout: timeout)
        }
        body = opened.body
        headers = opened.headers
        metaInterval = ICYHeaders.metaInterval(in: headers)
        demuxer = metaInterval.map { ICYMetadataDemuxer(metaInterval: $0) }
    }

    deinit { close() }

    /// Ends the transfer.
    func close() { body.close() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while true {
            if pendingStart < pending.count {
                let n = min(buffer.count, pending.count - pendingStart)
                pending.withUnsafeBytes { raw in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[pendingStart..<(pendingStart + n)]))
                }
                pendingStart += n
                return n
            }
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            switch body.next(until: deadline, stop: stop) {
            case .data(let chunk):
                guard var demuxer else {
                    pending = chunk
                    continue
                }
                for segment in demuxer.demux(chunk) {
                    switch segment {
                    case .audio(let range): pending.append(contentsOf: chunk[range])
                    case .metadata(let metadata, let offset): titles.append((metadata, offset))
                    }
                }
                self.demuxer = demuxer
            case .end:
                return 0
            case .failed(let message):
                throw InputError(message: "cannot read '\(url.absoluteString)': \(message)", offset: body.received)
            }
        }
    }
}

/// What a response body source gives next.
enum BodyChunk {
    case data([UInt8])
    /// The end of the body, the deadline, or a stop request.
    case end
    case failed(String)
}

/// A response body being received.
protocol HTTPBody: AnyObject {
    /// The next bytes; waits at most until `deadline`, checking `stop` every 100 ms.
    func next(until deadline: Date?, stop: () -> Bool) -> BodyChunk
    /// Body bytes received so far.
    var received: Int64 { get }
    /// Ends the transfer.
    func close()
}

/// An `https://` body through `URLSession`. The delegate appends each `didReceive data` chunk to a
/// queue that `next` drains; when more than 4 MiB wait, the task is suspended until the reader
/// catches up, so a slow parser never makes the download buffer grow without bound.
final class URLSessionBody: HTTPBody {
    private let receiver: Receiver
    private let session: URLSession

    private init(receiver: Receiver, session: URLSession) {
        self.receiver = receiver
        self.session = session
    }

    static func open(_ url: URL, headers extra: [(String, String)], timeout: TimeInterval) throws(InputError)
        -> (body: any HTTPBody, headers: [(String, String)])
    {
        let receiver = Receiver(maxBuffered: 4 << 20)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: queue)
        let body = URLSessionBody(receiver: receiver, session: session)
        var request = URLRequest(url: url)
        for (name, value) in extra { request.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: request)
        receiver.task = task
        task.resume()
        guard let response = receiver.waitForResponse(until: Date(timeIntervalSinceNow: timeout)) else {
            let message = receiver.failure.map { "\($0.localizedDescription)" } ?? "no response"
            body.close()
            throw InputError(message: "cannot get '\(url.absoluteString)': \(message)", offset: nil)
        }
        guard (200..<300).contains(response.statusCode) else {
            body.close()
            throw InputError(
                message: "cannot get '\(url.absoluteString)': HTTP status \(response.statusCode)", offset: nil)
        }
        let headers = response.allHeaderFields.map { ("\($0.key)", "\($0.value)") }
        return (body, headers)
    }

    var received: Int64 { receiver.received }

    func next(until deadline: Date?, stop: () -> Bool) -> BodyChunk { receiver.next(until: deadline, stop: stop) }

    func close() {
        receiver.task?.cancel()
        session.invalidateAndCancel()
    }

    /// The URLSession delegate: a bounded queue of received bodies, guarded by a condition.
    private final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let maxBuffered: Int
        var task: URLSessionDataTask?
        private let condition = NSCondition()
        private var chunks: [[UInt8]] = []
        private var buffered = 0
        private var isSuspended = false
        private var response: HTTPURLResponse?
        private var isComplete = false
        private(set) var failure: (any Error)?
        private(set) var received: Int64 = 0

        init(maxBuffered: Int) { self.maxBuffered = maxBuffered }

        func waitForResponse(until deadline: Date) -> HTTPURLResponse? {
            condition.lock()
            defer { condition.unlock() }
            while response == nil && !isComplete {
                if !condition.wait(until: deadline) { break }
            }
            return response
        }

        /// The next body chunk; `.end` at the end of the body, at `deadline`, or when `stop` says so
        /// (checked every 100 ms).
        func next(until deadline: Date?, stop: () -> Bool) -> BodyChunk {
            condition.lock()
            defer { condition.unlock() }
            while chunks.isEmpty && !isComplete {
                if stop() { return .end }
                var wake = Date(timeIntervalSinceNow: 0.1)
                if let deadline {
                    if deadline <= Date() { return .end }
                    wake = min(wake, deadline)
                }
                _ = condition.wait(until: wake)
            }
            if chunks.isEmpty {
                if let failure, (failure as? URLError)?.code != .cancelled {
                    return .failed(failure.localizedDescription)
                }
                return .end
            }
            let chunk = chunks.removeFirst()
            buffered -= chunk.count
            if isSuspended && buffered < maxBuffered / 2 {
                isSuspended = false
                task?.resume()
            }
            return .data(chunk)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            condition.lock()
            self.response = response as? HTTPURLResponse
            condition.broadcast()
            condition.unlock()
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            condition.lock()
            chunks.append([UInt8](data))
            buffered += data.count
            received += Int64(data.count)
            if buffered > maxBuffered && !isSuspended {
                isSuspended = true
                dataTask.suspend()
            }
            condition.broadcast()
            condition.unlock()
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            condition.lock()
            isComplete = true
            failure = error
            condition.broadcast()
            condition.unlock()
        }
    }
}
