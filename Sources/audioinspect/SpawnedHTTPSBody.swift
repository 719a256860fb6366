import AudioStreamParsing

/// An `https://` body fetched by the `audioinspect-https` executable (URLSession), read from its standard
/// output: `audioinspect` itself links no Foundation, so a file or `-` costs no TLS or ICU start-up and
/// memory (docs/cli.md, "HTTP and HTTPS").
///
/// The helper is looked for next to the running executable (`Platform.executablePath()`), then on `PATH`. It writes
/// the status code, the headers and an empty line, then the body; it exits 1 with a one-line reason on
/// standard error when the request or the transfer fails. Closing the body stops it.
final class SpawnedHTTPSBody: HTTPBody {
    /// The helper's executable name.
    static let helperName = "audioinspect-https"

    private var output: Int32
    private var errors: Int32
    private var pid: Int32
    private var buffered: [UInt8]
    private var exited = false
    private(set) var received: Int64 = 0

    private init(output: Int32, errors: Int32, pid: Int32, buffered: [UInt8]) {
        (self.output, self.errors, self.pid, self.buffered) = (output, errors, pid, buffered)
    }

    deinit { close() }

    static func open(_ url: WebURL, headers extra: [(String, String)], timeout: Double) throws(InputError)
        -> (body: any HTTPBody, headers: [(String, String)])
    {
        let fail = { (message: String) in
            InputError(message: "cannot get '\(url.absoluteString)': \(message)", offset: nil)
        }
        var arguments = [helperName, url.absoluteString, "--timeout", String(timeout)]
        for (name, value) in extra { arguments += ["--header", "\(name): \(value)"] }
        guard let path = helperPath(), let child = Platform.spawn(path, arguments: arguments) else {
            throw fail("cannot run \(helperName) (it is built with audioinspect; see docs/cli.md)")
        }
        let body = SpawnedHTTPSBody(output: child.output, errors: child.errors, pid: child.pid, buffered: [])
        // The head: the status line, header lines, an empty line.
        let deadline = MonotonicClock.after(timeout + 5)
        var head: [UInt8] = []
        while true {
            if let end = head.range(ofDelimiter: Array("\n\n".utf8)) {
                body.buffered = Array(head[end.upperBound...])
                head.removeSubrange(end.lowerBound...)
                break
            }
            guard head.count < 256 * 1024 else {
                body.close()
                throw fail("response header too large")
            }
            switch body.readSome(until: deadline, stop: { false }) {
            case .data(let bytes): head += bytes
            case .end, .failed:
                let reason = body.finishAndReadErrors() ?? "no response"
                throw fail(reason)
            }
        }
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\n").map(String.init)
        guard let status = lines.first.flatMap({ Int($0) }) else {
            body.close()
            throw fail("unexpected output from \(helperName)")
        }
        guard (200..<300).contains(status) else {
            body.close()
            throw fail("HTTP status \(status)")
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((line[..<colon].trimmingSpaces(), line[line.index(after: colon)...].trimmingSpaces()))
        }
        return (body, headers)
    }

    func next(until deadline: Double?, stop: () -> Bool) -> BodyChunk {
        if !buffered.isEmpty {
            defer { buffered = [] }
            received += Int64(buffered.count)
            return .data(buffered)
        }
        switch readSome(until: deadline, stop: stop) {
        case .data(let bytes):
            received += Int64(bytes.count)
            return .data(bytes)
        case .failed(let message):
            return .failed(message)
        case .end:
            // `readSome` closes the pipe only at the end of the helper's output; otherwise the deadline or a
            // stop ended the wait, which is not the end of the body.
            guard output < 0 else { return .end }
            if let reason = finishAndReadErrors() { return .failed(reason) }
            return .end
        }
    }

    func close() {
        if output >= 0 {
            Platform.close(output)
            output = -1
        }
        if errors >= 0 {
            Platform.close(errors)
            errors = -1
        }
        if !exited && pid > 0 {
            Platform.terminate(pid)
            _ = Platform.waitForExit(pid)
            exited = true
        }
    }

    /// Reads what the helper wrote: `.end` at the end of its output, the deadline, or a stop.
    private func readSome(until deadline: Double?, stop: () -> Bool) -> BodyChunk {
        guard output >= 0 else { return .end }
        switch SocketHTTPBody.waitReadable(output, until: deadline, stop: stop) {
        case .ready: break
        case .timeout, .stopped: return .end
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Platform.read(output, into: $0) }
            if n < 0 && Platform.lastError == Platform.interrupted { continue }
            if n < 0 { return .failed(Platform.describe(Platform.lastError)) }
            if n == 0 {
                Platform.close(output)
                output = -1
                return .end
            }
            return .data(Array(chunk[0..<n]))
        }
    }

    /// Waits for the helper to exit; its reason when it failed.
    private func finishAndReadErrors() -> String? {
        var text: [UInt8] = []
        if errors >= 0 {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while text.count < 64 * 1024 {
                let n = chunk.withUnsafeMutableBytes { Platform.read(errors, into: $0) }
                if n < 0 && Platform.lastError == Platform.interrupted { continue }
                if n <= 0 { break }
                text += chunk[0..<n]
            }
        }
        var status: Int32 = 0
        if !exited {
            status = Platform.waitForExit(pid) ?? 0
            exited = true
        }
        close()
        let exitedNormally = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        guard !exitedNormally || code != 0 else { return nil }
        let message = String(decoding: text, as: UTF8.self).split(separator: "\n").first.map(String.init)
        return message ?? "\(Self.helperName) failed (status \(status))"
    }

    /// `audioinspect-https` next to this executable, else the first on `PATH`.
    private static func helperPath() -> String? {
        if let exe = Platform.executablePath(), let slash = exe.lastIndex(of: "/") {
            let candidate = String(exe[...slash]) + helperName
            if Platform.isExecutable(candidate) { return candidate }
        }
        guard let path = Platform.environment("PATH") else { return nil }
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = dir + "/" + helperName
            if Platform.isExecutable(candidate) { return candidate }
        }
        return nil
    }
}
