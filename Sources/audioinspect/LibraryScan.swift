import AudioInspectCommon

/// The order of a scan's documents (`--order`).
enum ScanOrder: String, Equatable {
    /// The order of the inputs: the arguments as given, each directory's files in name order (the default;
    /// the output of a scan does not depend on timing).
    case input
    /// Each document as soon as its file is done (for consumers that stream).
    case completion
}

/// A scan of many inputs (`audioinspect PATH...`, `-r`, `--jsonl`): files inspected in parallel by
/// `jobs` threads, one document (or text block) each, written in a stable order (docs/cli.md,
/// "Scanning a library").
///
/// Each thread takes the next file, inspects it exactly as a single-file run would (a `FileInput` mapped
/// a window at a time, its own `Platform.guardMapping` slot) and renders its output; the output is
/// written under a lock, in input order (a finished document waits for those before it) or in
/// completion order. In input order a thread does not start a file more than `lookahead` files ahead
/// of the first one not written yet, so memory stays bounded by that many rendered documents however
/// slow one file is. A failing file is an error document (and an error line on standard error); the
/// scan goes on. ^C lets the files being read end with `intr`, starts no other, writes what is done
/// and exits 130.
final class LibraryScan: @unchecked Sendable {
    private let options: CommandLineOptions
    private let inspectOptions: InspectOptions
    private var items: [ScanItem] = []
    private let jobs: Int
    private let lookahead: Int

    // Guarded by `lock`.
    private let lock = Platform.Lock()
    private var nextItem = 0
    private var written = 0
    private var pending: [Int: Rendered] = [:]
    private var done = 0
    private var failures = 0
    private var interrupted = false
    private var documentsWritten = 0
    private var out = StandardOutput()
    private var progress: ScanProgress?

    /// A file's output, rendered by the thread that inspected it.
    private struct Rendered {
        /// The document line (`--jsonl`), array element without separator (`--json`) or text block, UTF-8.
        var output: [UInt8]
        /// The error line for standard error, if the file failed.
        var errorLine: String?
        var failed: Bool
        var interrupted: Bool
    }

    init(options: CommandLineOptions) {
        self.options = options
        var inspect = InspectOptions(collectPackets: options.packets, chunkSize: options.chunkSize)
        inspect.quick = options.quick
        inspectOptions = inspect
        jobs = max(1, min(options.jobs ?? Platform.processorCount, Platform.maxGuardedMappings))
        lookahead = max(64, 16 * jobs)
    }

    /// Walks the inputs, inspects every file and writes the output.
    ///
    /// - Returns: the exit status: 0 when every file was parsed to its end and every directory read, 1
    ///   otherwise, 130 after ^C.
    func run() -> Int32 {
        let walker = LibraryWalker(recursive: options.recursive, allFiles: options.allFiles)
        let found = walker.walk(
            options.paths.indices.map { (TerminalText.decodingInvalidBytes(options.rawPath($0)), options.rawPath($0)) })
        for note in found.notes { StandardOutput.writeErrorLine("audioinspect: warning: " + note) }
        items = found.items
        if !options.noProgress { progress = ScanProgress.forTerminal(total: items.count) }

        Platform.prepareMappingGuards()
        var threads: [Platform.Thread] = []
        for slot in 1..<min(jobs, max(1, items.count)) {
            if let thread = Platform.startThread({ [self] in work(slot: slot) }) { threads.append(thread) }
        }
        work(slot: 0)
        for thread in threads { Platform.join(thread) }

        // After ^C, files done after one that was not are still written (in order).
        for index in pending.keys.sorted() { write(pending[index]!) }
        pending = [:]
        progress?.clear()
        if options.json { out.write(documentsWritten == 0 ? "[]\n" : "\n]\n") }
        out.flush()
        if interrupted || Platform.interruptRequested { return InspectionReport.interruptedStatus }
        return failures > 0 || found.missedEntries ? 1 : 0
    }

    /// One thread's loop: take the next file, inspect and render it, hand the output over.
    private func work(slot: Int) {
        var inspect = inspectOptions
        inspect.guardSlot = slot
        while true {
            lock.lock()
            while options.order == .input && nextItem >= written + lookahead && !Platform.interruptRequested {
                lock.wait()
            }
            guard nextItem < items.count, !Platform.interruptRequested else {
                lock.unlock()
                return
            }
            let index = nextItem
            nextItem += 1
            lock.unlock()

            let item = items[index]
            let report = Inspector.inspect(path: item.name, rawPath: item.rawPath, options: inspect)
            let rendered = render(report)

            lock.lock()
            done += 1
            if rendered.failed { failures += 1 }
            if rendered.interrupted { interrupted = true }
            if options.order == .completion {
                write(rendered)
                out.flush()
            } else {
                pending[index] = rendered
                while let next = pending.removeValue(forKey: written) {
                    write(next)
                    written += 1
                }
                lock.broadcast()
            }
            progress?.update(done: done, errors: failures)
            lock.unlock()
        }
    }

    /// Renders a report as this scan prints it.
    private func render(_ report: InspectionReport) -> Rendered {
        var output: [UInt8] = []
        if options.jsonl || options.json {
            output = JSONWriter.lineBytes(report.json(options.document))
            if options.json { output.removeLast() }  // the newline: `write` puts the separators
        } else if report.fileType != nil || report.failure == nil
            || report.failure?.code == InspectionReport.Failure.interruptedCode
        {
            var text = ""
            report.writeText(to: &text, includePackets: options.packets)
            output = Array(text.utf8)
        }
        let errorLine = report.failure.map { failure in
            "audioinspect: \(report.source): error \(failure.code)"
                + (failure.offset.map { " at offset \($0)" } ?? "") + ": \(failure.message)"
        }
        return Rendered(
            output: output, errorLine: errorLine, failed: report.failure != nil,
            interrupted: report.failure?.code == InspectionReport.Failure.interruptedCode)
    }

    /// Writes one file's output (the lock held).
    private func write(_ rendered: Rendered) {
        progress?.clear()
        if options.json {
            out.write(documentsWritten == 0 ? "[\n  " : ",\n  ")
            out.write(bytes: rendered.output)
            documentsWritten += 1
        } else if !rendered.output.isEmpty {
            if !options.jsonl && documentsWritten > 0 { out.write("\n") }
            out.write(bytes: rendered.output)
            documentsWritten += 1
        }
        if let line = rendered.errorLine {
            // Standard error is written at once: flush what comes before it on standard output, so that a
            // terminal shows both in order.
            out.flush()
            StandardOutput.writeErrorLine(line)
        }
    }
}

/// The progress line of a scan: `audioinspect: 1234 of 5000 files (24%), 812 files/s, 3 errors`, rewritten
/// in place on standard error.
///
/// Only when standard error is a terminal (`isatty`) and not `--no-progress`; only once the scan has
/// taken more than half a second; at most five updates a second; erased before anything else is
/// written (and at the end).
final class ScanProgress {
    private let total: Int
    private let start: Double
    private var lastUpdate: Double = 0
    private var shown = false

    /// A progress line when standard error is a terminal, else `nil`.
    static func forTerminal(total: Int) -> ScanProgress? {
        Platform.isTerminal(Platform.standardError) ? ScanProgress(total: total) : nil
    }

    init(total: Int) {
        self.total = total
        start = MonotonicClock.now()
    }

    /// Updates the line after `done` files, `errors` of them failed.
    func update(done: Int, errors: Int) {
        let elapsed = MonotonicClock.now() - start
        guard elapsed >= 0.5, elapsed - lastUpdate >= 0.2 else { return }
        lastUpdate = elapsed
        shown = true
        StandardOutput.writeError("\r\u{1B}[K" + Self.line(done: done, total: total, errors: errors, seconds: elapsed))
    }

    /// The text of the line.
    static func line(done: Int, total: Int, errors: Int, seconds: Double) -> String {
        let percent = total > 0 ? done * 100 / total : 100
        let rate = seconds > 0 ? Int((Double(done) / seconds).rounded()) : 0
        return "audioinspect: \(done) of \(total) files (\(percent)%), \(rate) files/s, "
            + (errors == 1 ? "1 error" : "\(errors) errors")
    }

    /// Erases the line, if shown.
    func clear() {
        if shown {
            StandardOutput.writeError("\r\u{1B}[K")
            shown = false
        }
    }
}
