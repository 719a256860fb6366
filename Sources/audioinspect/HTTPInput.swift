import AudioStreamParsing
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP(S) response body read with `URLSession` (FoundationNetworking on Linux, backed by libcurl),
/// as a blocking `ByteSource` for the inspector.
///
/// The request sends `Icy-MetaData: 1`; when the server answers with `icy-metaint`, the ICY metadata
/// blocks are removed with `ICYMetadataDemuxer` before the parser sees the bytes, and each block is
/// kept in `titles` with its offset in the audio stream.
///
/// The session delegate appends each `didReceive data` chunk to a queue that `read(into:)` drains; when
/// more than `maxBuffered` bytes wait, the task is suspended until the reader catches up, so a slow
/// parser never makes the download buffer grow without bound.
final class HTTPInput: ByteSource {
    /// The URL as given.
    let url: URL
    /// The `icy-metaint` interval, when the server sent one.
    private(set) var metaInterval: Int?
    /// The response headers, once the response arrived.
    private(set) var headers: [(String, String)] = []
    /// ICY metadata blocks read so far, with the audio offset where each takes effect.
    private(set) var titles: [(metadata: ICYMetadata, audioOffset: Int64)] = []
    /// Body bytes received (metadata included).
    var bodyBytes: Int64 { receiver.received }

    private let receiver: Receiver
    private let session: URLSession
    private var demuxer: ICYMetadataDemuxer?
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var audioBytes: Int64 = 0
    /// When set, `read` returns 0 (end) once this time has passed or `stop` returns true.
    var deadline: Date?
    var stop: () -> Bool = { false }

    /// Starts the request and waits for the response headers.
    ///
    /// - Throws: `InputError` when the request fails or the status is not 2xx.
    init(url: URL, timeout: TimeInterval = 30) throws(InputError) {
        self.url = url
        receiver = Receiver(maxBuffered: 4 << 20)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: queue)
        var request = URLRequest(url: url)
        request.setValue(ICYHeaders.requestHeaderValue, forHTTPHeaderField: ICYHeaders.requestHeaderName)
        let task = session.dataTask(with: request)
        receiver.task = task
        task.resume()
        guard let response = receiver.waitForResponse(until: Date(timeIntervalSinceNow: timeout)) else {
            let message = receiver.failure.map { "\($0.localizedDescription)" } ?? "no response"
            close()
            throw InputError(message: "cannot get '\(url.absoluteString)': \(message)", offset: nil)
        }
        guard (200..<300).contains(response.statusCode) else {
            close()
            throw InputError(
                message: "cannot get '\(url.absoluteString)': HTTP status \(response.statusCode)", offset: nil)
        }
        for (key, value) in response.allHeaderFields {
            headers.append(("\(key)", "\(value)"))
        }
        metaInterval = ICYHeaders.metaInterval(in: headers)
        demuxer = metaInterval.map { ICYMetadataDemuxer(metaInterval: $0) }
    }

    deinit { close() }

    /// Cancels the transfer.
    func close() {
        receiver.task?.cancel()
        session.invalidateAndCancel()
    }

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
            switch receiver.next(until: deadline, stop: stop) {
            case .data(let body):
                guard var demuxer else {
                    pending = body
                    continue
                }
                for segment in demuxer.demux(body) {
                    switch segment {
                    case .audio(let range): pending.append(contentsOf: body[range])
                    case .metadata(let metadata, let offset): titles.append((metadata, offset))
                    }
                }
                self.demuxer = demuxer
            case .end:
                return 0
            case .failed(let error):
                throw InputError(
                    message: "cannot read '\(url.absoluteString)': \(error.localizedDescription)",
                    offset: receiver.received)
            }
        }
    }

    /// The URLSession delegate: a bounded queue of received bodies, guarded by a condition.
    private final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        enum Next {
            case data([UInt8])
            case end
            case failed(any Error)
        }

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
        func next(until deadline: Date?, stop: () -> Bool) -> Next {
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
                if let failure, (failure as? URLError)?.code != .cancelled { return .failed(failure) }
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
