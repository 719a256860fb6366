extension ADTSParser {
    /// Emits the packets of the frame at the position (its bytes are readable) and consumes it.
    mutating func emitFrame(_ header: ADTSHeader, _ context: inout ParseContext) {
        let start = context.window.position
        // Tags between frames (concatenated files): they ended the previous part.
        if !engine.tags.isEmpty { engine.tags.announceBetweenFrames(Self.structure, &context) }
        let layout = ADTSFrameLayout.make(header, context.window, at: 0)
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
            }
        }
        context.window.consume(header.frameLength - cursor)
        guard onFrontier else { return }
        finishFrontierFrame(start: start, length: header.frameLength, seconds: seconds(of: header), &context)
    }

    /// Adds a frame on the frontier (its packets already recorded) to the totals: bytes, duration, end,
    /// the offset table's end, and the bit-rate announcements (at 1, 4, 16 … 16 Ki packets, then every
    /// 16 Ki).
    @inline(__always)
    mutating func finishFrontierFrame(start: Int64, length: Int, seconds: Double, _ context: inout ParseContext) {
        totals.frameBytes += Int64(length)
        totals.seconds += seconds
        totals.end = start + Int64(length)
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
        _ = engine.offsets.record(
            packet: totals.packets, start: relative, end: relative + Int64(frameLength),
            limit: limits.maxPacketTableEntries)
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
