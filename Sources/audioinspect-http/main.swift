// audioinspect-http: the HTTP stack of `audioinspect` (AsyncHTTPClient on SwiftNIO, for http:// and
// https://), in its own process so that `audioinspect` links none of it: inspecting a local file costs
// no HTTP, TLS or Foundation start-up time and memory (docs/performance.md, "The HTTP stack's cost").
// `audioinspect` starts it for a URL and reads its standard output (HelperProtocol: a head, then the
// body). It can be used alone:
//
//     audioinspect-http URL [--max-seconds S] [--header 'Name: value']...
//     audioinspect-http --hls URL [--max-seconds S]        an HLS playlist: its segments as one body (HLSRelay)
//
// Exit status 0 at the end of the body, 1 with a one-line reason on standard error when the request
// or the transfer fails, 2 on a usage error.
import AudioInspectCommon
import NIOCore
import NIOHTTP1

let usage = "usage: audioinspect-http [--hls] URL [--max-seconds S] [--header 'Name: value']..."

func fail(_ reason: String, status: Int32 = 1) -> Never {
    HelperIO.writeErrorLine(TerminalText.sanitized(reason))
    HelperIO.exit(status)
}

var urlText: String?
var maxSeconds: Double?
var headers: [(String, String)] = []
var hls = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--max-seconds":
        guard let value = arguments.popFirst().flatMap(Double.init), value > 0 else { fail(usage, status: 2) }
        maxSeconds = value
    case "--hls":
        hls = true
    case "--header":
        guard let field = arguments.popFirst(), let colon = field.firstIndex(of: ":") else { fail(usage, status: 2) }
        headers.append((field[..<colon].trimmingSpaces(), field[field.index(after: colon)...].trimmingSpaces()))
    default:
        guard urlText == nil, !argument.hasPrefix("-") else { fail(usage, status: 2) }
        urlText = argument
    }
}
guard let urlText else { fail(usage, status: 2) }
guard let url = WebURL(string: urlText) else {
    fail("'\(urlText)' \(WebURL.problem(with: urlText) ?? "is not a valid URL")")
}

HelperIO.ignoreBrokenPipes()
let deadline = maxSeconds.map { MonotonicClock.after($0) }
let timeouts = HTTPTimeouts()
if hls { HLSRelay.run(url: url, headers: headers, deadline: deadline, timeouts: timeouts) }
let opened: (fetch: HTTPFetch, head: ResponseHead, body: ResponseBodyQueue)
do {
    opened = try HTTPFetch.open(url, headers: headers, timeouts: timeouts, deadline: deadline, stop: { false })
} catch {
    fail(error.reason)
}
let head = HelperProtocol.Head(
    status: opened.head.status, url: opened.head.url.absoluteString,
    headers: opened.head.headers.map { HelperProtocol.Header($0.0, $0.1) })
guard HelperIO.writeOutput(HelperProtocol.encode(head)) else { HelperIO.exit(0) }

// The body: written as it arrives, with blocking writes (a reader slower than the network fills the
// pipe, then the queue, then the connection is not read: TCP flow control slows the server). The
// --max-seconds deadline is the reader's business during the body: it stops reading and ends this
// process.
while true {
    switch opened.body.next(until: nil, idleSeconds: timeouts.idle, stop: { false }) {
    case .data(let buffer):
        let written = buffer.withUnsafeReadableBytes { HelperIO.writeAll(1, $0) }
        if !written { HelperIO.exit(0) }
    case .end:
        HelperIO.exit(0)
    case .failed(let error):
        let reason =
            (error as? HTTPParserError).map(HTTPFetch.describe)
            ?? HTTPFetch.describe(error, url: url, deadline: nil)
        fail(reason)
    case .idle:
        fail("no data from the server for \(HTTPTimeouts.text(timeouts.idle)) s")
    case .deadline, .stopped:
        HelperIO.exit(0)
    }
}
