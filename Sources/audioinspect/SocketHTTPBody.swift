import AudioStreamParsing

/// A minimal HTTP/1.1 client for `http://` URLs on a blocking POSIX socket: one `GET`, lenient response
/// parsing (`HTTP/1.x NNN` or SHOUTcast's `ICY NNN` status line; header lines split at the first `:`
/// with or without a following space), redirects followed (at most 5), and a body delimited by
/// `Content-Length`, `Transfer-Encoding: chunked`, or the end of the connection.
///
/// Reads wait with `poll` in 100 ms slices so a deadline or a stop request (^C) ends them promptly.
/// Nothing is read ahead of the parser beyond one 64 KiB read: TCP flow control is the back-pressure.
final class SocketHTTPBody: HTTPBody {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var mode: Mode
    private(set) var received: Int64 = 0

    private enum Mode {
        case length(remaining: Int64)
        case chunked(remaining: Int64)  // bytes left in the current chunk; 0 = read the next size line
        case untilClose
        case done
    }

    private init(fd: Int32, buffer: [UInt8], mode: Mode) {
        self.fd = fd
        self.buffer = buffer
        self.mode = mode
    }

    deinit { close() }

    func close() {
        if fd >= 0 {
            Platform.close(fd)
            fd = -1
        }
    }

    static func open(_ url: WebURL, headers extra: [(String, String)], timeout: Double) throws(InputError)
        -> (body: any HTTPBody, headers: [(String, String)])
    {
        var url = url
        for _ in 0..<6 {
            let deadline = MonotonicClock.after(timeout)
            let (fd, head, rest) = try request(url, extra: extra, deadline: deadline)
            let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
            let status = lines.first.flatMap { Self.statusCode($0) }
            var headers: [(String, String)] = []
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingSpaces()
                let value = line[line.index(after: colon)...].trimmingSpaces()
                headers.append((name, value))
            }
            guard let status else {
                Platform.close(fd)
                throw InputError(message: "cannot get '\(url.absoluteString)': not an HTTP response", offset: nil)
            }
            if (300..<400).contains(status), let location = ICYHeaders.value(named: "Location", in: headers),
                let next = url.resolving(location)
            {
                Platform.close(fd)
                if next.scheme != "http" {
                    return try SpawnedHTTPSBody.open(next, headers: extra, timeout: timeout)
                }
                url = next
                continue
            }
            guard (200..<300).contains(status) else {
                Platform.close(fd)
                throw InputError(message: "cannot get '\(url.absoluteString)': HTTP status \(status)", offset: nil)
            }
            let mode: Mode
            if ICYHeaders.value(named: "Transfer-Encoding", in: headers)?.lowercased().contains("chunked") == true {
                mode = .chunked(remaining: 0)
            } else if let length = ICYHeaders.value(named: "Content-Length", in: headers).flatMap({ Int64($0) }) {
                mode = .length(remaining: length)
            } else {
                mode = .untilClose
            }
            return (SocketHTTPBody(fd: fd, buffer: rest, mode: mode), headers)
        }
        throw InputError(message: "cannot get '\(url.absoluteString)': too many redirects", offset: nil)
    }

    /// `HTTP/1.1 200 OK` or `ICY 200 OK` → 200.
    private static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") || parts[0] == "ICY" else { return nil }
        return Int(parts[1])
    }

    /// Connects, sends the request, and reads the response head. Returns the socket, the head (without
    /// the blank line) and the body bytes read with it.
    private static func request(_ url: WebURL, extra: [(String, String)], deadline: Double) throws(InputError)
        -> (Int32, String, [UInt8])
    {
        let fail = { (message: String) in
            InputError(message: "cannot get '\(url.absoluteString)': \(message)", offset: nil)
        }
        let host = url.host
        guard !host.isEmpty else { throw fail("no host") }
        let port = url.port ?? 80
        let fd: Int32
        switch Platform.connectTCP(host: host, port: port) {
        case .success(let connected): fd = connected
        case .failure(.unresolved): throw fail("cannot resolve host \(host)")
        case .failure(.refused(let code)): throw fail(Platform.describe(code))
        }
        var text =
            "GET \(url.pathAndQuery) HTTP/1.1\r\nHost: \(url.hostHeader)\r\nUser-Agent: audioinspect\r\nAccept: */*\r\n"
        for (name, value) in extra { text += "\(name): \(value)\r\n" }
        text += "Connection: close\r\n\r\n"
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Platform.send(fd, $0) }
            if n <= 0 {
                Platform.close(fd)
                throw fail("cannot send the request")
            }
            sent += n
        }
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let range = head.range(ofDelimiter: end) {
                let headText = String(decoding: head[..<range.lowerBound], as: UTF8.self)
                return (fd, headText, Array(head[range.upperBound...]))
            }
            guard head.count < 64 * 1024 else {
                Platform.close(fd)
                throw fail("response header too large")
            }
            switch waitReadable(fd, until: deadline, stop: { false }) {
            case .ready: break
            case .timeout, .stopped:
                Platform.close(fd)
                throw fail("no response")
            }
            let n = chunk.withUnsafeMutableBytes { Platform.receive(fd, into: $0) }
            if n <= 0 {
                let reason = n == 0 ? "connection closed before the response" : Platform.describe(Platform.lastError)
                Platform.close(fd)
                throw fail(reason)
            }
            head += chunk[0..<n]
        }
    }

    enum Wait { case ready, timeout, stopped }

    static func waitReadable(_ fd: Int32, until deadline: Double?, stop: () -> Bool) -> Wait {
        while true {
            if stop() { return .stopped }
            var slice: Int32 = 100
            if let deadline {
                let left = deadline - MonotonicClock.now()
                if left <= 0 { return .timeout }
                slice = Int32(min(100, max(1, left * 1000)))
            }
            let r = Platform.pollReadable(fd, milliseconds: slice)
            if r > 0 { return .ready }
            if r < 0 && Platform.lastError != Platform.interrupted { return .ready }  // let recv report the error
        }
    }

    /// Fills `buffer` with more bytes from the socket; false at the end of the connection, deadline or stop.
    private func fill(until deadline: Double?, stop: () -> Bool) -> Result<Bool, InputError> {
        guard fd >= 0 else { return .success(false) }
        switch Self.waitReadable(fd, until: deadline, stop: stop) {
        case .ready: break
        case .timeout, .stopped: return .success(false)
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let n = chunk.withUnsafeMutableBytes { raw in
            Platform.receive(
                fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<TestHooks.receiveSize(raw.count)]))
        }
        if n < 0 {
            let code = Platform.lastError
            if code == Platform.interrupted { return .success(true) }
            return .failure(InputError(message: Platform.describe(code), offset: nil))
        }
        if n == 0 { return .success(false) }
        buffer += chunk[0..<n]
        return .success(true)
    }

    func next(until deadline: Double?, stop: () -> Bool) -> BodyChunk {
        while true {
            switch mode {
            case .done:
                return .end
            case .untilClose, .length, .chunked:
                break
            }
            if case .chunked(0) = mode {
                // A chunk-size line: hex size, optional extensions, CRLF (after the previous chunk's CRLF).
                while buffer.starts(with: Array("\r\n".utf8)) { buffer.removeFirst(2) }
                if let lineEnd = buffer.range(ofDelimiter: Array("\r\n".utf8)) {
                    let line = String(decoding: buffer[..<lineEnd.lowerBound], as: UTF8.self)
                    let hex = line.split(separator: ";").first.map { $0.trimmingSpaces() } ?? ""
                    buffer.removeSubrange(..<lineEnd.upperBound)
                    guard let size = Int64(hex, radix: 16) else { return .failed("bad chunk size '\(line)'") }
                    mode = size == 0 ? .done : .chunked(remaining: size)
                    continue
                }
            } else if !buffer.isEmpty {
                var take = buffer.count
                switch mode {
                case .length(let remaining):
                    take = Int(min(Int64(take), remaining))
                    mode = remaining - Int64(take) == 0 ? .done : .length(remaining: remaining - Int64(take))
                case .chunked(let remaining):
                    take = Int(min(Int64(take), remaining))
                    mode = .chunked(remaining: remaining - Int64(take))
                default: break
                }
                let out = Array(buffer[..<take])
                buffer.removeSubrange(..<take)
                received += Int64(out.count)
                if !out.isEmpty { return .data(out) }
                continue
            } else if case .length(0) = mode {
                mode = .done
                continue
            }
            switch fill(until: deadline, stop: stop) {
            case .success(true): continue
            case .success(false):
                if case .length(let remaining) = mode, remaining > 0,
                    deadline.map({ $0 > MonotonicClock.now() }) ?? true, !stop()
                {
                    return .failed("connection closed \(remaining) bytes before the end of the body")
                }
                return .end
            case .failure(let error):
                return .failed(error.message)
            }
        }
    }
}
