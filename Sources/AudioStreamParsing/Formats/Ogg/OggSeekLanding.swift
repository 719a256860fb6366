/// What the parser knows after an estimated seek: the packets delivered since it landed, and, once a
/// page of the followed stream with a granule position arrived, where they are in frames.
///
/// The landing offset is an estimate, so the index the first delivered packet gets (the seek target) is
/// approximate: counting the packets before it would need every page before it. Its frame is not: a
/// granule position (RFC 3533 §6: the position after the last packet that ends on the page) gives the
/// end of the page in frames, and the packets delivered up to it are subtracted (docs/formats/ogg.md,
/// "Seeking and translations").
struct OggSeekLanding {
    /// The index given to the first packet delivered after the landing (the seek target).
    let firstIndex: Int64
    /// The start of the page where the first delivered packet begins (relative to `dataOffset`).
    var firstPageOffset: Int64?
    /// Per delivered packet: its first frame relative to the first delivered packet; one more entry (the
    /// total). At most `ParserLimits.maxPacketTableEntries` packets are recorded.
    var relativeFrames: [Int64] = [0]
    /// Whether packets stopped being recorded (the limit was reached).
    var isFull = false
    /// The first delivered packet's frame (nominal frames from the stream's first audio packet, as
    /// `packetToFrame` counts), once a granule position placed it.
    var startFrame: Int64?
    /// After an estimated time seek: the frame the landing aims at (the first frame of the first packet
    /// to decode), until a page's granule position placed the packets at the landing
    /// (`OggParser.aimLanding`).
    var aim: Int64?
    /// While aiming: the frame at the end of the last page whose packets were all dropped, and its
    /// sequence number (the next page's first packet starts there).
    var aimedPageEnd: (frame: Int64, sequence: UInt32)?

    /// Records a delivered packet of `frames` frames with index `index`.
    mutating func record(index: Int64, frames: Int64, pageOffset: Int64, limit: Int) {
        guard !isFull, index >= firstIndex, index - firstIndex == Int64(relativeFrames.count - 1) else { return }
        guard relativeFrames.count <= limit else {
            isFull = true
            return
        }
        if firstPageOffset == nil { firstPageOffset = pageOffset }
        relativeFrames.append((relativeFrames.last ?? 0) + frames)
    }

    /// A granule position's page: the frames up to its end are `frameAtPageEnd`; the packets recorded so
    /// far all end on or before it. Returns the first packet's frame when this places it.
    mutating func place(frameAtPageEnd: Int64) -> Int64? {
        guard startFrame == nil, !isFull else { return nil }
        let start = frameAtPageEnd - (relativeFrames.last ?? 0)
        startFrame = start
        return start
    }
}

/// Translations for packets and frames past the parser's exact per-packet table: the packets of an
/// estimated seek's landing once placed (exact frames), otherwise estimates from the table's average
/// frames per packet.
struct OggFrameEstimator: Sendable {
    /// The exact table: first frame of every packet it holds, plus the total.
    let tableFrames: PositionTable
    let landingFirstIndex: Int64?
    let landingStartFrame: Int64?
    let landingFrames: [Int64]

    init(tableFrames: PositionTable, landing: OggSeekLanding?) {
        self.tableFrames = tableFrames
        if let landing, let start = landing.startFrame {
            landingFirstIndex = landing.firstIndex
            landingStartFrame = start
            landingFrames = landing.relativeFrames
        } else {
            landingFirstIndex = nil
            landingStartFrame = nil
            landingFrames = []
        }
    }

    /// Average frames per packet of the table, when it holds packets.
    var averageFrames: Double? {
        guard tableFrames.count > 1, let last = tableFrames.last, last > 0 else { return nil }
        return Double(last) / Double(tableFrames.count - 1)
    }

    func frame(ofPacket packet: Int64) -> Translation<Int64>? {
        guard packet >= 0 else { return nil }
        if let first = landingFirstIndex, let start = landingStartFrame, packet >= first {
            let k = packet - first
            if k < Int64(landingFrames.count) {
                return Translation(value: start + landingFrames[Int(k)], isEstimated: false)
            }
            return extrapolate(
                from: start + (landingFrames.last ?? 0), packets: k - Int64(landingFrames.count - 1))
        }
        guard let last = tableFrames.last else { return nil }
        return extrapolate(from: last, packets: packet - Int64(tableFrames.count - 1))
    }

    func packet(ofFrame frame: Int64) -> Translation<PacketPosition>? {
        guard frame >= 0 else { return nil }
        if let first = landingFirstIndex, let start = landingStartFrame, let end = landingFrames.last {
            if frame >= start && frame < start + end {
                let i = PacketMap.lastIndex(in: landingFrames, notAbove: frame - start)
                return Translation(
                    value: PacketPosition(packet: first + Int64(i), offsetInPacket: frame - start - landingFrames[i]),
                    isEstimated: false)
            }
            if frame >= start + end {
                return estimatePacket(
                    frame: frame, baseIndex: first + Int64(landingFrames.count - 1), baseFrame: start + end)
            }
        }
        guard let last = tableFrames.last, frame >= last else { return nil }
        return estimatePacket(frame: frame, baseIndex: Int64(tableFrames.count - 1), baseFrame: last)
    }

    private func extrapolate(from base: Int64, packets: Int64) -> Translation<Int64>? {
        guard packets >= 0, let average = averageFrames else { return nil }
        let value = Double(base) + Double(packets) * average
        guard value < 9e18 else { return nil }
        return Translation(value: Int64(value.rounded()), isEstimated: true)
    }

    private func estimatePacket(frame: Int64, baseIndex: Int64, baseFrame: Int64) -> Translation<PacketPosition>? {
        guard let average = averageFrames else { return nil }
        let count = (Double(frame - baseFrame) / average).rounded(.down)
        guard count < 9e18 else { return nil }
        let (packet, overflow) = baseIndex.addingReportingOverflow(Int64(count))
        guard !overflow else { return nil }
        let span = (count * average).rounded(.down)
        guard span < 9e18 else { return nil }
        let (start, o2) = baseFrame.addingReportingOverflow(Int64(span))
        guard !o2 else { return nil }
        return Translation(
            value: PacketPosition(packet: packet, offsetInPacket: max(0, frame - start)), isEstimated: true)
    }
}
