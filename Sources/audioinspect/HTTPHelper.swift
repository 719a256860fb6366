import AudioInspectCommon

/// A running `audioinspect-http` (the HTTP stack, AsyncHTTPClient, in its own process): `audioinspect`
/// links none of it, so a local file costs no HTTP, TLS or Foundation start-up time and memory
/// (docs/performance.md, "The HTTP stack's cost on local files").
///
/// The helper is looked for next to the running executable (`Platform.executablePath()`), then on
/// `PATH`. It writes a head (`HelperProtocol`) and the body on its standard output, and exits 1 with a
/// one-line reason on standard error when the request or the transfer fails. It runs in its own process
/// group (^C reaches only `audioinspect`); `close()` ends it.
final class HTTPHelper {
    private var output: Int32
    private var errors: Int32
    private let pid: Int32
    private var exited = false
    /// Bytes read after the head, not handed out yet.
    private var buffered: [UInt8] = []

    /// What `next` gives.
    enum Next {
        case data([UInt8])
        /// The helper's output ended and it exited 0: the body's regular end.
        case end
        /// The helper failed, with its reason.
        case failed(String)
        /// The deadline passed or `stop` returned true (the body has not ended).
        case stopped
    }

    private init(child: Platform.Child) {
        (output, errors, pid) = (child.output, child.errors, child.pid)
    }

    deinit { close() }

    /// Starts the helper for `url` and reads the response head (the helper bounds the connect and head
    /// times by `maxSeconds`; this waits at most 5 s longer, and checks `stop` every 100 ms).
    ///
    /// - Throws: the reason when there is no 2xx response (the helper's, or why it could not run).
    static func start(
        _ url: WebURL, headers: [(String, String)], maxSeconds: Double?, deadline: Double?, hls: Bool = false,
        stop: () -> Bool
    ) throws(HelperFailure) -> (helper: HTTPHelper, head: HelperProtocol.Head) {
        var arguments = [HelperProtocol.helperName] + (hls ? ["--hls"] : []) + [url.absoluteString]
        if let maxSeconds { arguments += ["--max-seconds", "\(maxSeconds)"] }
        for (name, value) in headers { arguments += ["--header", "\(name): \(value)"] }
        guard let path = helperPath(), let child = Platform.spawn(path, arguments: arguments) else {
            throw HelperFailure(
                reason: "cannot run \(HelperProtocol.helperName) (the HTTP stack, built with audioinspect: "
                    + "swift build; docs/cli.md)")
        }
        let helper = HTTPHelper(child: child)
        // The head. The helper's own timeouts end it; the wait here is a backstop.
        let headDeadline = deadline.map { $0 + 5 }
        var head: [UInt8] = []
        while true {
            switch HelperProtocol.decode(head[...]) {
            case .success(let (decoded, length))?:
                helper.buffered = Array(head[length...])
                return (helper, decoded)
            case .failure?:
                helper.close()
                throw HelperFailure(reason: "unexpected output from \(HelperProtocol.helperName)")
            case nil:
                break
            }
            switch helper.readSome(until: headDeadline, stop: stop) {
            case .data(let bytes): head += bytes
            case .end, .failed:
                throw HelperFailure(reason: helper.finishAndReadErrors() ?? "no response")
            case .stopped:
                helper.close()
                throw HelperFailure(reason: stop() ? "interrupted" : "no response in time (--max-seconds)")
            }
        }
    }

    /// The next body bytes, waiting at most until `deadline`, checking `stop` every 100 ms.
    func next(until deadline: Double?, stop: () -> Bool) -> Next {
        if !buffered.isEmpty {
            defer { buffered = [] }
            return .data(buffered)
        }
        switch readSome(until: deadline, stop: stop) {
        case .data(let bytes): return .data(bytes)
        case .stopped: return .stopped
        case .failed(let reason): return .failed(reason)
        case .end:
            if let reason = finishAndReadErrors() { return .failed(reason) }
            return .end
        }
    }

    /// Ends the helper (if it still runs) and closes the pipes.
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

    /// Reads what the helper wrote: `.end` at the end of its output.
    private func readSome(until deadline: Double?, stop: () -> Bool) -> Next {
        guard output >= 0 else { return .end }
        while true {
            if stop() { return .stopped }
            var slice: Int32 = 100
            if let deadline {
                let left = deadline - MonotonicClock.now()
                if left <= 0 { return .stopped }
                slice = Int32(min(100, max(1, left * 1000)))
            }
            let ready = Platform.pollReadable(output, milliseconds: slice)
            if ready == 0 || (ready < 0 && Platform.lastError == Platform.interrupted) { continue }
            break
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

    /// Waits for the helper to exit: its reason when it failed, `nil` when it exited 0.
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
        let signal = status & 0x7F
        let code = (status >> 8) & 0xFF
        if signal == 0 && code == 0 { return nil }
        if let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first { return String(line) }
        return signal != 0
            ? "\(HelperProtocol.helperName) ended by signal \(signal)"
            : "\(HelperProtocol.helperName) failed (status \(code))"
    }

    /// `audioinspect-http` next to this executable, else the first on `PATH`.
    private static func helperPath() -> String? {
        if let exe = Platform.executablePath(), let slash = exe.lastIndex(of: "/") {
            let candidate = String(exe[...slash]) + HelperProtocol.helperName
            if Platform.isExecutable(candidate) { return candidate }
        }
        guard let path = Platform.environment("PATH") else { return nil }
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = dir + "/" + HelperProtocol.helperName
            if Platform.isExecutable(candidate) { return candidate }
        }
        return nil
    }
}

/// Why the helper gave no response (its reason, or why it could not run).
struct HelperFailure: Error {
    var reason: String
}
