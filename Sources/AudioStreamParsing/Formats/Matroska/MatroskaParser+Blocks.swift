/// SimpleBlock and Block: the parsed track's frames emitted as packets, other tracks skipped.
extension MatroskaParser {
    mutating func stepBlock(_ context: inout ParseContext, _ header: EBMLHeader) throws(AudioStreamError)
        -> ParseStep
    {
        let position = context.window.position
        guard let bodySize = header.bodySize else {
            return damaged(&context, "\(header.name) of unknown size")
        }
        guard published, let track, let codec else {
            context.diagnose(.structureSkipped, .mkv(header.name), "block outside a Cluster skipped")
            return skip(&context, header, level: nil)
        }
        if bodySize == 0 { return skip(&context, header, level: nil) }
        guard let first = context.window.peekUInt8(at: header.headerSize) else {
            return .needMoreData(atLeast: header.headerSize + 1)
        }
        guard let trackLength = EBMLSyntax.vintLength(first), Int64(trackLength) <= bodySize else {
            context.diagnose(.structureSkipped, .mkv(header.name), "block with a malformed track number skipped")
            return skip(&context, header, level: nil)
        }
        guard let (number, _) = MatroskaBlock.trackNumber(in: context.window, at: header.headerSize) else {
            return .needMoreData(atLeast: header.headerSize + trackLength)
        }
        guard number == track.number else {
            // Another track (video, subtitles, a second audio track): skipped without buffering.
            return skip(&context, header, level: nil)
        }
        if header.id == MatroskaElementID.block { groupIsParsedTrack = true }
        guard bodySize <= Int64(min(limits.maxPacketBytes, limits.maxBufferedBytes - 16)) else {
            context.diagnose(
                .limitExceeded, .mkv(header.name), "block of \(bodySize) bytes exceeds maxPacketBytes; skipped")
            return skip(&context, header, level: nil)
        }
        let size = header.headerSize + Int(bodySize)
        guard context.window.readable >= size else {
            waitingEnd = position + Int64(size)
            return .needMoreData(atLeast: size)
        }
        waitingEnd = nil
        let block: MatroskaBlock
        switch MatroskaBlock.decode(in: context.window, at: header.headerSize, bodySize: Int(bodySize)) {
        case .block(let b): block = b
        case .needMoreData, .invalid:
            context.diagnose(.structureSkipped, .mkv(header.name), "block whose lacing does not decode skipped")
            return skip(&context, header, level: nil)
        }
        context.window.consume(header.headerSize + block.headerLength)
        let blockStart = position - (dataOffset ?? 0)
        for frameSize in block.frameSizes {
            if case .pcm(let frameBytes) = codec.frameCounter {
                // Linear PCM: each sample frame is a packet; a seek may land inside the block.
                let drop = min(framesToDrop, frameSize / frameBytes)
                framesToDrop -= drop
                context.window.consume(drop * frameBytes)
                emitPCM(&context, size: frameSize - drop * frameBytes, frameBytes: frameBytes, blockStart: blockStart)
                continue
            }
            if framesToDrop > 0 {
                framesToDrop -= 1
                context.window.consume(frameSize)
                continue
            }
            emitFrame(&context, size: frameSize, codec: codec, blockStart: blockStart)
        }
        framesToDrop = 0
        return .continue
    }

    /// Emits one frame at the window's position as a packet (linear PCM: as packets of one sample
    /// frame each), and places it.
    mutating func emitFrame(_ context: inout ParseContext, size: Int, codec: MatroskaAudioCodec, blockStart: Int64) {
        let index = context.nextPacketIndex
        let start = context.window.position - (dataOffset ?? 0)
        let (frames, variable) = frameCount(context.window, size: size, codec: codec)
        if packetsToDrop > 0 {
            // Before the packet a seek asked for, in its cue point's Cluster: counted, not delivered.
            recordLanding(index: dropUntil - Int64(packetsToDrop), frames: frames, blockStart: blockStart)
            packetsToDrop -= 1
            context.window.consume(size)
            return
        }
        context.emitPacket(size: size, variableFrames: variable, frames: frames)
        place(index, start: blockStart, end: start + Int64(size), frames: frames)
        emittedBytes += Int64(size)
        emittedPackets += 1
        largestPacket = max(largestPacket, size)
    }

    /// The frames of the packet of `size` bytes at the window's position, and its
    /// `mVariableFramesInPacket` (0 for the stream's constant count).
    mutating func frameCount(_ window: InputWindow, size: Int, codec: MatroskaAudioCodec) -> (Int64, UInt32) {
        var frames: Int64 = Int64(codec.streamDescription.framesPerPacket)
        var variable: UInt32 = 0
        switch codec.frameCounter {
        case .constant:
            break
        case .opus:
            // The TOC byte and, for a code-3 packet, the frame count byte, when the packet holds them.
            frames = OpusPacket.frames(
                toc: size > 0 ? window.peekUInt8(at: 0) : nil, second: size > 1 ? window.peekUInt8(at: 1) : nil)
            variable = UInt32(frames)
        case .vorbis(var counter):
            let measured = size > 0 ? (try? counter.measure(first: window.peekUInt8(at: 0))) ?? nil : nil
            self.codec?.frameCounter = .vorbis(counter)
            frames = Int64(measured?.frames ?? 0)
            variable = UInt32(frames)
        case .flac(let info):
            (frames, variable) = Self.flacFrames(window, info: info, constant: frames)
        case .pcm:
            break
        }
        return (frames, variable)
    }

    /// The frames of the FLAC frame `offset` bytes after the window's position and its
    /// `mVariableFramesInPacket`: the frame header's block size (RFC 9639 §9.1), or `constant`
    /// (STREAMINFO's fixed block size) when the header does not decode; 0 for a packet of the constant size.
    static func flacFrames(
        _ window: InputWindow, at offset: Int = 0, info: FLACStreamInfo, constant: Int64
    ) -> (Int64, UInt32) {
        var frames = constant
        if case .valid(let h) = FLACFrameHeader.decode(window, at: offset, streamInfo: info, variable: nil) {
            frames = Int64(h.blockSize)
        }
        return (frames, frames == constant ? 0 : UInt32(clamping: frames))
    }

    /// Emits the sample frames of `size` bytes of linear PCM at the window's position, one packet each,
    /// all placed at their block's start (as the frames of a laced block), and skips a partial frame at
    /// the end with a diagnostic.
    mutating func emitPCM(_ context: inout ParseContext, size: Int, frameBytes: Int, blockStart: Int64) {
        var size = size
        if packetsToDrop > 0 {
            // Before the frame a seek asked for, in its cue point's Cluster: counted, not delivered.
            let drop = min(packetsToDrop, size / frameBytes)
            for k in 0..<drop {
                recordLanding(index: dropUntil - Int64(packetsToDrop - k), frames: 1, blockStart: blockStart)
            }
            packetsToDrop -= drop
            context.window.consume(drop * frameBytes)
            size -= drop * frameBytes
        }
        let index = context.nextPacketIndex
        let start = context.window.position - (dataOffset ?? 0)
        let count = size / frameBytes
        if count > 0 {
            context.emitPackets(count: count, size: frameBytes, framesPerPacket: 1)
            for k in 0..<count {
                place(index + Int64(k), start: blockStart, end: start + Int64((k + 1) * frameBytes), frames: 1)
            }
            emittedBytes += Int64(count * frameBytes)
            emittedPackets += Int64(count)
            largestPacket = max(largestPacket, frameBytes)
        }
        if size % frameBytes != 0 {
            context.diagnose(
                .inconsistentValues, .mkv("SimpleBlock"),
                "\(size % frameBytes) bytes after the last whole PCM frame of a block skipped")
            context.window.consume(size % frameBytes)
        }
    }

    /// Records packet `index` (its block's start, its end and its frames) when it extends the tables.
    mutating func place(_ index: Int64, start: Int64, end: Int64, frames: Int64) {
        if landing != nil {
            // Past the tables (a seek there, or a discontinuity): the landing's packets.
            recordLanding(index: index, frames: frames, blockStart: start)
            return
        }
        let limit = limits.maxPacketTableEntries
        if offsets.record(packet: index, start: start, end: end, limit: limit) != .skipped {
            _ = startFrames.record(packet: index, start: nextFrame, end: nextFrame + frames, limit: limit)
        }
        nextFrame += frames
    }

    /// Records packet `index` of the landing (its frames and its block's start), when it is the next one.
    mutating func recordLanding(index: Int64, frames: Int64, blockStart: Int64) {
        guard var recorded = landing else { return }
        let count = recorded.relativeFrames.count
        recorded.record(index: index, frames: frames, pageOffset: blockStart, limit: limits.maxPacketTableEntries)
        if recorded.relativeFrames.count > count { landingOffsets.append(blockStart) }
        landing = recorded
    }
}
