import AudioInspectCommon

/// The progress line for long inputs: `audioinspect: 512.0 of 2048.0 MiB (25%)`, rewritten in place
/// on standard error with `\r`.
///
/// Shown only when standard error is a terminal (`isatty`), never when it is piped or redirected, and
/// only once the input has taken more than half a second (short files never show it); updated at most
/// five times a second; erased when the input ends.
struct ProgressLine {
    private let total: Int64?
    private let start: Double
    private var lastUpdate: Double = 0
    private var shown = false

    /// A progress line when standard error is a terminal, else `nil`.
    static func forTerminal(total: Int64?) -> ProgressLine? {
        Platform.isTerminal(Platform.standardError) ? ProgressLine(total: total) : nil
    }

    private init(total: Int64?) {
        self.total = total
        start = MonotonicClock.now()
    }

    /// Updates the line after `done` bytes were read.
    mutating func update(done: Int64) {
        let elapsed = MonotonicClock.now() - start
        guard elapsed >= 0.5, elapsed - lastUpdate >= 0.2 else { return }
        lastUpdate = elapsed
        shown = true
        let mib = Double(done) / 1_048_576
        var text = "\r\u{1B}[Kaudioinspect: " + Self.format(mib) + " MiB"
        if let total, total > 0 {
            let percent = Int(Double(done) * 100 / Double(total))
            text += " of " + Self.format(Double(total) / 1_048_576) + " MiB (\(percent)%)"
        }
        StandardOutput.writeError(text)
    }

    /// Erases the line.
    func clear() {
        if shown { StandardOutput.writeError("\r\u{1B}[K") }
    }

    private static func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
