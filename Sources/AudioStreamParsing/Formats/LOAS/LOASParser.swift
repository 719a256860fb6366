/// Raw LOAS streams (`.loas`, `.latm`; CoreAudio `kAudioFileLATMInLOASType`, `loas`): AAC in LATM
/// AudioMuxElements, each in a LOAS frame (``AudioSyncStreamHeader``, ISO/IEC 14496-3 §1.7.2), back to
/// back — what broadcast captures and ffmpeg's `latm` muxer write, and what a transport stream's 0x11
/// stream carries (`docs/formats/loas.md`).
///
/// - Sync: a LOAS frame is accepted when the frame after it has a LOAS header (``FrameSyncSearch`` with
///   ``LOASFrameSync``; the content probe wants three in a row); junk and false syncs are skipped with
///   one `junkSkipped` diagnostic per run (``FrameSyncResync``). In sync, the header at the position
///   gives the frame length; a position without a header starts a new search (lost sync).
/// - Elements: each frame's AudioMuxElement is decoded with the configuration in force
///   (``AudioMuxElement``, ``LATMState``): frames before the first StreamMuxConfig are skipped (one
///   `structureSkipped` diagnostic), a configuration this library does not read skips its frames (one
///   `unsupportedFeature` diagnostic), an element that does not decode is lost sync.
/// - Packets: one per sub-frame: the first program's first layer's payload (a raw data block, what an
///   ADTS frame holds after its header), copied out byte-aligned; its offset is its LOAS frame's first
///   byte (several packets of one frame share it). Frames per packet: the AudioSpecificConfig's frame
///   length (1024 or 960; 2048 at the output rate with SBR signalled, as the format list says).
/// - Announces, at the first readable element: dataFormat, formatList, magicCookie (an ES_Descriptor
///   around the AudioSpecificConfig, as MP4's `esds`), channelLayout (``AACStreamFormat``),
///   packetSizeUpperBound and maximumPacketSize (8191: a payload lies inside one element),
///   restrictsRandomAccess (false), then dataOffset (the first frame) and readyToProducePackets. An
///   element whose configuration gives another format announces it (`formatChange`).
/// - Buffers: one LOAS frame (≤ 8194 bytes) plus the next header; junk is dropped as it is scanned.
/// - Seeking: a seek to a packet parsed in order lands on its frame, exact (the sub-frames of that frame
///   before it are dropped); beyond, the offset is estimated from the average bytes per packet and the
///   parser resynchronises (labelled estimated).
/// - `finish`: drops a truncated last frame with a diagnostic; announces audioDataPacketCount,
///   audioDataByteCount (the frames' bytes, headers included), maximumPacketSize, averageBytesPerPacket
///   and bitRate when parsed in order. Throws the refused configuration's error when no frame could be
///   read because of it, else `invalidFile` when no LOAS frame was readable.
struct LOASParser: FrameSyncParser {
    /// The prefix of the parser's errors and diagnostics.
    static let structure = Structure("loas")
    /// The largest packet: a payload lies inside one AudioMuxElement (audioMuxLengthBytes, 13 bits).
    static let packetSizeUpperBound = 8191

    /// Where the parser is.
    enum State {
        /// Looking for a frame: at the start, after lost sync, a discontinuity or a seek.
        case searching(FrameSyncResync)
        /// In sync: a LOAS frame is expected at the position.
        case synced
    }

    var state = State.searching(FrameSyncResync(cause: .start))
    /// The configuration and refusals of the stream's elements.
    var latm = LATMState()
    /// The format announced last; `nil` before the first readable element.
    var format: AACStreamFormat?
    /// The AudioSpecificConfig behind ``format``.
    var announcedConfig: AudioSpecificConfig?
    /// The packets counted in order, the data offset, the final count.
    var ledger = FrameSyncLedger()
    /// Sub-frames of the landing frame to drop after an exact seek into it.
    var skipPackets = 0
    /// The packet offset table (no fast path: elements are decoded one by one).
    var engine: FrameSyncEngine

    init(engine: FrameSyncEngine = FrameSyncEngine()) {
        self.engine = engine
    }

    /// Recognises raw LOAS: three LOAS frames back to back (or fewer ending the stream) within
    /// `ParserOptions.detectionLookahead` bytes, junk before them allowed.
    static let probe = FormatProbe(fileTypes: [.latmInLOAS]) { window, options in
        FrameSyncSearch.probe(LOASFrameSync(successors: LOASFrameSync.probeSuccessors), window, options) { offset, _ in
            .match(.latmInLOAS, LOASParser(engine: FrameSyncEngine(usesFastPath: false)), offset: offset)
        }
    }

    mutating func walkFrames(_ cursor: ChunkCursor, _ context: inout ParseContext) -> Bool { false }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        guard case .searching(var search) = state else { return stepSynced(&context) }
        let step = search.step(LOASFrameSync(), Self.structure, frameNoun: "LOAS frame", &context)
        state = .searching(search)
        switch step {
        case .progress:
            // A run of junk longer than maxSyncScanBytes ends the parse.
            try search.checkLimit(Self.structure, context)
            return .continue
        case .needMoreData(let n):
            try search.checkLimit(Self.structure, context)
            return .needMoreData(atLeast: n)
        case .frame:
            state = .synced
            return .continue
        }
    }

    /// In sync: decodes the frame at the position once whole and emits its payloads.
    private mutating func stepSynced(_ context: inout ParseContext) -> ParseStep {
        let window = context.window
        guard let header = LOASFrameSync.header(window, at: 0) else {
            guard window.readable >= AudioSyncStreamHeader.byteCount || window.isFinal else {
                return .needMoreData(atLeast: AudioSyncStreamHeader.byteCount)
            }
            guard window.readable > 0 else { return .needMoreData(atLeast: 1) }
            if window.readable < AudioSyncStreamHeader.byteCount {
                context.diagnose(
                    .truncated, Self.structure,
                    "the stream ends inside a LOAS header at \(window.position) (\(window.readable) bytes); dropped")
                context.window.consume(window.readable)
                return .continue
            }
            state = .searching(FrameSyncResync(cause: .lostSync))
            return .continue
        }
        let length = header.frameLength
        guard length <= window.readable else {
            guard window.isFinal else { return .needMoreData(atLeast: length) }
            context.diagnose(
                .truncated, Self.structure,
                "the stream ends inside the LOAS frame at \(window.position) (\(window.readable) of \(length) bytes); "
                    + "the partial frame is dropped")
            context.window.consume(window.readable)
            return .continue
        }
        // Safe to force unwrap: `length` bytes are readable.
        let body = window.peekBytes(at: AudioSyncStreamHeader.byteCount, count: header.audioMuxLengthBytes)!
        var notes: [DiagnosticNote] = []
        let decoded: AudioMuxElement.Decoded
        do throws(StructureError) {
            decoded = try AudioMuxElement.decode(body[...], current: latm.config, notes: &notes)
        } catch {
            // Not an element after all: the frame is damaged, or the sync was false.
            context.diagnose(.inconsistentValues, at: window.position, "\(error.reason); resynchronising")
            context.window.consume(1)
            state = .searching(FrameSyncResync(cause: .lostSync))
            return .continue
        }
        if let element = latm.accept(decoded, notes: notes, at: window.position, &context) {
            emit(element, frameLength: length, &context)
        }
        context.window.consume(length)
        return .continue
    }

    /// Emits the payloads of the element at the position (a frame of `frameLength` bytes), publishing
    /// the stream at the first and announcing a new format when the configuration gives one.
    private mutating func emit(_ element: AudioMuxElement, frameLength: Int, _ context: inout ParseContext) {
        let start = context.window.position
        let config = element.config.audioSpecificConfig
        if config != announcedConfig {
            // Implicit SBR in the element's first payload (a raw data block) gives the HE-AAC layers.
            let reported = config.reported(firstRawDataBlock: element.payloads.first?[...])
            let values = AACStreamFormat.latmPropertyValues(reported)
            let bound = UInt32(Self.packetSizeUpperBound)
            if announcedConfig == nil {
                ledger.dataOffset = start
                context.publishHeader(
                    values + [.packetSizeUpperBound(bound), .maximumPacketSize(bound), .restrictsRandomAccess(false)],
                    dataOffset: start)
            } else {
                context.diagnose(
                    .formatChange, Self.structure,
                    "the stream's configuration changes at \(start) (\(config.samplingFrequency) Hz, "
                        + "audioObjectType \(config.audioObjectType))")
                for value in values { context.announce(value) }
            }
            announcedConfig = config
            format = AACStreamFormat(reported)
        }
        let frames = Int64(format?.streamDescription.framesPerPacket ?? 0)
        let rate = format?.streamDescription.sampleRate ?? 0
        for (k, payload) in element.payloads.enumerated() {
            if skipPackets > 0 {
                skipPackets -= 1
                continue
            }
            let index = context.nextPacketIndex
            context.emitAssembledPacket(payload, fileOffset: start, variableFrames: 0, frames: frames)
            ledger.count(
                index: index, start: start, frameEnd: start + Int64(frameLength), frameBytes: k == 0 ? frameLength : 0,
                packetSize: payload.count, seconds: rate > 0 ? Double(frames) / rate : 0, offsets: &engine.offsets,
                limit: context.limits.maxPacketTableEntries)
        }
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        try stepToEnd(&context)
        if case .searching(var search) = state {
            search.finish(Self.structure, frameNoun: "LOAS frame", &context)
            state = .searching(FrameSyncResync(cause: .lostSync))
        }
        guard format != nil else {
            if let refusal = latm.refusal {
                throw context.error(refusal.error.code, at: refusal.offset, refusal.error.reason)
            }
            throw context.error(.invalidFile, Self.structure, "no readable LOAS frame found in the stream")
        }
        ledger.announceFinal(&context)
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        state = .searching(FrameSyncResync(cause: .discontinuity))
        skipPackets = 0
        if format != nil { ledger.indicesExact = false }
    }

    var packetMap: PacketMap {
        guard let format else { return .unknown }
        return ledger.packetMap(
            framesPerPacket: Int64(format.streamDescription.framesPerPacket), offsets: engine.offsets)
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard format != nil else { return false }
        skipPackets = 0
        guard ledger.landsInTable(packet, offsets: engine.offsets) else {
            state = .searching(FrameSyncResync(cause: .seek))
            return true
        }
        // The frame's earlier sub-frames share its offset: they are dropped.
        let offsets = engine.offsets.offsets
        var first = Int(packet)
        while first > 0 && offsets[first - 1] == offsets[Int(packet)] { first -= 1 }
        skipPackets = Int(packet) - first
        state = .synced
        return true
    }
}
