/// The sync search of the frame-sync engine: finds the next confirmed frame in the readable bytes, as
/// the content probes and the parsers' resynchronisation both do.
///
/// Only bytes equal to the format's sync byte (and `I` when the format stops at ID3v2 tags) are
/// candidates; the bytes between them are skipped with `memchr` (``InputWindow/firstIndex(of:from:to:)``).
/// Each candidate is examined by the format (``FrameSyncFormat/examine(_:at:horizon:)``).
///
/// The search is stateless; callers keep its scan memo (`scannedUpTo`) and resume from there, so that
/// feeding one byte at a time examines each candidate once (the rejected ones are counted into a
/// ``JunkRun`` when one is given).
enum FrameSyncSearch {
    /// What the search found.
    enum Outcome<Frame> {
        /// A confirmed frame starts `offset` bytes after the window's position; no frame (or tag)
        /// starts before it.
        case frame(offset: Int, Frame)
        /// An ID3v2 tag header starts `offset` bytes after the window's position (formats that stop
        /// at tags); no frame starts before it.
        case tag(offset: Int)
        /// No frame starts before `scannedUpTo`; deciding about the bytes from there needs at least
        /// `atLeast` readable bytes (more than are readable now).
        case undecided(scannedUpTo: Int, atLeast: Int)
        /// No frame starts before `scannedUpTo` and the search may not go further (end of the stream,
        /// or `limit` reached).
        case exhausted(scannedUpTo: Int)
    }

    /// Searches candidates at offsets `start ..< limit` after the window's position.
    ///
    /// - Parameters:
    ///   - format: the format's description.
    ///   - window: the readable bytes.
    ///   - start: the first offset not yet known to be junk (the scan memo).
    ///   - limit: candidates at or after this offset are not considered.
    ///   - horizon: no decision looks at bytes at or after this offset (see
    ///     ``FrameSyncFormat/examine(_:at:horizon:)``).
    ///   - junk: counts the sync patterns rejected on the way (``JunkRun/reject(_:)``).
    /// - Returns: the outcome.
    static func search<Format: FrameSyncFormat>(
        _ format: Format, _ window: InputWindow, from start: Int, limit: Int = Int.max, horizon: Int = Int.max,
        counting junk: inout JunkRun
    ) -> Outcome<Format.Frame> {
        let readable = window.readable
        let limit = min(limit, horizon)
        let end = min(readable, limit)
        let tagByte: UInt8? = format.stopsAtTags ? 0x49 : nil
        let needed = Format.headerByteCount
        var i = start
        while true {
            guard let j = nextCandidate(Format.syncByte, tagByte, window, from: i, to: end) else {
                if window.isFinal || end >= limit { return .exhausted(scannedUpTo: max(start, end)) }
                return .undecided(scannedUpTo: max(start, end), atLeast: readable + 1)
            }
            guard j + needed <= readable else {
                if window.isFinal || j + needed > horizon { return .exhausted(scannedUpTo: end) }
                return .undecided(scannedUpTo: j, atLeast: j + needed)
            }
            switch format.examine(window, at: j, horizon: horizon) {
            case .frame(let frame):
                return .frame(offset: j, frame)
            case .tag:
                return .tag(offset: j)
            case .rejected(let reason):
                if let reason { junk.reject(reason) }
                i = j + 1
            case .needMoreData(let n):
                return .undecided(scannedUpTo: j, atLeast: n)
            }
        }
    }

    /// Searches like ``search(_:_:from:limit:horizon:counting:)`` without counting rejections (the
    /// content probes).
    static func search<Format: FrameSyncFormat>(
        _ format: Format, _ window: InputWindow, from start: Int, limit: Int = Int.max, horizon: Int = Int.max
    ) -> Outcome<Format.Frame> {
        var ignored = JunkRun()
        return search(format, window, from: start, limit: limit, horizon: horizon, counting: &ignored)
    }

    /// The first offset in `start..<end` holding `syncByte` (or `tagByte`, when given).
    @inline(__always)
    private static func nextCandidate(
        _ syncByte: UInt8, _ tagByte: UInt8?, _ window: InputWindow, from start: Int, to end: Int
    ) -> Int? {
        let sync = window.firstIndex(of: syncByte, from: start, to: end)
        guard let tagByte else { return sync }
        return window.firstIndex(of: tagByte, from: start, to: sync ?? end) ?? sync
    }
}

extension FrameSyncSearch {
    /// A content probe over `format`: the first confirmed frame within `ParserOptions.detectionLookahead`
    /// bytes, junk before it allowed. Stateless; it asks for geometrically more bytes while it scans junk.
    ///
    /// - Parameter match: the probe's answer for the frame found `offset` bytes after the position.
    static func probe<Format: FrameSyncFormat>(
        _ format: Format, _ window: InputWindow, _ options: ParserOptions,
        match: (_ offset: Int, _ frame: Format.Frame) -> FormatProbe.Result
    ) -> FormatProbe.Result {
        let limit = options.detectionLookahead
        switch search(format, window, from: 0, horizon: limit) {
        case .frame(let offset, let frame):
            return match(offset, frame)
        case .exhausted, .tag:
            return .noMatch
        case .undecided(let scanned, let n):
            if window.isFinal { return .noMatch }
            return .needMoreData(atLeast: max(n, min(limit, 2 * window.readable)), noMatchBefore: scanned)
        }
    }
}
