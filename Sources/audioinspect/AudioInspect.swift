import AudioInspectCommon
import AudioStreamParsing

/// `audioinspect`: parses an audio file or standard input incrementally and prints what the stream
/// contains (see `docs/cli.md`).
///
/// The command line is read by `CommandLineOptions` (no argument-parser package: `audioinspect` links
/// nothing but the Swift runtime and the library, so that it starts small; docs/performance.md).
@main
struct AudioInspect {
    static func main() {
        let options: CommandLineOptions
        // The arguments as the bytes the shell passed (`CommandLine.arguments` replaces bytes that are not
        // UTF-8 with U+FFFD, so a Latin-1 file name could not be opened): options are read from their
        // text, the file is opened by its bytes.
        // (No closure here: one formed in this main-actor function would check its executor at run time,
        // which pulls in Swift Concurrency's code for nothing; docs/performance.md.)
        switch CommandLineOptions.parse(rawArguments: Array(Platform.rawArguments().dropFirst())) {
        case .help:
            var out = StandardOutput()
            out.write(CommandLineOptions.help)
            out.flush()
            Platform.exit(0)
        case .usageError(let message):
            StandardOutput.writeErrorLine("Error: \(message)")
            StandardOutput.writeError(
                "Usage: \(CommandLineOptions.usage)\n  See 'audioinspect --help' for more information.\n")
            Platform.exit(64)
        case .run(let parsed):
            options = parsed
        }
        Platform.exit(run(options))
    }

    /// Runs the inspection; returns the exit status.
    static func run(_ o: CommandLineOptions) -> Int32 {
        if o.isURL {
            return URLInspection.run(
                url: o.file, follow: o.follow, maxSeconds: o.maxSeconds, json: o.json, packets: o.packets,
                chunkSize: o.chunkSize)
        }
        var options = InspectOptions(collectPackets: o.packets, chunkSize: o.chunkSize)
        options.showProgress = !o.noProgress
        // ^C stops reading and prints what was parsed (the summary ends with an `intr` error, status 130).
        Platform.catchInterrupts()
        defer { Platform.restoreInterrupts() }
        // The name as shown (source, messages): bytes that are not UTF-8 as `\xNN`.
        let name = o.rawFile.map(TerminalText.decodingInvalidBytes) ?? o.file
        let report = Inspector.inspect(path: name, rawPath: o.rawFile ?? Array(o.file.utf8), options: options)
        return report.print(json: o.json, packets: o.packets)
    }
}

/// The command line of `audioinspect`.
struct CommandLineOptions: Equatable {
    /// The file or URL argument as text (bytes that are not UTF-8 replaced by U+FFFD).
    var file = ""
    /// The file argument's bytes as given, when `parse` was handed them (`nil`: `file`'s UTF-8).
    var rawFile: [UInt8]?
    var json = false
    var packets = false
    var chunkSize: Int?
    var follow = false
    var maxSeconds: Double?
    var noProgress = false

    /// True for `http://` and `https://` arguments.
    var isURL: Bool {
        let lower = file.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    enum Outcome: Equatable {
        case run(CommandLineOptions)
        case help
        case usageError(String)
    }

    static let usage =
        "audioinspect <file> [--json] [--packets] [--chunk-size <N>] [--follow] [--max-seconds <N>] [--no-progress]"

    static let help = """
        OVERVIEW: Inspect an audio file or stream: format, duration, packets, tags, gapless info.

        Reads FILE (or standard input when FILE is -) incrementally, in 1 MiB reads, feeding each read to the
        parser as it arrives, so `curl URL | audioinspect -` inspects a network stream. An http:// or https://
        URL is fetched directly (with Icy-MetaData: 1; ICY titles are printed); --follow prints titles and
        running counts as the stream plays.

        Exit status: 0 on success; 1 when the input cannot be read or parsed (one line on standard error:
        'audioinspect: error CODE at offset N: REASON'); 64 for usage errors.

        USAGE: \(usage)

        ARGUMENTS:
          <file>                  The audio file, - for standard input, or an http:// or https:// URL.

        OPTIONS:
          --json                  Print the audioinspect/1 JSON document instead of the summary.
          --packets               Add every packet (absolute offset, size, frames) to the output.
          --chunk-size <N>        Feed the parser in chunks of exactly N bytes (default: each read as it
                                  arrives).
          --follow                With a URL: keep printing stream titles and running packet/duration counts
                                  (one line each).
          --max-seconds <N>       With a URL: stop after N seconds (a live stream never ends by itself).
          --no-progress           Never show the progress line for long local files.
          -h, --help              Show help information.

        """

    /// Reads the arguments (without the program name) as the bytes the shell passed: options from their
    /// text, the file also as its bytes (`rawFile`).
    static func parse(rawArguments raw: [[UInt8]]) -> Outcome {
        parse(raw.map { String(decoding: $0, as: UTF8.self) }, raw: raw)
    }

    /// Reads the arguments (without the program name). Options may come before or after the file, as
    /// `--name value` or `--name=value`; `--` ends the options. `raw`, when given, holds the same
    /// arguments as bytes (the file is opened by its bytes: `rawFile`).
    static func parse(_ arguments: [String], raw: [[UInt8]]? = nil) -> Outcome {
        var o = CommandLineOptions()
        var file: String?
        var rest = arguments.indices[...]
        var optionsEnded = false
        while let index = rest.popFirst() {
            let argument = arguments[index]
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard file == nil else { return .usageError("Unexpected argument '\(argument)'") }
                file = argument
                if let raw, raw.indices.contains(index) { o.rawFile = raw[index] }
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() -> String? { inlineValue ?? rest.popFirst().map { arguments[$0] } }
            switch name {
            case "-h", "--help": return .help
            case "--json": o.json = true
            case "--packets": o.packets = true
            case "--follow": o.follow = true
            case "--no-progress": o.noProgress = true
            case "--chunk-size":
                guard let text = value() else { return .usageError("Missing value for '--chunk-size <N>'") }
                guard let n = Int(text) else {
                    return .usageError("The value '\(text)' is invalid for '--chunk-size <N>'")
                }
                o.chunkSize = n
            case "--max-seconds":
                guard let text = value() else { return .usageError("Missing value for '--max-seconds <N>'") }
                guard let n = Double(text) else {
                    return .usageError("The value '\(text)' is invalid for '--max-seconds <N>'")
                }
                o.maxSeconds = n
            default:
                return .usageError("Unknown option '\(argument)'")
            }
            if inlineValue != nil && !["--chunk-size", "--max-seconds"].contains(name) {
                return .usageError("The option '\(name)' takes no value")
            }
        }
        guard let file else { return .usageError("Missing expected argument '<file>'") }
        o.file = file
        if let chunkSize = o.chunkSize, chunkSize < 1 { return .usageError("--chunk-size must be at least 1.") }
        if let maxSeconds = o.maxSeconds, !(maxSeconds > 0) { return .usageError("--max-seconds must be positive.") }
        if (o.follow || o.maxSeconds != nil) && !o.isURL {
            return .usageError("--follow and --max-seconds need an http:// or https:// URL.")
        }
        return .run(o)
    }
}

extension InspectionReport {
    /// Exit status after ^C (128 + SIGINT, as a shell reports a process ended by it).
    static let interruptedStatus: Int32 = 130

    /// Prints the report to standard output: the `--json` document, or the text summary (followed by what
    /// `textTrailer` adds) when the input was recognised, no error ended it or ^C did; then the error line,
    /// if any, to standard error.
    ///
    /// - Returns: the exit status: 0, 1 when an error ended the inspection, 130 after ^C.
    func print(
        json: Bool, packets: Bool, textTrailer: (inout StandardOutput) -> Void = { _ in }
    ) -> Int32 {
        var out = StandardOutput()
        if json {
            var writer = JSONWriter(output: out)
            writer.write(self.json)
            out = writer.output
        } else if fileType != nil || failure == nil || failure?.code == Failure.interruptedCode {
            writeText(to: &out, includePackets: packets)
            textTrailer(&out)
        }
        out.flush()
        if let failure {
            StandardOutput.writeErrorLine(failure.line)
            return failure.code == Failure.interruptedCode ? Self.interruptedStatus : 1
        }
        return 0
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
        Self.writeAll(Platform.standardOutput, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `string` to standard error at once (our own text: see `writeErrorLine` for text that may
    /// hold input).
    static func writeError(_ string: String) {
        writeAll(Platform.standardError, Array(string.utf8))
    }

    /// Writes one line to standard error, through the terminal sanitizer (`TerminalText`): error
    /// messages quote URLs, redirect targets, file names and parser reasons.
    static func writeErrorLine(_ line: String) {
        writeError(TerminalText.sanitized(line) + "\n")
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Platform.write(fd, from: UnsafeRawBufferPointer(rebasing: raw[offset...]))
                if n < 0 {
                    if Platform.lastError == Platform.interrupted { continue }
                    return
                }
                offset += n
            }
        }
    }
}
