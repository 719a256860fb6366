extension MPEGAudioParser {
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        guard let stream else {
            throw context.error(.invalidFile, "mpeg: stream ends before a complete MPEG audio frame")
        }
        var junk: Int64 = 0
        var junkStart = context.window.position
        var inSync = true
        if case .searching(let search) = state {
            junk = search.junk
            junkStart = search.junkStart ?? junkStart
            inSync = false
        }
        let leftover = context.window.peekBytes(count: context.window.readable) ?? []
        let leftoverStart = context.window.position

        // Tags that end the stream, possibly reaching back into junk already consumed.
        var tagBytes: Int64 = 0
        var tags: [TrailingTags.Tag] = []
        let run = junk + Int64(leftover.count)
        for tag in TrailingTags.endingTags(leftover) {
            let size = min(Int64(tag.byteCount), run - tagBytes)
            guard size > 0 else { break }
            let end = leftover.count - Int(tagBytes)
            let start = end - Int(size)
            let bytes = start >= 0 ? Array(leftover[start..<end]) : []
            tags.insert(
                .init(kind: tag.kind, offset: leftoverStart + Int64(start), byteCount: size, bytes: bytes), at: 0)
            tagBytes += size
        }
        let rest = run - tagBytes
        if rest > 0 {
            let partialFrame = leftover.count > 0 && inSync && junk == 0
            if partialFrame, let header = MPEGFrameHeader(context.window, at: 0),
                let length = stream.frameLength(header)
            {
                context.diagnose(
                    "mpeg: stream ends inside a frame; partial frame of \(rest) of \(length) bytes dropped")
            } else {
                context.diagnose(at: junkStart, "mpeg: \(rest) bytes of junk skipped at the end of the stream")
            }
        }
        context.window.consume(leftover.count)
        // Tags met at frame boundaries stay; tags found in the tail follow them.
        for tag in tags { trailingTags.append(tag) }
        state = .searching(Search())

        if let metadata = trailingTags.metadata() { context.announce(.metadata(metadata)) }
        guard isContinuous else { return }
        let packets = statistics.packets
        finalPacketCount = packets
        let declared = stream.declaredPacketCount
        if let declared, declared != packets {
            context.diagnose("mpeg: the Xing/VBRI header declares \(declared) frames; the stream has \(packets)")
        }
        context.announce(.audioDataPacketCount(UInt64(packets)))
        let bytes = statistics.lastEnd.map { $0 - stream.dataOffset } ?? 0
        context.announce(.audioDataByteCount(UInt64(max(0, bytes))))
        if packets > 0 { announceRunningValues(stream, &context) }
        if let info = packetTableInfo(stream, packets: packets, exact: declared == nil || declared == packets) {
            context.announce(.packetTableInfo(info))
        }
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        if case .searching(let search) = state { reportJunk(search, &context) }
        state = .searching(Search())
        trailingTags.removeAll()
        if stream != nil {
            isContinuous = false
            packetIndicesAreExact = false
        }
    }
}
