/// The frame search of a frame-sync parser whose frames need nothing but the format's confirmation
/// (no held frame, no tags between frames): raw AC-3/E-AC-3 and LOAS. It runs at the start, after lost
/// sync, a discontinuity or a seek, drops junk as it scans (``JunkRun``), reports each run once, and
/// hands over the first confirmed frame.
///
/// ```
/// searching ──frame confirmed at i──▶ junk before i skipped and reported ──▶ .frame (the parser syncs)
///     │  └──undecided / exhausted──▶ the bytes before the next candidate dropped, or more data asked for
///     └──run longer than maxSyncScanBytes──▶ limitExceeded (``checkLimit(_:_:)``)
/// ```
///
/// ADTS and MPEG audio keep their own searches (a frame held until the next one shows it was whole,
/// ID3v2 tags between frames).
struct FrameSyncResync {
    /// Why the search runs (for the diagnostic).
    enum Cause { case start, lostSync, discontinuity, seek }

    /// What a step did.
    enum Step<Frame> {
        /// A frame is confirmed at the position (junk before it consumed and reported).
        case frame(Frame)
        /// Junk was dropped; step again.
        case progress
        /// The search waits for this many readable bytes.
        case needMoreData(atLeast: Int)
    }

    var cause: Cause
    /// Bytes after the position already examined.
    var offset = 0
    /// The bytes skipped, and the syncwords rejected among them.
    var junk = JunkRun()

    init(cause: Cause) {
        self.cause = cause
    }

    /// Scans for the next confirmed frame of `format` from where the search stopped.
    ///
    /// - Parameters:
    ///   - structure: the prefix of the diagnostic.
    ///   - frameNoun: what the diagnostic calls a frame ("sync frame", "LOAS frame").
    mutating func step<Format: FrameSyncFormat>(
        _ format: Format, _ structure: Structure, frameNoun: String, _ context: inout ParseContext
    ) -> Step<Format.Frame> {
        switch FrameSyncSearch.search(format, context.window, from: offset, counting: &junk) {
        case .undecided(let i, let n):
            guard i > 0 else { return .needMoreData(atLeast: n) }
            junk.skip(i, &context)
            offset = 0
            return .progress
        case .exhausted(let i):
            junk.skip(i, &context)
            offset = 0
            return i > 0 ? .progress : .needMoreData(atLeast: context.window.readable + 1)
        case .tag:
            // Formats searched here do not stop at tags.
            return .needMoreData(atLeast: context.window.readable + 1)
        case .frame(let i, let frame):
            junk.skip(i, &context)
            report(structure, frameNoun: frameNoun, &context)
            return .frame(frame)
        }
    }

    /// Takes the rest of a finished stream as junk and reports the run.
    mutating func finish(_ structure: Structure, frameNoun: String, _ context: inout ParseContext) {
        junk.skip(context.window.readable, &context)
        report(structure, frameNoun: frameNoun, &context)
    }

    /// Gives up with `limitExceeded` once the run is longer than `ParserLimits.maxSyncScanBytes`.
    func checkLimit(_ structure: Structure, _ context: ParseContext) throws(AudioStreamError) {
        try junk.checkLimit(structure, context, wording: "bytes skipped")
    }

    /// One `junkSkipped` diagnostic for the run (none when nothing was skipped).
    private func report(_ structure: Structure, frameNoun: String, _ context: inout ParseContext) {
        junk.report(&context) { n, start in
            var message: String
            switch cause {
            case .start: message = "\(n) bytes of junk before the first \(frameNoun) skipped"
            case .lostSync: message = "lost sync at \(start); \(n) bytes skipped to the next \(frameNoun)"
            case .discontinuity: message = "\(n) bytes skipped to resynchronise after a discontinuity"
            case .seek: message = "\(n) bytes skipped to the first \(frameNoun) after the seek position"
            }
            if junk.rejected > 0, let first = junk.firstRejection {
                message += " (\(junk.rejected) syncword(s) rejected; first: \(first))"
            }
            return structure.message(message)
        }
    }
}
