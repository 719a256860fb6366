/// A time seek's landing made packet-exact (docs/formats/ogg.md, "Seeking and translations"): after an
/// estimated `seek(toFrame:)`, with or without byte requests, the landing aims at a frame T (the first
/// frame of the first packet to decode). The first page of the followed stream with a granule position
/// places its packets before any is handed out: the granule position is the frame after the last packet
/// that ends on the page (RFC 3533 §6), and each packet's duration comes from its first bytes (Opus: the
/// TOC, RFC 6716 §3.1; Vorbis: the mode's block size, Vorbis I §4.3.1; FLAC: the frame header's block
/// size, RFC 9639 §9.1.1), so the packets' start frames follow backwards from it:
///
/// ```
///  page:     | P1      | P2      | P3   ...   | Pk      |  (+ a packet continued on the next page)
///  frames:   start(P1)  = granule frame − Σ durations(P1…Pk)
///  dropped:  every Pi that ends at or before T; the first delivered packet holds T
/// ```
///
/// When every packet the page completes ends at or before T, they are all dropped and the next page
/// decides (an early landing reads on to T); that page is placed forwards from where the dropped packets
/// ended (its first packet, or the one continued from the dropped page, starts there), so the
/// end-of-stream page is placed too. When the first packet begins after T (a late landing) nothing is
/// dropped; when T is past the last packet of the stream, that packet is delivered. The landing's first
/// delivered packet is placed in frames at once (`packetToFrame(labelledIndex)` exact); its index stays
/// the seek's estimate (fixed-blocksize FLAC relabels it from the frame number). The end-of-stream page's
/// own granule position is not used for Opus and Vorbis (it may trim the end), nor a page of a link whose
/// start frame is not known (then the landing stands as found).
extension OggParser {
    /// `FormatParser.aimSeekLanding(atFrame:)`: the estimated landing just prepared aims at `frame`.
    mutating func aimSeekLanding(atFrame frame: Int64) {
        guard landing != nil, frame >= 0 else { return }
        landing?.aim = frame
    }

    /// A page of the followed stream whose header is consumed, while the landing aims at a frame and
    /// nothing was delivered since the seek: drops the packets before the one holding the aim
    /// (`packetsToDrop`) and places the first delivered packet.
    mutating func aimLanding(
        _ header: OggPageHeader, at pageStart: Int64, _ s: OggLogicalStream, _ context: inout ParseContext
    ) {
        guard var l = landing, let target = l.aim else { return }
        guard l.startFrame == nil, l.relativeFrames.count == 1, packetsToDrop == 0, !l.isFull else {
            landing?.aim = nil
            return
        }
        // No packet ends on the page: the next page with a granule position decides.
        guard header.granulePosition != -1 else { return }
        l.aim = nil
        landing = l
        guard let clock = s.clock, let durations = packetDurations(header, s, clock, context) else { return }
        var start: Int64
        if let previous = l.aimedPageEnd, header.sequenceNumber == previous.sequence &+ 1,
            !header.isContinued || s.partial != nil
        {
            // The page after one whose packets were all dropped: its first packet (or the one continued from
            // that page) starts where that page's last complete packet ended (the end-of-stream page too,
            // whose granule position may trim the end).
            start = previous.frame
        } else {
            // The end-of-stream page's granule position may trim the end (Opus, Vorbis), not FLAC's.
            guard !header.isEndOfStream || s.codec == .flac, let linkStart = linkStartFrame(s),
                let pageEnd = landingFrame(atGranule: header.granulePosition, s, linkStart: linkStart)
            else { return }
            start = pageEnd
            for d in durations.frames {
                let (earlier, overflow) = start.subtractingReportingOverflow(d)
                guard !overflow else { return }
                start = earlier
            }
        }
        guard start >= 0 else { return }
        var drop = 0
        while drop < durations.frames.count {
            let (end, overflow) = start.addingReportingOverflow(durations.frames[drop])
            guard !overflow, end <= target else { break }
            start = end
            drop += 1
        }
        if drop == durations.frames.count && !header.isEndOfStream {
            // Every packet completed here ends at or before the target: the next page holds it (or completes the
            // packet continued from this one, which may).
            packetsToDrop = drop
            landing?.aim = target
            landing?.aimedPageEnd = (start, header.sequenceNumber)
            return
        }
        if drop == durations.frames.count && drop > 0 && !durations.continuesOnNextPage {
            // The target is past the stream's last packet: that packet is delivered.
            drop -= 1
            start -= durations.frames[drop]
        }
        packetsToDrop = drop
        _ = landing?.place(frameAtPageEnd: start)
        context.diagnose(
            .positionCorrected, at: pageStart, Self.ogg,
            "time seek landed by granule position \(header.granulePosition): \(drop) packets before frame \(target)"
                + " dropped; packet \(l.firstIndex), the first delivered after the landing, starts at frame \(start)")
    }

    /// The frame counts of the packets that the page completes, in the order they are handed out (a
    /// packet continued from the page before first, when its start was read), and whether a packet
    /// begins on the page and continues on the next; `nil` when a packet's first bytes do not count.
    private func packetDurations(
        _ header: OggPageHeader, _ s: OggLogicalStream, _ clock: OggPacketClock, _ context: ParseContext
    ) -> (frames: [Int64], continuesOnNextPage: Bool)? {
        var clock = clock
        var frames: [Int64] = []
        var pieceStart = 0
        var length = 0
        var continued = header.isContinued
        var beginsHere = false
        for value in header.lacing {
            length += Int(value)
            if value == 255 { continue }
            let head: [UInt8]
            if continued {
                continued = false
                guard let partial = s.partial else {
                    pieceStart += length
                    length = 0
                    continue
                }
                let missing = max(0, min(16 - partial.bytes.count, length))
                head =
                    Array(partial.bytes.prefix(16)) + (context.window.peekBytes(at: pieceStart, count: missing) ?? [])
            } else if length > 0 {
                head = context.window.peekBytes(at: pieceStart, count: min(16, length)) ?? []
            } else {
                continue  // An empty packet is not handed out.
            }
            guard let first = head.first,
                let n = try? clock.frames(first: first, second: head.count > 1 ? head[1] : nil, head: head)
            else { return nil }
            frames.append(n)
            pieceStart += length
            length = 0
        }
        beginsHere = !header.lastPacketCompletes && !(continued && pieceStart == 0)
        return (frames, beginsHere)
    }
}

extension OggParser {
    /// After an estimated seek in Ogg FLAC of variable block size, the first delivered packet's frame
    /// header codes the number of its first sample in the link (RFC 9639 §9.1.5, blocking strategy 1):
    /// the landing is placed in frames at once (its packet index stays the seek's estimate: nothing in
    /// the stream numbers the packets).
    mutating func placeLanding(atFLACSample sample: Int64, _ s: OggLogicalStream, _ context: inout ParseContext) {
        guard var l = landing, l.startFrame == nil, l.relativeFrames.count == 1, !l.isFull,
            let linkStart = linkStartFrame(s)
        else { return }
        let (start, overflow) = linkStart.addingReportingOverflow(sample)
        guard !overflow, let placed = l.place(frameAtPageEnd: start) else { return }
        l.aim = nil
        landing = l
        context.diagnose(
            .positionCorrected, Self.ogg("flac"),
            "estimated seek placed by the frame's sample number \(sample): packet \(l.firstIndex), the first"
                + " delivered after the landing, starts at frame \(placed)")
    }
}
