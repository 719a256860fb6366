/// MPEG-1/2/2.5 audio, Layers I, II and III (`.mp1`, `.mp2`, `.mp3`; CoreAudio `kAudioFileMP1Type`,
/// `kAudioFileMP2Type`, `kAudioFileMP3Type`). A leading ID3v2 tag is handled before this parser by
/// ``ID3v2PrefixParser``. See `docs/formats/mpeg-audio.md`.
///
/// - Packets: one per frame, exactly the frame's bytes (header, CRC, side information, main data,
///   padding), `samplesPerFrame` frames each (384, 1152 or 576). A first frame carrying a Xing,
///   Info or VBRI header is not a packet: `dataOffset` is the frame after it.
/// - Sync: a frame is found by the frame-sync engine's search (``FrameSyncSearch`` with
///   ``MPEGFrameSync``: a header confirmed by the next one, by a tag, or by the end of the stream);
///   once in sync, each frame follows the previous one, must agree with the
///   stream's signature, and is emitted once its end is proven (a header, a tag, the end of the
///   data). A frame followed by junk is kept; a frame cut short, with the next frame starting inside
///   it, becomes junk. Junk is skipped with one diagnostic per run and is never a packet; tags at
///   frame boundaries (ID3v1, APEv2, ID3v2) are recognised and skipped (``FrameBoundaryTags``). In sync,
///   runs of frames in the caller's chunk take the engine's fast path (``walkFrames(_:_:)``).
/// - Buffers: at most one frame (or one free-format search window, 8 KiB), the last 256 bytes of a
///   junk run (to recognise tags that end the stream), an ID3v1/APEv2 tag up to
///   `ParserLimits.maxTagBytes` (larger ones are skipped unbuffered), and one frame of an ID3v2 tag
///   between frames (read by ``ID3v2StreamReader``). The search resumes where it stopped: one-byte
///   feeding stays linear.
/// - Tags between frames: an ID3v2 tag followed by a frame is announced before that frame's packet,
///   replacing the stream's metadata (``ParseContext/announceTimedMetadata(_:)``); ID3v1/APEv2 tags
///   followed by a frame are reported.
/// - Announces: when the first frame is confirmed, `publishHeader` with dataFormat, the packet and
///   byte counts a Xing/VBRI header declares, maximumPacketSize (largest frame so far, updated),
///   packetSizeUpperBound, averageBytesPerPacket, bitRate, packetTableInfo (LAME tag),
///   restrictsRandomAccess (false). Without a Xing/VBRI header, averageBytesPerPacket and bitRate are
///   running values, re-announced after 16, 32, 64 … packets.
/// - `finish`: drops a partial last frame with a diagnostic, recognises trailing tags, reports
///   trailing junk, and (when the stream was parsed from its first frame without a seek or
///   discontinuity) announces the exact packet and byte counts, averages and packetTableInfo.
struct MPEGAudioParser: FrameSyncParser {
    /// The prefix of the parser's errors and diagnostics.
    static let structure = Structure("mpeg")
    /// The LAME tag in the Xing/Info frame.
    static let lameTag = structure("LAME tag")

    /// Recognises MPEG audio: a frame confirmed by the next frame (or by a tag or the end of the
    /// stream) within `ParserOptions.detectionLookahead` bytes, junk before it allowed.
    static let probe = FormatProbe(fileTypes: [.mp3, .mp2, .mp1]) { window, options in
        let lookahead = options.detectionLookahead
        switch FrameSyncSearch.search(MPEGFrameSync(), window, from: 0, horizon: lookahead) {
        case .frame(let offset, let frame):
            let engine = FrameSyncEngine(usesFastPath: options.usesFrameSyncFastPath)
            return .match(frame.header.fileType, MPEGAudioParser(engine: engine), offset: offset)
        case .exhausted, .tag:
            return .noMatch
        case .undecided(let scanned, let atLeast):
            // The probe is stateless and rescans from the start: ask for at least twice as much, so
            // that junk fed in small pieces is rescanned a logarithmic number of times.
            return .needMoreData(atLeast: max(atLeast, min(2 * window.readable, lookahead)), noMatchBefore: scanned)
        }
    }

    /// The decoder delay added to a LAME tag's encoder delay to give the priming frames: 528 samples
    /// of the polyphase synthesis filterbank plus one (the value LAME documents and FFmpeg applies).
    static let decoderDelay = 529

    /// Bytes at the end of a junk run held back, so that tags ending the stream can be recognised
    /// at `finish` (ID3v1 128, APEv2 footer 32, Lyrics3v2 end 15).
    static let junkHoldBack = TrailingTagLocator.junkHoldBack

    /// Where the parser is.
    enum State {
        /// Looking for a frame: at the start, after junk, a discontinuity or an estimated seek.
        case searching(Search)
        /// In sync: the next bytes are a frame of the stream, or a tag.
        case inSync
        /// Reading, with `tagReader`, an ID3v2 tag that starts at a frame boundary at this offset.
        case id3v2Tag(start: Int64)
    }

    /// A sync search in progress.
    struct Search {
        /// Bytes after the position already known not to start a frame.
        var scanned = 0
        /// Bytes after the position already known not to start an ID3v2 tag (searched once the
        /// stream is known: a tag after junk between frames).
        var tagScanned = 0
        /// The junk consumed so far in this run.
        var junk = JunkRun()
    }

    var state = State.searching(Search())
    /// Known once the first frame was confirmed.
    var stream: MPEGStream?
    var statistics = MPEGStatistics()
    /// Tags between frames, the offset table, the fast-path switch.
    var engine: FrameSyncEngine
    /// False after an estimated seek: packet indices may be off by a frame, so offsets are not recorded.
    var packetIndicesAreExact = true
    /// False after a seek or discontinuity: totals no longer describe the whole stream.
    var isContinuous = true
    /// The packet count found at `finish`.
    var finalPacketCount: Int64?
    /// A LAME tag's delay and padding exceeding the stream were reported.
    var reportedClampedGapless = false
    /// Frame lengths by bitrate_index for the stream's signature (the in-sync fast path's table).
    var frameTable: MPEGFrameTable?

    init(engine: FrameSyncEngine = FrameSyncEngine()) {
        self.engine = engine
    }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .searching(let search): return try stepSearching(search, &context)
        case .inSync: return try stepInSync(&context)
        case .id3v2Tag(let start): return stepID3v2Tag(start: start, &context)
        }
    }

    // MARK: Searching

    private mutating func stepSearching(_ search: Search, _ context: inout ParseContext) throws(AudioStreamError)
        -> ParseStep
    {
        var search = search
        let outcome = FrameSyncSearch.search(
            MPEGFrameSync(freeFormatSlots: stream?.freeFormatSlots), context.window, from: search.scanned)
        if stream != nil, let step = findTagInJunk(outcome, &search, &context) { return step }
        let scanned: Int
        switch outcome {
        case .frame(let offset, let frame):
            search.junk.skip(offset, &context)
            reportJunk(search, &context)
            state = .inSync
            try acceptFrame(frame.header, length: frame.length, &context)
            return .continue
        case .undecided(let upTo, _), .exhausted(let upTo):
            scanned = upTo
        case .tag:
            // MPEGFrameSync does not stop at tags (they are found in the junk, above).
            scanned = search.scanned
        }
        let junk = max(0, scanned - Self.junkHoldBack)
        search.junk.skip(junk, &context)
        search.scanned = scanned - junk
        search.tagScanned = search.scanned
        state = .searching(search)
        try search.junk.checkLimit(Self.structure, context, wording: "bytes of junk scanned")
        if case .undecided(_, let atLeast) = outcome { return .needMoreData(atLeast: atLeast - junk) }
        return .needMoreData(atLeast: context.window.readable + 1)
    }

    /// Looks for an ID3v2 tag among the junk before where the frame search stopped (a tag between
    /// frames that junk precedes, e.g. a concatenated file with padding): the junk before it is
    /// skipped and the tag is read like one at a frame boundary. Returns `nil` when there is none
    /// and the search's outcome stands.
    private mutating func findTagInJunk(
        _ outcome: FrameSyncSearch.Outcome<MPEGFrameSync.Frame>, _ search: inout Search, _ context: inout ParseContext
    ) -> ParseStep? {
        let end: Int
        switch outcome {
        case .frame(let offset, _), .tag(let offset): end = offset
        case .undecided(let scanned, _), .exhausted(let scanned): end = scanned
        }
        let window = context.window
        switch FrameBoundaryTags.findID3v2Header(window, from: search.tagScanned, to: end) {
        case .header(let k):
            search.junk.skip(k, &context)
            reportJunk(search, &context)
            engine.tags.beginID3v2(context.limits)
            state = .id3v2Tag(start: context.window.position)
            return .continue
        case .undecided(let k, let n):
            // A tag may start at k (never when a frame was found after it: its header bytes would
            // fail the tag's size bytes). Keep k readable; junk before it may go.
            let junk = min(k, max(0, end - Self.junkHoldBack))
            search.junk.skip(junk, &context)
            search.scanned = end - junk
            search.tagScanned = k - junk
            state = .searching(search)
            return .needMoreData(atLeast: n - junk)
        case .none:
            search.tagScanned = end
            return nil
        }
    }

    /// One diagnostic per junk run.
    func reportJunk(_ search: Search, _ context: inout ParseContext) {
        let before = stream == nil ? "before the first frame" : "between frames"
        search.junk.report(&context) { count, _ in
            Self.structure.message("\(count) bytes of junk skipped \(before)")
        }
    }

    /// A frame found by a search: starts the stream, or follows junk, or changes the format.
    private mutating func acceptFrame(_ header: MPEGFrameHeader, length: Int, _ context: inout ParseContext)
        throws(AudioStreamError)
    {
        guard var stream else {
            try startStream(header, length: length, &context)
            return
        }
        if !stream.agrees(with: header) {
            context.diagnose(
                .formatChange, Self.structure,
                "the stream changes to \(header.sampleRate) Hz, \(header.channelCount) channel(s), "
                    + "Layer \(header.layer)")
            stream.signature = header.signature
            stream.isFreeFormat = header.isFreeFormat
            if header.samplesPerFrame != stream.framesPerPacket { stream.hasConstantFramesPerPacket = false }
            stream.framesPerPacket = header.samplesPerFrame
            let format = header.streamDescription
            context.announce(.dataFormat(format))
            context.announce(.formatList([FormatListItem(streamDescription: format, channelLayoutTag: .noLayout)]))
        }
        if header.isFreeFormat {
            stream.freeFormatSlots = length / header.slotSize - (header.hasPadding ? 1 : 0)
        }
        self.stream = stream
    }

    /// The first frame: reads a Xing/Info/VBRI header in it (that frame is then not a packet) and
    /// publishes the stream's properties.
    private mutating func startStream(_ header: MPEGFrameHeader, length: Int, _ context: inout ParseContext)
        throws(AudioStreamError)
    {
        guard let frame = context.window.peekBytes(count: length) else {
            throw context.error(.unspecifiedError, Self.structure, "confirmed frame not readable")
        }
        let xing = XingHeader.find(in: frame, header: header)
        let vbri = xing == nil ? VBRIHeader.find(in: frame, header: header) : nil
        var infoLength = 0
        if xing != nil || vbri != nil {
            context.window.consume(length)
            infoLength = length
        }
        var audioHeader = header
        if infoLength > 0, let next = MPEGFrameHeader(context.window, at: 0), next.signature == header.signature {
            audioHeader = next
        }
        let freeSlots = header.isFreeFormat ? length / header.slotSize - (header.hasPadding ? 1 : 0) : nil
        let upperBound = freeSlots.map { ($0 + 1) * header.slotSize } ?? audioHeader.largestFrameLength
        let stream = MPEGStream(
            signature: header.signature, isFreeFormat: header.isFreeFormat, freeFormatSlots: freeSlots,
            framesPerPacket: header.samplesPerFrame, dataOffset: context.window.position, infoFrameLength: infoLength,
            xing: xing, vbri: vbri, firstHeader: audioHeader, packetSizeUpperBound: upperBound)
        self.stream = stream
        if let lame = xing?.lame, !lame.isTagCRCValid {
            context.diagnose(
                .checksumMismatch, at: stream.dataOffset - Int64(infoLength), Self.lameTag,
                "tag CRC mismatch; delay and padding used anyway")
        }
        publish(stream, firstLength: stream.frameLength(audioHeader) ?? length, &context)
    }

    /// Announces the stream's properties at its first audio frame.
    private mutating func publish(_ stream: MPEGStream, firstLength: Int, _ context: inout ParseContext) {
        let fpp = stream.framesPerPacket
        var values: [AudioStreamPropertyValue] = [
            .dataFormat(stream.firstHeader.streamDescription),
            .maximumPacketSize(UInt32(firstLength)),
            .packetSizeUpperBound(UInt32(stream.packetSizeUpperBound)),
            .restrictsRandomAccess(false),
        ]
        if let packets = stream.declaredPacketCount {
            values.append(.audioDataPacketCount(UInt64(packets)))
        }
        if let bytes = stream.declaredByteCount {
            values.append(.audioDataByteCount(UInt64(bytes)))
        }
        if let packets = stream.declaredPacketCount, let bytes = stream.declaredByteCount, packets > 0 {
            values.append(.averageBytesPerPacket(Double(bytes) / Double(packets)))
            let isCBR = stream.xing?.isCBR ?? false
            if isCBR, !stream.firstHeader.isFreeFormat {
                values.append(.bitRate(stream.firstHeader.bitRate))
            } else {
                let bits = Double(bytes) * 8 * Double(stream.sampleRate) / (Double(packets) * Double(fpp))
                if bits < Double(UInt32.max) { values.append(.bitRate(UInt32(bits.rounded()))) }
            }
        } else {
            values.append(.averageBytesPerPacket(Double(firstLength)))
            let bits =
                stream.firstHeader.isFreeFormat
                ? UInt64(firstLength) * 8 * UInt64(stream.sampleRate) / UInt64(fpp)
                : UInt64(stream.firstHeader.bitRate)
            if bits <= UInt64(UInt32.max) { values.append(.bitRate(UInt32(bits))) }
        }
        let packets = stream.declaredPacketCount
        let gapless = packets.flatMap { packetTableInfo(stream, packets: $0, exact: true) }
        if let gapless { values.append(.packetTableInfo(gapless.info)) }
        context.publishHeader(values, dataOffset: stream.dataOffset)
        if let packets, let gapless, gapless.clamped {
            diagnoseClampedGapless(stream, packets: packets, gapless.info, &context)
        }
    }

    /// Gapless information from the LAME tag for a stream of `packets` frames: priming = encoder delay
    /// + 529 (the decoder delay), remainder = padding − 529 (at least 0), valid = the rest. With
    /// `exact` false (the frame count differs from the one the tag was written for) the remainder is
    /// not applied. `nil` without a trusted LAME tag.
    ///
    /// A tag whose delay and padding exceed the stream (damaged, or written for another stream) is
    /// clamped so that the three values still add up to the stream's frames: priming to the frames,
    /// the remainder to what is left after the priming; `clamped` is then true (the caller reports it).
    func packetTableInfo(_ stream: MPEGStream, packets: Int64, exact: Bool) -> (info: PacketTableInfo, clamped: Bool)? {
        guard let lame = stream.xing?.lame, lame.hasTrustedGaplessInfo, stream.hasConstantFramesPerPacket else {
            return nil
        }
        let (total, overflow) = packets.multipliedReportingOverflow(by: Int64(stream.framesPerPacket))
        guard !overflow, total >= 0 else { return nil }
        let wantedPriming = Int64(lame.encoderDelay + Self.decoderDelay)
        let wantedRemainder = Int64(exact ? max(0, lame.padding - Self.decoderDelay) : 0)
        let priming = min(wantedPriming, total)
        let remainder = min(wantedRemainder, total - priming)
        let info = PacketTableInfo(
            numberValidFrames: total - priming - remainder, primingFrames: Int32(priming),
            remainderFrames: Int32(remainder))
        return (info, priming != wantedPriming || remainder != wantedRemainder)
    }

    /// Reports (once) a LAME tag whose delay and padding exceed the stream.
    mutating func diagnoseClampedGapless(
        _ stream: MPEGStream, packets: Int64, _ info: PacketTableInfo, _ context: inout ParseContext
    ) {
        guard !reportedClampedGapless, let lame = stream.xing?.lame else { return }
        reportedClampedGapless = true
        context.diagnose(
            .sizeCorrected, at: stream.dataOffset - Int64(stream.infoFrameLength), Self.lameTag,
            "encoder delay \(lame.encoderDelay) and padding \(lame.padding) exceed the stream's "
                + "\(packets) frame(s) of \(stream.framesPerPacket) samples; packetTableInfo clamped to priming "
                + "\(info.primingFrames), remainder \(info.remainderFrames), valid \(info.numberValidFrames)")
    }
}
