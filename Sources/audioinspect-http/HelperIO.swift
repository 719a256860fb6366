#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("audioinspect-http needs a POSIX C library (Glibc, Musl or Darwin)")
#endif

/// The C library calls of `audioinspect-http`, in one file (networking itself is SwiftNIO's): writing
/// the output, the environment of the test hooks, `strerror`, `SIGPIPE`, exit.
enum HelperIO {
    /// Writes all of `bytes` to `fd` (retrying after `EINTR` and short writes); false when the reader
    /// has gone (`EPIPE`) or another error ends the writing.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// Writes `bytes` to standard output; false when the reader has gone.
    static func writeOutput(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(STDOUT_FILENO, $0) }
    }

    /// Writes one line to standard error.
    static func writeErrorLine(_ text: String) {
        _ = Array((text + "\n").utf8).withUnsafeBytes { writeAll(STDERR_FILENO, $0) }
    }

    /// A reader that goes away makes writes fail with `EPIPE` instead of ending the process.
    static func ignoreBrokenPipes() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// The environment variable `name`, or `nil`.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `strerror(code)`.
    static func describe(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// Ends the process with `status`.
    static func exit(_ status: Int32) -> Never {
        cExit(status)
    }
}

private func cExit(_ status: Int32) -> Never { exit(status) }
