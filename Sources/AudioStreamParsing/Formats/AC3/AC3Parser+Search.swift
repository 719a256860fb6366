extension AC3Parser {
    /// Recognises raw AC-3 or E-AC-3: a sync frame confirmed by the next one (or by the end of the
    /// stream) within `ParserOptions.detectionLookahead` bytes, junk before it allowed. The probe is
    /// stateless and asks for geometrically more bytes while scanning junk.
    static let probe = FormatProbe(fileTypes: [.ac3, .enhancedAC3]) { window, options in
        FrameSyncSearch.probe(AC3FrameSync(), window, options) { offset, frame in
            let engine = FrameSyncEngine(usesFastPath: options.usesFrameSyncFastPath)
            return .match(frame.syntax == .ac3 ? .ac3 : .enhancedAC3, AC3Parser(engine: engine), offset: offset)
        }
    }

    /// Scans for the next confirmed frame from where the search stopped, dropping junk as it goes.
    mutating func stepSearch(_ search: inout FrameSyncResync, _ context: inout ParseContext) -> ParseStep {
        let step = search.step(AC3FrameSync(), Self.structure, frameNoun: "sync frame", &context)
        state = .searching(search)
        switch step {
        case .progress: return .continue
        case .needMoreData(let n): return .needMoreData(atLeast: n)
        case .frame(let frame):
            enterSync(frame, &context)
            return .continue
        }
    }

    /// A frame was confirmed at the position: publishes the stream (first frame), then continues in
    /// sync (a change of format is announced when its packet is emitted).
    mutating func enterSync(_ frame: AC3SyncFrame, _ context: inout ParseContext) {
        state = .synced
        guard format == nil else { return }
        format = frame
        ledger.dataOffset = context.window.position
        let bound = UInt32(frame.syntax == .ac3 ? 3840 : Self.maxFramesPerPacket * 4096)
        var values: [AudioStreamPropertyValue] = [
            .dataFormat(frame.streamDescription), .maximumPacketSize(bound), .packetSizeUpperBound(bound),
            .averageBytesPerPacket(Double(frame.frameLength)), .bitRate(frame.bitRate), .restrictsRandomAccess(false),
        ]
        if let layout = frame.channelLayout { values.append(.channelLayout(layout)) }
        context.publishHeader(values, dataOffset: ledger.dataOffset)
    }

    /// The packet at the position starts with a frame of another format: announced from here on.
    mutating func announceFormatChange(_ frame: AC3SyncFrame, _ context: inout ParseContext) {
        format = frame
        context.diagnose(
            .formatChange, Self.structure,
            "the stream's format changes at \(context.window.position) (\(frame.sampleRate) Hz, acmod \(frame.acmod), "
                + "lfeon \(frame.lfeon ? 1 : 0), \(frame.blocks) blocks)")
        let description = frame.streamDescription
        let tag = frame.channelLayout?.tag ?? .noLayout
        context.announce(.dataFormat(description))
        context.announce(.formatList([FormatListItem(streamDescription: description, channelLayoutTag: tag)]))
        if let layout = frame.channelLayout { context.announce(.channelLayout(layout)) }
    }
}
