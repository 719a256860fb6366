/// Finds the next MPEG audio frame in the readable bytes, as the format probe and the parser's
/// resynchronisation both do.
///
/// A candidate is a valid header (``MPEGFrameHeader``) at a 0xFF byte. It is accepted only when the
/// bytes where its frame ends confirm it:
///
/// - a valid header with the same signature (version, layer, sampling frequency, mono or not) and
///   the same free-format-ness, as FFmpeg's two-frame check does; or
/// - the start of a tag that ends streams: ID3v1 `TAG`, APEv2 `APETAGEX`, ID3v2 `ID3`; or
/// - at the end of the stream (`InputWindow.isFinal`), the end of the data itself.
///
/// A free-format candidate (bitrate_index 0) has no computable length: its length is the distance to
/// the next header that matches it in every field except padding, private and mode-extension bits,
/// searched up to ``maxFreeFormatFrameLength`` bytes ahead; that next header is its confirmation.
///
/// The search is stateless; callers resume it from the offset it reports (`scannedUpTo`), so that
/// feeding one byte at a time looks at each byte once.
enum MPEGSyncSearch {
    /// The longest free-format frame searched for. The largest standard frame is 2,881 bytes (Layer II
    /// or III at 384 kbit/s and 32 kHz with padding, 11172-3 §2.4.3.1); free-format streams in the
    /// wild stay below 640 kbit/s (2,881 bytes at 32 kHz).
    static let maxFreeFormatFrameLength = 8_192

    /// What the search found.
    enum Outcome: Equatable {
        /// A confirmed frame starts `offset` bytes after the window's position. `length` is its
        /// length (measured for free format); no frame starts before `offset`.
        case frame(offset: Int, header: MPEGFrameHeader, length: Int)
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
    ///   - window: the readable bytes.
    ///   - start: the first offset not yet known to be junk.
    ///   - limit: candidates at or after this offset are not considered.
    ///   - horizon: no decision looks at bytes at or after this offset: what it would need there counts
    ///     as a rejection. The probe passes the detection lookahead, so that its answer depends only on
    ///     the first `lookahead` bytes and never on how they were chunked.
    ///   - freeFormatSlots: the slot count of the stream's free-format frames, when one is known, so a
    ///     free-format candidate of that stream gets its length without a search.
    /// - Returns: the outcome.
    static func search(
        _ window: InputWindow, from start: Int, limit: Int = Int.max, horizon: Int = Int.max,
        freeFormatSlots: Int? = nil
    ) -> Outcome {
        let readable = window.readable
        let limit = min(limit, horizon)
        let end = min(readable, limit)
        var i = start
        while true {
            guard let j = window.firstIndex(of: 0xFF, from: i, to: end) else {
                if window.isFinal || end >= limit { return .exhausted(scannedUpTo: max(start, end)) }
                return .undecided(scannedUpTo: max(start, end), atLeast: readable + 1)
            }
            guard j + MPEGFrameHeader.byteCount <= readable else {
                if window.isFinal || j + MPEGFrameHeader.byteCount > horizon { return .exhausted(scannedUpTo: end) }
                return .undecided(scannedUpTo: j, atLeast: j + MPEGFrameHeader.byteCount)
            }
            guard let header = MPEGFrameHeader(window, at: j) else {
                i = j + 1
                continue
            }
            switch confirm(header, at: j, window, horizon: horizon, freeFormatSlots: freeFormatSlots) {
            case .accept(let length):
                return .frame(offset: j, header: header, length: length)
            case .reject:
                i = j + 1
            case .needMoreData(let n):
                return .undecided(scannedUpTo: j, atLeast: n)
            }
        }
    }

    enum Confirmation: Equatable {
        case accept(length: Int)
        case reject
        case needMoreData(atLeast: Int)
    }

    /// Decides whether the candidate `header` at `offset` starts a frame.
    ///
    /// - Parameter requireAgreement: whether the next header must have the candidate's signature
    ///   (when searching), or may be any valid header (in sync: a new stream may start there).
    static func confirm(
        _ header: MPEGFrameHeader, at offset: Int, _ window: InputWindow, horizon: Int = Int.max,
        freeFormatSlots: Int?, requireAgreement: Bool = true
    ) -> Confirmation {
        let length: Int
        if let fixed = header.frameLength {
            length = fixed
        } else if let slots = freeFormatSlots {
            length = MPEGFrameHeader.frameLength(slots: slots, header: header)
        } else {
            return measureFreeFormat(header, at: offset, window, horizon: horizon)
        }
        let next = offset + length
        if next + MPEGFrameHeader.byteCount > horizon {
            return window.isFinal && next == window.readable ? .accept(length: length) : .reject
        }
        if let following = MPEGFrameHeader(window, at: next) {
            let agrees = following.signature == header.signature && following.isFreeFormat == header.isFreeFormat
            return agrees || !requireAgreement ? .accept(length: length) : .reject
        }
        switch TrailingTags.kind(in: window, at: next) {
        case .tag: return .accept(length: length)
        case .undecided(let n):
            if n > horizon { return .reject }
            if !window.isFinal { return .needMoreData(atLeast: n) }
            return next == window.readable ? .accept(length: length) : .reject
        case .none:
            if next + MPEGFrameHeader.byteCount <= window.readable { return .reject }
            if !window.isFinal { return .needMoreData(atLeast: next + MPEGFrameHeader.byteCount) }
            return next == window.readable ? .accept(length: length) : .reject
        }
    }

    /// Measures a free-format frame: the distance to the next header that matches this one.
    private static func measureFreeFormat(
        _ header: MPEGFrameHeader, at offset: Int, _ window: InputWindow, horizon: Int
    ) -> Confirmation {
        let searchEnd = min(offset + maxFreeFormatFrameLength + MPEGFrameHeader.byteCount, horizon)
        var i = offset + MPEGFrameHeader.byteCount + 1
        while let k = window.firstIndex(of: 0xFF, from: i, to: searchEnd - MPEGFrameHeader.byteCount + 1) {
            if let next = MPEGFrameHeader(window, at: k), header.matchesFreeFormat(next) {
                let unpadded = k - offset - (header.hasPadding ? header.slotSize : 0)
                if unpadded > 0, unpadded % header.slotSize == 0 { return .accept(length: k - offset) }
            } else if k + MPEGFrameHeader.byteCount > window.readable, !window.isFinal {
                return .needMoreData(atLeast: k + MPEGFrameHeader.byteCount)
            }
            i = k + 1
        }
        let readable = window.readable
        if readable >= searchEnd || window.isFinal { return .reject }
        // Not found in what is readable: ask for about twice as much (the search restarts at the
        // candidate each time, so the total work stays linear in the frame length).
        return .needMoreData(atLeast: min(searchEnd, max(readable + 1, offset + 2 * (readable - offset))))
    }
}
