/// ADTS AAC streams (`.aac`, `.adts`; CoreAudio `kAudioFileAAC_ADTSType`): a sequence of ADTS
/// frames (ISO/IEC 13818-7 §6.2, ISO/IEC 14496-3 Annex 1.A), possibly with ID3v2 tags before and
/// between them. See `docs/formats/adts.md`.
///
/// - Sync: a frame is accepted when the frame that follows it agrees (the frame-sync engine's search,
///   ``FrameSyncSearch`` with ``ADTSFrameSync``); junk, false syncs and invalid headers are skipped
///   with one diagnostic per skipped run (``JunkRun``). The scan remembers how far it got, so one-byte
///   feeding stays linear. Once in sync, each frame needs its successor
///   (an agreeing header, an ID3v2 tag or the end of the stream) before it is emitted; a frame whose
///   successor is junk is kept back while the scan checks that no frame starts inside it, then
///   emitted (junk was inserted after it) or dropped (its length was damaged). In sync, runs of
///   single-block frames in the caller's chunk take the engine's fast path (``walkFrames(_:_:)``).
/// - Packets: one per raw data block, the ADTS header (and CRC fields) stripped: the descriptions
///   point past the headers, batches span frames zero-copy. A frame with several raw data blocks is
///   split when its header carries `raw_data_block_position`s (CRC-protected frames), otherwise it is
///   one packet of 1024 × blocks frames, with a diagnostic.
/// - Buffers: at most one frame plus its successor's header (≤ 8 KiB + 10 bytes), or one frame
///   plus the scan inside it while resynchronising; ID3v2, APEv2 and ID3v1 tags up to
///   `ParserLimits.maxTagBytes` (larger ones are skipped unbuffered). Junk is dropped as it is
///   scanned, except the last 256 bytes of a run (tags that end the stream, found at `finish`).
/// - Announces, when the first frame is confirmed: dataFormat, formatList (one item), magicCookie
///   (ES_Descriptor with the AudioSpecificConfig), channelLayout (configurations 1–7),
///   maximumPacketSize and packetSizeUpperBound (8184), averageBytesPerPacket and bitRate
///   (estimated from the first frame), metadata (from leading ID3v2 tags), restrictsRandomAccess
///   (false), then dataOffset (the first frame's header) and readyToProducePackets. bitRate and
///   averageBytesPerPacket are announced again after 16, 64, 256, 1024, 4096 and every 16384
///   packets; an ID3v2 tag between frames announces `metadata` where it occurs (replacing the
///   stream's metadata: ``ParseContext/announceTimedMetadata(_:)``); a confirmed change of the fixed
///   header fields announces the new format.
/// - `finish`: delivers the last frame when it ends exactly at the end of the stream, drops a
///   truncated one with a diagnostic, announces the metadata of APEv2/ID3v1 tags after the last
///   frame (``TrailingTags``, ``TrailingTagLocator``), and announces the exact audioDataPacketCount,
///   audioDataByteCount (from the first frame to the end of the last), bitRate,
///   averageBytesPerPacket and maximumPacketSize when the stream was parsed in order. Throws
///   `invalidFile` when no frame was found.
struct ADTSParser: FrameSyncParser {
    /// The prefix of the parser's errors and diagnostics.
    static let structure = Structure("adts")

    /// Where the parser is.
    enum State {
        /// Looking for a frame: at the start, after lost sync, a tag, a discontinuity or a seek.
        case searching(Search)
        /// In sync: a frame header is expected at the position.
        case synced
        /// An ID3v2 tag starts (or is being read, by `tagReader`) at the position.
        case tag
    }

    /// The progress of a frame search.
    struct Search {
        /// Why the search runs (for the diagnostic).
        enum Cause { case start, lostSync, afterTag, discontinuity, seek }
        var cause: Cause
        /// A frame at the position whose successor was junk: emitted when no frame is confirmed
        /// inside it, dropped otherwise.
        var heldFrame: ADTSHeader?
        /// Bytes after the position already examined.
        var offset = 0
        /// The bytes skipped, and the syncwords rejected among them.
        var junk = JunkRun()
        /// The offset of a held frame that had to be dropped.
        var droppedFrame: Int64?

        init(cause: Cause, heldFrame: ADTSHeader? = nil) {
            self.cause = cause
            self.heldFrame = heldFrame
            self.offset = heldFrame == nil ? 0 : 1
        }
    }

    /// Running totals over the packets parsed in order from the first frame (the "frontier").
    struct Totals {
        var packets: Int64 = 0
        var frames: Int64 = 0
        var payloadBytes: Int64 = 0
        /// Bytes of the frames, headers included.
        var frameBytes: Int64 = 0
        var seconds: Double = 0
        var maximumPacketSize = 0
        /// Absolute end of the last frame on the frontier.
        var end: Int64 = 0
        /// The packet count at which bitRate and averageBytesPerPacket are announced next.
        var nextAnnouncement: Int64 = 16
    }

    /// The largest packet an ADTS frame can carry: a 13-bit aac_frame_length (8191) minus the
    /// 7-byte header.
    static let packetSizeUpperBound = 8191 - ADTSHeader.fixedSize

    var state = State.searching(Search(cause: .start))
    /// The stream's configuration (the latest one after a format change); `nil` before the first frame.
    var configuration: ADTSConfiguration?
    /// The frames of one raw data block at the reported rate (``ADTSConfiguration/framesPerBlock``).
    var framesPerBlock: Int { configuration?.framesPerBlock ?? ADTSFrameLayout.framesPerBlock }
    /// Metadata of ID3v2 tags met before the first frame (announced with the header).
    var leadingMetadata: AudioMetadata?
    /// Absolute offset of the first frame.
    var dataOffset: Int64 = 0
    var totals = Totals()
    /// False once the packet indices no longer count from the first frame (after a discontinuity or an
    /// estimated seek).
    var indicesExact = true
    /// Packets of the next frame to drop (a seek to the second block of a split frame).
    var skipPackets = 0
    /// A multi-block frame was emitted as one packet (frames per packet then vary).
    var hasVariablePackets = false
    /// Once a packet of several raw data blocks was recorded on the frontier: the first frame of every
    /// packet on the frontier, plus the total (the packet map's frame table; `nil` while every packet
    /// holds 1024 frames, placed arithmetically). It grows while the offset table does.
    var frameStarts: PositionTable?
    /// After an estimated seek: the packets delivered since, by position (``ADTSLandingRun``).
    var landingRun: ADTSLandingRun?
    /// Closed runs of earlier estimated seeks, waiting for the frontier to reach them (at most
    /// `maxSeenRuns`).
    var seenRuns: [ADTSLandingRun] = []
    static let maxSeenRuns = 8
    /// The packet count known at `finish`.
    var finalPacketCount: Int64?
    /// ID3v1/APEv2 tags met at a frame boundary since the last frame (read at `finish`, or reported
    /// when a frame follows them), the ID3v2 tag being read, the frame offset of every packet on the
    /// frontier (relative to `dataOffset`), the fast-path switch.
    var engine: FrameSyncEngine

    init(engine: FrameSyncEngine = FrameSyncEngine()) {
        self.engine = engine
    }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .searching(var search):
            let step = stepSearch(&search, &context)
            if case .searching(let s) = state {
                try s.junk.checkLimit(Self.structure, context, wording: "bytes skipped")
            }
            return step
        case .synced:
            if stepFast(&context) { return .continue }
            return stepSynced(&context)
        case .tag:
            return stepTag(&context)
        }
    }

    /// In sync: emits the frame at the position once its successor is known.
    private mutating func stepSynced(_ context: inout ParseContext) -> ParseStep {
        let window = context.window
        if window.peekUInt8() != 0xFF {
            // An ID3v1 or APEv2 tag after a frame (ID3v2 tags are found by the search, as timed metadata).
            switch TrailingTags.kind(in: window, at: 0) {
            case .tag(let kind) where kind != .id3v2:
                if let step = engine.tags.trailing.read(kind, &context, Self.structure) { return step }
            case .undecided(let n) where !window.isFinal:
                return .needMoreData(atLeast: n)
            default:
                break
            }
        }
        guard let decoded = ADTSHeader.decode(window, at: 0) else {
            if !window.isFinal { return .needMoreData(atLeast: ADTSHeader.fixedSize) }
            if window.readable == 0 { return .needMoreData(atLeast: 1) }
            if window.peekUInt8() == 0xFF && (window.peekUInt8(at: 1).map { $0 & 0xF6 == 0xF0 } ?? true) {
                context.diagnose(
                    .truncated, Self.structure,
                    "the stream ends inside the frame header at \(window.position) "
                        + "(\(window.readable) of 7 bytes); dropped")
                context.window.consume(window.readable)
                return .continue
            }
            state = .searching(Search(cause: .lostSync))
            return .continue
        }
        guard case .valid(let header) = decoded, let configuration, header.agrees(with: configuration.header) else {
            // An ID3v2 tag, junk, or a header of another configuration: the search sorts it out.
            state = .searching(Search(cause: .lostSync))
            return .continue
        }
        switch ADTSFrameSync.successor(of: header, window, at: header.frameLength) {
        case .frame, .id3Tag, .endOfStream:
            emitFrame(header, &context)
            return .continue
        case .needMoreData(let n):
            return .needMoreData(atLeast: n)
        case .truncated:
            context.diagnose(
                .truncated, Self.structure,
                "the stream ends inside the frame at \(window.position) (\(window.readable) of "
                    + "\(header.frameLength) bytes); the partial frame is dropped")
            context.window.consume(window.readable)
            return .continue
        case .other:
            state = .searching(Search(cause: .lostSync, heldFrame: header))
            return .continue
        }
    }

    /// An ID3v2 tag at the position, read frame by frame by ``ID3v2StreamReader`` (text up to
    /// `maxTagBytes`, pictures up to `maxArtworkBytes`, larger frames skipped unbuffered, so a large
    /// tag never delays the frames after it beyond its own bytes); then announced.
    private mutating func stepTag(_ context: inout ParseContext) -> ParseStep {
        if !engine.tags.isReadingID3v2 { engine.tags.beginID3v2(context.limits) }
        switch engine.tags.stepID3v2(&context) {
        case .step(let step):
            return step
        case .done(let tag):
            state = .searching(Search(cause: .afterTag))
            apply(tag)
            if configuration != nil, !tag.metadata.isEmpty {
                // Timed metadata (HLS): the tag's content is the stream's metadata from this packet on.
                context.announceTimedMetadata(tag.metadata)
                leadingMetadata = nil
            }
        case .notATag:
            // The search recognised a header here; cannot happen. Pass the byte as junk.
            var search = Search(cause: .lostSync)
            search.junk.skip(1, &context)
            state = .searching(search)
        }
        return .continue
    }

    /// Keeps the metadata of a tag before the first frame for the header.
    private mutating func apply(_ tag: ID3v2Tag) {
        if configuration == nil {
            leadingMetadata = (leadingMetadata ?? AudioMetadata()).merging(tag.metadata)
        }
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        // Run the state machine to the end with the input final: every decision that waited for
        // more bytes is taken now. Each step consumes bytes or moves towards a state that does.
        try stepToEnd(&context)
        if case .tag = state {
            // The stream ends inside an ID3v2 tag: the reader reports it and gives what it read.
            let tag = engine.tags.finishID3v2(&context)
            context.window.consume(context.window.readable)
            state = .searching(Search(cause: .afterTag))
            if let tag {
                apply(tag)
                if configuration != nil, !tag.metadata.isEmpty { context.announceTimedMetadata(tag.metadata) }
            }
        }
        if case .searching(let search) = state {
            var search = search
            if configuration != nil { locateTrailingTags(&search, &context) }
            search.junk.skip(context.window.readable, &context)
            reportSkipped(search, &context)
            state = .searching(Search(cause: .lostSync))
        }
        guard configuration != nil else {
            throw context.error(.invalidFile, Self.structure, "no ADTS frame found in the stream")
        }
        if let metadata = engine.tags.trailing.metadata(limits: context.limits) {
            // APEv2/ID3v1 after the last frame: merged after the tags that started the stream.
            context.announce(.metadata((leadingMetadata ?? AudioMetadata()).merging(metadata)))
        }
        if case .synced = state { closeLandingRun(atEndOfStream: true) } else { closeLandingRun() }
        if indicesExact && context.nextPacketIndex == totals.packets {
            finalPacketCount = totals.packets
            context.announce(.audioDataByteCount(UInt64(max(0, totals.end - dataOffset))))
            context.announce(.audioDataPacketCount(UInt64(totals.packets)))
            context.announce(.maximumPacketSize(UInt32(totals.maximumPacketSize)))
            announceRates(&context)
        }
    }

    /// The stream ends in junk (the search holds back its last bytes): tags that end the stream
    /// after the junk (ID3v1 and `TAG+`, Lyrics3v2, APEv2 by its footer, an ID3v2.4 tag by its
    /// footer) are found with ``TrailingTagLocator``, kept in `trailingTags` (unread when they began
    /// before the bytes held back) and consumed; the junk before them is skipped (and tag bytes
    /// already dropped as junk are taken off the skipped count).
    private mutating func locateTrailingTags(_ search: inout Search, _ context: inout ParseContext) {
        let tail = context.window.peekBytes(count: context.window.readable) ?? []
        let layout = TrailingTagLocator.locate(in: tail)
        guard layout.start < tail.count else { return }
        let tailStart = context.window.position
        let junkBefore = max(0, layout.start)
        // Tag bytes that were already dropped as junk are not junk after all.
        search.junk.takeBack(Int64(max(0, -layout.start)))
        for tag in layout.tags(in: tail, at: tailStart) { engine.tags.trailing.append(tag) }
        search.junk.skip(junkBefore, &context)
        context.window.consume(tail.count - junkBefore)
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        closeLandingRun()
        state = .searching(Search(cause: .discontinuity))
        skipPackets = 0
        engine.tags.removeAll()
        if configuration != nil { indicesExact = false }
    }

    var packetMap: PacketMap {
        guard configuration != nil else { return .unknown }
        let packetOffsets = engine.offsets.offsets
        var map = PacketMap(
            framesPerPacket: hasVariablePackets ? nil : Int64(framesPerBlock),
            packetOffsets: packetOffsets.isEmpty ? nil : packetOffsets, packetCount: finalPacketCount)
        if hasVariablePackets { map.packetFrames = frameStarts }
        if totals.packets > 0 {
            map.estimatedBytesPerPacket = Double(totals.end - dataOffset) / Double(totals.packets)
        }
        return map
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard configuration != nil else { return false }
        closeLandingRun()
        skipPackets = 0
        engine.tags.removeAll()
        let packetOffsets = engine.offsets.offsets
        let recorded = Int64(max(0, packetOffsets.count - 1))
        if packet < recorded {
            // Exact: a frame starts there. Packets of the same frame before the target are dropped.
            let start = packetOffsets[Int(packet)]
            var first = Int(packet)
            while first > 0 && packetOffsets[first - 1] == start { first -= 1 }
            skipPackets = Int(packet) - first
            state = .synced
            indicesExact = true
        } else {
            // Past the frames seen (an estimate), or right after the last one seen: find the next frame.
            state = .searching(Search(cause: .seek))
            indicesExact = packet == recorded && recorded == totals.packets
            if !indicesExact { landingRun = ADTSLandingRun(labelledIndex: packet) }
        }
        return true
    }
}
