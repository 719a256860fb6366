/// The frames an ADTS stream delivered after an estimated seek: where each of their packets starts, and
/// what they add to the totals, numbered from the landing (their true indices are not known yet).
///
/// Nothing in an ADTS frame numbers it, so the packets after an estimated landing carry the requested
/// index (`PacketBatch.isIndexEstimated`). Their positions are still exact bytes: the run keeps them
/// (``FrameOffsetTable``, relative to the data offset, and each packet's frames) until the in-order
/// parse from the first frame (the "frontier") reaches the run's first frame. Then the run's base index
/// is known, and the run joins the frontier in one step: its packets become exact in the packet map (a
/// later seek into them is exact, without parsing them again) and the frontier continues after them. A
/// run that reached the end of the stream gives the stream's packet count when it joins.
///
/// Only packets delivered back to back from the landing are kept: a discontinuity or a new seek ends the
/// run. At most `ParserLimits.maxPacketTableEntries` packets are kept per run.
struct ADTSLandingRun {
    /// The index the first packet was labelled with (the seek target).
    let labelledIndex: Int64
    /// Packet `k` of the run starts at `offsets.offsets[k]` (the start of its frame); the last entry is
    /// the end of the last frame.
    private(set) var offsets = FrameOffsetTable()
    /// Packet `k`'s first frame relative to the run's first packet, plus the total.
    private(set) var frameStarts = PositionTable([0])
    /// Totals over the run's packets, as ``ADTSParser/Totals`` counts them.
    private(set) var packets: Int64 = 0
    private(set) var payloadBytes: Int64 = 0
    private(set) var frameBytes: Int64 = 0
    private(set) var seconds: Double = 0
    private(set) var maximumPacketSize = 0
    /// The run stopped recording (the table limit, a discontinuity or a seek): packets after it are not
    /// part of the run.
    private(set) var isClosed = false
    /// The stream ended right after the run's last frame.
    private(set) var reachesEnd = false

    init(labelledIndex: Int64) {
        self.labelledIndex = labelledIndex
    }

    /// The offset of the run's first frame (relative to the data offset), once a packet was recorded.
    var start: Int64? { offsets.offsets.first }

    /// Records the next packet of the run: `size` payload bytes and `frames` frames of the frame that
    /// spans `frameStart..<frameEnd` (relative to the data offset; the packets of one frame share it).
    /// Returns false when the run is closed (the packet is not part of it).
    @discardableResult
    mutating func record(frameStart: Int64, frameEnd: Int64, size: Int, frames: Int, limit: Int) -> Bool {
        guard !isClosed else { return false }
        switch offsets.record(packet: packets, start: frameStart, end: frameEnd, limit: limit) {
        case .skipped:
            isClosed = true
            return false
        case .recorded:
            break
        case .recordedAndFull:
            isClosed = true
        }
        packets += 1
        payloadBytes += Int64(size)
        maximumPacketSize = max(maximumPacketSize, size)
        frameStarts.append((frameStarts.last ?? 0) + Int64(frames))
        return true
    }

    /// Whether every packet of the run holds one raw data block (`framesPerBlock` frames: 1024, or 2048
    /// with implicit SBR).
    func hasOneBlockPackets(framesPerBlock: Int) -> Bool { frameStarts.last == packets * Int64(framesPerBlock) }

    /// Adds a frame's bytes and duration (once per frame, after its packets were recorded).
    mutating func addFrame(length: Int, seconds: Double) {
        frameBytes += Int64(length)
        self.seconds += seconds
    }

    /// The run ends here (a discontinuity or a seek); `atEndOfStream` when the stream ended after it.
    mutating func close(atEndOfStream: Bool = false) {
        if atEndOfStream && !isClosed { reachesEnd = true }
        isClosed = true
    }
}
