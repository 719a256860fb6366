/// Raw AC-3 and Enhanced AC-3 streams (`.ac3`, `.ec3`/`.eac3`; CoreAudio `kAudioFileAC3Type` and the
/// private `ec-3` type): sync frames back to back (ATSC A/52, ETSI TS 102 366). See
/// `docs/formats/ac3.md`.
///
/// - Sync: a frame is accepted when the frame after it agrees (``FrameSyncSearch`` with
///   ``AC3FrameSync``); junk, false syncs and invalid headers are skipped with one `junkSkipped`
///   diagnostic per run (``JunkRun``). In sync, the header at the position gives the frame length.
/// - Packets: one per audio block set. An AC-3 frame is one packet of 1536 frames. An E-AC-3 packet
///   is an independent frame of substream 0 and every frame after it up to the next one (dependent
///   substreams that extend its channels, further independent substreams), at most 16 frames; its
///   frames are the first frame's blocks × 256 (`numblkscod`). Packets are the frames' bytes as they
///   are, headers included (the decoder needs them), zero-copy.
/// - Buffers: one packet plus the next header (≤ 16 × 4096 + 8 bytes); junk is dropped as it is
///   scanned.
/// - Announces, when the first frame is confirmed: dataFormat (`ac-3` or `ec-3`, the first frame's
///   rate, channels of `acmod` + `lfeon` of the independent substream, frames per packet), formatList,
///   channelLayout (``AC3/channelLayoutTag(acmod:lfeon:)``; none for 1+1), maximumPacketSize and
///   packetSizeUpperBound (3840 for AC-3, 16 × 4096 for E-AC-3), averageBytesPerPacket and bitRate
///   (from the first packet), restrictsRandomAccess (false), then dataOffset and
///   readyToProducePackets. A confirmed frame of another rate, channel count or block count announces
///   the new format (`formatChange`).
/// - `finish`: drops a truncated last frame with a diagnostic and, when the stream was parsed in order,
///   announces the exact audioDataPacketCount, audioDataByteCount, maximumPacketSize,
///   averageBytesPerPacket and bitRate. Throws `invalidFile` when no sync frame was found.
struct AC3Parser: FrameSyncParser {
    /// The prefix of the parser's errors and diagnostics.
    static let structure = Structure("ac3")
    /// The most frames one E-AC-3 packet groups.
    static let maxFramesPerPacket = 16

    /// Where the parser is.
    enum State {
        /// Looking for a frame: at the start, after lost sync, a discontinuity or a seek.
        case searching(FrameSyncResync)
        /// In sync: a sync frame is expected at the position.
        case synced
    }

    var state = State.searching(FrameSyncResync(cause: .start))
    /// The first frame of the stream's current format; `nil` before the first frame.
    var format: AC3SyncFrame?
    /// The packets counted in order, the data offset, the final count.
    var ledger = FrameSyncLedger()
    /// The packet offset table and the fast-path switch (no fast path: frames are read one by one).
    var engine: FrameSyncEngine

    init(engine: FrameSyncEngine = FrameSyncEngine()) {
        self.engine = engine
    }

    mutating func walkFrames(_ cursor: ChunkCursor, _ context: inout ParseContext) -> Bool { false }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        guard case .searching(var search) = state else { return stepSynced(&context) }
        let next = stepSearch(&search, &context)
        // A run of junk longer than maxSyncScanBytes ends the parse.
        guard case .searching(let pending) = state else { return next }
        try pending.checkLimit(Self.structure, context)
        return next
    }

    /// In sync: emits the packet at the position once the header after it is readable.
    private mutating func stepSynced(_ context: inout ParseContext) -> ParseStep {
        let window = context.window
        guard let decoded = AC3SyncFrame.decode(window, at: 0) else {
            guard window.isFinal, window.readable > 0 else {
                return .needMoreData(atLeast: AC3SyncFrame.headerByteCount)
            }
            context.diagnose(
                .truncated, Self.structure,
                "the stream ends inside a sync frame header at \(window.position) (\(window.readable) bytes); dropped")
            context.window.consume(window.readable)
            return .continue
        }
        guard case .valid(let first) = decoded, first.startsPacket else {
            state = .searching(FrameSyncResync(cause: .lostSync))
            return .continue
        }
        var end = first.frameLength
        var frames = 1
        while true {
            guard let next = AC3SyncFrame.decode(window, at: end) else {
                if !window.isFinal { return .needMoreData(atLeast: end + AC3SyncFrame.headerByteCount) }
                break
            }
            guard case .valid(let header) = next, !header.startsPacket, header.agrees(with: first),
                frames < Self.maxFramesPerPacket
            else { break }
            end += header.frameLength
            frames += 1
        }
        guard end <= window.readable else {
            context.diagnose(
                .truncated, Self.structure,
                "the stream ends inside the sync frame at \(window.position) (\(window.readable) of \(end) bytes); "
                    + "the partial frame is dropped")
            context.window.consume(window.readable)
            return .continue
        }
        if let format, format.streamDescription != first.streamDescription {
            announceFormatChange(first, &context)
        }
        emit(first, size: end, &context)
        return .continue
    }

    /// Emits the packet at the position (`size` bytes, its first frame `first`) and counts it.
    private mutating func emit(_ first: AC3SyncFrame, size: Int, _ context: inout ParseContext) {
        let start = context.window.position
        let index = context.nextPacketIndex
        context.emitPacket(size: size, variableFrames: 0, frames: Int64(first.samples))
        ledger.count(
            index: index, start: start, frameEnd: start + Int64(size), frameBytes: size, packetSize: size,
            seconds: Double(first.samples) / Double(first.sampleRate), offsets: &engine.offsets,
            limit: context.limits.maxPacketTableEntries)
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        try stepToEnd(&context)
        if case .searching(var search) = state {
            search.finish(Self.structure, frameNoun: "sync frame", &context)
            state = .searching(FrameSyncResync(cause: .lostSync))
        }
        guard format != nil else {
            throw context.error(.invalidFile, Self.structure, "no AC-3 or E-AC-3 sync frame found in the stream")
        }
        ledger.announceFinal(&context)
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        state = .searching(FrameSyncResync(cause: .discontinuity))
        if format != nil { ledger.indicesExact = false }
    }

    var packetMap: PacketMap {
        guard let format else { return .unknown }
        return ledger.packetMap(framesPerPacket: Int64(format.samples), offsets: engine.offsets)
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard format != nil else { return false }
        state =
            ledger.landsInTable(packet, offsets: engine.offsets) ? .synced : .searching(FrameSyncResync(cause: .seek))
        return true
    }
}
