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
/// (Networking is not here: the `audioinspect-http` helper does it, with AsyncHTTPClient; see `HTTPInput`.)
///
/// Differences handled here: `MAP_FAILED` is compared as the address -1; `siginfo_t`'s fault address is
/// `_sifields._sigfault.si_addr` on Glibc and `si_addr` elsewhere; the handler member of `sigaction` is a
/// union on Glibc and Musl; no `/proc/self/exe` on Darwin (`_NSGetExecutablePath`);
/// `posix_spawn_file_actions_t` and `posix_spawnattr_t` are opaque pointers on Darwin and structs on
/// Linux; `environ` is `_NSGetEnviron()` on Darwin. Only the Glibc branch is compiled in CI (Linux); the others are written to
/// the same headers.
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

    /// Opens the file whose path is `path`'s bytes (as the command line gave them: they need not be
    /// UTF-8) read-only: the descriptor, or -1 (`lastError`).
    static func openForReading(_ path: [UInt8]) -> Int32 {
        withCPath(path) { open($0, O_RDONLY) }
    }

    /// Calls `body` with `path`'s bytes as a NUL-terminated C string.
    private static func withCPath<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// What a path names, after following symbolic links (`stat`).
    struct FileStatus: Equatable {
        enum Kind: Equatable {
            case regular, directory, other
        }
        var kind: Kind
        /// The device and inode (`st_dev`, `st_ino`): a directory's identity, to find symbolic link loops.
        var device: UInt64
        var inode: UInt64
    }

    /// `stat(path)` (symbolic links followed), or `nil` (`lastError`: `ENOENT` for a dangling link,
    /// `ELOOP` for a link cycle, `EACCES` …).
    static func status(_ path: [UInt8]) -> FileStatus? {
        var info = stat()
        guard withCPath(path, { stat($0, &info) }) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        let kind: FileStatus.Kind = type == S_IFREG ? .regular : type == S_IFDIR ? .directory : .other
        return FileStatus(kind: kind, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The names in directory `path` (`opendir`/`readdir`; without `.` and `..`), as bytes, in the order
    /// `readdir` returns them; `nil` when the directory cannot be read (`lastError`).
    static func directoryEntries(_ path: [UInt8]) -> [[UInt8]]? {
        guard let directory = withCPath(path, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        errno = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return errno == 0 ? names : nil
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

    // MARK: Threads

    /// The number of processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// A mutex with one condition variable (`pthread_mutex_t`, `pthread_cond_t`), allocated once so that
    /// they never move.
    final class Lock: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

        init() {
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(condition, nil)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        func lock() { pthread_mutex_lock(mutex) }
        func unlock() { pthread_mutex_unlock(mutex) }
        /// Waits for `broadcast()` (the mutex held: released while waiting, held again on return).
        func wait() { pthread_cond_wait(condition, mutex) }
        /// Wakes every thread in `wait()`.
        func broadcast() { pthread_cond_broadcast(condition) }
    }

    /// A thread started by `startThread`, for `join`.
    struct Thread {
        #if canImport(Darwin)
        fileprivate var handle: pthread_t
        #else
        fileprivate var handle: pthread_t = 0
        #endif
    }

    /// Starts a thread (`pthread_create`, default attributes) that runs `body`; `nil` when it cannot be
    /// started.
    static func startThread(_ body: @escaping @Sendable () -> Void) -> Thread? {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        #if canImport(Darwin)
        var handle: pthread_t?
        let result = pthread_create(
            &handle, nil,
            { raw in
                Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, context)
        guard result == 0, let handle else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            return nil
        }
        return Thread(handle: handle)
        #else
        var handle = pthread_t()
        let result = pthread_create(
            &handle, nil,
            { raw in
                if let raw { Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body() }
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            return nil
        }
        return Thread(handle: handle)
        #endif
    }

    /// Waits for `thread` to end (`pthread_join`).
    static func join(_ thread: Thread) {
        _ = pthread_join(thread.handle, nil)
    }

    // MARK: Pipes

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
    /// standard input from `/dev/null`, standard output and error on pipes, in a process group of its
    /// own so that ^C at the terminal reaches only this process, which decides (`posix_spawn`); `nil`
    /// when it cannot be started.
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
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
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
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environment)
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

    // MARK: Command line

    /// The process's arguments as the bytes `execve` passed (`CommandLine.unsafeArgv`), the program name
    /// first.
    static func rawArguments() -> [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { i in
            guard let argument = CommandLine.unsafeArgv[i] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }

    // MARK: Signals

    /// Makes ^C (`SIGINT`) set `interruptRequested` instead of ending the process. The handler is
    /// installed without `SA_RESTART`, so a blocking `read` returns `EINTR` and the reader can stop, and
    /// with `SA_RESETHAND`, so a second ^C ends the process as usual.
    static func catchInterrupts() {
        interruptFlag = 0
        var action = sigaction()
        #if canImport(Glibc) || canImport(Musl)
        action.__sigaction_handler.sa_handler = { _ in interruptFlag = 1 }
        #else
        action.__sigaction_u.__sa_handler = { _ in interruptFlag = 1 }
        #endif
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
        sigemptyset(&action.sa_mask)
        _ = sigaction(SIGINT, &action, nil)
    }

    /// Restores the default `SIGINT` action.
    static func restoreInterrupts() {
        _ = signal(SIGINT, SIG_DFL)
    }

    /// True once `SIGINT` arrived after `catchInterrupts()`.
    static var interruptRequested: Bool { interruptFlag != 0 }

    // MARK: Guarded mappings

    /// How many mappings can be guarded at once: one per thread that reads files (`--jobs` is at most this).
    static let maxGuardedMappings = 64

    /// Installs the `SIGBUS` handler of `guardMapping` and allocates its table. Called before threads that
    /// map files start (`guardMapping` calls it too, for a process with one such thread).
    static func prepareMappingGuards() {
        guard !busHandlerInstalled else { return }
        busHandlerInstalled = true
        guardPageMask = ~UInt(pageSize - 1)
        guardPageSize = pageSize
        let table = UnsafeMutablePointer<UInt>.allocate(capacity: 3 * maxGuardedMappings)
        table.initialize(repeating: 0, count: 3 * maxGuardedMappings)
        guardTable = table
        var action = sigaction()
        #if canImport(Glibc) || canImport(Musl)
        action.__sigaction_handler.sa_sigaction = busHandler
        #else
        action.__sigaction_u.__sa_sigaction = busHandler
        #endif
        action.sa_flags = Int32(truncatingIfNeeded: SA_SIGINFO)
        sigemptyset(&action.sa_mask)
        _ = sigaction(SIGBUS, &action, nil)
    }

    /// Registers the mapping `start..<start + count` in slot `slot` (one mapping per slot; each thread
    /// that maps files uses its own slot, 0 when there is one) with the `SIGBUS` handler: a file that
    /// shrinks under it makes touching a page past its new end raise `SIGBUS`; for an address in a
    /// registered mapping the handler maps a page of zeros there (`mmap` with `MAP_FIXED`: the faulting
    /// read is retried and reads zeros) and records the fault for `takeMappedReadFault(slot:)`. Any other
    /// `SIGBUS` gets the default action (the process ends, as without the handler).
    static func guardMapping(_ start: UnsafeMutableRawPointer, count: Int, slot: Int = 0) {
        prepareMappingGuards()
        guard let table = guardTable, slot >= 0, slot < maxGuardedMappings else { return }
        table[3 * slot] = UInt(bitPattern: start)
        table[3 * slot + 1] = UInt(bitPattern: start) + UInt(count)
    }

    /// Unregisters the mapping of `slot` (before it is unmapped).
    static func unguardMapping(slot: Int = 0) {
        guard let table = guardTable, slot >= 0, slot < maxGuardedMappings else { return }
        table[3 * slot] = 0
        table[3 * slot + 1] = 0
    }

    /// True when the handler replaced a page of `slot`'s mapping since the last call (and resets the
    /// record).
    static func takeMappedReadFault(slot: Int = 0) -> Bool {
        guard let table = guardTable, slot >= 0, slot < maxGuardedMappings else { return false }
        defer { table[3 * slot + 2] = 0 }
        return table[3 * slot + 2] != 0
    }
}

/// A thread's body, passed through `pthread_create`'s context pointer.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The `SIGBUS` handler of `Platform.guardMapping` (async-signal-safe: it reads globals and the slot
/// table, calls `mmap` and `signal`, and writes a word of the table).
private func busHandler(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?)
{
    #if canImport(Glibc)
    let address = info.map { UInt(bitPattern: $0.pointee._sifields._sigfault.si_addr) } ?? 0
    #else
    let address = info.map { UInt(bitPattern: $0.pointee.si_addr) } ?? 0
    #endif
    // The slot whose mapping holds the address (the fault is the faulting thread's, which registered it).
    var slot = -1
    if let table = guardTable {
        for i in 0..<Platform.maxGuardedMappings where address >= table[3 * i] && address < table[3 * i + 1] {
            slot = i
            break
        }
    }
    guard slot >= 0, let table = guardTable else {
        // Not a mapped input: the default action, when the faulting access is retried.
        _ = signal(SIGBUS, SIG_DFL)
        return
    }
    let page = UnsafeMutableRawPointer(bitPattern: address & guardPageMask)
    let zeros = mmap(page, guardPageSize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
    if zeros == UnsafeMutableRawPointer(bitPattern: -1) {  // MAP_FAILED
        _ = signal(SIGBUS, SIG_DFL)
        return
    }
    table[3 * slot + 2] = 1
}

// The state the signal handlers share with `Platform` (plain globals: a handler cannot take a lock).
nonisolated(unsafe) private var busHandlerInstalled = false
/// Per slot: the start and end address of the guarded mapping (0, 0 when none) and the fault record.
nonisolated(unsafe) private var guardTable: UnsafeMutablePointer<UInt>?
nonisolated(unsafe) private var guardPageMask: UInt = ~UInt(4095)
nonisolated(unsafe) private var guardPageSize = 4096

/// Set by the `SIGINT` handler of `Platform.catchInterrupts()`.
nonisolated(unsafe) private var interruptFlag: sig_atomic_t = 0

// The C functions whose names `Platform`'s own members shadow inside the enum.
private func cExit(_ status: Int32) -> Never { exit(status) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
