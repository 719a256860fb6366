/// A failure to open or read the input (not a parse error).
struct InputError: Error, Equatable {
    /// What went wrong, e.g. `cannot open 'x.au': No such file or directory`.
    var message: String
    /// The number of bytes read before the failure, or `nil` when the input could not be opened.
    var offset: Int64?
}

/// Something the inspector reads bytes from, one read at a time.
protocol ByteSource {
    /// Fills the start of `buffer` with the next bytes.
    ///
    /// - Returns: the number of bytes read; 0 at the end of the input.
    /// - Throws: `InputError` when the read fails.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int

    /// The input's total size when known in advance (a regular file), for the progress line.
    var byteCount: Int64? { get }

    /// True when `seek(to:)` works (a regular file, also as standard input, or bytes in memory).
    var isSeekable: Bool { get }

    /// Makes the next `read` start at absolute offset `offset`.
    ///
    /// - Throws: `InputError` when the input cannot be repositioned.
    mutating func seek(to offset: Int64) throws(InputError)

    /// The next bytes (at most `maxCount`, at least one unless the input ended) lent without a copy, the
    /// input advancing past them, or `nil` when this input cannot lend (then use `read`). See `MappedBytes`.
    mutating func mapNext(maxCount: Int) -> MappedBytes?

    /// Throws when bytes lent by `mapNext` were lost since (the file shrank under a mapping).
    func checkIntact() throws(InputError)
}

extension ByteSource {
    var byteCount: Int64? { nil }
    var isSeekable: Bool { false }
    mutating func seek(to offset: Int64) throws(InputError) {
        throw InputError(message: "the input cannot be repositioned", offset: offset)
    }
    mutating func mapNext(maxCount: Int) -> MappedBytes? { nil }
    func checkIntact() throws(InputError) {}
}

/// Bytes of a regular file mapped into memory (`mmap`, read-only, private): the parser reads them in
/// place, so the file is never copied and bytes a parser never looks at (PCM payloads, skipped chunks)
/// are never even paged in. Unmapped with `unmap()` once parsed (the parser keeps no reference to the
/// bytes of a `parse` call after it returns), so memory stays at one window.
///
/// A file that shrinks while it is read would make touching its lost pages raise `SIGBUS`: the window is
/// registered with `Platform.guardMapping`, whose handler puts a page of zeros where the file ended and
/// notes the fault; `checkIntact()` then turns it into an input error (`FileInput.shrankError`), so the
/// parse stops with an I/O error instead of a crash (docs/cli.md, "Files that change").
struct MappedBytes {
    /// The mapped bytes from the requested offset.
    let bytes: UnsafeRawBufferPointer
    fileprivate let mapping: UnsafeMutableRawPointer?
    fileprivate let mappingLength: Int
    /// The `Platform.guardMapping` slot it is registered in.
    fileprivate var guardSlot = 0

    func unmap() {
        if let mapping {
            Platform.unguardMapping(slot: guardSlot)
            Platform.unmap(mapping, count: mappingLength)
        }
    }
}

/// A file, or standard input (`-`), read with `read(2)` or mapped a window at a time: the file is never
/// loaded whole, so memory stays at one read buffer or window however large the input is, and a pipe
/// (`curl … | audioinspect -`) is parsed as its bytes arrive.
///
/// A regular file is read up to the size it had when it was opened: a file that grows meanwhile (a
/// recording in progress) is inspected as it was then; one that shrinks fails with an input error.
final class FileInput: ByteSource {
    /// The path as given (`-` for standard input), for messages.
    let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var bytesRead: Int64 = 0
    /// The end offset of the last window `mapNext` lent.
    private var lentEnd: Int64 = 0
    /// The size of a regular file when it was opened; `nil` for pipes and terminals.
    let byteCount: Int64?
    /// The `Platform.guardMapping` slot of the windows this input maps: each thread that reads files at
    /// the same time uses its own (a library scan's worker index); 0 otherwise.
    var guardSlot = 0

    /// Opens `path` for reading, or standard input when `path` is `-`.
    ///
    /// - Parameters:
    ///   - path: the path as text (messages).
    ///   - rawPath: the path's bytes as given on the command line (opened as they are, so a name that is
    ///     not UTF-8 opens); `nil` opens `path`'s UTF-8.
    /// - Throws: `InputError` when the file cannot be opened.
    init(path: String, rawPath: [UInt8]? = nil) throws(InputError) {
        self.path = path
        if path == "-" && (rawPath == nil || rawPath == Array("-".utf8)) {
            descriptor = Platform.standardInput
            ownsDescriptor = false
        } else {
            let fd = Platform.openForReading(rawPath ?? Array(path.utf8))
            guard fd >= 0 else {
                throw InputError(
                    message: "cannot open '\(path)': \(Platform.describe(Platform.lastError))", offset: nil)
            }
            descriptor = fd
            ownsDescriptor = true
        }
        byteCount = Platform.regularFileSize(descriptor)
    }

    deinit {
        if ownsDescriptor { Platform.close(descriptor) }
    }

    /// A regular file (also when it is standard input, `audioinspect - < file`) can be repositioned.
    var isSeekable: Bool { byteCount != nil }

    private var name: String { path == "-" ? "standard input" : "'\(path)'" }

    func seek(to offset: Int64) throws(InputError) {
        guard offset >= 0, Platform.seek(descriptor, to: offset) else {
            throw InputError(message: "cannot seek in \(name) to offset \(offset)", offset: bytesRead)
        }
    }

    /// The error for a file that became shorter than `expected` bytes while it was read.
    func shrankError(at offset: Int64) -> InputError {
        let now = Platform.regularFileSize(descriptor).map { "\($0)" } ?? "?"
        return InputError(
            message: "\(name) shrank while it was read (\(byteCount.map { "\($0)" } ?? "?") bytes when opened, "
                + "\(now) now)", offset: offset)
    }

    /// Maps the next bytes of a regular file from the current offset (the mapping starts at the page
    /// boundary below it), up to the file's size when it was opened, and moves the offset past them.
    func mapNext(maxCount: Int) -> MappedBytes? {
        guard maxCount > 0, let size = byteCount else { return nil }
        let offset = Platform.currentOffset(descriptor)
        guard offset >= 0 else { return nil }
        let count = Int(min(Int64(maxCount), max(0, size - offset)))
        guard count > 0 else {
            // The end of the file (as it was opened).
            return MappedBytes(bytes: UnsafeRawBufferPointer(start: nil, count: 0), mapping: nil, mappingLength: 0)
        }
        let page = Int64(Platform.pageSize)
        let start = offset - offset % page
        let delta = Int(offset - start)
        guard let mapped = Platform.mapForReading(descriptor, offset: start, count: delta + count) else { return nil }
        guard Platform.seek(descriptor, to: offset + Int64(count)) else {
            Platform.unmap(mapped, count: delta + count)
            return nil
        }
        Platform.guardMapping(mapped, count: delta + count, slot: guardSlot)
        bytesRead += Int64(count)
        lentEnd = offset + Int64(count)
        return MappedBytes(
            bytes: UnsafeRawBufferPointer(start: mapped + delta, count: count), mapping: mapped,
            mappingLength: delta + count, guardSlot: guardSlot)
    }

    /// Throws `shrankError` when a mapped page was lost (`SIGBUS` caught) or the file now ends before the
    /// end of the last window lent.
    func checkIntact() throws(InputError) {
        guard let size = byteCount else { return }
        if Platform.takeMappedReadFault(slot: guardSlot) || (Platform.regularFileSize(descriptor) ?? size) < lentEnd {
            throw shrankError(at: lentEnd)
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard buffer.count > 0 else { return 0 }
        var target = buffer
        if let size = byteCount {
            // A regular file: never past its size when opened; a read that ends earlier means it shrank.
            let offset = Platform.currentOffset(descriptor)
            let left = max(0, size - offset)
            guard left > 0 else { return 0 }
            target = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(Int64(buffer.count), left))])
        }
        while true {
            let n = Platform.read(descriptor, into: target)
            if n > 0 {
                bytesRead += Int64(n)
                return n
            }
            if n == 0 {
                if byteCount != nil { throw shrankError(at: bytesRead) }
                return 0
            }
            let code = Platform.lastError
            if code == Platform.interrupted {
                // ^C: end the input here (the inspector reports the interruption).
                if Platform.interruptRequested { return 0 }
                continue
            }
            throw InputError(message: "cannot read \(name): \(Platform.describe(code))", offset: bytesRead)
        }
    }
}

/// Bytes held in memory (tests, and callers that already have the input).
struct MemoryInput: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isSeekable: Bool { true }

    mutating func seek(to offset: Int64) throws(InputError) {
        guard offset >= 0 else { throw InputError(message: "cannot seek to offset \(offset)", offset: Int64(position)) }
        position = Int(min(offset, Int64(bytes.count)))
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let n = min(buffer.count, bytes.count - position)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<(position + n)]))
        }
        position += n
        return n
    }
}

/// Cuts a stream of reads into chunks of exactly `size` bytes (the last one may be shorter), so
/// `--chunk-size` feeds the parser the same chunks whatever sizes the reads return. With no size,
/// every read is passed on as it is.
struct Chunker {
    /// The chunk size, or `nil` to pass reads through.
    let size: Int?
    /// The start of a chunk whose remaining bytes have not been read yet (at most `size - 1` bytes).
    private var carry: [UInt8] = []

    init(size: Int?) {
        self.size = size.map { max(1, $0) }
    }

    /// Calls `body` with every whole chunk that `bytes` completes; keeps the rest for the next call.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard let size else {
            try body(bytes)
            return
        }
        var start = 0
        if !carry.isEmpty {
            let take = min(size - carry.count, bytes.count)
            carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            start = take
            guard carry.count == size else { return }
            try carry.withUnsafeBytes(body)
            carry.removeAll(keepingCapacity: true)
        }
        while bytes.count - start >= size {
            try body(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + size)]))
            start += size
        }
        if start < bytes.count {
            carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
        }
    }

    /// Calls `body` with the last, short chunk, if any.
    mutating func flush(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard !carry.isEmpty else { return }
        try carry.withUnsafeBytes(body)
        carry.removeAll()
    }
}
