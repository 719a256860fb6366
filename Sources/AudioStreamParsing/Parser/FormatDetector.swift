/// Chooses a format parser from the first bytes of a stream.
///
/// Every registered probe looks at the bytes; the first that matches wins, with the probes for the
/// hinted file type asked first. A hint never overrides content that another probe recognises, so a
/// wrong hint cannot break a stream whose container is self-identifying. Detection gives up with
/// `typ?` when every probe says no, or when more than `ParserOptions.detectionLookahead` bytes would
/// be needed.
enum FormatDetector {
    enum Outcome {
        case found(AudioFileType, any FormatParser)
        /// A prefix parser (see `FormatProbe.Result.prefix`): the file type is not known yet.
        case prefix(any FormatParser)
        case needMoreData(atLeast: Int)
        case unsupported
    }

    static func detect(_ window: InputWindow, hint: AudioFileType?, options: ParserOptions) -> Outcome {
        var probes = FormatRegistry.probes
        if let hint, let i = probes.firstIndex(where: { $0.fileTypes.contains(hint) }) {
            let hinted = probes.remove(at: i)
            // A scanning probe could find a sync word inside a container another probe recognises by
            // its magic: it only moves ahead of the other scanning probes.
            let front = hinted.scansPastJunk ? (probes.firstIndex(where: \.scansPastJunk) ?? probes.count) : 0
            probes.insert(hinted, at: front)
        }
        var needed: Int?
        for probe in probes {
            switch probe.probe(window, options) {
            case .match(let type, let parser):
                return .found(type, parser)
            case .prefix(let parser):
                return .prefix(parser)
            case .needMoreData(let n):
                if n <= options.detectionLookahead { needed = min(needed ?? n, n) }
            case .noMatch:
                continue
            }
        }
        if let needed, needed > window.readable { return .needMoreData(atLeast: needed) }
        return .unsupported
    }
}
