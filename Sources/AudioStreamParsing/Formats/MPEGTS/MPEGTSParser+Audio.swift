extension MPEGTSParser {
    /// Appends a payload of the selected stream and takes out the frames it completes.
    mutating func feedAudio(
        _ payload: ArraySlice<UInt8>, at offset: Int64, unitOffset: Int64, unitStart: Bool,
        _ context: inout ParseContext
    ) {
        if unitStart {
            // A PES packet starts: what is left of the previous one is whole frames or an E-AC-3 packet
            // waiting for the header after it.
            takeFrames(&context, flush: true)
        }
        let headers = audio.headersRead
        switch audio.feed(payload, at: offset, unitOffset: unitOffset, unitStart: unitStart) {
        case .ok:
            break
        case .invalidHeader(let why):
            context.diagnose(
                .inconsistentValues, Self.structure, "PES packet header on PID \(selection?.pid ?? 0): \(why); skipped")
        case .overflow(let n):
            context.diagnose(.junkSkipped, Self.structure, "\(n) bytes of the elementary stream held no frame; dropped")
        }
        if audio.headersRead != headers { pesStarted(&context) }
        takeFrames(&context, flush: false)
    }

    /// Cuts the frames at the start of the selected stream's data and emits them; bytes that start no
    /// frame are skipped (one diagnostic per call). With `flush`, a frame that waits only for the header
    /// after it (an E-AC-3 packet) is emitted too.
    mutating func takeFrames(_ context: inout ParseContext, flush: Bool) {
        guard let selected = selection else { return }
        guard let codec = selected.codec ?? identifyPrivateStream(selected, &context, flush: flush) else { return }
        let es = audio.bytes
        var i = 0
        var junk = 0
        frames: while true {
            switch TSAudioFrame.decode(codec, es, at: i) {
            case .needMoreData:
                break frames
            case .noFrame:
                i += 1
                junk += 1
            case .frame(let frame):
                var end = i + frame.length
                guard end <= es.count else { break frames }
                if case .loas = frame {
                    let body = es[(i + AudioSyncStreamHeader.byteCount)..<end]
                    var notes: [DiagnosticNote] = []
                    let decoded: AudioMuxElement.Decoded
                    do throws(StructureError) {
                        decoded = try AudioMuxElement.decode(body, current: latm.config, notes: &notes)
                    } catch {
                        // Not an element after all (a false syncword): one byte of junk.
                        i += 1
                        junk += 1
                        continue frames
                    }
                    if junk > 0 {
                        reportJunk(junk, at: audio.position(of: i - junk).offset, &context)
                        junk = 0
                    }
                    takeLOAS(
                        decoded, notes: notes, frameAt: audio.position(of: i), frameBytes: end - i,
                        frameEnd: audio.position(of: end - 1).offset + 1, &context)
                    i = end
                    continue frames
                }
                if case .ac3(let first) = frame, first.syntax == .enhanced {
                    // Dependent and further independent substreams belong to the packet (raw E-AC-3).
                    var count = 1
                    while count < AC3Parser.maxFramesPerPacket {
                        guard end + AC3SyncFrame.headerByteCount <= es.count else {
                            if flush { break }
                            break frames
                        }
                        let bits = es[end..<(end + AC3SyncFrame.headerByteCount)].reduce(UInt64(0)) {
                            $0 << 8 | UInt64($1)
                        }
                        guard case .valid(let next) = AC3SyncFrame.decode(bits), !next.startsPacket,
                            end + next.frameLength <= es.count
                        else { break }
                        end += next.frameLength
                        count += 1
                    }
                }
                if junk > 0 {
                    reportJunk(junk, at: audio.position(of: i - junk).offset, &context)
                    junk = 0
                }
                let start = (offset: audio.position(of: i + frame.packetStart).offset, unit: audio.position(of: i).unit)
                emit(
                    frame, Array(es[(i + frame.packetStart)..<end]), frameBytes: end - i, at: start,
                    frameEnd: audio.position(of: end - 1).offset + 1, &context)
                i = end
            }
        }
        if junk > 0 { reportJunk(junk, at: audio.position(of: i - junk).offset, &context) }
        audio.removeFirst(i)
    }

    /// A private PES stream's codec from its first data (``TSAudioFrame/identify(_:ended:)``); `nil` while
    /// undecided. A stream that starts no audio frame is reported and given up, and the next candidate
    /// is chosen.
    private mutating func identifyPrivateStream(_ selected: Selection, _ context: inout ParseContext, flush: Bool)
        -> TSAudioCodec?
    {
        switch TSAudioFrame.identify(audio.bytes, ended: flush) {
        case .codec(let codec):
            selection?.codec = codec
            return codec
        case .needMoreData:
            return nil
        case .none:
            context.diagnose(
                .structureSkipped, Self.structure,
                "the private PES stream on PID \(selected.pid) (stream_type 0x06) does not start with an audio frame; "
                    + "not demultiplexed")
            notAudioPIDs.insert(selected.pid)
            selection = nil
            audio.reset()
            // Without trackID the choice cannot throw.
            try? select(&context)
            return nil
        }
    }

    private func reportJunk(_ count: Int, at offset: Int64, _ context: inout ParseContext) {
        context.diagnose(
            .junkSkipped, at: offset, Self.structure,
            "\(count) bytes of the elementary stream start no frame; skipped")
    }

    /// Emits one packet (`bytes`: the frame without an ADTS header; `position`: the packet's first byte
    /// and the unit that starts the frame's PES packet; `frameEnd`: the offset after the frame's last
    /// byte), publishing the stream at the first.
    ///
    /// The offset table records, for each packet parsed in order, the unit that starts its PES packet
    /// (where feeding must resume: the PES header comes first) and, as its end entry, the same unit: a
    /// landing for the next packet too, which begins in that PES packet or a later one (the packets of
    /// the landing PES before the target are dropped, see `prepareForSeek`). `finish` replaces the end
    /// entry with the offset after the last frame.
    mutating func emit(
        _ frame: TSAudioFrame, _ bytes: [UInt8], frameBytes: Int, at position: (offset: Int64, unit: Int64),
        frameEnd: Int64, _ context: inout ParseContext
    ) {
        var frame = frame
        if let format, Self.sameFormat(format, frame) {
            frame = frame.inheritingImplicitSBR(from: format)
        } else {
            // A new stream or format: its first raw data block tells whether SBR is implicitly signalled.
            let looked = frame.lookingForImplicitSBR(in: bytes[...])
            frame = looked.frame
            if let problem = looked.problem {
                context.diagnose(.inconsistentValues, at: position.offset, Self.structure, problem)
            }
        }
        if format == nil {
            format = frame
            dataOffset = position.unit
            if lastPES.unit == position.unit { timeline.firstPTS = lastPES.pts }
            var values = frame.propertyValues(firstPacket: bytes[...])
            if let leadingMetadata { values.append(.metadata(leadingMetadata)) }
            leadingMetadata = nil
            context.publishHeader(values, dataOffset: dataOffset)
        } else if let format, !Self.sameFormat(format, frame) {
            self.format = frame
            context.diagnose(
                .formatChange, at: position.offset, Self.structure,
                "the stream's format changes at \(position.offset) (\(frame.sampleRate) Hz)")
            for value in frame.propertyValues(firstPacket: bytes[...]) where value.id != .maximumPacketSize {
                context.announce(value)
            }
        }
        if skipPackets > 0 {
            skipPackets -= 1
            return
        }
        if refinement != nil, !refinedSeekDelivers(frames: frame.frames, unit: position.unit, &context) { return }
        let index = context.nextPacketIndex
        let size = bytes.count
        context.emitAssembledPacket(bytes, fileOffset: position.offset, variableFrames: 0, frames: frame.frames)
        guard indicesExact && index == totals.packets else { return }
        let relative = position.unit - dataOffset
        _ = offsets.record(
            packet: totals.packets, start: relative, end: relative, limit: context.limits.maxPacketTableEntries)
        lastFrameEnd = frameEnd
        totals.packets += 1
        totals.bytes += Int64(frameBytes)
        totals.maximumPacketSize = max(totals.maximumPacketSize, size)
    }

    /// Whether two frames describe the same stream (rate, channels, codec, frames per packet).
    private static func sameFormat(_ a: TSAudioFrame, _ b: TSAudioFrame) -> Bool {
        switch (a, b) {
        case (.mpeg(let x), .mpeg(let y)): x.streamDescription == y.streamDescription
        case (.adts(let x, _), .adts(let y, _)): x.agrees(with: y)
        case (.ac3(let x), .ac3(let y)): x.streamDescription == y.streamDescription
        case (.loas(_, let x, _), .loas(_, let y, _)): x?.audioSpecificConfig == y?.audioSpecificConfig
        default: false
        }
    }

    /// Reads the ID3v2 tags at the start of an ID3 stream's data once whole (with `flush`, the PES
    /// packet ended: what is left is dropped) and announces them: with the header before the first
    /// frame, as timed metadata afterwards.
    mutating func takeMetadata(_ pid: UInt16, _ context: inout ParseContext, flush: Bool) {
        guard var stream = metadataStreams[pid] else { return }
        defer { metadataStreams[pid] = stream }
        while stream.bytes.count >= 10 {
            let b = stream.bytes
            guard b[0] == 0x49, b[1] == 0x44, b[2] == 0x33 else {
                stream.removeFirst(b.count)
                break
            }
            let size =
                (Int(b[6] & 0x7F) << 21 | Int(b[7] & 0x7F) << 14 | Int(b[8] & 0x7F) << 7 | Int(b[9] & 0x7F))
                + 10 + (b[5] & 0x10 != 0 ? 10 : 0)
            guard size <= context.limits.maxTagBytes else {
                context.diagnose(
                    .limitExceeded, Self.structure,
                    "an ID3 timed metadata tag of \(size) bytes exceeds maxTagBytes; skipped")
                stream.reset()
                return
            }
            guard b.count >= size else { break }
            if let tag = ID3v2Tag.parse(Array(b[0..<size]), limits: context.limits), !tag.metadata.isEmpty {
                if format == nil {
                    leadingMetadata = (leadingMetadata ?? AudioMetadata()).merging(tag.metadata)
                } else {
                    context.announceTimedMetadata(tag.metadata)
                }
            }
            stream.removeFirst(size)
        }
        if flush { stream.removeFirst(stream.bytes.count) }
    }
}
