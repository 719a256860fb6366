/// How the packets of a self-delimiting elementary stream are recognised inside a container's data
/// chunk: each packet starts with a header that says its length (MPEG audio frames in WAVE and
/// Wave64, AMR frames after the `#!AMR` magic).
protocol PacketFraming {
    /// The bytes ``packet(_:at:)`` needs to decide.
    var headerByteCount: Int { get }

    /// How many packets must follow a candidate found out of sync before it is believed (each
    /// recognised at the previous one's end, or the data ending there): 1 for a format whose header
    /// rarely appears by chance (MPEG audio: an 11-bit sync word and valid fields), more for one whose
    /// header is a single byte (AMR: about one random byte in eleven is a valid header).
    var confirmationDepth: Int { get }

    /// Whether a packet found out of sync may be the first one taken: false for packets so short that a
    /// stray byte just before a true packet imitates one (AMR's one-byte NO_DATA frames: a payload byte
    /// equal to such a header, right before a real frame, would otherwise be accepted with the real frames
    /// as its confirmation).
    func canResynchronise(at packet: FramedPacket) -> Bool

    /// Whether the first packet of a chain found out of sync is dropped as junk, the chain's second
    /// packet being the first one delivered. For formats without a sync word (AMR) a stray run of payload
    /// bytes can look like a packet that ends exactly where a real one starts; the real packets then
    /// confirm it. Dropping the first packet costs one real packet per resynchronisation and makes such an
    /// invented packet need two chance headers in a row.
    var dropsFirstPacketAfterResynchronising: Bool { get }

    /// How many headers must follow a packet in sync before it is emitted (or the data end): 0 when the
    /// header is checked well enough on its own (MPEG audio against the stream's signature), more when a
    /// damaged header can read as another valid one (AMR: the packet is then dropped as junk and the
    /// walk resynchronises).
    var inSyncConfirmationDepth: Int { get }

    /// The packet whose header starts `offset` bytes after the window's position, or `nil` when the
    /// bytes there do not start a packet of this stream. At least ``headerByteCount`` bytes are
    /// readable there.
    func packet(_ window: InputWindow, at offset: Int) -> FramedPacket?
}

/// One packet a ``PacketFraming`` recognised.
struct FramedPacket: Equatable {
    /// The packet's bytes, header included (> 0).
    var length: Int
    /// The frames it decodes to.
    var frames: UInt32
}

/// The audio data of a container whose packets delimit themselves (``PacketFraming``): walks them
/// one header at a time inside the data's bounds, emitting each whole packet, and resynchronises
/// after damage.
///
/// - In sync (from the data start, and after each packet) the header at the position decides: a
///   packet that ends inside the data is emitted once all of it is readable.
/// - Out of sync (a header that is not one, or a packet that would overrun the data) the bytes are
///   skipped one by one until a header is found whose packet is followed by a chain of
///   ``PacketFraming/confirmationDepth`` more headers (or by the data end); each byte is examined once, so junk costs linear time. The skipped
///   run is reported with one `junkSkipped` diagnostic when the next packet is found (or at the
///   data end).
/// - Seeking: the offset of every packet of the first pass from the data start is recorded
///   (``FrameOffsetTable``), so a seek to a packet seen is exact; beyond it, the offset is estimated
///   from the average packet size and the walk resynchronises (``prepareForSeek(isExact:)``).
/// - Buffers: at most one packet (and the next packet's header when confirming after junk).
struct FramedPacketData<Framing: PacketFraming> {
    /// The stream's framing.
    let framing: Framing
    /// Absolute offset of the first data byte.
    let dataStart: Int64
    /// Data bytes declared by the container, or `nil` when the data runs to the end of the stream.
    let declaredByteCount: Int64?
    /// Whether the position is a packet boundary (false after junk, a discontinuity or a seek).
    private(set) var isInSync = true
    /// The junk run being skipped.
    private var junk = JunkRun()
    /// The packets and bytes emitted, and the largest packet.
    private(set) var packetCount: Int64 = 0
    private(set) var byteCount: Int64 = 0
    private(set) var largestPacket = 0
    /// The frames of the packets emitted.
    private(set) var frameCount: Int64 = 0
    /// Where the packets parsed in order from the data start begin (relative to it).
    private(set) var offsets = FrameOffsetTable()
    /// False after a discontinuity or a seek: the totals no longer describe the whole data.
    private(set) var isContinuous = true

    init(framing: Framing, dataStart: Int64, declaredByteCount: Int64?) {
        self.framing = framing
        self.dataStart = dataStart
        self.declaredByteCount = declaredByteCount
    }

    /// Absolute offset where the data ends, or `nil` when it runs to the end of the stream.
    var dataEnd: Int64? { declaredByteCount.map { dataStart + $0 } }

    /// After a discontinuity: the next bytes may not be a packet boundary, and packet indices are no
    /// longer known.
    mutating func loseSync() {
        isInSync = false
        isContinuous = false
    }

    /// Before a seek lands at a packet: `isExact` when its offset comes from the table (the position is
    /// a packet boundary and indices are known), otherwise the walk resynchronises first.
    mutating func prepareForSeek(isExact: Bool) {
        isInSync = isExact
        isContinuous = false
        junk = JunkRun()
    }

    /// The mean packet size so far, for estimated offsets.
    var averagePacketSize: Double? { packetCount > 0 ? Double(byteCount) / Double(packetCount) : nil }

    /// Emits the packets that are readable and inside the data. `structure` names the container in
    /// messages.
    ///
    /// - Returns: the step for the format parser to return, or `nil` once the position is at the
    ///   data end (every byte of the data consumed).
    mutating func step(_ context: inout ParseContext, _ structure: Structure) -> ParseStep? {
        let position = context.window.position
        let left = dataEnd.map { $0 - position } ?? Int64.max
        if left <= 0 {
            reportJunk(&context, structure)
            return nil
        }
        let readable = context.window.readable
        let bound = Int(min(left, Int64(readable)))
        let header = framing.headerByteCount
        guard Int64(header) <= left else {
            // Fewer bytes than a header before the data end: junk once all of them are here.
            if Int64(readable) < left { return .needMoreData(atLeast: Int(left)) }
            junk.skip(Int(left), &context)
            reportJunk(&context, structure)
            return nil
        }
        guard readable >= header else { return .needMoreData(atLeast: header) }
        if let packet = framing.packet(context.window, at: 0), Int64(packet.length) <= left {
            if !isInSync {
                guard framing.canResynchronise(at: packet) else { return skipJunk(from: 1, bound: bound, &context) }
                switch confirm(packet, left: left, depth: max(1, framing.confirmationDepth), &context) {
                case .confirmed:
                    if framing.dropsFirstPacketAfterResynchronising {
                        guard readable >= packet.length else { return .needMoreData(atLeast: packet.length) }
                        junk.skip(packet.length, &context)
                        isInSync = true
                        return .continue
                    }
                case .rejected: return skipJunk(from: 1, bound: bound, &context)
                case .needMoreData(let n): return .needMoreData(atLeast: n)
                }
            } else if framing.inSyncConfirmationDepth > 0 {
                switch confirm(packet, left: left, depth: framing.inSyncConfirmationDepth, &context) {
                case .confirmed: break
                case .rejected:
                    // The header or one after it is damaged: this packet cannot be trusted.
                    guard readable >= packet.length else { return .needMoreData(atLeast: packet.length) }
                    isInSync = false
                    junk.skip(packet.length, &context)
                    return .continue
                case .needMoreData(let n): return .needMoreData(atLeast: n)
                }
            }
            guard readable >= packet.length else { return .needMoreData(atLeast: packet.length) }
            reportJunk(&context, structure)
            isInSync = true
            if isContinuous {
                // The first pass from the data start: packet `packetCount` starts here.
                let start = position - dataStart
                _ = offsets.record(
                    packet: packetCount, start: start, end: start + Int64(packet.length),
                    limit: context.limits.maxPacketTableEntries)
            }
            context.emitPacket(size: packet.length, variableFrames: packet.frames, frames: Int64(packet.frames))
            packetCount += 1
            byteCount += Int64(packet.length)
            frameCount += Int64(packet.frames)
            largestPacket = max(largestPacket, packet.length)
            return .continue
        }
        return skipJunk(from: 1, bound: bound, &context)
    }

    /// What the bytes after a candidate found out of sync say about it.
    private enum Confirmation {
        case confirmed
        case rejected
        case needMoreData(Int)
    }

    /// A candidate is a packet when a chain of `depth` headers follows it, each at the previous packet's
    /// end, or the chain reaches the data end.
    private func confirm(
        _ packet: FramedPacket, left: Int64, depth: Int, _ context: inout ParseContext
    ) -> Confirmation {
        let header = framing.headerByteCount
        var next = packet.length
        for verified in 0..<depth {
            if Int64(next) == left { return .confirmed }
            if Int64(next + header) > left { return .rejected }
            if context.window.readable < next + header {
                // At the end of the stream the chain may end the data, or run into a packet the end cut
                // short once a header after the candidate was seen.
                if context.window.isFinal {
                    return next == context.window.readable || (verified > 0 && next > context.window.readable)
                        ? .confirmed : .rejected
                }
                return .needMoreData(next + header)
            }
            guard let following = framing.packet(context.window, at: next) else { return .rejected }
            next += following.length
        }
        return .confirmed
    }

    /// Skips bytes from the position up to the next offset (from `start`, before `bound`) where a
    /// header is recognised, as junk.
    private mutating func skipJunk(from start: Int, bound: Int, _ context: inout ParseContext) -> ParseStep {
        isInSync = false
        let header = framing.headerByteCount
        var offset = start
        while offset + header <= bound, framing.packet(context.window, at: offset) == nil { offset += 1 }
        // Bytes that cannot yet be examined (fewer than a header readable) stay for the next call.
        junk.skip(min(offset, bound), &context)
        return .continue
    }

    private mutating func reportJunk(_ context: inout ParseContext, _ structure: Structure) {
        junk.report(&context) { count, _ in
            structure.message("\(count) bytes in the audio data are not packets; skipped")
        }
        junk = JunkRun()
    }

    /// At the end of the stream: reports what could not be used (a partial packet, junk) and a data
    /// chunk that ended before its declared size.
    mutating func finish(_ context: inout ParseContext, _ structure: Structure) {
        let position = context.window.position
        let end =
            dataEnd.map { min($0, position + Int64(context.window.readable)) }
            ?? position + Int64(context.window.readable)
        let partial = Int(max(0, end - position))
        if partial > 0 {
            if isInSync, framing.packet(context.window, at: 0) != nil {
                context.diagnose(
                    .truncated, structure, "stream ends inside a packet; \(partial) bytes of a partial packet dropped")
                context.window.consume(partial)
            } else {
                junk.skip(partial, &context)
            }
        }
        reportJunk(&context, structure)
        if let dataEnd, context.window.position < dataEnd {
            context.diagnose(
                .truncated, at: context.window.position, structure,
                "data chunk declares \(declaredByteCount ?? 0) bytes but the stream ends after "
                    + "\(context.window.position - dataStart)")
        }
    }

    /// At the end of the stream, after ``finish(_:_:)``: announces what the data really held (its byte
    /// count, packet count, largest and mean packet, bit rate), when it was parsed in one pass from its
    /// start; returns the packet count then, else `nil`.
    mutating func announceTotals(_ context: inout ParseContext, sampleRate: Double) -> Int64? {
        guard isContinuous else { return nil }
        let end = dataEnd.map { min($0, context.window.position) } ?? context.window.position
        context.announce(.audioDataByteCount(UInt64(max(0, end - dataStart))))
        context.announce(.audioDataPacketCount(UInt64(packetCount)))
        guard packetCount > 0 else { return packetCount }
        context.announce(.maximumPacketSize(UInt32(clamping: largestPacket)))
        context.announce(.averageBytesPerPacket(Double(byteCount) / Double(packetCount)))
        if frameCount > 0 {
            let bits = Double(byteCount) * 8 * sampleRate / Double(frameCount)
            if bits < Double(UInt32.max) { context.announce(.bitRate(UInt32(bits.rounded()))) }
        }
        return packetCount
    }
}
