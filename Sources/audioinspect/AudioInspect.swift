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
        case .version:
            var out = StandardOutput()
            out.write(CommandLineOptions.version + "\n")
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
        options.quick = o.quick
        // ^C stops reading and prints what was parsed (the summary ends with an `intr` error, status 130).
        Platform.catchInterrupts()
        defer { Platform.restoreInterrupts() }
        if o.isScan || Platform.status(o.rawPath(0))?.kind == .directory && o.file != "-" {
            return LibraryScan(options: o).run()
        }
        // The name as shown (source, messages): bytes that are not UTF-8 as `\xNN`.
        let name = TerminalText.decodingInvalidBytes(o.rawPath(0))
        if HLSFileInput.isPlaylist(name) {  // an HLS playlist: its segments as one stream (docs/hls.md)
            var input = HLSFileInput(path: name)
            return Inspector.inspect(&input, source: name, options: options)
                .print(json: o.json, packets: o.packets, document: o.document)
        }
        let report = Inspector.inspect(path: name, rawPath: o.rawPath(0), options: options)
        return report.print(json: o.json, packets: o.packets, document: o.document)
    }
}

/// The command line of `audioinspect`.
struct CommandLineOptions: Equatable {
    /// The inputs as text (bytes that are not UTF-8 replaced by U+FFFD): files, directories, `-`, or one URL.
    var paths: [String] = []
    /// The inputs' bytes as given, when `parse` was handed them (`nil`: each path's UTF-8).
    var rawPaths: [[UInt8]]?
    var json = false
    var jsonl = false
    var packets = false
    var chunkSize: Int?
    var follow = false
    var maxSeconds: Double?
    var noProgress = false
    var recursive = false
    var allFiles = false
    /// `--jobs N`; `nil`: one per processor.
    var jobs: Int?
    var order = ScanOrder.input
    var quick = false
    /// What each document holds (`--fields`, `--artwork`).
    var document = DocumentOptions()

    /// The first input (the only one of a single-file run).
    var file: String {
        get { paths.first ?? "" }
        set { paths = [newValue] }
    }

    /// The first input's bytes as given, when known.
    var rawFile: [UInt8]? {
        get { rawPaths?.first }
        set { rawPaths = newValue.map { [$0] } }
    }

    /// The bytes of input `index` as given (its UTF-8 when the raw arguments are not known).
    func rawPath(_ index: Int) -> [UInt8] {
        if let rawPaths, rawPaths.indices.contains(index) { return rawPaths[index] }
        return Array(paths[index].utf8)
    }

    /// True for `http://` and `https://` arguments.
    var isURL: Bool { Self.isURL(file) }

    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// A library scan rather than one input: several inputs, `-r`, or `--jsonl` (docs/cli.md, "Scanning a
    /// library"). A single directory also scans (decided when it is found to be one).
    var isScan: Bool { paths.count > 1 || recursive || jsonl }

    enum Outcome: Equatable {
        case run(CommandLineOptions)
        case help
        case version
        case usageError(String)
    }

    static let usage =
        "audioinspect <path> ... [-r] [--json | --jsonl] [--quick] [--fields <list>] [--jobs <N>] [options]"

    static let help = """
        OVERVIEW: Inspect audio files, whole music libraries, or a stream: format, duration, tags, artwork,
        packets, gapless info.

        Reads each FILE incrementally, mapped a window at a time (standard input when FILE is -, in 1 MiB
        reads, feeding each read to the parser as it arrives, so `curl URL | audioinspect -` inspects a
        network stream). Directories are scanned with -r, files in parallel, one document per file. An
        http:// or https:// URL is fetched directly (with Icy-MetaData: 1; ICY titles are printed); --follow
        prints titles and running counts as the stream plays.

        Exit status: 0 on success; 1 when an input cannot be read or parsed (one line on standard error:
        'audioinspect: error CODE at offset N: REASON'; a scan goes on and reports every such input); 64 for
        usage errors; 130 after ^C.

        USAGE: \(usage)

        ARGUMENTS:
          <path>                  Audio files, directories (with -r), - for standard input, or one http:// or
                                  https:// URL.

        OPTIONS:
          --json                  Print the audioinspect/1 JSON document (an array of them for several inputs).
          --jsonl                 Print one audioinspect/1 document per input per line (JSON Lines).
          -r, --recursive         Scan directories and their subdirectories (files with audio extensions).
          --all-files             With -r: inspect every file, whatever its extension (content decides).
          -j, --jobs <N>          Inspect N files at a time (default: one per processor; at most 64).
          --order <order>         input (default: the order of the arguments and of the sorted directories) or
                                  completion (each document as soon as its file is done).
          --quick                 Read only the headers, the tags at both ends and the tables: duration from
                                  tables, Xing/VBRI, STREAMINFO or the bit rate, flagged estimated.
          --fields <list>         Comma-separated groups (format, stream, duration, tags, all) or document keys
                                  (artwork, chapters, diagnostics, ...) to put in each document.
          --artwork               Add each picture's bytes (base64) to its artwork entry.
          --packets               Add every packet (absolute offset, size, frames) to the output.
          --chunk-size <N>        Feed the parser in chunks of exactly N bytes (default: each read as it
                                  arrives).
          --follow                With a URL: keep printing stream titles and running packet/duration counts
                                  (one line each).
          --max-seconds <N>       With a URL: stop after N seconds (a live stream never ends by itself).
          --no-progress           Never show the progress line (shown only on a terminal, for long inputs).
          --version               Show the version.
          -h, --help              Show help information.

        """

    /// The version `--version` prints.
    static let version = "audioinspect (AudioStreamParsing), documents audioinspect/1"

    /// Reads the arguments (without the program name) as the bytes the shell passed: options from their
    /// text, the inputs also as their bytes (`rawPaths`).
    static func parse(rawArguments raw: [[UInt8]]) -> Outcome {
        parse(raw.map { String(decoding: $0, as: UTF8.self) }, raw: raw)
    }

    /// Reads the arguments (without the program name). Options may come before or after the inputs, as
    /// `--name value` or `--name=value`; `--` ends the options. `raw`, when given, holds the same
    /// arguments as bytes (inputs are opened by their bytes: `rawPaths`).
    static func parse(_ arguments: [String], raw: [[UInt8]]? = nil) -> Outcome {
        var o = CommandLineOptions()
        var rawPaths: [[UInt8]] = []
        var rest = arguments.indices[...]
        var optionsEnded = false
        let valued: Set<String> = ["--chunk-size", "--max-seconds", "--jobs", "-j", "--order", "--fields"]
        while let index = rest.popFirst() {
            let argument = arguments[index]
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                o.paths.append(argument)
                rawPaths.append(raw.flatMap { $0.indices.contains(index) ? $0[index] : nil } ?? Array(argument.utf8))
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
            if inlineValue != nil && !valued.contains(name) {
                return .usageError("The option '\(name)' takes no value")
            }
            func value() -> String? { inlineValue ?? rest.popFirst().map { arguments[$0] } }
            switch name {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--json": o.json = true
            case "--jsonl": o.jsonl = true
            case "--packets": o.packets = true
            case "--follow": o.follow = true
            case "--no-progress": o.noProgress = true
            case "-r", "--recursive": o.recursive = true
            case "--all-files": o.allFiles = true
            case "--quick": o.quick = true
            case "--artwork": o.document.artworkData = true
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
            case "-j", "--jobs":
                guard let text = value() else { return .usageError("Missing value for '--jobs <N>'") }
                guard let n = Int(text), n >= 1 else {
                    return .usageError("The value '\(text)' is invalid for '--jobs <N>' (a whole number ≥ 1)")
                }
                o.jobs = min(n, Platform.maxGuardedMappings)
            case "--order":
                guard let text = value() else { return .usageError("Missing value for '--order <order>'") }
                guard let order = ScanOrder(rawValue: text) else {
                    return .usageError("The value '\(text)' is invalid for '--order <order>' (input or completion)")
                }
                o.order = order
            case "--fields":
                guard let text = value() else { return .usageError("Missing value for '--fields <list>'") }
                switch DocumentOptions.parseFields(text) {
                case .success(let keys): o.document.keys = keys
                case .failure(let error): return .usageError(error.message)
                }
            default:
                return .usageError("Unknown option '\(argument)'")
            }
        }
        guard !o.paths.isEmpty else { return .usageError("Missing expected argument '<path>'") }
        if raw != nil { o.rawPaths = rawPaths }
        if let chunkSize = o.chunkSize, chunkSize < 1 { return .usageError("--chunk-size must be at least 1.") }
        if let maxSeconds = o.maxSeconds, !(maxSeconds > 0) { return .usageError("--max-seconds must be positive.") }
        if o.json && o.jsonl { return .usageError("--json and --jsonl cannot be combined.") }
        if o.paths.contains(where: isURL) {
            if o.paths.count > 1 { return .usageError("A URL must be the only input.") }
            if o.recursive || o.jsonl || o.quick || o.document != DocumentOptions() {
                return .usageError("-r, --jsonl, --quick, --fields and --artwork apply to files, not to a URL.")
            }
        }
        if o.paths.filter({ $0 == "-" }).count > 1 { return .usageError("Standard input (-) can be read only once.") }
        if (o.follow || o.maxSeconds != nil) && !o.isURL {
            return .usageError("--follow and --max-seconds need an http:// or https:// URL.")
        }
        if o.allFiles && !o.recursive { return .usageError("--all-files applies to -r (--recursive).") }
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
        json: Bool, packets: Bool, document: DocumentOptions = DocumentOptions(),
        textTrailer: (inout StandardOutput) -> Void = { _ in }
    ) -> Int32 {
        var out = StandardOutput()
        if json {
            var writer = JSONWriter(output: out)
            writer.write(self.json(document))
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

    /// Appends UTF-8 bytes.
    mutating func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
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
