import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error of the HTTP client, with a message for people.
public struct HTTPError: Error, CustomStringConvertible {
    public let description: String
    init(_ message: String) { description = message }
}

/// One `GET` of a byte range over HTTP/1.1 on a blocking POSIX socket: `Range: bytes=first-last`
/// (or `first-` without a last byte), the response head parsed, the body read as it arrives.
///
/// Deliberately small (the example's point is the parser loop): `http://` only, a body delimited by
/// `Content-Length` or by the end of the connection, no redirects. A server that ignores `Range` and
/// answers 200 with the whole file is handled by the caller (it skips to the offset it asked for).
/// Every wait is bounded by `timeout`.
public final class HTTPRangeResponse {
    /// The status code (206 for a range, 200 for a whole body, 416 past the end).
    public private(set) var status: Int
    /// The response headers as sent.
    public private(set) var headers: [(name: String, value: String)]
    /// The offset of the body's first byte in the resource (from `Content-Range`; 0 for a 200).
    public private(set) var bodyOffset: Int64
    /// The resource's total length, from `Content-Range: bytes a-b/total` or a 200's `Content-Length`.
    public private(set) var resourceLength: Int64?
    /// Body bytes read so far.
    public private(set) var received: Int64 = 0

    private var fd: Int32
    private var leftover: [UInt8]
    private var remaining: Int64?
    private let timeout: TimeInterval

    /// Sends `GET url` with `Range: bytes=range` (when given) and reads the response head.
    public init(url: URL, first: Int64?, last: Int64?, timeout: TimeInterval = 10) throws(HTTPError) {
        self.timeout = timeout
        guard url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else {
            throw HTTPError("only http:// URLs are supported: \(url.absoluteString)")
        }
        let port = url.port ?? 80
        fd = try Self.connect(host: host, port: port)
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUser-Agent: range-player\r\n"
        if let first {
            request += "Range: bytes=\(first)-\(last.map(String.init) ?? "")\r\n"
        }
        request += "Connection: close\r\n\r\n"
        leftover = []
        remaining = nil
        status = 0
        headers = []
        bodyOffset = 0
        resourceLength = nil
        do throws(HTTPError) {
            try send(Array(request.utf8))
            let (head, rest) = try readHead()
            leftover = rest
            let lines = head.split(separator: "\r\n").map(String.init)
            let parts = lines.first?.split(separator: " ") ?? []
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]) else {
                throw HTTPError("not an HTTP response from \(url.absoluteString)")
            }
            var fields: [(name: String, value: String)] = []
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields.append(
                    (
                        line[..<colon].trimmingCharacters(in: .whitespaces),
                        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    ))
            }
            func field(_ name: String) -> String? {
                fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
            }
            status = code
            headers = fields
            let length = field("Content-Length").flatMap { Int64($0) }
            if field("Transfer-Encoding")?.lowercased().contains("chunked") == true {
                throw HTTPError("chunked transfer-encoding is not supported by this example client")
            }
            remaining = length
            if code == 206, let range = field("Content-Range") {
                // bytes a-b/total (total may be *)
                let spec = range.split(separator: " ").last.map(String.init) ?? ""
                let halves = spec.split(separator: "/")
                bodyOffset = halves.first.flatMap { $0.split(separator: "-").first }.flatMap { Int64($0) } ?? 0
                resourceLength = halves.count == 2 ? Int64(halves[1]) : nil
            } else if code == 416, let range = field("Content-Range") {
                resourceLength = range.split(separator: "/").last.flatMap { Int64($0) }
                remaining = 0
            } else {
                resourceLength = length
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Closes the connection (the rest of the body is not read).
    public func close() {
        if fd >= 0 {
            _ = Glibc.close(fd)
            fd = -1
        }
    }

    /// Reads the next body bytes into `buffer`; returns 0 at the end of the body.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPError) -> Int {
        if let remaining, remaining <= 0 { return 0 }
        var limit = buffer.count
        if let remaining { limit = Int(min(Int64(limit), remaining)) }
        var n = 0
        if !leftover.isEmpty {
            n = min(limit, leftover.count)
            leftover.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            leftover.removeFirst(n)
        } else {
            guard fd >= 0 else { return 0 }
            try wait()
            n = recv(fd, buffer.baseAddress, limit, 0)
            if n < 0 { throw HTTPError("recv: \(String(cString: strerror(errno)))") }
            if n == 0 {
                if let remaining, remaining > 0 { throw HTTPError("connection closed \(remaining) bytes early") }
                return 0
            }
        }
        received += Int64(n)
        if let r = remaining { remaining = r - Int64(n) }
        return n
    }

    // MARK: Socket

    private static func connect(host: String, port: Int) throws(HTTPError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else {
            throw HTTPError("cannot resolve \(host)")
        }
        defer { freeaddrinfo(info) }
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let ai = cursor {
            let s = socket(ai.pointee.ai_family, ai.pointee.ai_socktype, ai.pointee.ai_protocol)
            if s >= 0 {
                if Glibc.connect(s, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 { return s }
                _ = Glibc.close(s)
            }
            cursor = ai.pointee.ai_next
        }
        throw HTTPError("cannot connect to \(host):\(port)")
    }

    private func send(_ bytes: [UInt8]) throws(HTTPError) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { throw HTTPError("cannot send the request") }
            sent += n
        }
    }

    /// Waits (at most `timeout`) until the socket is readable.
    private func wait() throws(HTTPError) {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { throw HTTPError("timed out waiting for the server") }
            let r = poll(&p, 1, Int32(min(1000, max(1, left * 1000))))
            if r > 0 { return }
            if r < 0 && errno != EINTR { return }  // recv reports it
        }
    }

    private func readHead() throws(HTTPError) -> (String, [UInt8]) {
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let range = head.firstRange(of: end) {
                return (String(decoding: head[..<range.lowerBound], as: UTF8.self), Array(head[range.upperBound...]))
            }
            guard head.count < 64 * 1024 else { throw HTTPError("response head too large") }
            try wait()
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { throw HTTPError("connection closed before the response head") }
            head += chunk[0..<n]
        }
    }
}
