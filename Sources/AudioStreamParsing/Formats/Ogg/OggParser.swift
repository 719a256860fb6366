/// Ogg (RFC 3533) with the Vorbis, Opus and FLAC mappings.
///
/// Pages are read whole (at most 65,307 bytes) and checked against their CRC-32 before any of their
/// packets is handed out; a page that fails is reported as a diagnostic and the parser resynchronises
/// at the next capture pattern. Packets are reassembled from the segment table (RFC 3533 §5): a packet
/// that lies within one page is handed out zero-copy from the input, a packet continued across pages
/// is collected (at most `limits.maxPacketBytes`) and handed out once complete, with the offset of its
/// first byte.
///
/// One logical stream is followed (``OggStreamSelection``); pages of the others are skipped. A new
/// group of beginning-of-stream pages after the followed stream ended or delivered audio is a chained
/// stream: its format, cookie and tags are announced again and packet indices continue.
///
/// Buffers: one page, the packet being reassembled, the header packets of the followed stream.
/// `readyToProducePackets` is announced when the first audio packet is complete (`dataOffset` is the
/// start of the page where it begins). `finish` announces the exact packet and byte counts (the bytes
/// of the audio packets, page headers excluded) and the end trimming derived from the last granule
/// position. See docs/formats/ogg.md.
struct OggParser: FormatParser {
    static let probe = FormatProbe(fileTypes: [.ogg]) { window, options in
        // RFC 3533 §6: "OggS", then stream_structure_version 0.
        switch FormatProbe.matches(window, "OggS\0") {
        case true?: return .match(.ogg, OggParser(options: options))
        case false?: return .noMatch
        case nil: return .needMoreData(atLeast: 5)
        }
    }

    /// Where the parser is in the byte stream.
    enum State {
        /// A page is expected at the position.
        case atPage
        /// Looking for the next capture pattern after junk, a bad page or a discontinuity.
        case resync
    }

    let selection: OggStreamSelection
    let limits: ParserLimits
    var state = State.atPage
    /// Junk skipped since the last good page: where it started and how many bytes.
    var junk: (start: Int64, count: Int64)?

    /// The streams of the current group: serial → codec, in the order of their first pages.
    var group: [(serial: UInt32, codec: OggCodec)] = []
    /// How many groups (links of a chain) have started.
    var groupCount = 0
    /// Whether a page that is not a beginning-of-stream page was read in the current group.
    var groupHasOtherPages = false
    /// Serials whose pages were reported as skipped (one diagnostic each).
    var reportedSerials: Set<UInt32> = []
    /// The followed stream.
    var stream: OggLogicalStream?
    /// Earlier links' streams by serial, so a seek back into them can continue.
    var previousStreams: [UInt32: OggLogicalStream] = [:]

    // Packet geometry (for translations and seeking), relative to `dataOffset`.
    var dataOffset: Int64?
    /// Per delivered packet: the start of the page where it begins.
    var pageOffsets: PositionTable = []
    /// Per delivered packet: the first frame; one more entry than `pageOffsets` (the total).
    var packetFrames: PositionTable = [0]
    /// Tables stop growing after a discontinuity or an estimated seek (packet indices are no longer exact),
    /// until an exact seek.
    var tablesFrozen = false
    /// The packet table reached `limits.maxPacketTableEntries`.
    var tableFull = false
    /// Packet indices are approximate: after a discontinuity or an estimated seek, until an exact seek.
    var indicesApproximate = false
    /// After an estimated seek: the packets delivered since, placed in frames by the first granule position.
    var landing: OggSeekLanding?
    /// After an estimated time seek with byte requests: the search for the page to resume at
    /// (`OggParser+Bisection.swift`).
    var bisection: OggBisection?
    /// End of the last page read, relative to `dataOffset`.
    var endOfPages: Int64 = 0
    /// End of the last page read while the tables grew: the bytes the table's packets span.
    var endOfTablePages: Int64 = 0
    /// After an exact seek: packets beginning on the first page that precede the target.
    var packetsToDrop = 0
    /// Known at finish.
    var packetCount: Int64?
    /// A seek was prepared and no page has been read since.
    var seekPrepared = false
    /// A seek happened: packets may be delivered twice, so the end trimming found at the first finish stays.
    var seeked = false
    /// Since the last honoured discontinuity: the stream followed when it came, the links begun by then, and
    /// whether a page of that stream with a granule position was read since (`OggParser+Tail.swift`).
    var tail: OggTail?

    /// Every link met (chained streams), and the serial number of the followed stream whose link is the last
    /// and still open (`OggParser+Links.swift`).
    var links: [StreamLink] = []
    var openLinkSerial: UInt32?

    // Totals for the end-of-stream values.
    var audioPackets: Int64 = 0
    var audioBytes: Int64 = 0
    var largestPacket = 0

    init(options: ParserOptions) {
        selection = options.oggStreamSelection
        limits = options.limits
    }

    // MARK: FormatParser

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .resync:
            let step = searchCapturePattern(&context)
            if let j = junk, j.count > Int64(limits.maxSyncScanBytes) {
                throw context.error(
                    .limitExceeded, Self.ogg, "no page within maxSyncScanBytes (\(j.count) bytes skipped)")
            }
            return step
        case .atPage:
            return try readPage(&context)
        }
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        reportJunk(&context)
        if context.window.readable > 0 {
            context.diagnose(
                .truncated, Self.ogg, "the stream ends inside a page (\(context.window.readable) bytes dropped)")
            context.window.consume(context.window.readable)
        }
        guard var s = stream else {
            if group.isEmpty {
                throw context.error(.invalidFile, Self.ogg, "no beginning-of-stream page of an audio stream")
            }
            throw context.error(.unsupportedDataFormat, Self.ogg, "no Vorbis, Opus or FLAC logical stream")
        }
        guard let mapping = s.mapping, mapping.headersComplete || s.deliveredAudio || s.unusable else {
            throw context.error(.invalidFile, Self.ogg("\(s.codec)"), "the stream ends inside the header packets")
        }
        if let partial = s.partial {
            context.diagnose(
                .truncated, at: partial.fileOffset, Self.ogg,
                "the stream ends inside a packet (\(partial.bytes.count) bytes dropped)")
            s.partial = nil
        }
        if dataOffset == nil {
            announceFormat(&s, &context, dataOffset: context.window.position)
        }
        stream = s
        // After a discontinuity or an estimated seek, packet positions and indices are estimates: the
        // counts are not announced then; the end trimming is, when the bytes after a discontinuity were the
        // stream's tail (`OggParser+Tail.swift`).
        guard !indicesApproximate, context.nextPacketIndex == audioPackets else {
            announceTailTrimming(s, &context)
            return
        }
        packetCount = audioPackets
        context.announce(.audioDataByteCount(UInt64(audioBytes)))
        context.announce(.audioDataPacketCount(UInt64(audioPackets)))
        if largestPacket > 0 { context.announce(.maximumPacketSize(UInt32(clamping: largestPacket))) }
        let trim = seeked ? nil : endTrimming(s, &context)
        if let trim {
            context.announce(.packetTableInfo(trim))
            closeLastChapter(s, validFrames: trim.numberValidFrames, &context)
        }
        closeLink(s, trim: trim)
    }

    /// `CHAPTERnnn` comments give no end to the last chapter: once the stream's duration is known, it
    /// ends there (the metadata is announced again).
    func closeLastChapter(_ s: OggLogicalStream, validFrames: Int64, _ context: inout ParseContext) {
        guard var metadata = s.announcedFormat?.metadata, let last = metadata.chapters.last, last.endSeconds == nil,
            let rate = s.announcedFormat?.streamDescription.sampleRate, rate > 0
        else { return }
        let end = Double(validFrames) / rate
        guard end > last.startSeconds else { return }
        metadata.chapters[metadata.chapters.count - 1].endSeconds = end
        context.announce(.metadata(metadata))
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        // A discontinuity flag on the bytes that follow a seek (the facade passes it on when the first
        // chunk after the seek was empty) changes nothing: the seek already prepared the resync.
        if seekPrepared { return }
        state = .resync
        junk = nil
        tablesFrozen = true
        indicesApproximate = true
        landing = nil
        bisection = nil
        packetsToDrop = 0
        tail = stream.map { OggTail(serialNumber: $0.serialNumber, groupCount: groupCount) }
        stream?.partial = nil
        stream?.nextSequence = nil
        stream?.lostPages = true
        stream?.clock?.reset()
    }

    var packetMap: PacketMap {
        var map = PacketMap()
        // The start of the page where each packet begins. The end entry only once the stream has ended:
        // before, the next packet begins on some later page, whose offset is not known until it is read; and
        // only when the table holds every packet (it stops at `limits.maxPacketTableEntries`).
        var offsets = pageOffsets
        if packetCount == Int64(pageOffsets.count) { offsets.append(endOfPages) }
        map.packetOffsets = offsets
        map.packetFrames = packetFrames
        if let landing, landing.firstIndex < Int64(packetFrames.count) {
            // The table's total is the start of the packet after its last one, which the landing numbered.
            map.packetFrames = packetFrames.prefix(Int(landing.firstIndex))
        }
        map.packetCount = packetCount
        if let blockSize = fixedFLACBlockSize { map.framesPerPacket = blockSize }
        let estimator = OggFrameEstimator(tableFrames: map.packetFrames ?? [], landing: landing)
        map.unplacedPacketFrame = { estimator.frame(ofPacket: $0) }
        map.unplacedFramePacket = { estimator.packet(ofFrame: $0) }
        if !pageOffsets.isEmpty, endOfTablePages > 0 {
            // The bytes per packet of the packets in the table (pages read after a discontinuity or an estimated
            // seek are not counted: the number of packets in them is not known).
            map.estimatedBytesPerPacket = Double(endOfTablePages) / Double(pageOffsets.count)
        }
        return map
    }

    /// The block size of a single-link Ogg FLAC stream whose STREAMINFO declares a fixed block size:
    /// audio packet `n` is FLAC frame `n` and starts at frame `n × block size` (RFC 9639 §8.2: every
    /// frame but the last has the block size), so frames and packets translate exactly, parsed or not.
    var fixedFLACBlockSize: Int64? { stream.flatMap { fixedFLACBlockSize(of: $0) } }

    /// `fixedFLACBlockSize` for stream `s` (the followed stream, while a packet of it is handled).
    func fixedFLACBlockSize(of s: OggLogicalStream) -> Int64? {
        guard previousStreams.isEmpty, groupCount <= 1, case .flac(let header, _, _)? = s.mapping,
            header.streamInfo.hasFixedBlockSize, header.streamInfo.maximumBlockSize > 0
        else { return nil }
        return Int64(header.streamInfo.maximumBlockSize)
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard dataOffset != nil, stream != nil else { return false }
        state = .resync
        junk = nil
        seekPrepared = true
        seeked = true
        tail = nil
        bisection = nil
        stream?.partial = nil
        stream?.nextSequence = nil
        stream?.clock?.reset()
        if packet < Int64(pageOffsets.count) {
            // Exact: the feed restarts at the page where the packet begins; drop the packets that begin
            // on that page before it.
            var first = Int(packet)
            let pageOffset = pageOffsets[first]
            while first > 0 && pageOffsets[first - 1] == pageOffset { first -= 1 }
            packetsToDrop = Int(packet) - first
            // Packet indices are exact again: the tables may grow from where they end.
            tablesFrozen = tableFull
            indicesApproximate = false
            landing = nil
        } else {
            packetsToDrop = 0
            tablesFrozen = true
            indicesApproximate = true
            landing = OggSeekLanding(firstIndex: packet)
            if let blockSize = fixedFLACBlockSize {
                // Packet `packet` starts at frame `packet × block size`: the landing aims there as a time seek's
                // does (`OggParser+LandingAim.swift`), so an early landing delivers that packet first.
                let (frame, overflow) = packet.multipliedReportingOverflow(by: blockSize)
                if !overflow { landing?.aim = frame }
            }
        }
        return true
    }

    // MARK: Resynchronisation

    /// Skips bytes up to the next "OggS".
    mutating func searchCapturePattern(_ context: inout ParseContext) -> ParseStep {
        let window = context.window
        guard window.readable > 0 else { return .needMoreData(atLeast: 4) }
        if window.matches(Self.capturePattern, at: 0) {
            state = .atPage
            return .continue
        }
        if window.readable < 4 && window.couldMatch(Self.capturePattern, at: 0) {
            if window.isFinal {
                skipJunk(window.readable, &context)
                return .continue
            }
            return .needMoreData(atLeast: 4)
        }
        let next = window.firstIndex(of: 0x4F, from: 1, to: window.readable) ?? window.readable
        skipJunk(next, &context)
        return .continue
    }

    static let capturePattern: [UInt8] = Array("OggS".utf8)

    /// `ogg`: the prefix of the container's errors and diagnostics (`ogg("vorbis")` for a logical
    /// stream's mapping).
    static let ogg = Structure("ogg")

    mutating func skipJunk(_ count: Int, _ context: inout ParseContext) {
        if junk == nil { junk = (context.window.position, 0) }
        junk?.count += Int64(count)
        context.window.consume(count)
    }

    mutating func reportJunk(_ context: inout ParseContext) {
        guard let j = junk else { return }
        context.diagnose(
            .junkSkipped, at: j.start, Self.ogg, "skipped \(j.count) bytes that are not a valid page (lost sync)")
        junk = nil
    }
}
