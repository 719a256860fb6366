extension ADTSParser {
    /// Emits the packets of the frame at the position (its bytes are readable) and consumes it.
    mutating func emitFrame(_ header: ADTSHeader, _ context: inout ParseContext) {
        let start = context.window.position
        // Tags between frames (concatenated files): they ended the previous part.
        if !engine.tags.isEmpty { engine.tags.announceBetweenFrames(Self.structure, &context) }
        let layout = ADTSFrameLayout.make(header, context.window, at: 0, framesPerBlock: framesPerBlock)
        let frames = layout.framesPerPacket
        var variableFrames: UInt32 = 0
        if let reason = layout.unsplitReason {
            variableFrames = UInt32(frames)
            if !hasVariablePackets {
                context.diagnose(
                    .unsupportedFeature, Self.structure,
                    "the frame at \(start) holds \(header.rawDataBlockCount) raw data blocks and "
                        + "\(reason); it is emitted as one packet of \(frames) frames (reported once)")
            }
            hasVariablePackets = true
        }
        var onFrontier = false
        var inLandingRun = false
        var cursor = 0
        for i in 0..<layout.count {
            let block = layout[i]
            context.window.consume(block.lowerBound - cursor)
            cursor = block.upperBound
            if skipPackets > 0 {
                skipPackets -= 1
                context.window.consume(block.count)
                continue
            }
            let index = context.nextPacketIndex
            context.emitPacket(size: block.count, variableFrames: variableFrames, frames: Int64(frames))
            if indicesExact && index == totals.packets {
                record(
                    frameStart: start, frameLength: header.frameLength, size: block.count, frames: frames,
                    context.limits)
                onFrontier = true
            } else if landingRun != nil {
                inLandingRun =
                    recordLanding(
                        frameStart: start, frameLength: header.frameLength, size: block.count, frames: frames,
                        context.limits) || inLandingRun
            }
        }
        context.window.consume(header.frameLength - cursor)
        if inLandingRun {
            let duration = seconds(of: header)
            landingRun?.addFrame(length: header.frameLength, seconds: duration)
        }
        guard onFrontier else { return }
        finishFrontierFrame(start: start, length: header.frameLength, seconds: seconds(of: header), &context)
    }

    /// Records a packet delivered after an estimated seek in the landing's run; false when the run is
    /// closed.
    @inline(__always)
    mutating func recordLanding(
        frameStart: Int64, frameLength: Int, size: Int, frames: Int, _ limits: ParserLimits
    ) -> Bool {
        let relative = frameStart - dataOffset
        return landingRun?.record(
            frameStart: relative, frameEnd: relative + Int64(frameLength), size: size, frames: frames,
            limit: limits.maxPacketTableEntries) ?? false
    }

    /// Ends the landing's run (a seek, a discontinuity, the end of the stream) and keeps it for the
    /// frontier when it holds packets.
    mutating func closeLandingRun(atEndOfStream: Bool = false) {
        guard var run = landingRun else { return }
        landingRun = nil
        run.close(atEndOfStream: atEndOfStream)
        guard run.packets > 0 else { return }
        seenRuns.removeAll { $0.start == run.start }
        if seenRuns.count >= Self.maxSeenRuns { seenRuns.removeFirst() }
        seenRuns.append(run)
    }

    /// The frontier ended at the first frame of a run seen after an estimated seek: the run's base index
    /// is the frontier's packet count, so its packets join the frontier (offsets, frames, totals) and are
    /// exact from now on. The parse goes on through them (labelled with their true indices) without
    /// recording them again. Runs the frontier went past are dropped.
    mutating func joinSeenRun(_ context: inout ParseContext) {
        let end = totals.end - dataOffset
        seenRuns.removeAll { ($0.start ?? end) < end }
        guard let i = seenRuns.firstIndex(where: { $0.start == end }) else { return }
        let run = seenRuns.remove(at: i)
        let base = totals.packets
        let offsets = run.offsets.offsets
        let limit = context.limits.maxPacketTableEntries
        if !run.hasOneBlockPackets(framesPerBlock: framesPerBlock) || frameStarts != nil {
            var starts = frameStarts ?? oneBlockFrameStarts()
            for k in 1...Int(run.packets) { starts.append(totals.frames + run.frameStarts[k]) }
            frameStarts = starts
            hasVariablePackets = hasVariablePackets || !run.hasOneBlockPackets(framesPerBlock: framesPerBlock)
        }
        for k in 0..<Int(run.packets) {
            _ = engine.offsets.record(packet: base + Int64(k), start: offsets[k], end: offsets[k + 1], limit: limit)
        }
        totals.packets += run.packets
        totals.frames += run.frameStarts.last ?? 0
        totals.payloadBytes += run.payloadBytes
        totals.frameBytes += run.frameBytes
        totals.seconds += run.seconds
        totals.maximumPacketSize = max(totals.maximumPacketSize, run.maximumPacketSize)
        totals.end = dataOffset + (offsets.last ?? end)
        if run.reachesEnd { finalPacketCount = totals.packets }
        context.diagnose(
            .positionCorrected, Self.structure,
            "the \(run.packets) packets delivered from byte \(dataOffset + end) after an estimated seek (labelled "
                + "from \(run.labelledIndex)) are packets \(base)…\(base + run.packets - 1): seeks into them are exact")
    }

    /// The frame table of a frontier whose packets all held one raw data block.
    private func oneBlockFrameStarts() -> PositionTable {
        let perBlock = Int64(framesPerBlock)
        return PositionTable((0...totals.packets).lazy.map { $0 * perBlock })
    }

    /// Adds a frame on the frontier (its packets already recorded) to the totals: bytes, duration, end,
    /// the offset table's end, and the bit-rate announcements (at 1, 4, 16 … 16 Ki packets, then every
    /// 16 Ki).
    @inline(__always)
    mutating func finishFrontierFrame(start: Int64, length: Int, seconds: Double, _ context: inout ParseContext) {
        totals.frameBytes += Int64(length)
        totals.seconds += seconds
        totals.end = start + Int64(length)
        if !seenRuns.isEmpty { joinSeenRun(&context) }
        if totals.packets >= totals.nextAnnouncement {
            announceRates(&context)
            let next = totals.nextAnnouncement
            totals.nextAnnouncement = next < 16_384 ? next * 4 : next + 16_384
        }
    }

    /// Counts a packet on the frontier and records its frame's offset while the table may grow (the
    /// packets of a multi-block frame share the frame's offset).
    @inline(__always)
    mutating func record(frameStart: Int64, frameLength: Int, size: Int, frames: Int, _ limits: ParserLimits) {
        let relative = frameStart - dataOffset
        let recording = engine.offsets.record(
            packet: totals.packets, start: relative, end: relative + Int64(frameLength),
            limit: limits.maxPacketTableEntries)
        if frames != framesPerBlock && frameStarts == nil && recording != .skipped {
            frameStarts = oneBlockFrameStarts()
        }
        if recording != .skipped, frameStarts != nil { frameStarts?.append(totals.frames + Int64(frames)) }
        totals.packets += 1
        totals.frames += Int64(frames)
        totals.payloadBytes += Int64(size)
        totals.maximumPacketSize = max(totals.maximumPacketSize, size)
    }

    /// Announces bitRate (frame bytes, headers included, over the frames' duration) and
    /// averageBytesPerPacket (packet bytes over packets) of the frontier.
    func announceRates(_ context: inout ParseContext) {
        guard totals.packets > 0 else { return }
        context.announce(.bitRate(Self.bitRate(bytes: totals.frameBytes, seconds: totals.seconds)))
        context.announce(.averageBytesPerPacket(Double(totals.payloadBytes) / Double(totals.packets)))
    }
}
