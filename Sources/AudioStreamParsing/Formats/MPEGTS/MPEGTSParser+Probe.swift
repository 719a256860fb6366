extension MPEGTSParser {
    /// Recognises a transport stream by its sync bytes: ``TSPacketLayout/unitsToConfirm`` units in a
    /// row (every unit of a shorter stream, at least two) starting at the first byte, for 188, 192 or
    /// 204-byte units (``TSPacketLayout/all``, in that order).
    static let probe = FormatProbe(fileTypes: [.mpeg2TransportStream]) { window, options in
        var needed = 0
        for layout in TSPacketLayout.all {
            switch layout.check(window, at: 0) {
            case .confirmed:
                // A shorter layout still undecided could match: the stream's answer may not depend on chunking.
                if needed > 0 { return .needMoreData(atLeast: needed) }
                return .match(.mpeg2TransportStream, MPEGTSParser(layout: layout, trackID: options.trackID))
            case .rejected:
                continue
            case .needMoreData(let n):
                needed = max(needed, n)
            }
        }
        return needed > 0 ? .needMoreData(atLeast: needed) : .noMatch
    }
}
