/// Detection: the EBML magic and the DocType.
extension MatroskaParser {
    /// Detects an `EBML` header (ID `1A 45 DF A3`) at the start whose DocType is `matroska` (→
    /// `AudioFileType.matroska`) or `webm` (→ `.webM`). The whole header is read (it is a few dozen
    /// bytes; one larger than the detection look-ahead is no match). Decided on every readable byte.
    static let probe = FormatProbe(fileTypes: [.matroska, .webM]) { window, options in
        for (i, byte) in [UInt8(0x1A), 0x45, 0xDF, 0xA3].enumerated() {
            guard let b = window.peekUInt8(at: i) else { return .needMoreData(atLeast: 4) }
            if b != byte { return .noMatch }
        }
        let header: EBMLHeader
        switch EBMLSyntax.peekHeader(in: window, at: 0) {
        case .needMoreData(let n): return .needMoreData(atLeast: n)
        case .invalid: return .noMatch
        case .header(let h): header = h
        }
        guard let size = header.size, size <= Int64(min(options.detectionLookahead, options.limits.maxHeaderChunkBytes))
        else { return .noMatch }
        guard let bytes = window.peekBytes(at: 0, count: Int(size)) else { return .needMoreData(atLeast: Int(size)) }
        guard let master = try? EBMLMaster(whole: bytes[...], depth: 1, limits: options.limits) else { return .noMatch }
        switch master.string(MatroskaElementID.docType) {
        case "webm": return .match(.webM, MatroskaParser(options: options))
        case "matroska": return .match(.matroska, MatroskaParser(options: options))
        default: return .noMatch
        }
    }
}
