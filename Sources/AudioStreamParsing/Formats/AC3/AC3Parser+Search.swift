extension AC3Parser {
    /// Recognises raw AC-3 or E-AC-3: a sync frame confirmed by the next one (or by the end of the
    /// stream) within `ParserOptions.detectionLookahead` bytes, junk before it allowed. The probe is
    /// stateless and asks for geometrically more bytes while scanning junk.
    static let probe = FormatProbe(fileTypes: [.ac3, .enhancedAC3]) { window, options in
        let limit = options.detectionLookahead
        switch FrameSyncSearch.search(AC3FrameSync(), window, from: 0, horizon: limit) {
        case .frame(let offset, let frame):
            let engine = FrameSyncEngine(usesFastPath: options.usesFrameSyncFastPath)
            return .match(frame.syntax == .ac3 ? .ac3 : .enhancedAC3, AC3Parser(engine: engine), offset: offset)
        case .exhausted, .tag:
            return .noMatch
        case .undecided(let scanned, let n):
            if window.isFinal { return .noMatch }
            return .needMoreData(atLeast: max(n, min(limit, 2 * window.readable)), noMatchBefore: scanned)
        }
    }

    /// Scans for the next confirmed frame from where the search stopped, dropping junk as it goes.
    mutating func stepSearch(_ search: inout Search, _ context: inout ParseContext) -> ParseStep {
        let outcome = FrameSyncSearch.search(
            AC3FrameSync(), context.window, from: search.offset, counting: &search.junk)
        switch outcome {
        case .undecided(let i, let n):
            if i > 0 {
                search.junk.skip(i, &context)
                search.offset = 0
                state = .searching(search)
                return .continue
            }
            state = .searching(search)
            return .needMoreData(atLeast: n)
        case .exhausted(let i):
            search.junk.skip(i, &context)
            search.offset = 0
            state = .searching(search)
            return i > 0 ? .continue : .needMoreData(atLeast: context.window.readable + 1)
        case .tag:
            // AC3FrameSync does not stop at tags.
            state = .searching(search)
            return .needMoreData(atLeast: context.window.readable + 1)
        case .frame(let i, let frame):
            search.junk.skip(i, &context)
            reportSkipped(search, &context)
            enterSync(frame, &context)
            return .continue
        }
    }

    /// One diagnostic for a run of skipped bytes (none when nothing was skipped).
    func reportSkipped(_ search: Search, _ context: inout ParseContext) {
        search.junk.report(&context) { n, start in
            var message: String
            switch search.cause {
            case .start: message = "\(n) bytes of junk before the first sync frame skipped"
            case .lostSync: message = "lost sync at \(start); \(n) bytes skipped to the next sync frame"
            case .discontinuity: message = "\(n) bytes skipped to resynchronise after a discontinuity"
            case .seek: message = "\(n) bytes skipped to the first sync frame after the seek position"
            }
            if search.junk.rejected > 0, let first = search.junk.firstRejection {
                message += " (\(search.junk.rejected) syncword(s) rejected; first: \(first))"
            }
            return Self.structure.message(message)
        }
    }

    /// A frame was confirmed at the position: publishes the stream (first frame), then continues in
    /// sync (a change of format is announced when its packet is emitted).
    mutating func enterSync(_ frame: AC3SyncFrame, _ context: inout ParseContext) {
        state = .synced
        guard format == nil else { return }
        format = frame
        dataOffset = context.window.position
        let bound = UInt32(frame.syntax == .ac3 ? 3840 : Self.maxFramesPerPacket * 4096)
        var values: [AudioStreamPropertyValue] = [
            .dataFormat(frame.streamDescription), .maximumPacketSize(bound), .packetSizeUpperBound(bound),
            .averageBytesPerPacket(Double(frame.frameLength)), .bitRate(frame.bitRate), .restrictsRandomAccess(false),
        ]
        if let layout = frame.channelLayout { values.append(.channelLayout(layout)) }
        context.publishHeader(values, dataOffset: dataOffset)
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
