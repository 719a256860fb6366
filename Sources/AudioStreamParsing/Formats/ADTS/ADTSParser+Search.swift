extension ADTSParser {
    /// Scans for the next confirmed frame from where the search stopped (``FrameSyncSearch``), dropping
    /// junk as it goes (unless a held frame must stay readable).
    mutating func stepSearch(_ search: inout Search, _ context: inout ParseContext) -> ParseStep {
        let held = search.heldFrame
        // A frame starting inside a held frame drops it; none before its end: it was whole.
        let sync = ADTSFrameSync(stopsAtTags: held == nil)
        let limit = held?.frameLength ?? Int.max
        let outcome = FrameSyncSearch.search(
            sync, context.window, from: search.offset, limit: limit, counting: &search.junk)
        if let held, case .exhausted(let scanned) = outcome {
            // No frame starts inside the held one: it was whole; what follows it is junk.
            emitFrame(held, &context)
            search.heldFrame = nil
            search.offset = scanned - held.frameLength
            search.junk.forgetRejections()
            state = .searching(search)
            return .continue
        }
        switch outcome {
        case .undecided(let i, _), .exhausted(let i):
            // At the end of the stream, the search stops here too (`finish` takes the rest as junk).
            var n = i + 1
            if case .undecided(_, let atLeast) = outcome { n = atLeast }
            let holdBack = TrailingTagLocator.junkHoldBack
            if search.heldFrame == nil && i > holdBack {
                // Everything before `i` is junk: drop it now rather than hold it, except its last
                // bytes, which may be tags that end the stream (read at `finish`).
                search.junk.skip(i - holdBack, &context)
                search.offset = holdBack
                state = .searching(search)
                return .continue
            }
            search.offset = i
            state = .searching(search)
            return .needMoreData(atLeast: n)
        case .tag(let i):
            search.junk.skip(i, &context)
            reportSkipped(search, &context)
            state = .tag
            return .continue
        case .frame(let i, let header):
            if search.heldFrame != nil {
                // A frame starts inside the held one: the held frame's length was damaged.
                search.droppedFrame = context.window.position
            }
            search.junk.skip(i, &context)
            reportSkipped(search, &context)
            enterSync(header, &context)
            return .continue
        }
    }

    /// One diagnostic for a run of skipped bytes (none when nothing was skipped).
    func reportSkipped(_ search: Search, _ context: inout ParseContext) {
        search.junk.report(&context) { n, start in
            var message: String
            switch search.cause {
            case .start: message = "\(n) bytes of junk before the first frame skipped"
            case .lostSync: message = "lost sync at \(start); \(n) bytes skipped to the next frame"
            case .afterTag: message = "\(n) bytes of junk after an ID3v2 tag skipped"
            case .discontinuity: message = "\(n) bytes skipped to resynchronise after a discontinuity"
            case .seek: message = "\(n) bytes skipped to the first frame after the seek position"
            }
            if let dropped = search.droppedFrame {
                message += "; the frame at \(dropped) was cut short by a frame starting inside it and was dropped"
            }
            if search.junk.rejected > 0, let first = search.junk.firstRejection {
                message += " (\(search.junk.rejected) syncword(s) rejected; first: \(first))"
            }
            return Self.structure.message(message)
        }
    }

    /// A frame was confirmed at the position: publishes the stream (first frame), or announces a
    /// change of the fixed header fields, then continues in sync.
    mutating func enterSync(_ header: ADTSHeader, _ context: inout ParseContext) {
        state = .synced
        if let configuration, header.agrees(with: configuration.header), header.channelConfiguration != 0 {
            return
        }
        let position = context.window.position
        let payload =
            context.window.peekBytes(at: header.headerLength, count: header.frameLength - header.headerLength) ?? []
        let candidate = ADTSConfiguration(header: header, firstRawDataBlock: payload)
        guard let current = configuration else {
            configuration = candidate
            dataOffset = position
            if let problem = candidate.problem { context.diagnose(.inconsistentValues, Self.structure, problem) }
            let bound = UInt32(Self.packetSizeUpperBound)
            let payloadBytes = header.frameLength - header.headerLength
            var values = candidate.propertyValues
            values += [
                .maximumPacketSize(bound), .packetSizeUpperBound(bound),
                .averageBytesPerPacket(Double(payloadBytes) / Double(header.rawDataBlockCount)),
                .bitRate(Self.bitRate(bytes: Int64(header.frameLength), seconds: seconds(of: header))),
                .restrictsRandomAccess(false),
            ]
            if let leadingMetadata { values.append(.metadata(leadingMetadata)) }
            context.publishHeader(values, dataOffset: position)
            return
        }
        // The new header defines the stream from here on (also when only the ID bit changed, which
        // changes no property).
        configuration = candidate
        guard candidate.magicCookie != current.magicCookie || candidate.channelCount != current.channelCount else {
            return
        }
        context.diagnose(
            .formatChange, Self.structure,
            "the stream's format changes at \(position) (audioObjectType \(header.audioObjectType), "
                + "\(header.samplingFrequency) Hz, channel_configuration \(header.channelConfiguration))")
        if let problem = candidate.problem { context.diagnose(.inconsistentValues, Self.structure, problem) }
        var values = candidate.propertyValues
        values.sort { $0.announcementOrder < $1.announcementOrder }
        for value in values { context.announce(value) }
    }

    /// The duration of one frame of `header` in seconds.
    func seconds(of header: ADTSHeader) -> Double {
        Double(ADTSFrameLayout.framesPerBlock * header.rawDataBlockCount) / Double(header.samplingFrequency)
    }

    /// Bits per second, rounded, clamped to UInt32.
    static func bitRate(bytes: Int64, seconds: Double) -> UInt32 {
        guard seconds > 0 else { return 0 }
        let rate = (Double(bytes) * 8 / seconds).rounded()
        return rate >= Double(UInt32.max) ? UInt32.max : UInt32(max(0, rate))
    }
}
