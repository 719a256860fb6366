extension MPEGAudioParser {
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        guard let stream else {
            throw context.error(.invalidFile, Self.structure, "stream ends before a complete MPEG audio frame")
        }
        if case .id3v2Tag(let start) = state {
            // The stream ends inside an ID3v2 tag: the reader reports it and gives what it read.
            if let tag = engine.tags.finishID3v2(&context) { engine.tags.trailing.appendID3v2(tag, at: start) }
            context.window.consume(context.window.readable)
            state = .inSync
        }
        var junk: Int64 = 0
        var junkStart = context.window.position
        var inSync = true
        if case .searching(let search) = state {
            junk = search.junk.count
            junkStart = search.junk.start ?? junkStart
            inSync = false
        }
        let leftover = context.window.peekBytes(count: context.window.readable) ?? []
        let leftoverStart = context.window.position

        // Tags that end the stream, possibly reaching back into junk already consumed.
        let run = junk + Int64(leftover.count)
        let layout = TrailingTagLocator.locate(in: leftover)
        let tagBytes = min(Int64(leftover.count - layout.start), run)
        let tags = layout.tags(in: leftover, at: leftoverStart, from: leftover.count - Int(tagBytes))
        let rest = run - tagBytes
        if rest > 0 {
            let partialFrame = leftover.count > 0 && inSync && junk == 0
            if partialFrame, let header = MPEGFrameHeader(context.window, at: 0),
                let length = stream.frameLength(header)
            {
                context.diagnose(
                    .truncated, Self.structure,
                    "stream ends inside a frame; partial frame of \(rest) of \(length) bytes dropped")
            } else {
                context.diagnose(
                    .junkSkipped, at: junkStart, Self.structure,
                    "\(rest) bytes of junk skipped at the end of the stream")
            }
        }
        context.window.consume(leftover.count)
        // Tags met at frame boundaries stay; tags found in the tail follow them.
        for tag in tags { engine.tags.trailing.append(tag) }
        state = .searching(Search())

        if let metadata = engine.tags.trailing.metadata(limits: context.limits) {
            context.announce(.metadata(metadata))
        }
        guard isContinuous else { return }
        let packets = statistics.packets
        finalPacketCount = packets
        let declared = stream.declaredPacketCount
        if let declared, declared != packets {
            context.diagnose(
                .inconsistentValues, Self.structure,
                "the Xing/VBRI header declares \(declared) frames; the stream has \(packets)")
        }
        context.announce(.audioDataPacketCount(UInt64(packets)))
        let bytes = statistics.lastEnd.map { $0 - stream.dataOffset } ?? 0
        context.announce(.audioDataByteCount(UInt64(max(0, bytes))))
        if packets > 0 { announceRunningValues(stream, &context) }
        if let gapless = packetTableInfo(stream, packets: packets, exact: declared == nil || declared == packets) {
            if gapless.clamped { diagnoseClampedGapless(stream, packets: packets, gapless.info, &context) }
            context.announce(.packetTableInfo(gapless.info))
        }
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        if case .searching(let search) = state { reportJunk(search, &context) }
        state = .searching(Search())
        engine.tags.removeAll()
        if stream != nil {
            isContinuous = false
            packetIndicesAreExact = false
        }
    }
}
