import AudioStreamParsing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An `https://` body fetched by the `audioinspect-https` executable (URLSession), read from its standard
/// output: `audioinspect` itself links no Foundation, so a file or `-` costs no TLS or ICU start-up and
/// memory (docs/cli.md, "HTTP and HTTPS").
///
/// The helper is looked for next to the running executable (`/proc/self/exe`), then on `PATH`. It writes
/// the status code, the headers and an empty line, then the body; it exits 1 with a one-line reason on
/// standard error when the request or the transfer fails. Closing the body stops it.
final class SpawnedHTTPSBody: HTTPBody {
    /// The helper's executable name.
    static let helperName = "audioinspect-https"

    private var output: Int32
    private var errors: Int32
    private var pid: pid_t
    private var buffered: [UInt8]
    private var exited = false
    private(set) var received: Int64 = 0

    private init(output: Int32, errors: Int32, pid: pid_t, buffered: [UInt8]) {
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
        guard let (pid, output, errors) = spawn(arguments) else {
            throw fail("cannot run \(helperName) (it is built with audioinspect; see docs/cli.md)")
        }
        let body = SpawnedHTTPSBody(output: output, errors: errors, pid: pid, buffered: [])
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
            Glibc.close(output)
            output = -1
        }
        if errors >= 0 {
            Glibc.close(errors)
            errors = -1
        }
        if !exited && pid > 0 {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
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
            let n = read(output, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failed(String(cString: strerror(errno))) }
            if n == 0 {
                Glibc.close(output)
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
                let n = read(errors, &chunk, chunk.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                text += chunk[0..<n]
            }
        }
        var status: Int32 = 0
        if !exited {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exited = true
        }
        close()
        let exitedNormally = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        guard !exitedNormally || code != 0 else { return nil }
        let message = String(decoding: text, as: UTF8.self).split(separator: "\n").first.map(String.init)
        return message ?? "\(Self.helperName) failed (status \(status))"
    }

    /// Starts the helper with its standard output and standard error on pipes.
    private static func spawn(_ arguments: [String]) -> (pid_t, Int32, Int32)? {
        guard let path = helperPath() else { return nil }
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard pipe(&out) == 0 else { return nil }
        guard pipe(&err) == 0 else {
            Glibc.close(out[0])
            Glibc.close(out[1])
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in [out[0], out[1], err[0], err[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, environ)
        Glibc.close(out[1])
        Glibc.close(err[1])
        guard result == 0 else {
            Glibc.close(out[0])
            Glibc.close(err[0])
            return nil
        }
        return (pid, out[0], err[0])
    }

    /// `audioinspect-https` next to this executable, else the first on `PATH`.
    private static func helperPath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = exe.lastIndex(of: "/") {
                let candidate = String(exe[...slash]) + helperName
                if access(candidate, X_OK) == 0 { return String(candidate) }
            }
        }
        guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = dir + "/" + helperName
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
