extension FLACParser {
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        // Run the state machine to the end with the input final: each step consumes bytes or moves to a
        // state that does.
        try stepToEnd(&context)
        switch state {
        case .marker:
            throw context.error(.invalidFile, Self.structure, "the stream ends inside the fLaC marker")
        case .blockHeader, .blockBody:
            throw context.error(
                streamInfo == nil
                    ? Self.streamInfoBlock.invalid("the stream ends before STREAMINFO is complete")
                    : Self.metadataBlocks.invalid("the stream ends inside the metadata blocks"))
        case .searching(var search):
            search.junk.add(context.window.readable, at: context.window.position)
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
                .inconsistentValues, Self.structure,
                "\(totals.packets) frames parsed; STREAMINFO's total samples imply \(declared)")
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
            context.diagnose(
                .inconsistentValues, Self.structure,
                "\(totals.frames) samples parsed; STREAMINFO says \(info.totalSamples)")
        }
    }
}
