import Foundation

/// One benchmark format: the name used in benchmark names and the input files made by `make-inputs.sh`.
struct BenchFormat: Sendable {
    /// Short name (`mp3cbr`, `wav` …), also the file-name prefix.
    var name: String
    /// File extension of its inputs.
    var fileExtension: String

    /// Every format of issue 7 and the two Matroska inputs of issue 18, in the order of the tables.
    static let all: [BenchFormat] = [
        BenchFormat(name: "mp3cbr", fileExtension: "mp3"),
        BenchFormat(name: "mp3vbr", fileExtension: "mp3"),
        BenchFormat(name: "adts", fileExtension: "aac"),
        BenchFormat(name: "m4a", fileExtension: "m4a"),
        BenchFormat(name: "wav", fileExtension: "wav"),
        BenchFormat(name: "caf", fileExtension: "caf"),
        BenchFormat(name: "aiff", fileExtension: "aiff"),
        BenchFormat(name: "flac", fileExtension: "flac"),
        BenchFormat(name: "vorbis", fileExtension: "ogg"),
        BenchFormat(name: "opus", fileExtension: "opus"),
        BenchFormat(name: "webm", fileExtension: "webm"),
        BenchFormat(name: "mka", fileExtension: "mka"),
    ]

    /// The input of this format at `length` (`60m`, `60s`, `15s`).
    func path(_ length: String) -> String {
        "\(Inputs.directory)/\(name)-\(length).\(fileExtension)"
    }
}

/// Where the inputs are, and an in-memory cache holding the most recently loaded one.
enum Inputs {
    /// `$AUDIO_BENCH_INPUTS`, else `Benchmarks/.inputs` next to this package (where `make-inputs.sh`
    /// writes). The 60-minute length is `$AUDIO_BENCH_LONG` (default `60m`, matching
    /// `make-inputs.sh --minutes 60`).
    static let directory: String = {
        if let dir = ProcessInfo.processInfo.environment["AUDIO_BENCH_INPUTS"], !dir.isEmpty { return dir }
        // #filePath = <package>/Benchmarks/ParserBenchmarks/Inputs.swift
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return url.appendingPathComponent(".inputs").path
    }()

    static let longLength: String = {
        if let value = ProcessInfo.processInfo.environment["AUDIO_BENCH_LONG"], !value.isEmpty { return value }
        return "60m"
    }()

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// The loaded input: one page-aligned buffer that stays allocated while it is the cached input.
    final class Loaded: @unchecked Sendable {
        let path: String
        let bytes: UnsafeMutableRawBufferPointer
        /// Packets and packet bytes of one whole-buffer parse (the reference every chunking must match).
        var expected: ParseTotals?
        /// Seconds per byte of the 64 KiB parse of this input (the reference of the 1-byte benchmarks).
        var secondsPerByteAt64K: Double?

        /// Reads the whole file with read(2) straight into the buffer (no intermediate copy).
        init(path: String) throws {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw BenchError("cannot open \(path): run Benchmarks/make-inputs.sh") }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw BenchError("cannot stat \(path)") }
            let size = Int(info.st_size)
            self.path = path
            count = size
            bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, size), alignment: 4096)
            var done = 0
            while done < size, let base = bytes.baseAddress {
                let n = read(fd, base + done, size - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    bytes.deallocate()
                    throw BenchError("short read of \(path)")
                }
                done += n
            }
        }

        let count: Int

        var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<count]) }

        deinit { bytes.deallocate() }
    }

    nonisolated(unsafe) private static var cached: Loaded?

    /// The input at `path`, loaded once (the previous input is released first, so at most one 60-minute
    /// file is held in memory).
    static func load(_ path: String) throws -> Loaded {
        if let cached, cached.path == path { return cached }
        cached = nil
        let loaded = try Loaded(path: path)
        cached = loaded
        return loaded
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
