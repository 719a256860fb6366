/// Seeking and translations: the packets parsed in order (exact tables), the Cues (read in stream order,
/// or fetched through the SeekHead with a byte range request when they follow the Clusters), and
/// estimates from the Duration and bit rate without them (`MatroskaSeekIndex`).
extension MatroskaParser {
    /// The Cues fetch before the first Cluster (`ParserOptions.allowsByteRangeRequests`).
    enum CuesFetch: Equatable {
        /// Not asked for (yet).
        case none
        /// Requested: the element at the requested offset should be the Cues; then the parser asks for
        /// `returnTo` (the first Cluster) again.
        case fetching(returnTo: Int64)
        /// Done (read, or found missing): not asked for again.
        case done
    }

    // MARK: Translations

    var packetMap: PacketMap {
        var map = PacketMap()
        if offsets.packetCount > 0 { map.packetOffsets = offsets.offsets }
        if startFrames.packetCount > 0 { map.packetFrames = startFrames.offsets }
        if isFinished && !hadJump { map.packetCount = emittedPackets }
        guard published else { return map }
        let index = seekIndex()
        map.unplacedPacketFrame = { index.frame(ofPacket: $0) }
        map.unplacedFramePacket = { index.packet(ofFrame: $0) }
        map.unplacedPacketByte = { index.byte(ofPacket: $0) }
        return map
    }

    /// The translations past the tables: the cue points of the parsed track, the estimate's bytes per
    /// frame, and the landing of the last seek past the tables.
    func seekIndex() -> MatroskaSeekIndex {
        var index = MatroskaSeekIndex()
        guard let codec, let track, let dataOffset else { return index }
        let description = codec.streamDescription
        let rate = description.sampleRate
        index.tableCount = Int64(startFrames.packetCount)
        index.tableEndFrame = startFrames.offsets.last ?? 0
        if description.framesPerPacket > 0, !codec.frameCounter.isVariable {
            index.framesPerPacket = Int64(description.framesPerPacket)
        }
        if index.tableCount > 0, index.tableEndFrame > 0 {
            index.averageFrames = Double(index.tableEndFrame) / Double(index.tableCount)
        } else if description.framesPerPacket > 0 {
            index.averageFrames = Double(description.framesPerPacket)
        } else {
            index.averageFrames = max(1, (rate * 0.02).rounded())
        }
        index.bytesPerFrame = bytesPerFrame(rate: rate, dataOffset: dataOffset)
        let segmentStart = segmentDataStart ?? dataOffset
        index.setCues(
            cuePoints, track: track.number, frame: { frame(ofTimestamp: $0) },
            offset: { position in
                let (absolute, overflow) = segmentStart.addingReportingOverflow(Int64(clamping: position))
                return overflow ? nil : absolute - dataOffset
            })
        if let landing, let start = landing.startFrame {
            index.landingIndex = landing.firstIndex
            index.landingFrame = start
            index.landingFrames = landing.relativeFrames
            index.landingOffsets = landingOffsets
            index.landingIsExact = landingIsExact
        }
        return index
    }

    /// A timestamp (TimestampScale units) as a decoded frame at the codec's rate; `nil` beyond range.
    func frame(ofTimestamp time: UInt64) -> Int64? {
        guard let rate = codec?.streamDescription.sampleRate else { return nil }
        let frame = (Double(time) * Double(info.timestampScale) * rate / 1e9).rounded()
        return frame.isFinite && frame >= 0 && frame < 9e18 ? Int64(frame) : nil
    }

    /// Bytes per frame for the estimate without Cues: the packets parsed so far (a quarter second at
    /// least), else the Segment's bytes after the first Cluster over the Duration, else the codec's
    /// bit rate.
    func bytesPerFrame(rate: Double, dataOffset: Int64) -> Double? {
        if let end = offsets.offsets.last, let frames = startFrames.offsets.last, Double(frames) >= rate / 4 {
            return Double(end) / Double(frames)
        }
        if let end = segmentEnd, let seconds = info.durationSeconds, seconds > 0, end > dataOffset {
            return Double(end - dataOffset) / (seconds * rate)
        }
        if let bits = codec?.bitRate, bits > 0, rate > 0 { return Double(bits) / 8 / rate }
        return nil
    }

    // MARK: Seeking

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard published, dataOffset != nil else { return false }
        hadJump = true
        resumeAt = nil
        waitingEnd = nil
        resetCodecState()
        framesToDrop = 0
        packetsToDrop = 0
        // Inside the Segment, in a Cluster whose end the next Cluster (or any level-1 element) marks.
        open.removeAll { $0.level >= 1 }
        open.append(OpenElement(id: MatroskaElementID.cluster, level: 1, end: nil))
        state = .elements
        let map = packetMap
        if packet <= Int64(startFrames.packetCount) {
            // In the tables (or just after them): exact. The landing block's first packet: the packets of
            // a laced block share its start.
            landing = nil
            let first = map.byteToPacket(byteOffset)?.value.packet ?? packet
            framesToDrop = Int(max(0, min(packet - first, Int64(limits.maxPacketBytes))))
            if let frame = map.packetToFrame(first)?.value { nextFrame = frame }
            return true
        }
        let index = seekIndex()
        landing = OggSeekLanding(firstIndex: packet)
        landingOffsets = []
        if let k = index.landingPacket(packet, at: byteOffset), let frame = index.frame(ofPacket: packet)?.value {
            // A packet the last landing delivered: its block again (the frames before it in the block dropped),
            // numbered and placed in time as that landing was.
            framesToDrop = k
            _ = landing?.place(frameAtPageEnd: frame)
            return true
        }
        landingIsExact = false
        if let cue = index.cue(at: byteOffset, forPacket: packet) {
            if index.framesPerPacket != nil {
                landingIsExact = true
                // A cue point's Cluster with an exact label: the packets before `packet` in it are counted
                // and dropped, and the first packet delivered is `packet`.
                landing = OggSeekLanding(firstIndex: cue.label)
                dropUntil = packet
                packetsToDrop = Int(min(packet - cue.label, Int64(limits.maxPacketTableEntries)))
            }
            // An estimated label (Opus, Vorbis) gives nothing exact to count from: the Cluster's first packet
            // is delivered, labelled `packet`. Either way the cue point's time places that packet.
            _ = landing?.place(frameAtPageEnd: cue.frame)
        } else {
            // An estimated offset: search for the next Cluster or block of a known track (inside a Cluster,
            // the next block); the next Cluster's Timestamp places the landing.
            state = .resync(scanned: 0)
        }
        return true
    }

    /// A Cluster's Timestamp: places a landing not placed yet (the packets delivered since it landed
    /// end where this Cluster starts).
    mutating func clusterTimestampRead(_ time: UInt64) {
        clusterTimestamp = time
        guard landing?.startFrame == nil, let frame = frame(ofTimestamp: time) else { return }
        _ = landing?.place(frameAtPageEnd: frame)
    }

    // MARK: Cues

    /// The track's cue points are known.
    var hasCues: Bool { cuePoints.contains { $0.track == track?.number } }

    /// At the first Cluster, once the header is published: when the SeekHead says the Cues follow and
    /// byte range requests are allowed, asks for them (they come back to `position` after).
    mutating func requestCues(_ context: inout ParseContext, at position: Int64) -> ParseStep? {
        guard options.allowsByteRangeRequests, cuesFetch == .none, !hadJump, !hasCues,
            let relative = cuesPosition, let start = segmentDataStart
        else { return nil }
        let (cues, overflow) = start.addingReportingOverflow(Int64(clamping: relative))
        guard !overflow, cues > position, segmentEnd.map({ cues < $0 }) ?? true else { return nil }
        cuesFetch = .fetching(returnTo: position)
        context.announce(.requestedByteOffset(cues))
        return .request(cues)
    }

    /// At the offset the SeekHead gave for the Cues: reads them, then asks for the first Cluster again.
    mutating func stepFetchedCues(_ context: inout ParseContext, returnTo: Int64) throws(AudioStreamError)
        -> ParseStep
    {
        let position = context.window.position
        switch ElementStream<EBMLSyntax>.peekHeader(context.window) {
        case .needMoreData(let n):
            if !context.window.isFinal { return .needMoreData(atLeast: n) }
        case .header(let header) where header.id == MatroskaElementID.cues:
            let step = try decodeWhole(&context, header)
            if case .needMoreData = step, !context.window.isFinal { return step }
            if context.window.position == position {
                context.diagnose(
                    .limitExceeded, .mkv("Cues"), "Cues not read; seeking past the parsed packets is estimated")
            }
        default:
            context.diagnose(
                .inconsistentValues, .mkv("SeekHead"), "no Cues where the SeekHead places them (byte \(position))")
        }
        cuesFetch = .done
        waitingEnd = nil
        context.announce(.requestedByteOffset(returnTo))
        return .request(returnTo)
    }
}
