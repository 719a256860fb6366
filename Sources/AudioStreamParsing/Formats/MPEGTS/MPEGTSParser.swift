/// MPEG-2 transport streams (ISO/IEC 13818-1 §2.4; `.ts`, `.m2ts`, HLS segments; the private file type
/// `mp2t`): the audio elementary stream of one program demultiplexed into its frames. See
/// `docs/formats/mpeg-ts.md`.
///
/// - Packets: 188, 192 (M2TS) or 204-byte units (``TSPacketLayout``), told apart by the sync spacing
///   at detection. A unit whose sync byte is missing starts a resynchronisation: the bytes are skipped
///   to the next offset where ``TSPacketLayout/unitsToConfirm`` units in a row have their sync byte
///   (one `junkSkipped` diagnostic per run). Null packets, scrambled packets, packets with
///   transport_error_indicator and every PID that is neither a table nor a selected stream are skipped
///   by their 4-byte header alone (video is never copied).
/// - Tables: the PAT (PID 0) and every program's PMT are reassembled (``TSSectionAssembler``),
///   CRC_32-checked (a bad one is reported, `checksumMismatch`, and ignored) and followed when their
///   version changes.
/// - Stream: the first audio stream of the PMTs in order, or the one whose PID is
///   `ParserOptions.trackID` (``tracks`` lists every stream; track IDs are PIDs). Its PES packets are
///   reassembled (``TSElementaryStream``) and cut into frames by the codec's header decoder
///   (``TSAudioFrame``): MPEG audio and AC-3 frames whole, E-AC-3 frames grouped as raw E-AC-3
///   (``AC3Parser``), ADTS frames with their header stripped (as `.aac` files), LOAS frames (0x11) as
///   the payloads of their AudioMuxElement (``AudioMuxElement``: one raw data block per sub-frame, each
///   copied out byte-aligned; the packet's offset is its LOAS frame's first byte). LOAS frames before
///   the first StreamMuxConfig are skipped (one `structureSkipped` diagnostic); a configuration this
///   parser does not read (CELP/HVXC layers, chunked framing) skips its elements, and `finish` throws
///   `unsupportedDataFormat` when no frame could be read.
/// - Continuity: a continuity_counter gap on the stream's PID (without discontinuity_indicator) is a
///   `discontinuity` diagnostic; the frame in progress is dropped (no packet spans a gap) and framing
///   resumes at the next PES packet. Duplicate packets are dropped.
/// - Timed metadata: ID3 PES packets (stream_type 0x15, `ID3 `) of the selected stream's program are
///   read whole (up to `maxTagBytes`) and announced as `metadata` where they fall, like ADTS tags
///   between frames; before the first frame they are announced with the header.
/// - Announces, at the first frame: the codec's properties (as the raw format's parser announces them)
///   and dataOffset: the transport packet that starts the first PES packet (ffprobe's first `pos`).
///   Every packet's offset is its first byte in the file.
/// - Seeking: the offset table records, for every packet parsed in order, the transport packet that starts
///   its PES packet: a seek to a recorded packet lands there, exact, and the packets of that PES packet
///   before the target are dropped (the next, unseen packet lands at the last PES packet seen, which it
///   begins in or follows). Beyond the table the offset is estimated from the average bytes per packet
///   and labelled so: the parser resynchronises on the packet sync, then resumes at the next PES packet
///   of its stream (docs/formats/mpeg-ts.md, "Seeking").
/// - `finish`: drops an incomplete frame with a diagnostic; announces audioDataPacketCount,
///   audioDataByteCount (the frames' bytes in the elementary stream, headers included) and
///   maximumPacketSize when parsed in order. Throws `invalidFile` when no audio frame was found.
struct MPEGTSParser: FormatParser {
    /// The prefix of the parser's errors and diagnostics.
    static let structure = Structure("mpegts")

    /// Where the parser is.
    enum State {
        /// A unit starts at the position.
        case synced
        /// Looking for the next run of units (junk skipped so far).
        case resync(JunkRun)
    }

    /// The stream being demultiplexed.
    struct Selection {
        var pid: UInt16
        /// `nil` for a private PES stream until its first PES payload tells (``TSAudioFrame/identify(_:ended:)``).
        var codec: TSAudioCodec?
        var program: UInt16
    }

    /// Running totals over the packets parsed in order.
    struct Totals {
        var packets: Int64 = 0
        var bytes: Int64 = 0
        var maximumPacketSize = 0
    }

    let layout: TSPacketLayout
    let trackID: UInt32?
    var state = State.synced
    /// The PAT's sections, and the latest PAT.
    var patSections = TSSectionAssembler()
    var pat: TSProgramAssociationSection?
    /// Each PMT PID's sections, and each program's latest PMT.
    var pmtSections: [UInt16: TSSectionAssembler] = [:]
    var pmts: [UInt16: TSProgramMapSection] = [:]
    /// The last continuity_counter of every PID followed.
    var continuity: [UInt16: UInt8] = [:]
    /// The PIDs whose last packet came before a lost sync and none since (``packet(_:_:)``: no duplicate there).
    var pidsAcrossLostSync: Set<UInt16> = []
    var selection: Selection?
    /// Private PES streams whose data started no audio frame (not chosen again).
    var notAudioPIDs: Set<UInt16> = []
    /// The selected stream's data, and the ID3 timed metadata streams of its program.
    var audio = TSElementaryStream()
    var metadataStreams: [UInt16: TSElementaryStream] = [:]
    /// The format announced (the latest frame's after a change); `nil` before the first frame.
    var format: TSAudioFrame?
    /// Timed metadata met before the first frame.
    var leadingMetadata: AudioMetadata?
    /// The transport packet that starts the first PES packet.
    var dataOffset: Int64 = 0
    var totals = Totals()
    /// The start of every packet's PES packet, relative to `dataOffset`.
    var offsets = FrameOffsetTable()
    var indicesExact = true
    /// The LATM configuration in force and what refusing elements reported (stream_type 0x11).
    var latm = LATMState()
    /// Packets to drop after an exact seek (those of the landing PES packet before the target).
    var skipPackets = 0
    var finalPacketCount: Int64?
    /// The offset after the last frame recorded in the offset table.
    var lastFrameEnd: Int64 = 0
    /// The PTS seen (`MPEGTSParser+Seek.swift`): the latest PES header's unit and PTS, the stream's
    /// timeline for estimates, and a time seek's search with byte requests.
    var lastPES: (unit: Int64, pts: Int64?) = (-1, nil)
    var timeline = TSTimeline()
    var refinement: TSSeekRefinement?

    init(layout: TSPacketLayout, trackID: UInt32?) {
        self.layout = layout
        self.trackID = trackID
    }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        let unit = layout.unitSize
        switch state {
        case .resync(var junk):
            let step = resync(&junk, &context)
            try junk.checkLimit(Self.structure, context, wording: "bytes skipped")
            return step
        case .synced:
            guard context.window.readable >= unit else {
                guard context.window.isFinal, context.window.readable > 0 else { return .needMoreData(atLeast: unit) }
                context.diagnose(
                    .truncated, Self.structure,
                    "the stream ends inside a transport packet at \(context.window.position) "
                        + "(\(context.window.readable) of \(unit) bytes); dropped")
                context.window.consume(context.window.readable)
                return .continue
            }
            guard
                let word = context.window.peekInteger(at: layout.syncOffset, as: UInt32.self, endianness: .big),
                let header = TSPacketHeader(UInt32(truncatingIfNeeded: word))
            else {
                state = .resync(JunkRun())
                pidsAcrossLostSync = Set(continuity.keys)
                return .continue
            }
            try packet(header, &context)
            context.window.consume(unit)
            if let offset = refinement?.request { return requestRefinement(offset, &context) }
            return .continue
        }
    }

    /// Skips to the next offset where a run of units starts (a sync byte candidate is checked with
    /// ``TSPacketLayout/check(_:at:)``; junk before it is dropped as it is scanned).
    private mutating func resync(_ junk: inout JunkRun, _ context: inout ParseContext) -> ParseStep {
        let window = context.window
        var from = layout.syncOffset
        while let k = window.firstIndex(of: TSPacketHeader.syncByte, from: from, to: window.readable) {
            let start = k - layout.syncOffset
            switch layout.check(window, at: start) {
            case .confirmed:
                junk.skip(start, &context)
                report(junk, &context)
                state = .synced
                return .continue
            case .rejected:
                from = k + 1
            case .needMoreData(let n):
                junk.skip(start, &context)
                state = .resync(junk)
                return start > 0 ? .continue : .needMoreData(atLeast: n)
            }
        }
        // No candidate: the bytes are junk, but for a last few that may begin a unit's prefix.
        let drop = window.isFinal ? window.readable : window.readable - layout.syncOffset
        if drop > 0 { junk.skip(drop, &context) }
        state = .resync(junk)
        return drop > 0 ? .continue : .needMoreData(atLeast: context.window.readable + 1)
    }

    private func report(_ junk: JunkRun, _ context: inout ParseContext) {
        junk.report(&context) { n, start in
            Self.structure.message("lost packet sync at \(start); \(n) bytes skipped to the next transport packet")
        }
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        try stepToEnd(&context)
        if case .resync(let junk) = state { report(junk, &context) }
        takeFrames(&context, flush: true)
        if !audio.bytes.isEmpty {
            context.diagnose(
                .truncated, Self.structure,
                "the stream ends inside a frame (\(audio.bytes.count) bytes of the elementary stream); dropped")
            audio.reset()
        }
        for pid in metadataStreams.keys.sorted() { takeMetadata(pid, &context, flush: true) }
        guard format != nil else {
            // An LATM stream whose every element was refused: say why.
            if let latmRefusal = latm.refusal { throw context.error(latmRefusal.error, at: latmRefusal.offset) }
            throw context.error(.invalidFile, Self.structure, "no audio frame found in the transport stream")
        }
        guard indicesExact && context.nextPacketIndex == totals.packets else { return }
        finalPacketCount = totals.packets
        offsets.replaceEnd(lastFrameEnd - dataOffset)
        context.announce(.audioDataByteCount(UInt64(totals.bytes)))
        context.announce(.audioDataPacketCount(UInt64(totals.packets)))
        context.announce(.maximumPacketSize(UInt32(totals.maximumPacketSize)))
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        state = .resync(JunkRun())
        dropPartialState()
        refinement = nil
        if format != nil { indicesExact = false }
    }

    /// Forgets partial sections, the elementary streams' data and the continuity counters.
    mutating func dropPartialState() {
        audio.reset()
        for pid in metadataStreams.keys { metadataStreams[pid]?.reset() }
        patSections.reset()
        for pid in pmtSections.keys { pmtSections[pid]?.reset() }
        continuity.removeAll()
        pidsAcrossLostSync.removeAll()
        skipPackets = 0
    }

    var packetMap: PacketMap {
        guard let format else { return .unknown }
        let table = offsets.offsets
        var map = PacketMap(
            framesPerPacket: format.frames, packetOffsets: table.isEmpty ? nil : table,
            packetCount: finalPacketCount)
        if totals.packets > 0, let last = table.last {
            // The table's last entry is the last PES packet's start: with one PES packet parsed, the end of its
            // last frame tells more.
            map.estimatedBytesPerPacket = Double(max(last, lastFrameEnd - dataOffset)) / Double(totals.packets)
        }
        if let estimate = timeline.estimate(dataOffset: dataOffset, framesPerPacket: format.frames) {
            // Past the table: the byte rate of the PTS read (`MPEGTSParser+Seek.swift`).
            map.estimatedByteOffset = { estimate.byteOffset(ofPacket: $0) }
        }
        return map
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard format != nil else { return false }
        dropPartialState()
        refinement = nil
        let table = offsets.offsets
        let recorded = Int64(offsets.packetCount)
        // Until `finish`, the end entry is the last packet's PES start: a landing for the next packet too.
        let endIsLanding = finalPacketCount == nil && !offsets.isFull && recorded == totals.packets
        if packet < recorded || (packet == recorded && recorded > 0 && endIsLanding) {
            // Exact: the PES packet holding the target starts there; the packets before it are dropped.
            var first = Int(packet)
            while first > 0 && table[first - 1] == table[Int(packet)] { first -= 1 }
            skipPackets = Int(packet) - first
            state = .synced
            indicesExact = true
        } else {
            state = .resync(JunkRun())
            indicesExact = packet == recorded && recorded == totals.packets
        }
        return true
    }
}
