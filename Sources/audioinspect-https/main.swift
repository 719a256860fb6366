// audioinspect-https: the https:// client of `audioinspect`, a separate executable so that `audioinspect`
// itself links neither Foundation nor FoundationNetworking (libcurl, TLS, ICU: about 20 MB of resident
// memory before a byte is parsed). `audioinspect` starts it with posix_spawn and reads its standard
// output (docs/cli.md, "HTTP and HTTPS").
//
//     audioinspect-https URL [--timeout SECONDS] [--header 'Name: value']...
//
// Standard output: the status code on one line, then one `Name: value` line per response header, then an
// empty line, then the body as it arrives. Writing blocks on the pipe, and while more than 4 MiB wait to
// be written (the reader is slower than the network) the delegate queue waits, so that URLSession reads
// no further ahead. Exit status 0 at the end of the
// body; 1 with a one-line reason on standard error when the request or the transfer fails; 2 on a usage
// error.
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession delegate: a bounded queue of received bodies, guarded by a condition.
final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let maxBuffered: Int
    var task: URLSessionDataTask?
    private let condition = NSCondition()
    private var chunks: [Data] = []
    private var buffered = 0
    private var response: HTTPURLResponse?
    private var isComplete = false
    private(set) var failure: (any Error)?

    init(maxBuffered: Int) { self.maxBuffered = maxBuffered }

    func waitForResponse(until deadline: Date) -> HTTPURLResponse? {
        condition.lock()
        defer { condition.unlock() }
        while response == nil && !isComplete {
            if !condition.wait(until: deadline) { break }
        }
        return response
    }

    /// The next body chunk; nil at the end of the body (then `failure` says whether it failed).
    func next() -> Data? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !isComplete { condition.wait() }
        if chunks.isEmpty { return nil }
        let chunk = chunks.removeFirst()
        buffered -= chunk.count
        condition.broadcast()
        return chunk
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
        chunks.append(data)
        buffered += data.count
        condition.broadcast()
        // Backpressure: hold the delegate queue while more than `maxBuffered` bytes wait to be written.
        // (Suspending the task instead made FoundationNetworking 5.x on Linux trap in NativeProtocol or
        // deliver bytes out of order under a slow reader.)
        while buffered > maxBuffered { condition.wait() }
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

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

/// Writes all of `bytes` to standard output; false when the reader went away.
func writeOut(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var done = 0
    while done < bytes.count, let base = bytes.baseAddress {
        let n = write(1, base + done, bytes.count - done)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        done += n
    }
    return true
}

var arguments = CommandLine.arguments.dropFirst()
var urlText: String?
var timeout: TimeInterval = 30
var headers: [(String, String)] = []
while let argument = arguments.popFirst() {
    switch argument {
    case "--timeout":
        guard let value = arguments.popFirst().flatMap(Double.init) else { fail("usage: --timeout SECONDS", status: 2) }
        timeout = value
    case "--header":
        guard let value = arguments.popFirst(), let colon = value.firstIndex(of: ":") else {
            fail("usage: --header 'Name: value'", status: 2)
        }
        headers.append(
            (String(value[..<colon]), value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    default:
        guard urlText == nil, !argument.hasPrefix("-") else {
            fail("usage: audioinspect-https URL [--timeout SECONDS] [--header 'Name: value']...", status: 2)
        }
        urlText = argument
    }
}
guard let urlText, let url = URL(string: urlText) else {
    fail("usage: audioinspect-https URL [--timeout SECONDS] [--header 'Name: value']...", status: 2)
}
signal(SIGPIPE, SIG_IGN)

let receiver = Receiver(maxBuffered: 4 << 20)
let configuration = URLSessionConfiguration.ephemeral
configuration.timeoutIntervalForRequest = timeout
configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
let queue = OperationQueue()
queue.maxConcurrentOperationCount = 1
let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: queue)
var request = URLRequest(url: url)
for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
let task = session.dataTask(with: request)
receiver.task = task
task.resume()
guard let response = receiver.waitForResponse(until: Date(timeIntervalSinceNow: timeout)) else {
    fail(receiver.failure.map { $0.localizedDescription } ?? "no response")
}
var head = "\(response.statusCode)\n"
for (name, value) in response.allHeaderFields {
    head += "\(name): \(value)".replacingOccurrences(of: "\n", with: " ") + "\n"
}
head += "\n"
guard Array(head.utf8).withUnsafeBytes({ writeOut($0) }) else { exit(0) }
while let chunk = receiver.next() {
    guard chunk.withUnsafeBytes({ writeOut($0) }) else {
        // The reader closed the pipe (audioinspect stopped early): not an error.
        task.cancel()
        exit(0)
    }
}
if let failure = receiver.failure, (failure as? URLError)?.code != .cancelled {
    fail(failure.localizedDescription)
}
exit(0)
