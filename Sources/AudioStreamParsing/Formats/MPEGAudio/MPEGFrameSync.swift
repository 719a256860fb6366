/// MPEG audio as a frame-sync format (``FrameSyncFormat``): how the frame search of the probe and of the
/// parser's resynchronisation recognises a frame.
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
struct MPEGFrameSync: FrameSyncFormat {
    /// The longest free-format frame searched for. The largest standard frame is 2,881 bytes (Layer II
    /// or III at 384 kbit/s and 32 kHz with padding, 11172-3 §2.4.3.1); free-format streams in the
    /// wild stay below 640 kbit/s (2,881 bytes at 32 kHz).
    static let maxFreeFormatFrameLength = 8_192

    /// A confirmed frame: its header and length (measured for free format).
    struct Frame: Equatable {
        var header: MPEGFrameHeader
        var length: Int
    }

    static var syncByte: UInt8 { 0xFF }
    static var headerByteCount: Int { MPEGFrameHeader.byteCount }

    /// The slot count of the stream's free-format frames, when one is known, so a free-format candidate
    /// of that stream gets its length without a search.
    var freeFormatSlots: Int?

    func examine(_ window: InputWindow, at offset: Int, horizon: Int) -> FrameSyncCandidate<Frame> {
        guard let header = MPEGFrameHeader(window, at: offset) else { return .rejected(reason: nil) }
        switch Self.confirm(header, at: offset, window, horizon: horizon, freeFormatSlots: freeFormatSlots) {
        case .accept(let length): return .frame(Frame(header: header, length: length))
        case .reject: return .rejected(reason: nil)
        case .needMoreData(let n): return .needMoreData(atLeast: n)
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
