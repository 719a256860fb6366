#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("audioinspect needs a POSIX C library (Glibc, Musl or Darwin)")
#endif

/// The C library calls of `audioinspect`, in one file: the only file of the target that imports the C
/// library (Glibc, Musl or Darwin). Each wrapper is thin (the POSIX call, its retry on `EINTR` where the
/// callers always retried, and the differences between the C libraries); the callers keep their logic.
///
/// Differences handled here: `SOCK_STREAM` is an enum on Glibc and an `Int32` elsewhere; Darwin has no
/// `MSG_NOSIGNAL` (the socket gets `SO_NOSIGPIPE` instead) and no `/proc/self/exe`
/// (`_NSGetExecutablePath`); `posix_spawn_file_actions_t` is an opaque pointer on Darwin and a struct
/// on Linux; `environ` is `_NSGetEnviron()` on Darwin; `MAP_FAILED` is compared as the address -1.
/// Only the Glibc branch is compiled in CI (Linux); the others are written to the same headers.
enum Platform {
    // MARK: Errors

    /// `errno`: the error of the last failed call.
    static var lastError: Int32 { errno }

    /// `EINTR`: a call interrupted by a signal.
    static let interrupted = EINTR

    /// `strerror(code)`, e.g. "No such file or directory".
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    // MARK: Process

    /// Ends the process with `status` (`exit(3)`).
    static func exit(_ status: Int32) -> Never {
        cExit(status)
    }

    /// The environment variable `name` (`getenv`), or `nil` when it is not set.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    // MARK: File descriptors

    static let standardInput: Int32 = STDIN_FILENO
    static let standardOutput: Int32 = STDOUT_FILENO
    static let standardError: Int32 = STDERR_FILENO

    /// `isatty(fd)`.
    static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// Closes `fd` (`close(2)`; the result is ignored, as every caller did).
    static func close(_ fd: Int32) {
        _ = cClose(fd)
    }

    /// `read(2)`: the number of bytes read, 0 at the end, -1 on an error (`lastError`; may be `EINTR`).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return cRead(fd, base, buffer.count)
    }

    /// `write(2)`: the number of bytes written, or -1 on an error (`lastError`; may be `EINTR`).
    static func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return cWrite(fd, base, buffer.count)
    }

    // MARK: Files

    /// Opens `path` read-only: the descriptor, or -1 (`lastError`).
    static func openForReading(_ path: String) -> Int32 {
        open(path, O_RDONLY)
    }

    /// The size of `fd` when it is a regular file (also as standard input); `nil` for pipes, terminals
    /// and sockets.
    static func regularFileSize(_ fd: Int32) -> Int64? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Moves `fd`'s offset to `offset` (`lseek` with `SEEK_SET`); false when it cannot.
    static func seek(_ fd: Int32, to offset: Int64) -> Bool {
        lseek(fd, off_t(offset), SEEK_SET) >= 0
    }

    /// `fd`'s current offset (`lseek` with `SEEK_CUR`), or -1.
    static func currentOffset(_ fd: Int32) -> Int64 {
        Int64(lseek(fd, 0, SEEK_CUR))
    }

    /// The virtual memory page size, at least 4096.
    static var pageSize: Int {
        max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
    }

    /// Maps `count` bytes of `fd` from `offset` (a multiple of `pageSize`) read-only and private
    /// (`mmap`), advised for sequential reading; `nil` when the mapping fails.
    static func mapForReading(_ fd: Int32, offset: Int64, count: Int) -> UnsafeMutableRawPointer? {
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, off_t(offset)),
            mapped != UnsafeMutableRawPointer(bitPattern: -1)  // MAP_FAILED
        else { return nil }
        _ = madvise(mapped, count, MADV_SEQUENTIAL)
        return mapped
    }

    /// Unmaps what `mapForReading` returned (`munmap`).
    static func unmap(_ mapping: UnsafeMutableRawPointer, count: Int) {
        _ = munmap(mapping, count)
    }

    /// True when `path` names a file this process may execute (`access(path, X_OK)`).
    static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// The path of the running executable (`/proc/self/exe` on Linux, `_NSGetExecutablePath` on Darwin).
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        #if canImport(Darwin)
        var size = UInt32(buffer.count)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        let n = buffer.firstIndex(of: 0) ?? buffer.count
        #else
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        #endif
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Clock

    /// Seconds on the monotonic clock (`clock_gettime(CLOCK_MONOTONIC)`), from an arbitrary origin.
    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    // MARK: Sockets

    /// Why `connectTCP` failed.
    enum ConnectFailure: Error {
        /// The host name did not resolve.
        case unresolved
        /// No address accepted the connection; the last `errno`.
        case refused(Int32)
    }

    /// A blocking TCP connection to `host`:`port`, trying each address `getaddrinfo` returns in turn.
    /// Writes to it never raise `SIGPIPE` (see `send`).
    static func connectTCP(host: String, port: Int) -> Result<Int32, ConnectFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = Int32(SOCK_STREAM)
        #endif
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else {
            return .failure(.unresolved)
        }
        defer { freeaddrinfo(info) }
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        var lastError: Int32 = 0
        while let ai = cursor {
            let s = socket(ai.pointee.ai_family, ai.pointee.ai_socktype, ai.pointee.ai_protocol)
            if s >= 0 {
                #if canImport(Darwin)
                var on: Int32 = 1
                _ = setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
                #endif
                if connect(s, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 { return .success(s) }
                lastError = errno
                close(s)
            }
            cursor = ai.pointee.ai_next
        }
        return .failure(.refused(lastError))
    }

    /// `send(2)` without `SIGPIPE` when the peer has gone: the number of bytes sent, or -1 (`lastError`).
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Darwin)
        cSend(fd, bytes.baseAddress, bytes.count, 0)  // SO_NOSIGPIPE is set on the socket
        #else
        cSend(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #endif
    }

    /// `recv(2)`: the number of bytes received, 0 at the end of the connection, -1 on an error
    /// (`lastError`; may be `EINTR`).
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        recv(fd, buffer.baseAddress, buffer.count, 0)
    }

    /// Waits at most `milliseconds` for `fd` to be readable (`poll` for `POLLIN`): positive when it is
    /// (or has hung up), 0 on timeout, negative on an error (`lastError`; may be `EINTR`).
    static func pollReadable(_ fd: Int32, milliseconds: Int32) -> Int32 {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds)
    }

    // MARK: Child processes

    /// A started child process and the read ends of the pipes on its standard output and error.
    struct Child {
        var pid: Int32
        var output: Int32
        var errors: Int32
    }

    /// Starts `path` with `arguments` (`arguments[0]` is its name) and this process's environment,
    /// standard input from `/dev/null`, standard output and error on pipes (`posix_spawn`); `nil` when
    /// it cannot be started.
    static func spawn(_ path: String, arguments: [String]) -> Child? {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard pipe(&out) == 0 else { return nil }
        guard pipe(&err) == 0 else {
            close(out[0])
            close(out[1])
            return nil
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in [out[0], out[1], err[0], err[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for p in argv { free(p) } }
        #if canImport(Darwin)
        let environment = _NSGetEnviron().pointee
        #else
        let environment = environ
        #endif
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, environment)
        close(out[1])
        close(err[1])
        guard result == 0 else {
            close(out[0])
            close(err[0])
            return nil
        }
        return Child(pid: pid, output: out[0], errors: err[0])
    }

    /// Asks `pid` to terminate (`SIGTERM`).
    static func terminate(_ pid: Int32) {
        _ = kill(pid, SIGTERM)
    }

    /// Waits for `pid` to exit (`waitpid`, retried on `EINTR`): its wait status, or `nil` when it
    /// cannot be waited for.
    static func waitForExit(_ pid: Int32) -> Int32? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        return status
    }

    // MARK: Signals

    /// Makes ^C (`SIGINT`) set `interruptRequested` instead of ending the process.
    static func catchInterrupts() {
        interruptFlag = 0
        _ = signal(SIGINT) { _ in interruptFlag = 1 }
    }

    /// Restores the default `SIGINT` action.
    static func restoreInterrupts() {
        _ = signal(SIGINT, SIG_DFL)
    }

    /// True once `SIGINT` arrived after `catchInterrupts()`.
    static var interruptRequested: Bool { interruptFlag != 0 }
}

/// Set by the `SIGINT` handler of `Platform.catchInterrupts()`.
nonisolated(unsafe) private var interruptFlag: sig_atomic_t = 0

// The C functions whose names `Platform`'s own members shadow inside the enum.
private func cExit(_ status: Int32) -> Never { exit(status) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func cSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, buffer, count, flags)
}
