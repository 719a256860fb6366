extension ADTSParser {
    /// Content detection: skips leading ID3v2 tags, then looks for a confirmed ADTS frame (a frame
    /// followed by an agreeing header, an ID3v2 tag, or the end of the stream) that starts within
    /// `ParserOptions.detectionLookahead` bytes; junk before it is allowed. MPEG audio frames never
    /// match: their layer bits are never 00, which ADTS requires.
    ///
    /// The probe holds no state, so it asks for geometrically more bytes while scanning junk (a
    /// byte-by-byte feed re-runs it only O(log n) times).
    static let probe = FormatProbe(fileTypes: [.aacADTS]) { window, options in
        let limit = options.detectionLookahead
        var start = 0
        while true {
            switch ID3v2Tag.Header.recognise(window, at: start) {
            case .notATag:
                break
            case .needMoreData(let n):
                return window.isFinal ? .noMatch : .needMoreData(atLeast: n, noMatchBefore: start)
            case .header(let header):
                start += header.totalByteCount
                if start >= limit { return .noMatch }
                continue
            }
            break
        }
        let engine = FrameSyncEngine(usesFastPath: options.usesFrameSyncFastPath)
        switch FrameSyncSearch.search(ADTSFrameSync(stopsAtTags: false), window, from: start, horizon: limit) {
        case .frame(let offset, _):
            return .match(.aacADTS, ADTSParser(engine: engine), offset: offset)
        case .exhausted, .tag:
            return .noMatch
        case .undecided(let scanned, let n):
            if window.isFinal { return .noMatch }
            // The probe rescans from the start on every run: ask for at least twice what is
            // readable (at most the look-ahead, which the search never asks beyond), so that bytes
            // fed one at a time are scanned O(log n) times, O(n) work in all.
            return .needMoreData(atLeast: max(n, min(limit, 2 * window.readable)), noMatchBefore: scanned)
        }
    }
}
