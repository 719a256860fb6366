/// The PTS of the selected stream as a timeline (ISO/IEC 13818-1 §2.4.3.7: a PES packet's PTS, 90 kHz,
/// is the presentation time of the first access unit that begins in it): frame 0 is the first PES
/// packet's PTS, the frames of a PES packet start at its PTS. Used for the estimated offsets past the
/// packets parsed (byte rate from the PTS) and for a time seek's search (`SeekBisection`).
struct TSTimeline {
    /// The PTS of the PES packet where the first frame begins.
    var firstPTS: Int64?
    /// The farthest PES packet with a PTS read: its transport packet's absolute offset and its frame.
    var latest: (offset: Int64, frame: Int64)?

    /// PTS values wrap at 2^33 (§2.4.3.7: 33 bits).
    static let ptsModulus: Int64 = 1 << 33

    /// The frame at `rate` of `pts`; `nil` before the first PTS is known or for a PTS before it (more
    /// than half the 33-bit range after it, modulo 2^33).
    func frame(ofPTS pts: Int64, rate: Double) -> Int64? {
        guard let firstPTS, rate > 0, rate.isFinite else { return nil }
        let ticks = (pts &- firstPTS) & (Self.ptsModulus - 1)
        guard ticks < Self.ptsModulus / 2 else { return nil }
        return Int64((Double(ticks) * rate / 90_000).rounded())
    }

    /// PES packets with a PTS read past the first, each further on than the one before.
    var pointsAfterFirst = 0

    /// A PES packet with a PTS was read at `offset`.
    mutating func record(offset: Int64, frame: Int64) {
        if latest.map({ offset > $0.offset && frame >= $0.frame }) ?? true {
            latest = (offset, frame)
            pointsAfterFirst += 1
        }
    }

    /// The average span of the PES packets from the first to the latest read.
    func averagePESBytes(dataOffset: Int64) -> Double? {
        guard let latest, pointsAfterFirst > 0, latest.offset > dataOffset else { return nil }
        return Double(latest.offset - dataOffset) / Double(pointsAfterFirst)
    }

    /// The estimate of packet offsets past the packets parsed, once a PES packet after the first was read.
    func estimate(dataOffset: Int64, framesPerPacket: Int64) -> TSTimelineEstimate? {
        guard let latest, let rate = bytesPerFrame(dataOffset: dataOffset), framesPerPacket > 0 else { return nil }
        return TSTimelineEstimate(
            offset: latest.offset - dataOffset, frame: latest.frame, bytesPerFrame: rate,
            framesPerPacket: framesPerPacket)
    }

    /// Bytes per frame from the stream's start (`dataOffset`) to the latest PES packet read.
    func bytesPerFrame(dataOffset: Int64) -> Double? {
        guard let latest, latest.frame > 0, latest.offset > dataOffset else { return nil }
        return Double(latest.offset - dataOffset) / Double(latest.frame)
    }
}

/// Packet offsets (relative to `dataOffset`) past the packets parsed, from the byte rate of the PTS
/// timeline: the latest PES packet read plus the bytes of the frames between.
struct TSTimelineEstimate: Sendable {
    let offset: Int64
    let frame: Int64
    let bytesPerFrame: Double
    let framesPerPacket: Int64

    func byteOffset(ofPacket packet: Int64) -> Int64? {
        let (target, overflow) = packet.multipliedReportingOverflow(by: framesPerPacket)
        guard !overflow else { return nil }
        let estimate = Double(offset) + Double(target - frame) * bytesPerFrame
        guard estimate.isFinite, estimate < 9e18 else { return nil }
        return max(0, Int64(estimate))
    }
}

/// A time seek refined with byte requests (`MPEGTSParser.refineSeek(toFrame:)`): the search for the
/// last PES packet whose PTS is at or before the target, then the frames before the target dropped.
struct TSSeekRefinement {
    enum Phase {
        /// Reading the first PES packet after a jump: every frame is dropped.
        case searching
        /// A PES packet at or before the target was read: frames are dropped until the one holding it.
        case approaching
        /// The search gave up (budget spent): from the requested point, frames are dropped until the target.
        case settled
    }

    var search: SeekBisection
    var phase = Phase.searching
    /// A request to make once the current transport packet is consumed.
    var request: Int64?
    /// The PES packets whose frames are being counted (a frame may end in the next one): the unit
    /// offset and the frame where its next frame starts.
    var current: (unit: Int64, next: Int64)?
    var previous: (unit: Int64, next: Int64)?

    /// The first frame of a frame of `frames` frames that begins in the PES packet at `unit`, counted on.
    mutating func start(ofFrameIn unit: Int64, frames: Int64) -> Int64? {
        if let c = current, c.unit == unit {
            current?.next += frames
            return c.next
        }
        if let p = previous, p.unit == unit {
            previous?.next += frames
            return p.next
        }
        return nil
    }
}

extension MPEGTSParser {
    /// A PES header of the selected stream was read: its PTS places it on the timeline, and a time seek's
    /// search decides from it where to go.
    mutating func pesStarted(_ context: inout ParseContext) {
        let unit = audio.unit
        lastPES = (unit, audio.latestHeaderPTS)
        guard let pts = audio.latestHeaderPTS, let format,
            let exact = timeline.frame(ofPTS: pts, rate: format.sampleRate)
        else {
            if refinement != nil {
                context.diagnose(
                    .inconsistentValues, at: unit, Self.structure,
                    "a PES packet without a usable PTS: the time seek's search stops here")
                refinement = nil
            }
            return
        }
        let frame = Self.aligned(exact, framesPerPacket: format.frames)
        timeline.record(offset: unit, frame: frame)
        guard var r = refinement else { return }
        r.previous = r.current
        r.current = (unit, frame)
        let point = SeekBisection.Point(offset: unit, end: unit + Int64(layout.unitSize), frame: frame)
        switch r.phase {
        case .searching, .approaching:
            if frame <= r.search.target {
                follow(r.search.reached(below: point), at: point, &r)
            } else if r.phase == .searching {
                follow(r.search.reached(above: point), at: point, &r)
            }
        case .settled:
            break
        }
        refinement = r
    }

    private func follow(_ next: SeekBisection.Next, at point: SeekBisection.Point, _ r: inout TSSeekRefinement) {
        switch next {
        case .readOn:
            r.phase = .approaching
        case .request(let offset) where offset == point.end:
            // The bytes that follow: read on.
            r.phase = .approaching
        case .request(let offset):
            r.request = offset
            r.phase = .searching
        case .settle(let point):
            r.request = point.offset
            r.phase = .settled
        }
    }

    /// Asks for the bytes at `offset` for the search: the parser resynchronises there.
    mutating func requestRefinement(_ offset: Int64, _ context: inout ParseContext) -> ParseStep {
        refinement?.request = nil
        refinement?.current = nil
        refinement?.previous = nil
        state = .resync(JunkRun())
        dropPartialState()
        context.announce(.requestedByteOffset(offset))
        return .request(offset)
    }

    /// During a time seek's search: whether a frame of `frames` frames that begins in the PES packet at
    /// `unit` is delivered. Frames are dropped while searching and until the one holding the target; that
    /// one ends the search and is labelled with its index on the PTS timeline (frame ÷ frames per packet).
    mutating func refinedSeekDelivers(frames: Int64, unit: Int64, _ context: inout ParseContext) -> Bool {
        guard var r = refinement else { return true }
        let counted = r.start(ofFrameIn: unit, frames: frames)
        if r.phase == .searching || r.request != nil {
            refinement = r
            return false
        }
        guard let counted else {
            refinement = nil
            return true
        }
        let start = Self.aligned(counted, framesPerPacket: frames)
        if start + frames <= r.search.target {
            refinement = r
            return false
        }
        refinement = nil
        let index = frames > 0 ? start / frames : context.nextPacketIndex
        context.diagnose(
            .positionCorrected, at: unit, Self.structure,
            "time seek refined after \(r.search.requests) byte requests: the PES packet at \(unit) holds frame "
                + "\(r.search.target); the first packet delivered starts at frame \(start) (PTS): packet \(index)"
                + (index == context.nextPacketIndex ? "" : " (\(context.nextPacketIndex) was assumed)"))
        context.correctIndices(nextPacketIndex: index)
        return true
    }

    /// `frame` rounded to a multiple of the frames per packet: PTS are in 90 kHz ticks, so a frame's PTS
    /// converted to samples may be a sample off (44.1 kHz AAC: 2,089.8 ticks per frame).
    static func aligned(_ frame: Int64, framesPerPacket: Int64) -> Int64 {
        guard framesPerPacket > 0 else { return frame }
        return (frame + framesPerPacket / 2) / framesPerPacket * framesPerPacket
    }

    /// Starts a time seek's search (`FormatParser.refineSeek(toFrame:)`): from the stream's start or the
    /// latest PES packet read before the target, with the byte rate of the PTS read so far.
    mutating func refineSeek(toFrame frame: Int64) -> Int64? {
        guard let format, timeline.firstPTS != nil, format.frames > 0 else { return nil }
        let unitSize = Int64(layout.unitSize)
        guard
            let bytesPerFrame = timeline.bytesPerFrame(dataOffset: dataOffset)
                ?? packetMap.estimatedBytesPerPacket.map({ $0 / Double(format.frames) })
        else { return nil }
        var lower = SeekBisection.Point(offset: dataOffset, end: dataOffset + unitSize, frame: 0)
        if let latest = timeline.latest, latest.frame <= frame, latest.offset > dataOffset {
            lower = SeekBisection.Point(offset: latest.offset, end: latest.offset + unitSize, frame: latest.frame)
        }
        // Read on rather than ask when the target is about two PES packets ahead (at least two frames' bytes,
        // four transport packets).
        let frameBytes = bytesPerFrame * Double(format.frames)
        let pesBytes = timeline.averagePESBytes(dataOffset: dataOffset) ?? frameBytes
        let readOn = max(4 * unitSize, Int64(min(1e9, 2 * max(frameBytes, pesBytes))))
        let span = Int64(min(9e15, bytesPerFrame * Double(max(0, frame - lower.frame)))) * 2 + readOn
        let search = SeekBisection(
            target: frame, lower: lower, bytesPerFrame: bytesPerFrame, readOnBytes: readOn,
            maxRequests: SeekBisection.requestBudget(span: span, unit: readOn))
        refinement = TSSeekRefinement(search: search)
        return search.firstProbe()
    }
}
