extension FLACParser {
    /// The largest frame accepted: every subframe verbatim at one bit more than the sample size (a side
    /// channel), plus subframe headers, the frame header and footer (RFC 9639 §9.2, §9.3), within the
    /// packet and buffering limits.
    func frameBound(_ limits: ParserLimits) -> Int {
        min(theoreticalFrameBound, limits.maxPacketBytes, limits.maxBufferedBytes - FLACFrameHeader.maximumSize)
    }

    /// `frameBound`, and the bound a frame's end is looked for within before a later header counts as
    /// proof of damage: STREAMINFO's maximum frame size when known, else the same.
    func frameBounds(_ info: FLACStreamInfo, _ limits: ParserLimits) -> (hard: Int, soft: Int) {
        let bound = frameBound(limits)
        return (bound, info.maximumFrameSize > 0 ? min(bound, Int(info.maximumFrameSize)) : bound)
    }

    /// The largest frame STREAMINFO allows, without the limits.
    var theoreticalFrameBound: Int {
        guard let info = streamInfo else { return FLACFrameHeader.maximumSize + 3 }
        let bits = Int(info.maximumBlockSize) * Int(info.channels) * (Int(info.bitsPerSample) + 1)
        return max(FLACFrameHeader.maximumSize + 3, bits / 8 + Int(info.channels) * 8 + FLACFrameHeader.maximumSize + 2)
    }

    /// Looks for a frame header (``FrameSyncSearch`` with ``FLACFrameSync``), dropping junk as it goes
    /// (the search consumes what it ruled out, so it always starts at the position).
    mutating func stepSearch(_ search: inout Search, _ context: inout ParseContext) -> ParseStep {
        guard let info = streamInfo else { return .needMoreData(atLeast: context.window.readable + 1) }
        let sync = FLACFrameSync(streamInfo: info, variable: isVariable)
        switch FrameSyncSearch.search(sync, context.window, from: 0) {
        case .frame(let j, let header):
            search.junk.skip(j, &context)
            reportSkipped(search, &context)
            let expected = expectedNumber.map { $0 == header.number } ?? false
            state = .frame(FrameScan(header: header, tentative: !expected, checksCRC: verifiesFrameCRC || !expected))
            return .continue
        case .undecided(let j, let n):
            search.junk.skip(j, &context)
            state = .searching(search)
            return .needMoreData(atLeast: n - j)
        case .exhausted(let j), .tag(let j):
            search.junk.skip(j, &context)
            state = .searching(search)
            return .needMoreData(atLeast: 1)
        }
    }

    /// One diagnostic for a run of skipped bytes.
    func reportSkipped(_ search: Search, _ context: inout ParseContext) {
        search.junk.report(&context) { count, start in
            Self.structure.message("skipped \(count) bytes without a valid frame header at \(start) \(search.cause)")
        }
    }

    /// Runs the CRC-16 of the frame at the position over the bytes that arrived, checking every sync
    /// code on the way for the next frame's header.
    mutating func stepFrame(
        _ scan: inout FrameScan, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        guard let info = streamInfo else { return .needMoreData(atLeast: context.window.readable + 1) }
        if !scan.checksCRC, let step = stepFrameByHeaders(&scan, info, &context) { return step }
        let window = context.window
        let (bound, soft) = frameBounds(info, context.limits)
        let minimum = scan.header.length + 3
        var i = scan.scanned
        var crc = scan.crc
        while true {
            let limit = min(window.readable, (scan.suspect == nil ? bound : soft) + 1)
            if i < limit {
                // The CRC up to the next possible sync code: 0xFF then 0xF8 or 0xF9, or a 0xFF whose next
                // byte is not in the same segment. Another 0xFF is data (no header can start there).
                let (position, stop, running) = window.crc16ToPossibleSync(
                    from: i, to: limit, crc: crc, table: FLACCRC.table16, syncMask: 0xFE, syncValue: 0xF8)
                i = position
                crc = running
                if stop {
                    if i >= minimum {
                        let variable = scan.header.isVariable
                        switch FLACFrameHeader.decode(window, at: i, streamInfo: info, variable: variable) {
                        case .needMoreData(let n) where !window.isFinal:
                            scan.scanned = i
                            scan.crc = crc
                            state = .frame(scan)
                            return .needMoreData(atLeast: i + n)
                        case .valid(let next):
                            if crc == 0 && next.number > scan.header.number {
                                if !scan.tentative && next.number != scan.header.nextNumber {
                                    context.diagnose(
                                        .discontinuity, at: window.position + Int64(i), Self.structure,
                                        "frame numbers jump from \(scan.header.number) to \(next.number)")
                                }
                                emitFrame(scan.header, size: i, &context)
                                state = .frame(FrameScan(header: next, tentative: false, checksCRC: verifiesFrameCRC))
                                return .continue
                            }
                            if next.number > scan.header.number && scan.suspect == nil {
                                scan.suspect = i
                            }
                        default:
                            break
                        }
                    }
                    crc = FLACCRC.crc16(crc, 0xFF)
                    i += 1
                    continue
                }
            }
            // Everything readable (or up to the bound) is scanned.
            if let suspect = scan.suspect, i > soft {
                return abandonFrame(scan, before: suspect, &context)
            }
            if i > bound {
                if bound < theoreticalFrameBound && !scan.tentative {
                    throw context.error(
                        .limitExceeded, Self.structure,
                        "a frame longer than maxPacketBytes/maxBufferedBytes (\(bound) bytes)")
                }
                return abandonFrame(scan, before: min(i, window.readable), &context)
            }
            scan.scanned = i
            scan.crc = crc
            state = .frame(scan)
            return .needMoreData(atLeast: window.readable + 1)
        }
    }

    /// The default end-of-frame search: the frame ends at the first header, from STREAMINFO's minimum
    /// frame size on (and never before the shortest possible frame), that decodes, agrees with
    /// STREAMINFO and carries exactly the next frame or sample number. Only the bytes from there to
    /// that header are read, word at a time; the CRC-16 is not computed.
    ///
    /// A false sync would need the sync code, a CRC-8 that checks, every field consistent with the
    /// stream and that exact number (for 16-bit stereo at 44.1 kHz with 2-byte frame numbers about one
    /// in 10^10 of the sync codes that occur in audio data). The chain is broken, and the CRC-16 scan
    /// of `stepFrame` takes over for this frame (`scan.checksCRC`, from its first byte), when a header
    /// of the stream with another number comes first, or none comes within the maximum frame size.
    ///
    /// Returns `nil` after such a handover; otherwise the step.
    private mutating func stepFrameByHeaders(
        _ scan: inout FrameScan, _ info: FLACStreamInfo, _ context: inout ParseContext
    ) -> ParseStep? {
        let window = context.window
        let soft = frameBounds(info, context.limits).soft
        let expected = scan.header.nextNumber
        // A frame has at least its header, one subframe header byte and the footer.
        var i = max(scan.scanned, scan.header.length + 3, Int(info.minimumFrameSize))
        let limit = min(window.readable, soft + 1)
        while i < limit {
            guard let j = Self.nextPossibleSync(window, from: i, to: limit) else {
                i = limit
                break
            }
            switch FLACFrameHeader.decode(window, at: j, streamInfo: info, variable: scan.header.isVariable) {
            case .needMoreData(let n) where !window.isFinal:
                scan.scanned = j
                state = .frame(scan)
                return .needMoreData(atLeast: j + n)
            case .valid(let next) where next.number == expected:
                emitFrame(scan.header, size: j, &context)
                state = .frame(FrameScan(header: next, tentative: false, checksCRC: verifiesFrameCRC))
                return .continue
            case .valid:
                return handOverToCRC(&scan)
            default:
                i = j + 1
            }
        }
        if i > soft { return handOverToCRC(&scan) }
        scan.scanned = i
        state = .frame(scan)
        // Nothing before `i` is looked at: wait for a sync code's two bytes there (at most soft + 2, within
        // maxBufferedBytes since `frameBound` leaves room for a header), so small chunks cost no step each.
        return .needMoreData(atLeast: max(window.readable + 1, min(i + 2, soft + 2)))
    }

    /// The header chain is broken in this frame: its end is looked for by the CRC-16, from its start.
    private mutating func handOverToCRC(_ scan: inout FrameScan) -> ParseStep? {
        scan.checksCRC = true
        scan.scanned = 0
        scan.crc = 0
        return nil
    }

    /// The offset in `from..<to` of the first 0xFF followed by 0xF8 or 0xF9 (a possible sync code), or
    /// of a 0xFF as the last byte there (its next byte is not known yet). The 0xFF bytes are found with
    /// `InputWindow.firstIndex(of:from:to:)` (`memchr`).
    static func nextPossibleSync(_ window: InputWindow, from start: Int, to end: Int) -> Int? {
        var i = start
        while let j = window.firstIndex(of: 0xFF, from: i, to: end) {
            guard j + 1 < end, let next = window.peekUInt8(at: j + 1) else { return j }
            if next & 0xFE == 0xF8 { return j }
            i = j + 1
        }
        return nil
    }

    /// No frame end was found before a later frame header (`end` = its offset) or within the bound:
    /// the frame's bytes fail the CRC-16. When the CRC-16 comes out 0 somewhere before `end` the frame
    /// ends there (what follows it is damaged and left to the search); otherwise one byte is dropped
    /// and the search resumes after the sync code, so a frame inside the damaged bytes is still found.
    private mutating func abandonFrame(
        _ scan: FrameScan, before end: Int, _ context: inout ParseContext
    ) -> ParseStep {
        let start = context.window.position
        if let zero = Self.firstZeroCRC(context.window, from: scan.header.length + 3, to: end) {
            emitFrame(scan.header, size: zero, &context)
        } else {
            context.diagnose(
                .checksumMismatch, Self.structure,
                "the frame at \(start) fails its footer CRC-16 (no frame end before \(start + Int64(end))); "
                    + "it is not a packet; resynchronising")
            context.window.consume(1)
        }
        state = .searching(Search(cause: "after a damaged frame"))
        return .continue
    }

    /// The first offset in `minimum...end` at which the CRC-16 of the bytes from the position is 0.
    static func firstZeroCRC(_ window: InputWindow, from minimum: Int, to end: Int) -> Int? {
        guard end >= minimum else { return nil }
        var crc: UInt16 = 0
        var position = 0
        var found: Int?
        window.withContiguousSegments(at: 0, count: end) { segment in
            guard found == nil else { return }
            for b in segment {
                crc = FLACCRC.crc16(crc, b)
                position += 1
                if crc == 0 && position >= minimum {
                    found = position
                    return
                }
            }
        }
        return found
    }

    /// At the end of the stream: the frame at the position ends at the end when its CRC-16 is 0 there;
    /// or where tags that end the stream begin (ID3v1, APEv2, Lyrics3v2, an appended ID3v2: found by
    /// `TrailingTagLocator`), when its CRC-16 is 0 there — the tags are then read and announced; or
    /// where its CRC-16 last comes out 0 when only zero bytes follow. Otherwise it is truncated or
    /// damaged and dropped.
    mutating func finishFrame(_ scan: FrameScan, _ context: inout ParseContext) {
        let window = context.window
        let readable = window.readable
        let minimum = scan.header.length + 3
        let held = window.peekBytes(count: readable) ?? []
        var zeros: Set<Int> = []
        var crc: UInt16 = 0
        for (i, b) in held.enumerated() {
            crc = FLACCRC.crc16(crc, b)
            if crc == 0 && i + 1 >= minimum { zeros.insert(i + 1) }
        }
        let start = window.position
        if zeros.contains(readable) {
            emitFrame(scan.header, size: readable, &context)
            return
        }
        let layout = TrailingTagLocator.locate(in: held)
        if layout.start < readable && zeros.contains(layout.start) {
            emitFrame(scan.header, size: layout.start, &context)
            var tags = TrailingTags()
            for tag in layout.tags(in: held, at: start, maxBytes: context.limits.maxTagBytes) { tags.append(tag) }
            context.window.consume(readable - layout.start)
            if let trailing = tags.metadata(limits: context.limits) {
                context.announce(.metadata(metadata.merging(trailing)))
            }
            return
        }
        if let end = zeros.max(), held[end...].allSatisfy({ $0 == 0 }) {
            emitFrame(scan.header, size: end, &context)
            context.diagnose(.junkSkipped, Self.structure, "\(readable - end) zero bytes after the last frame ignored")
            context.window.consume(readable - end)
            return
        }
        context.diagnose(
            .truncated, at: start, Self.structure,
            "the last frame at \(start) (\(readable) bytes) fails its footer CRC-16: truncated or damaged; "
                + "dropped")
        context.window.consume(readable)
    }

    /// Emits the frame at the position (`size` bytes, readable) as one packet.
    mutating func emitFrame(_ header: FLACFrameHeader, size: Int, _ context: inout ParseContext) {
        if aimFrame != nil, skipsBeforeAim(header, size: size, &context) { return }
        let start = context.window.position
        let fpp = framesPerPacket
        if resyncIndex { resynchroniseIndex(header, &context) }
        let index = context.nextPacketIndex
        context.emitPacket(
            size: size, variableFrames: header.blockSize == fpp ? 0 : UInt32(header.blockSize),
            frames: Int64(header.blockSize))
        if isVariable == nil { isVariable = header.isVariable }
        expectedNumber = header.nextNumber
        guard indicesExact && index == totals.packets else { return }
        let relative = start - dataOffset
        let recording = engine.offsets.record(
            packet: totals.packets, start: relative, end: relative + Int64(size),
            limit: context.limits.maxPacketTableEntries)
        if recording != .skipped {
            if packetFrames.isEmpty { packetFrames = [0] }
            packetFrames.append(totals.frames + Int64(header.blockSize))
        }
        totals.packets += 1
        totals.frames += Int64(header.blockSize)
        totals.bytes += Int64(size)
        totals.maximumPacketSize = max(totals.maximumPacketSize, size)
        totals.end = start + Int64(size)
    }

    /// After an estimated seek aimed at a frame: skips (consumes without delivering) a frame that ends at
    /// or before it. The first frame that does not clears the aim and is delivered.
    private mutating func skipsBeforeAim(_ header: FLACFrameHeader, size: Int, _ context: inout ParseContext) -> Bool {
        guard let aim = aimFrame, header.number < 1 << 36 else {
            aimFrame = nil
            return false
        }
        let first: Int64
        if header.isVariable {
            first = Int64(header.number)
        } else if framesPerPacket > 0 {
            first = Int64(header.number) * Int64(framesPerPacket)
        } else {
            aimFrame = nil
            return false
        }
        guard first + Int64(header.blockSize) <= aim else {
            aimFrame = nil
            return false
        }
        if isVariable == nil { isVariable = header.isVariable }
        expectedNumber = header.nextNumber
        context.window.consume(size)
        return true
    }

    /// The first frame after a seek or discontinuity says which packet it is when the stream has a
    /// fixed block size: frame number n is packet n. The packet index then continues exactly. (A
    /// variable-blocksize frame carries a sample number, which names no packet: the index stays the one
    /// the seek assumed.)
    private mutating func resynchroniseIndex(_ header: FLACFrameHeader, _ context: inout ParseContext) {
        resyncIndex = false
        guard framesPerPacket > 0, !header.isVariable, header.number < UInt64(Int64.max) else { return }
        let index = Int64(header.number)
        if index != context.nextPacketIndex {
            context.diagnose(
                .positionCorrected, Self.structure,
                "the frame found is packet \(index) (\(context.nextPacketIndex) was assumed)")
        }
        context.correctIndices(nextPacketIndex: index)
        // Back on the parsed-in-order frontier when the frame continues it.
        indicesExact = index <= totals.packets
    }

    /// The geometry known so far: exact offsets of the frames parsed in order, SEEKTABLE points, and the
    /// average frame size for the rest.
    func makePacketMap() -> PacketMap {
        let fpp = Int64(framesPerPacket)
        let packetOffsets = engine.offsets.offsets
        var map = PacketMap(
            framesPerPacket: fpp > 0 ? fpp : nil, packetOffsets: packetOffsets.isEmpty ? nil : packetOffsets,
            packetFrames: fpp > 0 || packetFrames.isEmpty ? nil : packetFrames,
            packetCount: finalPacketCount ?? declaredPacketCount)
        if totals.packets > 0 {
            map.estimatedBytesPerPacket = Double(totals.end - dataOffset) / Double(totals.packets)
        } else if let info = streamInfo, info.maximumFrameSize > 0 {
            map.estimatedBytesPerPacket = Double(info.minimumFrameSize + info.maximumFrameSize) / 2
        }
        if fpp > 0, let table = seekTable, !table.points.isEmpty {
            // Fixed blocking: packet n starts at sample n × blockSize; a seek point there gives its offset.
            map.estimatedByteOffset = { packet in
                let (sample, overflow) = UInt64(max(0, packet)).multipliedReportingOverflow(by: UInt64(fpp))
                guard !overflow, let point = table.point(atOrBefore: sample), point.sample == sample,
                    point.offset < UInt64(Int64.max)
                else { return nil }
                return Int64(point.offset)
            }
            map.estimatedPacket = { byte in
                guard byte >= 0, let point = table.point(atOrBeforeOffset: UInt64(byte)),
                    point.sample % UInt64(fpp) == 0, point.sample / UInt64(fpp) < UInt64(Int64.max)
                else { return nil }
                return PacketPosition(
                    packet: Int64(point.sample / UInt64(fpp)), offsetInPacket: byte - Int64(point.offset))
            }
        }
        return map
    }
}

extension FLACParser {
    /// The engine's fast path: while the header chain holds (`stepFrameByHeaders`), the frames of the
    /// caller's chunk are walked in one step, each ending where the header with the exact next number
    /// starts. It stops where the general path would do anything else: a step that needs more bytes,
    /// or a broken chain handed over to the CRC-16 scan (stored for the general path to run).
    mutating func walkFrames(_ cursor: ChunkCursor, _ context: inout ParseContext) -> Bool {
        guard let info = streamInfo else { return false }
        var walked = false
        while case .frame(var scan) = state, !scan.checksCRC {
            guard let step = stepFrameByHeaders(&scan, info, &context) else {
                // Handed over to the CRC-16: the general path scans this frame.
                state = .frame(scan)
                break
            }
            guard step == .continue else { break }
            walked = true
        }
        return walked
    }
}
