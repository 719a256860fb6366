/// Chooses a format parser from the first bytes of a stream.
///
/// Every registered probe looks at the bytes. The match that starts earliest in the stream wins (a
/// container recognised by a magic at offset 0 before a sync word found after junk); among matches at
/// the same offset, the probe asked first wins: the hinted file type's probe, then registry order. A
/// match is taken as soon as no undecided probe could still match before it (or at its offset, ahead
/// of it), so the answer depends only on the bytes, never on how they were chunked, and a hint never
/// overrides content that another probe recognises earlier in the stream. Detection gives up with
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
        if let only = options.onlyFileTypes {
            probes.removeAll { !$0.fileTypes.isEmpty && !$0.fileTypes.contains(where: only.contains) }
        }
        if let hint, let i = probes.firstIndex(where: { $0.fileTypes.contains(hint) }) {
            probes.insert(probes.remove(at: i), at: 0)
        }
        var best: (offset: Int, rank: Int, outcome: Outcome)?
        var undecided: [(rank: Int, noMatchBefore: Int, atLeast: Int)] = []
        for (rank, probe) in probes.enumerated() {
            let found: (offset: Int, outcome: Outcome)
            switch probe.probe(window, options) {
            case .match(let type, let parser, let offset):
                found = (offset, .found(type, parser))
            case .prefix(let parser):
                found = (0, .prefix(parser))
            case .needMoreData(let n, let noMatchBefore):
                if n <= options.detectionLookahead { undecided.append((rank, noMatchBefore, n)) }
                continue
            case .noMatch:
                continue
            }
            if best.map({ found.offset < $0.offset }) ?? true { best = (found.offset, rank, found.outcome) }
            // A match at offset 0 cannot be beaten or blocked by a probe asked later (ties go to the
            // earlier probe): the scanning probes after it (MPEG audio, ADTS) need not run at all.
            if found.offset == 0 { break }
        }
        if let best {
            let blocking = undecided.filter {
                $0.noMatchBefore < best.offset || ($0.noMatchBefore == best.offset && $0.rank < best.rank)
            }
            guard let needed = blocking.map(\.atLeast).min(), needed > window.readable else { return best.outcome }
            return .needMoreData(atLeast: needed)
        }
        if let needed = undecided.map(\.atLeast).min(), needed > window.readable {
            return .needMoreData(atLeast: needed)
        }
        return .unsupported
    }
}
