import ArgumentParser
import AudioStreamParsing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `audioinspect`: parses an audio file or standard input incrementally and prints what the stream
/// contains (see `docs/cli.md`).
@main
struct AudioInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audioinspect",
        abstract: "Inspect an audio file or stream: format, duration, packets, tags, gapless info.",
        discussion: """
            Reads FILE (or standard input when FILE is -) incrementally, in 1 MiB reads, feeding each \
            read to the parser as it arrives, so `curl URL | audioinspect -` inspects a network stream. \
            An http:// or https:// URL is fetched directly (with Icy-MetaData: 1; ICY titles are printed); \
            --follow prints titles and running counts as the stream plays.

            Exit status: 0 on success; 1 when the input cannot be read or parsed (one line on standard \
            error: 'audioinspect: error CODE at offset N: REASON'); 64 for usage errors.
            """)

    @Argument(help: "The audio file, - for standard input, or an http:// or https:// URL.")
    var file: String

    @Flag(help: "Print the audioinspect/1 JSON document instead of the summary.")
    var json = false

    @Flag(help: "Add every packet (absolute offset, size, frames) to the output.")
    var packets = false

    @Option(
        help: ArgumentHelp(
            "Feed the parser in chunks of exactly N bytes (default: each read as it arrives).", valueName: "N"))
    var chunkSize: Int?

    @Flag(help: "With a URL: keep printing stream titles and running packet/duration counts (one line each).")
    var follow = false

    @Option(
        help: ArgumentHelp(
            "With a URL: stop after N seconds (a live stream never ends by itself).", valueName: "N"))
    var maxSeconds: Double?

    @Flag(name: .customLong("no-progress"), help: "Never show the progress line for long local files.")
    var noProgress = false

    /// True for `http://` and `https://` arguments.
    var isURL: Bool {
        let lower = file.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    func validate() throws {
        if let chunkSize, chunkSize < 1 {
            throw ValidationError("--chunk-size must be at least 1.")
        }
        if let maxSeconds, !(maxSeconds > 0) {
            throw ValidationError("--max-seconds must be positive.")
        }
        if (follow || maxSeconds != nil) && !isURL {
            throw ValidationError("--follow and --max-seconds need an http:// or https:// URL.")
        }
    }

    func run() throws {
        if isURL {
            let status = URLInspection.run(
                url: file, follow: follow, maxSeconds: maxSeconds, json: json, packets: packets, chunkSize: chunkSize)
            if status != 0 { throw ExitCode(status) }
            return
        }
        var options = InspectOptions(collectPackets: packets, chunkSize: chunkSize)
        options.showProgress = !noProgress
        let report = Inspector.inspect(path: file, options: options)
        guard report.print(json: json, packets: packets) else { throw ExitCode.failure }
    }
}

extension InspectionReport {
    /// Prints the report to standard output: the `--json` document, or the text summary (followed by what
    /// `textTrailer` adds) when the input was recognised or no error ended it; then the error line, if
    /// any, to standard error.
    ///
    /// - Returns: false when an error ended the inspection (exit status 1).
    func print(
        json: Bool, packets: Bool, textTrailer: (inout StandardOutput) -> Void = { _ in }
    ) -> Bool {
        var out = StandardOutput()
        if json {
            var writer = JSONWriter(output: out)
            writer.write(self.json)
            out = writer.output
        } else if fileType != nil || failure == nil {
            writeText(to: &out, includePackets: packets)
            textTrailer(&out)
        }
        out.flush()
        if let failure {
            StandardOutput.writeError(failure.line + "\n")
            return false
        }
        return true
    }
}

/// Buffered standard output (64 KiB writes), and unbuffered standard error.
struct StandardOutput: TextOutputStream {
    private var buffer: [UInt8] = []

    mutating func write(_ string: String) {
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered.
    mutating func flush() {
        Self.writeAll(STDOUT_FILENO, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `string` to standard error at once.
    static func writeError(_ string: String) {
        writeAll(STDERR_FILENO, Array(string.utf8))
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let n = systemWrite(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }
}

/// `write(2)`, named so that `StandardOutput.write(_:)` does not shadow it.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
