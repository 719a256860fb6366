extension OggParser {
    // MARK: Pages

    /// Reads the page at the position once it is wholly readable: checks it, then hands its packets out.
    mutating func readPage(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        var header = OggPageHeader.empty
        let pageSize: Int
        switch OggPageCheck.check(context.window, into: &header) {
        case .notAPage:
            state = .resync
            return .continue
        case .incomplete(let needed):
            if needed > limits.maxBufferedBytes {
                throw context.error(.limitExceeded, Self.ogg, "page larger than maxBufferedBytes")
            }
            return incomplete(needed, &context)
        case .checksumMismatch(let stored, let computed):
            reportJunk(&context)
            context.diagnose(
                .checksumMismatch, Self.ogg,
                "page CRC mismatch (stored 0x\(FourCharCode.hex(stored, digits: 8)), computed "
                    + "0x\(FourCharCode.hex(computed, digits: 8))): page dropped, resynchronising")
            skipJunk(1, &context)
            state = .resync
            return .continue
        case .page(let size):
            pageSize = size
        }
        reportJunk(&context)
        let pageStart = context.window.position
        guard header.version == 0 else {
            context.diagnose(
                .unknownStructure, Self.ogg, "page with stream_structure_version \(header.version) skipped")
            context.window.consume(pageSize)
            return .continue
        }
        if bisection != nil, let step = bisectionPage(header, at: pageStart, size: pageSize, &context) { return step }
        try page(header, at: pageStart, &context)
        // Whatever the page handling left unconsumed is skipped.
        let left = pageStart + Int64(pageSize) - context.window.position
        if left > 0 { context.window.consume(Int(left)) }
        if let dataOffset {
            endOfPages = max(endOfPages, pageStart + Int64(pageSize) - dataOffset)
            if !tablesFrozen { endOfTablePages = max(endOfTablePages, pageStart + Int64(pageSize) - dataOffset) }
        }
        return .continue
    }

    /// A page is not wholly readable: wait, or, at the end of the stream, give it up and look further.
    mutating func incomplete(_ needed: Int, _ context: inout ParseContext) -> ParseStep {
        guard context.window.isFinal, context.window.readable > 0 else { return .needMoreData(atLeast: needed) }
        reportJunk(&context)
        context.diagnose(
            .truncated, Self.ogg,
            "the stream ends inside the page here (\(context.window.readable) of \(needed) bytes): page dropped")
        skipJunk(1, &context)
        state = .resync
        return .continue
    }

    /// Routes a checked page: to the followed stream, to a new stream's selection, or past it.
    mutating func page(_ header: OggPageHeader, at pageStart: Int64, _ context: inout ParseContext)
        throws(AudioStreamError)
    {
        let serial = header.serialNumber
        seekPrepared = false
        if header.isBeginningOfStream {
            // RFC 3533 §4: the beginning-of-stream pages of a group come first; one after other pages starts
            // a new group: a chained stream.
            if groupHasOtherPages {
                if let s = stream, !s.ended {
                    context.diagnose(
                        .truncated, Self.ogg, "new beginning-of-stream page before the end of stream \(s.serialNumber)")
                }
                startGroup(&context)
            }
            if group.isEmpty { groupCount += 1 }
            let firstSize = header.lacing.prefix { $0 == 255 }.count * 255 + Int(header.lacing.first { $0 < 255 } ?? 0)
            let first = context.window.peekBytes(at: header.headerSize, count: min(firstSize, 64)) ?? []
            let codec = OggCodec(firstPacket: first)
            if !group.contains(where: { $0.serial == serial }) { group.append((serial, codec)) }
            if stream == nil, codec != .other, selects(serial: serial) {
                stream = OggLogicalStream(serialNumber: serial, codec: codec)
            }
        }
        if !header.isBeginningOfStream { groupHasOtherPages = true }
        if stream?.serialNumber != serial, let earlier = previousStreams[serial], !header.isBeginningOfStream {
            // A seek back into an earlier link.
            switchStream(to: earlier, &context)
        }
        guard stream?.serialNumber == serial, var s = stream.take() else {
            if !reportedSerials.contains(serial) {
                reportedSerials.insert(serial)
                if let known = group.first(where: { $0.serial == serial }) {
                    context.diagnose(
                        .structureSkipped, Self.ogg,
                        "logical stream \(serial) (\(known.codec)) not selected: its pages are skipped")
                } else {
                    context.diagnose(
                        .structureSkipped, Self.ogg,
                        "page of logical stream \(serial) without a beginning-of-stream page: skipped")
                }
            }
            return
        }
        // Taken out (not copied) while the page is read, so its buffers stay uniquely referenced.
        defer { stream = s }
        try streamPage(header, at: pageStart, &s, &context)
    }

    /// Whether the selection picks the audio stream `serial` of the current group.
    func selects(serial: UInt32) -> Bool {
        guard groupCount <= 1 else { return true }
        switch selection {
        case .firstAudio: return true
        case .serialNumber(let n): return n == serial
        case .audioStream(let index):
            return group.filter { $0.codec != .other }.firstIndex { $0.serial == serial } == index
        }
    }

    /// Forgets the group of the followed stream; the next beginning-of-stream pages form a new one.
    mutating func startGroup(_ context: inout ParseContext) {
        if let s = stream, !seeked { closeLink(s, trim: trimming(s)) }
        if let s = stream {
            var kept = s
            kept.partial = nil
            previousStreams[s.serialNumber] = kept
        }
        stream = nil
        group = []
        groupHasOtherPages = false
        reportedSerials = []
    }

    mutating func switchStream(to earlier: OggLogicalStream, _ context: inout ParseContext) {
        if let s = stream { previousStreams[s.serialNumber] = s }
        stream = earlier
        stream?.nextSequence = nil
        if let format = earlier.announcedFormat { announce(format, &context) }
    }

    // MARK: The followed stream's pages

    /// Reassembles the packets of a page of the followed stream (RFC 3533 §5).
    mutating func streamPage(
        _ header: OggPageHeader, at pageStart: Int64, _ s: inout OggLogicalStream, _ context: inout ParseContext
    ) throws(AudioStreamError) {
        if s.unusable { return }
        if let expected = s.nextSequence, expected != header.sequenceNumber {
            s.lostPages = true
            context.diagnose(
                .discontinuity, Self.ogg,
                "page sequence \(header.sequenceNumber) of stream \(s.serialNumber) where \(expected) was"
                    + " expected: pages lost, partial packet dropped")
            s.partial = nil
        }
        s.nextSequence = header.sequenceNumber &+ 1
        if !header.isContinued, let partial = s.partial {
            context.diagnose(
                .discontinuity, at: partial.fileOffset, Self.ogg,
                "packet not continued on the next page: \(partial.bytes.count) bytes dropped")
            s.partial = nil
        }
        context.window.consume(header.headerSize)
        if landing?.aim != nil { aimLanding(header, at: pageStart, s, &context) }
        let bodyStart = pageStart + Int64(header.headerSize)
        try header.lacing.withValues { (lacing) throws(AudioStreamError) in
            try pagePackets(
                lacing, isContinued: header.isContinued, pageStart: pageStart, bodyStart: bodyStart, &s, &context)
        }
        if header.granulePosition != -1 {
            if s.granuleBase == nil, s.deliveredAudio, !indicesApproximate {
                // RFC 7845 §4.5: the first audio page's granule position minus the frames that end on it
                // gives the stream's starting granule (a stream joined mid-way), unless that page is also
                // the last (then its granule position trims the end).
                let offset = s.clock?.framesBeforeGranuleZero ?? 0
                let base = header.granulePosition - (s.frames - offset)
                s.granuleBase = header.isEndOfStream || base < 0 ? 0 : base
            }
            s.lastGranule = header.granulePosition
            if tail?.serialNumber == s.serialNumber { tail?.granuleRead = true }
            if !header.isEndOfStream {
                // The last page's granule position may trim the end (RFC 7845 §4.5, Vorbis I §A.2): it does not
                // tell where the packets end.
                refineLanding(granule: header.granulePosition, page: pageStart, s, &context)
            }
        }
        if header.isEndOfStream {
            s.ended = true
            if let partial = s.partial {
                context.diagnose(
                    .truncated, at: partial.fileOffset, Self.ogg,
                    "end-of-stream page ends inside a packet (\(partial.bytes.count) bytes dropped)")
                s.partial = nil
            }
        }
    }

    /// Hands out the packets of a page body whose header is consumed (`lacing`: its lacing values): each
    /// piece up to a lacing value below 255 completes a packet (RFC 3533 §5); a piece at the start of a
    /// continued page completes the stream's partial packet; a piece at the end starts one.
    private mutating func pagePackets(
        _ lacing: Span<UInt8>, isContinued: Bool, pageStart: Int64, bodyStart: Int64,
        _ s: inout OggLogicalStream, _ context: inout ParseContext
    ) throws(AudioStreamError) {
        var consumed = 0  // body bytes consumed so far
        var offset = 0  // body offset of the current piece
        var index = 0
        var continues = isContinued
        var steady = isSteady(s, context)
        while index < lacing.count {
            // One piece: segments up to and including the first below 255, or to the end of the page.
            var length = 0
            var completes = false
            while index < lacing.count {
                length += Int(lacing[index])
                index += 1
                if lacing[index - 1] < 255 {
                    completes = true
                    break
                }
            }
            let pieceStart = offset
            offset += length
            if continues {
                continues = false
                guard var partial = s.partial else { continue }  // Its start was lost: dropped.
                if partial.bytes.count + length > limits.maxPacketBytes {
                    throw context.error(
                        .limitExceeded, at: partial.fileOffset, Self.ogg, "packet larger than maxPacketBytes")
                }
                context.window.appendBytes(at: pieceStart - consumed, count: length, to: &partial.bytes)
                if completes {
                    s.partial = nil
                    try packet(.assembled(partial), &s, &context)
                    steady = isSteady(s, context)
                } else {
                    s.partial = partial
                }
                continue
            }
            if completes {
                if length == 0 { continue }  // An empty packet carries nothing to hand out.
                if pieceStart != consumed {  // (only after a packet left unconsumed or an empty one)
                    context.window.consume(pieceStart - consumed)
                    consumed = pieceStart
                }
                if steady, try steadyPacket(size: length, pageOffset: pageStart, &s, &context) {
                    consumed += length
                    continue
                }
                let eaten = try packet(
                    .inPage(size: length, fileOffset: bodyStart + Int64(pieceStart), pageOffset: pageStart), &s,
                    &context)
                if eaten { consumed += length }
                steady = isSteady(s, context)
            } else {
                if length > limits.maxPacketBytes {
                    throw context.error(.limitExceeded, Self.ogg, "packet larger than maxPacketBytes")
                }
                var bytes: [UInt8] = []
                bytes.reserveCapacity(length)
                context.window.appendBytes(at: pieceStart - consumed, count: length, to: &bytes)
                s.partial = OggPartialPacket(
                    bytes: bytes, fileOffset: bodyStart + Int64(pieceStart), pageOffset: pageStart)
            }
        }
    }

    // MARK: The per-packet path

    /// Whether the followed stream is in its steady state, where `steadyPacket` does for an in-page packet
    /// all that `packet` does: audio packets of an Opus or Vorbis stream after its first one (format
    /// announced, Vorbis's priming counted), delivered for the first time (not again after a seek back),
    /// with exact indices, none to drop, and no seek landing to place. Handing out a packet in this state
    /// changes none of these conditions, so it holds for the rest of a page once it holds.
    func isSteady(_ s: OggLogicalStream, _ context: ParseContext) -> Bool {
        guard s.deliveredAudio, s.hasAnnouncedFormat, s.clock?.countsFromFirstBytes == true, !indicesApproximate,
            packetsToDrop == 0, landing == nil, dataOffset != nil
        else { return false }
        let index = context.nextPacketIndex
        return index == audioPackets && index + 1 >= Int64(packetFrames.count)
            && (tablesFrozen || index == Int64(pageOffsets.count))
    }

    /// `packet` for a complete in-page audio packet of a stream in its steady state (`isSteady`): the
    /// frame count from its first bytes, the seek tables, the counts, the emission. Returns false, having
    /// done nothing, when its first byte is not readable (then `packet` takes it).
    @inline(__always)
    private mutating func steadyPacket(
        size: Int, pageOffset: Int64, _ s: inout OggLogicalStream, _ context: inout ParseContext
    ) throws(AudioStreamError) -> Bool {
        guard let first = context.window.peekUInt8(at: 0) else { return false }
        let frames: Int64
        do {
            frames = try s.clock?.frames(first: first, second: size > 1 ? context.window.peekUInt8(at: 1) : nil) ?? 0
        } catch {
            throw context.error(error)
        }
        s.frames += frames
        s.packets += 1
        recordInTables(pageOffset: pageOffset, frames: frames, context)
        countNewPacket(size: size)
        context.emitPacketInChunk(size: size, variableFrames: UInt32(clamping: frames), frames: frames)
        return true
    }

    /// Appends a new packet (index `context.nextPacketIndex`) to the seek tables while they grow.
    @inline(__always)
    private mutating func recordInTables(pageOffset: Int64, frames: Int64, _ context: ParseContext) {
        guard !tablesFrozen, context.nextPacketIndex == Int64(pageOffsets.count), let dataOffset else { return }
        if pageOffsets.count < limits.maxPacketTableEntries {
            pageOffsets.append(pageOffset - dataOffset)
            packetFrames.append((packetFrames.last ?? 0) + frames)
        } else {
            tablesFrozen = true
            tableFull = true
        }
    }

    /// Counts a packet handed out for the first time.
    @inline(__always)
    private mutating func countNewPacket(size: Int) {
        audioPackets += 1
        audioBytes += Int64(size)
        largestPacket = max(largestPacket, size)
    }

    /// After an estimated seek, the first granule position of the followed stream (RFC 3533 §6: the
    /// position after the last packet that ends on the page) places the packets delivered since the
    /// landing in frames: `packetToFrame` and `frameToPacket` answer exactly for them from then on, and a
    /// diagnostic at the page names the first delivered packet's frame.
    mutating func refineLanding(
        granule: Int64, page pageStart: Int64, _ s: OggLogicalStream, _ context: inout ParseContext
    ) {
        // (While a time seek's landing still aims at a frame, `aimLanding` places it.)
        guard var l = landing, l.startFrame == nil, !l.isFull, l.aim == nil, let linkStart = linkStartFrame(s) else {
            return
        }
        guard let pageEnd = landingFrame(atGranule: granule, s, linkStart: linkStart),
            pageEnd >= (l.relativeFrames.last ?? 0), let start = l.place(frameAtPageEnd: pageEnd)
        else {
            context.diagnose(
                .inconsistentValues, at: pageStart, Self.ogg,
                "granule position \(granule) does not place the packets after the seek")
            landing?.isFull = true
            return
        }
        landing = l
        context.diagnose(
            .positionCorrected, at: pageStart, Self.ogg,
            "estimated seek placed by granule position \(granule): packet \(l.firstIndex), the first delivered"
                + " after the landing, starts at frame \(start)")
    }

    /// Where the followed stream's link starts, counted over all links as `packetToFrame` counts: the
    /// first link at frame 0, a later one where its first packet was delivered; `nil` when not known.
    func linkStartFrame(_ s: OggLogicalStream) -> Int64? {
        s.firstFrame ?? (previousStreams.isEmpty && groupCount <= 1 ? 0 : nil)
    }

    /// The frame (as `packetToFrame` counts) at the end of a page of the followed stream with granule
    /// position `granule`; `nil` when it does not fit.
    func landingFrame(atGranule granule: Int64, _ s: OggLogicalStream, linkStart: Int64) -> Int64? {
        let (sinceBase, o1) = granule.subtractingReportingOverflow(s.granuleBase ?? 0)
        let (inLink, o2) = sinceBase.addingReportingOverflow(s.clock?.framesBeforeGranuleZero ?? 0)
        let (pageEnd, o3) = inLink.addingReportingOverflow(linkStart)
        return o1 || o2 || o3 ? nil : pageEnd
    }

    /// After an estimated seek in a single-link Ogg FLAC stream of fixed block size, the first audio
    /// packet's frame number is its packet index (each audio packet is one FLAC frame, numbered from 0):
    /// the index is exact from here on, as in a native FLAC stream (`FLACParser`), and the tables grow
    /// again when the packet continues them.
    mutating func relabel(toFrameNumber number: Int64, _ context: inout ParseContext) {
        if number != context.nextPacketIndex {
            context.diagnose(
                .positionCorrected, Self.ogg("flac"),
                "the frame found is packet \(number) (\(context.nextPacketIndex) was assumed)")
        }
        context.correctIndices(nextPacketIndex: number)
        indicesApproximate = false
        landing = nil
        if number == Int64(pageOffsets.count) { tablesFrozen = tableFull }
    }

    /// A complete packet: its bytes in the current page, or reassembled.
    enum Packet {
        case inPage(size: Int, fileOffset: Int64, pageOffset: Int64)
        case assembled(OggPartialPacket)

        var size: Int {
            switch self {
            case .inPage(let size, _, _): size
            case .assembled(let p): p.bytes.count
            }
        }
        var pageOffset: Int64 {
            switch self {
            case .inPage(_, _, let page): page
            case .assembled(let p): p.pageOffset
            }
        }
    }

    /// Hands a complete packet to the mapping (header packets) or out (audio packets). Returns whether
    /// an in-page packet's bytes were consumed.
    @discardableResult
    mutating func packet(_ p: Packet, _ s: inout OggLogicalStream, _ context: inout ParseContext)
        throws(AudioStreamError) -> Bool
    {
        func bytes(_ count: Int) -> [UInt8] {
            switch p {
            case .inPage(let size, _, _): return context.window.peekBytes(count: min(count, size)) ?? []
            case .assembled(let partial): return Array(partial.bytes.prefix(count))
            }
        }
        // The first two bytes say whether it is audio and how many frames it holds (no copy of the packet).
        let first: UInt8?
        let second: UInt8?
        switch p {
        case .inPage(let size, _, _):
            first = size > 0 ? context.window.peekUInt8(at: 0) : nil
            second = size > 1 ? context.window.peekUInt8(at: 1) : nil
        case .assembled(let partial):
            first = partial.bytes.first
            second = partial.bytes.count > 1 ? partial.bytes[1] : nil
        }
        let isAudio: Bool
        if let audio = s.clock?.isAudioPacket(first: first) {
            isAudio = audio
        } else if let mapping = s.mapping {
            isAudio = mapping.isAudioPacket(first: first)
        } else {
            // The identification packet.
            do {
                s.mapping = try OggMapping.start(s.codec, bytes(p.size))
            } catch {
                guard dataOffset != nil else { throw context.error(error) }
                // A later link of a chain (a radio stream at a track change): skip it, keep the stream.
                context.diagnose(
                    DiagnosticNote.kind(of: error, whenInvalid: .structureSkipped),
                    "\(error.reason): stream \(s.serialNumber) skipped")
                s.unusable = true
            }
            return false
        }
        if !isAudio {
            guard var mapping = s.mapping else { return false }
            if s.deliveredAudio {
                context.diagnose(.structureSkipped, Self.ogg("\(s.codec)"), "header packet after audio packets ignored")
                return false
            }
            if p.size > limits.maxHeaderChunkBytes && p.size > limits.maxTagBytes {
                throw context.error(
                    .limitExceeded, Self.ogg("\(s.codec)"), "header packet larger than maxHeaderChunkBytes")
            }
            var notes: [DiagnosticNote] = []
            var failure: StructureError?
            var outcome = OggMapping.HeaderOutcome.header
            do {
                outcome = try mapping.readHeader(
                    bytes(p.size), limits: limits, afterLostPages: s.lostPages, notes: &notes)
            } catch {
                failure = error
            }
            for note in notes { context.diagnose(note) }
            if let e = failure {
                guard s.lostPages || dataOffset != nil else { throw context.error(e) }
                // Its header packets went with lost pages, or a later link of a chain is damaged: nothing of
                // this stream can be decoded, but the links after it can.
                let why = s.lostPages ? " (header pages lost)" : ""
                context.diagnose(
                    DiagnosticNote.kind(of: e, whenInvalid: .structureSkipped),
                    "\(e.reason)\(why): stream \(s.serialNumber) skipped")
                s.unusable = true
                return false
            }
            s.mapping = mapping
            // Headers lost with damaged pages: this packet is the first audio packet.
            guard case .audio = outcome else { return false }
        }
        if case .none = s.clock, let mapping = s.mapping { s.clock = OggPacketClock(mapping) }
        var frames: Int64
        do {
            let head = s.clock?.needsHead == true ? bytes(16) : []
            frames = try s.clock?.frames(first: first, second: second, head: head) ?? 0
        } catch {
            throw context.error(error)
        }
        // Only after a seek: after a plain discontinuity (a head-and-tail read, `OggTail`) the length comes
        // from the tail's granule position, and the indices stay approximate.
        if indicesApproximate, tail == nil, packetsToDrop == 0, fixedFLACBlockSize(of: s) != nil,
            let number = FLACFrameBlockSize.frameNumber(bytes(16))
        {
            relabel(toFrameNumber: number, &context)
        } else if indicesApproximate, tail == nil, packetsToDrop == 0, s.codec == .flac,
            let sample = FLACFrameBlockSize.sampleNumber(bytes(16))
        {
            placeLanding(atFLACSample: sample, s, &context)
        }
        let index = context.nextPacketIndex + Int64(packetsToDrop)
        if !indicesApproximate, index >= 0, index + 1 < Int64(packetFrames.count) {
            // Delivered before a seek: its frame count is known exactly (a Vorbis packet's count depends on
            // the packet before it, which the resumed feed may not have shown).
            frames = packetFrames.step(after: Int(index))
        }
        if !s.hasAnnouncedFormat {
            announceFormat(&s, &context, dataOffset: p.pageOffset)
        }
        s.frames += frames
        s.packets += 1
        if packetsToDrop > 0 {
            s.deliveredAudio = true
            packetsToDrop -= 1
            return false
        }
        if !s.deliveredAudio, !tablesFrozen, context.nextPacketIndex == Int64(pageOffsets.count) {
            s.firstFrame = packetFrames.last
        }
        s.deliveredAudio = true
        recordInTables(pageOffset: p.pageOffset, frames: frames, context)
        if let dataOffset {
            landing?.record(
                index: context.nextPacketIndex, frames: frames, pageOffset: p.pageOffset - dataOffset,
                limit: limits.maxPacketTableEntries)
        }
        if !indicesApproximate, context.nextPacketIndex == audioPackets {
            // A new packet (not one delivered again after a seek back).
            countNewPacket(size: p.size)
        }
        let variable = UInt32(clamping: frames)
        switch p {
        case .inPage(let size, _, _):
            context.emitPacketInChunk(size: size, variableFrames: variable, frames: frames)
            return true
        case .assembled(let partial):
            context.emitAssembledPacket(
                partial.bytes, fileOffset: partial.fileOffset, variableFrames: variable, frames: frames)
            return false
        }
    }

    // MARK: Announcements

    /// Announces a stream's format when its first audio packet arrives: the whole header the first time,
    /// the changed values for a later link of a chain.
    mutating func announceFormat(_ s: inout OggLogicalStream, _ context: inout ParseContext, dataOffset offset: Int64) {
        guard var format = s.mapping?.format else { return }
        if s.codec == .vorbis { format.primingFrames = s.clock?.primingFrames ?? 0 }
        s.announcedFormat = format
        s.hasAnnouncedFormat = true
        openLink(s, format, at: offset, &context)
        if dataOffset == nil {
            dataOffset = offset
            var values: [AudioStreamPropertyValue] = [.dataFormat(format.streamDescription)]
            if let cookie = format.magicCookie { values.append(.magicCookie(cookie)) }
            if let layout = format.channelLayout { values.append(.channelLayout(layout)) }
            if let rate = format.bitRate { values.append(.bitRate(rate)) }
            // Vorbis and Opus state no packet size bound (Opus padding is unbounded; a FLAC STREAMINFO may
            // leave the maximum frame size 0): then the bound is the largest packet this parser reassembles.
            let bound = format.packetSizeUpperBound ?? UInt32(clamping: context.limits.maxPacketBytes)
            values.append(.packetSizeUpperBound(bound))
            if format.primingFrames > 0 {
                values.append(
                    .packetTableInfo(
                        PacketTableInfo(
                            numberValidFrames: 0, primingFrames: Int32(clamping: format.primingFrames),
                            remainderFrames: 0)))
            }
            if let metadata = format.metadata { values.append(.metadata(metadata)) }
            values.append(.restrictsRandomAccess(false))
            context.publishHeader(values, dataOffset: offset)
        } else {
            announce(format, &context)
        }
    }

    /// Announces a later link's values (those that changed).
    func announce(_ format: OggStreamFormat, _ context: inout ParseContext) {
        context.announce(.dataFormat(format.streamDescription))
        context.announce(
            .formatList([
                FormatListItem(
                    streamDescription: format.streamDescription,
                    channelLayoutTag: format.channelLayout?.tag ?? .noLayout)
            ]))
        if let cookie = format.magicCookie { context.announce(.magicCookie(cookie)) }
        if let layout = format.channelLayout { context.announce(.channelLayout(layout)) }
        context.announce(
            .packetTableInfo(
                PacketTableInfo(
                    numberValidFrames: 0, primingFrames: Int32(clamping: format.primingFrames), remainderFrames: 0)))
        context.announce(.metadata(format.metadata ?? AudioMetadata()))
    }

    /// Priming and remainder of the followed stream from its last granule position (RFC 7845 §4.4-4.5:
    /// the last page's granule position marks the end of the valid samples; Vorbis I §A.2 likewise).
    ///
    /// In nominal frames (the sum of the packets' frame counts): the last granule covers
    /// `lastGranule − base + framesBeforeGranuleZero` of them; the rest is the remainder; the priming is
    /// Opus's pre-skip or Vorbis's first packet.
    func endTrimming(_ s: OggLogicalStream, _ context: inout ParseContext) -> PacketTableInfo? {
        if let trim = trimming(s) { return trim }
        // `trimming` gives nil here only when the granule position does not fit the packets.
        if s.codec != .flac, s.lastGranule >= 0, s.announcedFormat != nil, s.frames > 0 {
            context.diagnose(
                .inconsistentValues, Self.ogg,
                "last granule position \(s.lastGranule) does not fit the packets' durations")
        }
        return nil
    }

    /// `endTrimming` without the diagnostic: `nil` when there is no last granule position or it does not
    /// fit the packets.
    func trimming(_ s: OggLogicalStream) -> PacketTableInfo? {
        if s.codec == .flac { return flacTrimming(s) }
        guard s.lastGranule >= 0, let format = s.announcedFormat, s.frames > 0 else { return nil }
        let offset = s.clock?.framesBeforeGranuleZero ?? 0
        let covered = s.lastGranule - (s.granuleBase ?? 0) + offset
        let priming = format.primingFrames
        let remainder = s.frames - covered
        guard covered >= priming, remainder >= 0 else { return nil }
        return PacketTableInfo(
            numberValidFrames: covered - priming, primingFrames: Int32(clamping: priming),
            remainderFrames: Int32(clamping: remainder))
    }

    /// FLAC in Ogg: every frame header states its block size, so the packets' frames are exact; when the
    /// stream description claims a constant block size (STREAMINFO's minimum = maximum), the last frame
    /// may still be shorter (RFC 9639 §9.1.2): the difference is the remainder, as the native FLAC parser
    /// announces it, so that packets × framesPerPacket − remainder is the stream's length.
    func flacTrimming(_ s: OggLogicalStream) -> PacketTableInfo? {
        guard let format = s.announcedFormat, s.frames > 0 else { return nil }
        let perPacket = Int64(format.streamDescription.framesPerPacket)
        let (nominal, overflow) = s.packets.multipliedReportingOverflow(by: perPacket)
        let remainder = perPacket > 0 && !overflow && nominal >= s.frames ? nominal - s.frames : 0
        return PacketTableInfo(
            numberValidFrames: s.frames, primingFrames: 0, remainderFrames: Int32(clamping: remainder))
    }
}
