extension FLACParser {
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        // Run the state machine to the end with the input final: each step consumes bytes or moves to a
        // state that does.
        var budget = 4 * (context.window.readable + 8)
        loop: while budget > 0 {
            budget -= 1
            switch try step(&context) {
            case .continue:
                continue
            case .skip(let n):
                context.window.consume(Int(min(n, Int64(context.window.readable))))
            case .needMoreData, .request:
                break loop
            }
        }
        switch state {
        case .marker:
            throw context.error(.invalidFile, "flac: the stream ends inside the fLaC marker")
        case .blockHeader, .blockBody:
            throw context.error(
                .invalidFile,
                streamInfo == nil
                    ? "flac (STREAMINFO): the stream ends before STREAMINFO is complete"
                    : "flac (metadata): the stream ends inside the metadata blocks")
        case .searching(var search):
            search.skipped += Int64(context.window.readable)
            if search.skippedStart == nil && context.window.readable > 0 {
                search.skippedStart = context.window.position
            }
            context.window.consume(context.window.readable)
            reportSkipped(search, &context)
        case .frame(let scan):
            finishFrame(scan, &context)
        }
        state = .searching(Search(cause: "at the end"))
        guard indicesExact && context.nextPacketIndex == totals.packets else { return }
        finalPacketCount = totals.packets
        if let declared = declaredPacketCount, declared != totals.packets {
            context.diagnose(
                "flac: \(totals.packets) frames parsed; STREAMINFO's total samples imply \(declared)")
        }
        context.announce(.audioDataByteCount(UInt64(max(0, totals.end - dataOffset))))
        context.announce(.audioDataPacketCount(UInt64(totals.packets)))
        guard totals.packets > 0, let info = streamInfo else { return }
        context.announce(.maximumPacketSize(UInt32(clamping: totals.maximumPacketSize)))
        context.announce(.averageBytesPerPacket(Double(totals.bytes) / Double(totals.packets)))
        if totals.frames > 0 {
            let seconds = Double(totals.frames) / Double(info.sampleRate)
            context.announce(.bitRate(UInt32(clamping: Int64((Double(totals.bytes) * 8 / seconds).rounded()))))
        }
        if info.totalSamples == 0 {
            context.announce(
                .packetTableInfo(
                    PacketTableInfo(numberValidFrames: totals.frames, primingFrames: 0, remainderFrames: 0)))
        } else if UInt64(totals.frames) != info.totalSamples {
            context.diagnose("flac: \(totals.frames) samples parsed; STREAMINFO says \(info.totalSamples)")
        }
    }
}
