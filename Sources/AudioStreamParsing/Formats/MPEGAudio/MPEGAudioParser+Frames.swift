extension MPEGAudioParser {
    /// In sync: emits the frame at the position, reads a tag that starts there, or starts a search.
    mutating func stepInSync(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        if stepFast(&context) { return .continue }
        guard let stream else {
            state = .searching(Search())
            return .continue
        }
        let window = context.window
        if let header = MPEGFrameHeader(window, at: 0), stream.agrees(with: header),
            let length = stream.frameLength(header), length > MPEGFrameHeader.byteCount
        {
            // The frame's end is proven by a header (of any stream), a tag, or the end of the data.
            switch MPEGFrameSync.confirm(
                header, at: 0, window, freeFormatSlots: stream.freeFormatSlots, requireAgreement: false)
            {
            case .accept(let confirmed):
                emitFrame(header, length: confirmed, stream, &context)
                return .continue
            case .needMoreData(let n):
                return .needMoreData(atLeast: n)
            case .reject:
                // A partial last frame stays readable for `finish`, which drops it.
                if window.isFinal && window.readable < length { return .needMoreData(atLeast: length) }
                // Not followed by a frame or a tag: junk follows a whole frame, or the frame was cut
                // short and the next one starts inside it. Only the second turns it into junk.
                let sync = MPEGFrameSync(freeFormatSlots: stream.freeFormatSlots)
                switch FrameSyncSearch.search(sync, window, from: 1, limit: length) {
                case .frame:
                    state = .searching(Search(scanned: 1))
                    return .continue
                case .undecided(_, let n):
                    return .needMoreData(atLeast: n)
                case .exhausted, .tag:
                    emitFrame(header, length: length, stream, &context)
                    return .continue
                }
            }
        }
        switch TrailingTags.kind(in: window, at: 0) {
        case .tag(.id3v2):
            engine.tags.beginID3v2(context.limits)
            state = .id3v2Tag(start: window.position)
            return .continue
        case .tag(let kind):
            if let step = engine.tags.trailing.read(kind, &context, Self.structure) { return step }
        case .undecided(let n):
            if !window.isFinal { return .needMoreData(atLeast: n) }
        case .none:
            break
        }
        if window.readable < MPEGFrameHeader.byteCount && !window.isFinal {
            return .needMoreData(atLeast: MPEGFrameHeader.byteCount)
        }
        if window.readable == 0 { return .needMoreData(atLeast: 1) }
        // Junk, or a frame of a different stream: search from here.
        state = .searching(Search())
        return .continue
    }

    /// Reads the ID3v2 tag at a frame boundary frame by frame (``ID3v2StreamReader``: text up to
    /// `maxTagBytes`, pictures up to `maxArtworkBytes`, larger frames skipped unbuffered), then goes
    /// on in sync; the tag is announced when a frame follows it, or at `finish`.
    mutating func stepID3v2Tag(start: Int64, _ context: inout ParseContext) -> ParseStep {
        guard engine.tags.isReadingID3v2 else {
            state = .inSync
            return .continue
        }
        switch engine.tags.stepID3v2(&context) {
        case .step(let step):
            return step
        case .done(let tag):
            engine.tags.trailing.appendID3v2(tag, at: start)
            state = .inSync
        case .notATag:
            // Recognised as a header before; cannot happen. Search from here.
            state = .searching(Search())
        }
        return .continue
    }

    /// Emits one frame as a packet and updates the totals.
    private mutating func emitFrame(
        _ header: MPEGFrameHeader, length: Int, _ stream: MPEGStream, _ context: inout ParseContext
    ) {
        let position = context.window.position
        if !engine.tags.isEmpty { engine.tags.announceBetweenFrames(Self.structure, &context) }
        recordOffset(packet: context.nextPacketIndex, at: position - stream.dataOffset, length: length, &context)
        context.emitPacket(size: length, variableFrames: 0, frames: Int64(stream.framesPerPacket))
        if isContinuous {
            statistics.add(header, length: length, at: position)
        } else {
            statistics.largest = max(statistics.largest, length)
        }
        context.announce(.maximumPacketSize(UInt32(statistics.largest)))
        let n = statistics.packets
        if isContinuous, stream.declaredPacketCount == nil || stream.declaredByteCount == nil, n >= 16,
            n & (n - 1) == 0
        {
            announceRunningValues(stream, &context)
        }
    }

    /// Announces averageBytesPerPacket and bitRate from the frames so far.
    func announceRunningValues(_ stream: MPEGStream, _ context: inout ParseContext) {
        if let average = statistics.averageBytesPerPacket { context.announce(.averageBytesPerPacket(average)) }
        if let bits = statistics.bitRate(samplesPerFrame: stream.framesPerPacket, sampleRate: stream.sampleRate) {
            context.announce(.bitRate(bits))
        }
    }

    /// Records where packet `packet` starts, when its index is exact and it extends the table.
    mutating func recordOffset(packet: Int64, at offset: Int64, length: Int, _ context: inout ParseContext) {
        guard packetIndicesAreExact else { return }
        let recording = engine.offsets.record(
            packet: packet, start: offset, end: offset + Int64(length), limit: context.limits.maxPacketTableEntries)
        if recording == .recordedAndFull { Self.reportFullOffsetTable(&context) }
    }

    /// The offset table reached `maxPacketTableEntries`.
    static func reportFullOffsetTable(_ context: inout ParseContext) {
        context.diagnose(
            .limitExceeded, structure, "more than maxPacketTableEntries frames; later frame offsets are not kept")
    }
}
