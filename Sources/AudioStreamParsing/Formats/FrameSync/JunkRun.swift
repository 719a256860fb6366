/// A run of junk skipped by a frame-sync search: bytes that start no frame (garbage, a damaged frame,
/// false syncs), accounted for so that one diagnostic reports the whole run.
///
/// The search drops junk as it scans (``skip(_:_:)``), so junk never stays buffered; a parser holds
/// back only the last ``TrailingTagLocator/junkHoldBack`` bytes of a run, where tags that end the
/// stream may hide. A run ends when a frame (or a tag) is found: the parser then reports it once
/// (``report(_:_:)``) and starts a new one.
struct JunkRun {
    /// Where the first skipped byte was (absolute), `nil` before any.
    private(set) var start: Int64?
    /// Bytes skipped so far.
    var count: Int64 = 0
    /// Sync patterns rejected among the skipped bytes, and the first reason.
    private(set) var rejected = 0
    /// The first rejection's reason, described when asked for.
    private var firstReason: (any CustomStringConvertible)?
    /// The text of the first rejection.
    var firstRejection: String? { firstReason?.description }

    /// Consumes `count` bytes at the window's position as junk.
    mutating func skip(_ count: Int, _ context: inout ParseContext) {
        guard count > 0 else { return }
        if start == nil { start = context.window.position }
        self.count += Int64(count)
        context.window.consume(count)
    }

    /// Counts bytes at the end of the stream as junk without consuming them (the caller consumes the
    /// rest of the stream itself).
    mutating func add(_ count: Int, at position: Int64) {
        guard count > 0 else { return }
        if start == nil { start = position }
        self.count += Int64(count)
    }

    /// Takes back `count` bytes counted as junk (tag bytes found at the end of the stream).
    mutating func takeBack(_ count: Int64) {
        self.count -= min(count, self.count)
    }

    /// Counts a sync pattern that was not a frame.
    mutating func reject(_ reason: any CustomStringConvertible) {
        rejected += 1
        if firstReason == nil { firstReason = reason }
    }

    /// Forgets the rejections (a held frame was emitted: what follows it is a new run of evidence).
    mutating func forgetRejections() {
        rejected = 0
        firstReason = nil
    }

    /// Reports the run with one `junkSkipped` diagnostic at its start; nothing when no byte was
    /// skipped.
    ///
    /// - Parameter message: the message for `count` bytes starting at `start`, already prefixed.
    func report(_ context: inout ParseContext, _ message: (_ count: Int64, _ start: Int64) -> String) {
        guard count > 0, let start else { return }
        context.diagnose(.junkSkipped, at: start, message(count, start))
    }

    /// Gives up with `limitExceeded` once the run is longer than `ParserLimits.maxSyncScanBytes`.
    ///
    /// - Parameter wording: how the count reads in the reason (`"bytes skipped"`).
    func checkLimit(_ structure: Structure, _ context: ParseContext, wording: String) throws(AudioStreamError) {
        guard count > Int64(context.limits.maxSyncScanBytes) else { return }
        throw context.error(.limitExceeded, structure, "no frame within maxSyncScanBytes (\(count) \(wording))")
    }
}
