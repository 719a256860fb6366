/// Translations past the packets parsed in order from the first Cluster (the parser's exact tables):
/// from the `Cues`, else estimated from the Duration and the bit rate, and the packets delivered since
/// a seek landed there (docs/formats/matroska.md, "Seeking and translations").
///
/// Packets past the tables have no index the stream tells, so each cue point gets a label: the index
/// its Cluster's first packet would have. With a constant frames per packet (AAC, MP3, AC-3, FLAC,
/// ALAC, PCM) the label is the cue's frame over the frames per packet, and exact; otherwise (Opus,
/// Vorbis) it is counted from the end of the tables at the average frames per packet, and estimated.
/// A cue point's frame is its CueTime at the codec's rate (RFC 9559 §5.1.4.1.18: a block's timestamp
/// minus CodecDelay is its presentation time, so the timestamp itself is the decoded frame, priming
/// included), exact to the TimestampScale (1 ms as ffmpeg and mkvmerge write it); its offset is the
/// Cluster's first byte, exact.
///
/// Without Cues, a frame past the tables is placed at `frame × bytesPerFrame` (estimated); the parser
/// lands on the next Cluster and its Timestamp places the landing (`landing`).
struct MatroskaSeekIndex: Sendable {
    /// A cue point of the parsed track past the tables.
    struct Cue: Sendable, Equatable {
        /// The decoded frame of the Cluster's first packet.
        var frame: Int64
        /// The Cluster's first byte, relative to `dataOffset`.
        var offset: Int64
        /// The index its first packet is given.
        var label: Int64
    }

    /// Packets in the tables, and the frame after the last one.
    var tableCount: Int64 = 0
    var tableEndFrame: Int64 = 0
    /// The cue points past the tables, in frame and label order.
    var cues: [Cue] = []
    /// A constant frames per packet: labels and frames are exact.
    var framesPerPacket: Int64?
    /// Frames per packet for counting labels between known points (the average so far, or nominal).
    var averageFrames: Double = 960
    /// Bytes per frame for the estimate without Cues; `nil`: no estimate.
    var bytesPerFrame: Double?
    /// The landing of the last seek past the tables, once placed in time: its first packet's index and
    /// frame, and the frames of the packets delivered since (relative, plus the total).
    var landingIndex: Int64?
    var landingFrame: Int64?
    var landingFrames: [Int64] = []
    /// The block start of each packet the landing recorded, and whether the landing's indices are exact.
    var landingOffsets: [Int64] = []
    var landingIsExact = false

    /// Builds the cue list: the points of `track` from `points` at or after the end of the tables, with
    /// their frames (`frame(ofTime:)`) and offsets (`offset(ofCluster:)`), labelled.
    mutating func setCues(
        _ points: [MatroskaCuePoint], track: UInt64, frame: (UInt64) -> Int64?, offset: (UInt64) -> Int64?
    ) {
        cues = []
        for point in points where point.track == track {
            guard var f = frame(point.time), let o = offset(point.clusterPosition), o >= 0, f >= tableEndFrame
            else { continue }
            let label: Int64
            if let fpp = framesPerPacket, fpp > 0 {
                label = (f + fpp / 2) / fpp
                f = label * fpp
            } else {
                let n = (Double(f - tableEndFrame) / averageFrames).rounded()
                guard n < 4e18 else { continue }
                label = tableCount + Int64(n)
            }
            guard label >= tableCount else { continue }
            if let last = cues.last, label <= last.label || o <= last.offset { continue }
            cues.append(Cue(frame: f, offset: o, label: label))
        }
    }

    private var perPacket: Double { framesPerPacket.map(Double.init) ?? averageFrames }
    private var exact: Bool { framesPerPacket != nil }

    /// The first frame of packet `packet` (at or past the tables' end).
    func frame(ofPacket packet: Int64) -> Translation<Int64>? {
        guard packet >= tableCount else { return nil }
        if let first = landingIndex, let start = landingFrame, packet >= first {
            let k = packet - first
            if k < Int64(landingFrames.count) {
                return Translation(value: start + landingFrames[Int(k)], isEstimated: false)
            }
            return count(from: start + (landingFrames.last ?? 0), packets: k - Int64(landingFrames.count - 1))
        }
        if let cue = cues.last(where: { $0.label <= packet }) {
            if cue.label == packet { return Translation(value: cue.frame, isEstimated: false) }
            return count(from: cue.frame, packets: packet - cue.label)
        }
        return count(from: tableEndFrame, packets: packet - tableCount)
    }

    /// The packet holding frame `frame` (at or past the tables' end), and the frame's offset in it: the
    /// landing's packets, else the last cue point at or before it, else (no Cues) an estimate; `nil` when
    /// none applies (the tables' last packet then holds it as far as is known).
    func packet(ofFrame frame: Int64) -> Translation<PacketPosition>? {
        guard frame >= tableEndFrame else { return nil }
        if let first = landingIndex, let start = landingFrame, let end = landingFrames.last,
            frame >= start && frame < start + end
        {
            let i = PacketMap.lastIndex(in: landingFrames, notAbove: frame - start)
            return Translation(
                value: PacketPosition(packet: first + Int64(i), offsetInPacket: frame - start - landingFrames[i]),
                isEstimated: false)
        }
        if let cue = cues.last(where: { $0.frame <= frame }) {
            return Translation(
                value: PacketPosition(packet: cue.label, offsetInPacket: frame - cue.frame), isEstimated: !exact)
        }
        guard cues.isEmpty, bytesPerFrame != nil else { return nil }
        let n = (Double(frame - tableEndFrame) / perPacket).rounded(.down)
        guard n < 4e18 else { return nil }
        let start = tableEndFrame + Int64(n * perPacket)
        return Translation(
            value: PacketPosition(packet: tableCount + Int64(n), offsetInPacket: max(0, frame - start)),
            isEstimated: true)
    }

    /// Where packet `packet` (past the tables) is fed from: the Cluster of the last cue point at or before
    /// it (exact for a constant frames per packet; the parser drops the packets before it), else the
    /// estimate from its frame; `nil` when neither applies.
    func byte(ofPacket packet: Int64) -> Translation<Int64>? {
        guard packet >= tableCount else { return nil }
        if let first = landingIndex, packet >= first, packet - first < Int64(landingOffsets.count) {
            return Translation(value: landingOffsets[Int(packet - first)], isEstimated: !landingIsExact)
        }
        if let cue = cues.last(where: { $0.label <= packet }) {
            return Translation(value: cue.offset, isEstimated: !exact)
        }
        // Before any block was parsed, packet 0 is searched for from the data offset (the first Cluster's
        // start); its own place, its block's start, is not known yet.
        if tableCount == 0 && packet == 0 { return Translation(value: 0, isEstimated: true) }
        guard cues.isEmpty, let rate = bytesPerFrame, let frame = frame(ofPacket: packet)?.value else { return nil }
        let byte = Double(frame) * rate
        guard byte >= 0, byte < 9e18 else { return nil }
        return Translation(value: Int64(byte), isEstimated: true)
    }

    /// For a packet the landing recorded whose block starts at `offset`: the number of packets before it in
    /// that block (the frames of a laced block share its start).
    func landingPacket(_ packet: Int64, at offset: Int64) -> Int? {
        guard let first = landingIndex, packet >= first, packet - first < Int64(landingOffsets.count) else {
            return nil
        }
        let k = Int(packet - first)
        guard landingOffsets[k] == offset else { return nil }
        var start = k
        while start > 0 && landingOffsets[start - 1] == offset { start -= 1 }
        return k - start
    }

    /// The cue point whose Cluster starts at `offset`, the last at or before packet `packet`.
    func cue(at offset: Int64, forPacket packet: Int64) -> Cue? {
        guard let cue = cues.last(where: { $0.label <= packet }), cue.offset == offset else { return nil }
        return cue
    }

    private func count(from base: Int64, packets: Int64) -> Translation<Int64>? {
        let value = Double(base) + Double(packets) * perPacket
        guard packets >= 0, value < 9e18 else { return nil }
        return Translation(value: Int64(value.rounded()), isEstimated: !exact)
    }
}
