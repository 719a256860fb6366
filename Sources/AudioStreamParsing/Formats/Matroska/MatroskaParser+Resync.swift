/// Damage inside a Cluster, and a discontinuity whose position is not an element boundary: the
/// search for the next Cluster, or the next block of a known track whose end is confirmed by what
/// follows it.
extension MatroskaParser {
    /// Element IDs that may follow a block in a Cluster (a candidate block is confirmed when one of
    /// them, or the end of the stream, starts where it ends).
    static let followers: [UInt32] = [
        MatroskaElementID.simpleBlock, MatroskaElementID.blockGroup, MatroskaElementID.cluster,
        MatroskaElementID.timestamp, MatroskaElementID.void, MatroskaElementID.crc32, MatroskaElementID.cues,
        MatroskaElementID.tags, MatroskaElementID.chapters, MatroskaElementID.attachments,
        MatroskaElementID.seekHead, MatroskaElementID.segment, MatroskaElementID.ebml, MatroskaElementID.info,
    ]

    /// Reports damage inside a Cluster and starts the search.
    mutating func damaged(_ context: inout ParseContext, _ what: String) -> ParseStep {
        context.diagnose(.junkSkipped, .mkv("Cluster"), "\(what); searching for the next Cluster or block")
        state = .resync(scanned: 0)
        waitingEnd = nil
        resetCodecState()
        // The byte at the damage is not an element start: the search begins after it.
        context.window.consume(min(1, context.window.readable))
        return .continue
    }

    mutating func stepResync(_ context: inout ParseContext, scanned: Int64) throws(AudioStreamError) -> ParseStep {
        let window = context.window
        let readable = window.readable
        var i = 0
        while i < readable {
            guard let b = window.peekUInt8(at: i) else { break }
            if b == 0x1F || b == 0xA3 || b == 0xA0 {
                switch candidate(window, at: i) {
                case .confirmed:
                    context.window.consume(i)
                    context.diagnose(
                        .junkSkipped, .mkv("Cluster"), "resynchronised after \(scanned + Int64(i)) bytes")
                    // A Cluster starts a new one; a block continues in the Cluster (or BlockGroup) at hand.
                    if b == 0x1F { open.removeAll { $0.level >= 1 } }
                    state = .elements
                    return .continue
                case .undecided(let needed):
                    if window.isFinal { break }
                    context.window.consume(i)
                    state = .resync(scanned: scanned + Int64(i))
                    return .needMoreData(atLeast: needed)
                case .rejected:
                    break
                }
            }
            i += 1
        }
        let total = scanned + Int64(readable)
        if total > Int64(limits.maxSyncScanBytes) {
            throw context.error(
                .limitExceeded, .mkv("Cluster"), "no Cluster or block found within maxSyncScanBytes after damage")
        }
        context.window.consume(readable)
        state = .resync(scanned: total)
        return .needMoreData(atLeast: 1)
    }

    enum Candidate {
        case confirmed
        case rejected
        /// This many bytes from the candidate are needed to decide.
        case undecided(Int)
    }

    /// Whether a Cluster, SimpleBlock or BlockGroup of a known track starts `at` bytes into `window`.
    func candidate(_ window: InputWindow, at offset: Int) -> Candidate {
        let header: EBMLHeader
        switch EBMLSyntax.peekHeader(in: window, at: offset) {
        case .needMoreData(let n): return .undecided(n)
        case .invalid: return .rejected
        case .header(let h): header = h
        }
        if header.id == MatroskaElementID.cluster { return .confirmed }
        guard header.id == MatroskaElementID.simpleBlock || header.id == MatroskaElementID.blockGroup,
            let body = header.bodySize, body > 0, body <= Int64(limits.maxPacketBytes)
        else { return .rejected }
        var trackAt = offset + header.headerSize
        if header.id == MatroskaElementID.blockGroup {
            // The group's first child must be a Block.
            switch EBMLSyntax.peekHeader(in: window, at: trackAt) {
            case .needMoreData(let n): return .undecided(header.headerSize + n)
            case .invalid: return .rejected
            case .header(let child):
                guard child.id == MatroskaElementID.block, let size = child.bodySize, size < body else {
                    return .rejected
                }
                trackAt += child.headerSize
            }
        }
        guard let first = window.peekUInt8(at: trackAt) else { return .undecided(trackAt - offset + 1) }
        guard let trackLength = EBMLSyntax.vintLength(first) else { return .rejected }
        guard let (number, _) = MatroskaBlock.trackNumber(in: window, at: trackAt) else {
            return .undecided(trackAt - offset + trackLength)
        }
        guard trackEntries.contains(where: { $0.number == number }) else { return .rejected }
        let end = offset + header.headerSize + Int(body)
        switch EBMLSyntax.peekHeader(in: window, at: end) {
        case .header(let next): return Self.followers.contains(next.id) ? .confirmed : .rejected
        case .invalid: return .rejected
        case .needMoreData(let n):
            return window.isFinal && window.readable <= end ? .confirmed : .undecided(end - offset + n)
        }
    }
}
