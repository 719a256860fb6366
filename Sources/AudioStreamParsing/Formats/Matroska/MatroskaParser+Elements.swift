/// The elements of the stream: closing what ends, choosing what to do with each element by its ID.
extension MatroskaParser {
    /// What the parser does with an element met in the stream (the schema's role table, as data).
    enum Role: Equatable {
        /// Entered: its children are read as elements of the stream (Segment, Cluster, BlockGroup).
        case entered
        /// Buffered whole and decoded (Info, Tracks, Tags, Chapters, Attachments, small Cluster leaves).
        case decoded
        /// The frames of the parsed track are emitted (SimpleBlock, Block).
        case block
    }

    /// The registry: ID → role; not listed and not in the schema table → unknown (skipped, diagnosed);
    /// in the schema table but not here → skipped silently.
    static let registry = ElementRegistry<EBMLSyntax, Role>([
        (MatroskaElementID.segment, .streamed(.entered)),
        (MatroskaElementID.cluster, .streamed(.entered)),
        (MatroskaElementID.blockGroup, .streamed(.entered)),
        (MatroskaElementID.simpleBlock, .streamed(.block)),
        (MatroskaElementID.block, .streamed(.block)),
        (MatroskaElementID.info, .container(.decoded, limit: .buffered)),
        (MatroskaElementID.tracks, .container(.decoded, limit: .buffered)),
        (MatroskaElementID.tags, .container(.decoded, limit: .buffered)),
        (MatroskaElementID.chapters, .container(.decoded, limit: .buffered)),
        (MatroskaElementID.attachments, .container(.decoded, limit: .buffered)),
        (MatroskaElementID.ebml, .leaf(.decoded, limit: .headerChunk)),
        (MatroskaElementID.discardPadding, .leaf(.decoded, limit: .headerChunk)),
        (MatroskaElementID.timestamp, .leaf(.decoded, limit: .headerChunk)),
        (MatroskaElementID.seekHead, .container(.decoded, limit: .buffered)),
        (MatroskaElementID.cues, .container(.decoded, limit: .buffered)),
        (MatroskaElementID.void, .skipped),
        (MatroskaElementID.crc32, .skipped),
    ])

    mutating func stepElement(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        if case .fetching(let back) = cuesFetch { return try stepFetchedCues(&context, returnTo: back) }
        // A run of plain SimpleBlocks of the parsed track in the caller's chunk (MatroskaParser+FastPath).
        if walkBlocks(&context) { return .continue }
        let position = context.window.position
        closeEnded(at: position)
        let header: EBMLHeader
        switch ElementStream<EBMLSyntax>.peekHeader(context.window) {
        case .needMoreData(let n):
            return .needMoreData(atLeast: n)
        case .invalid(let fault):
            if inCluster { return damaged(&context, fault.error.reason) }
            throw context.error(fault.error)
        case .header(let h):
            header = h
        }
        let level = MatroskaElementID.level(of: header.id)
        if let level {
            // An element of unknown size ends at the first element of its level or a higher one.
            while let top = open.last, top.end == nil, level <= top.level { open.removeLast() }
        }
        if let size = header.size, let end = open.last?.end, position + size > end {
            if inCluster { return damaged(&context, "\(header.name) of \(size) bytes runs past its parent") }
            // Once per element: an element buffered whole is looked at again for each chunk until it is readable.
            if pastParentDiagnosedAt != position {
                pastParentDiagnosedAt = position
                context.diagnose(
                    .sizeCorrected, .mkv(header.name),
                    "element runs past its parent \(open.last.map { MatroskaElementID.name(of: $0.id) } ?? "")")
            }
        }
        guard ElementStream.endFits(header, at: position) else {
            throw context.error(
                EBMLSyntax.error(
                    for: ElementHeaderFault(
                        problem: .sizeBeyondOffsets, id: header.id, declaredSize: UInt64(header.bodySize ?? 0),
                        headerSize: header.headerSize)))
        }
        switch Self.registry[header.id] {
        case .streamed(.block)?:
            return try stepBlock(&context, header)
        case .streamed?:
            return try enter(&context, header, level: level ?? 0)
        case .container?, .leaf?:
            return try decodeWhole(&context, header)
        case .skipped?:
            return skip(&context, header, level: level)
        case nil:
            if level == nil && header.id != MatroskaElementID.void {
                context.diagnose(.unknownStructure, .mkv(header.name), "unknown element skipped")
            }
            return skip(&context, header, level: level)
        }
    }

    /// True inside a Cluster.
    var inCluster: Bool { open.contains { $0.id == MatroskaElementID.cluster } }

    /// Pops the entered elements whose known end is at or before `position`.
    mutating func closeEnded(at position: Int64) {
        while let top = open.last, let end = top.end, position >= end {
            if top.id == MatroskaElementID.blockGroup { groupIsParsedTrack = false }
            open.removeLast()
        }
    }

    /// Consumes the header of an element whose children follow in the stream.
    mutating func enter(_ context: inout ParseContext, _ header: EBMLHeader, level: Int) throws(AudioStreamError)
        -> ParseStep
    {
        let position = context.window.position
        switch header.id {
        case MatroskaElementID.segment:
            open.removeAll()
            segmentDataStart = position + Int64(header.headerSize)
            segmentEnd = header.size.map { position + $0 }
        case MatroskaElementID.cluster:
            if !published {
                if let hold = holdForFirstFrame(&context, cluster: header) { return hold }
                try publish(&context, at: position)
                if let request = requestCues(&context, at: position) { return request }
            }
            clusterTimestamp = nil
        default:
            groupIsParsedTrack = false
        }
        guard open.count < limits.maxNestingDepth else {
            throw context.error(.limitExceeded, .mkv(header.name), "elements nested deeper than maxNestingDepth")
        }
        context.window.consume(header.headerSize)
        open.append(OpenElement(id: header.id, level: level, end: header.size.map { position + $0 }))
        return .continue
    }

    /// Skips an element without buffering it; one of unknown size is entered instead (its children
    /// are then skipped one by one until an element of its level or a higher one).
    mutating func skip(_ context: inout ParseContext, _ header: EBMLHeader, level: Int?) -> ParseStep {
        guard let step = ElementStream.skipBody(of: header, &context) else {
            // Unknown size: entered, so that what follows is read; nested ones beyond the depth limit are
            // not remembered (the next element of a known level closes them all the same).
            if open.count < limits.maxNestingDepth {
                open.append(OpenElement(id: header.id, level: level ?? Int.max, end: nil))
            }
            return .continue
        }
        return step
    }

    /// Buffers an element whole and decodes it.
    mutating func decodeWhole(_ context: inout ParseContext, _ header: EBMLHeader) throws(AudioStreamError)
        -> ParseStep
    {
        let position = context.window.position
        let limit: Int
        switch header.id {
        case MatroskaElementID.ebml, MatroskaElementID.discardPadding, MatroskaElementID.timestamp:
            limit = limits.maxHeaderChunkBytes
        case MatroskaElementID.tags, MatroskaElementID.chapters:
            limit = min(limits.maxTagBytes, limits.maxBufferedBytes)
        default: limit = limits.maxBufferedBytes
        }
        let bytes: [UInt8]
        switch ElementStream.wholeElement(header, in: context.window, limit: limit) {
        case .bytes(let b):
            bytes = b
        case .needMoreData(let n):
            waitingEnd = header.size.map { position + $0 }
            return .needMoreData(atLeast: n)
        case .unknownSize:
            context.diagnose(
                .unsupportedFeature, .mkv(header.name), "element of unknown size; its children are skipped")
            return skip(&context, header, level: MatroskaElementID.level(of: header.id))
        case .overLimit(let size, _):
            if header.id == MatroskaElementID.tracks || header.id == MatroskaElementID.info {
                throw context.error(.limitExceeded, .mkv(header.name), "\(size) bytes exceed maxBufferedBytes")
            }
            context.diagnose(.limitExceeded, .mkv(header.name), "\(size) bytes exceed the limit of \(limit); skipped")
            return skip(&context, header, level: nil)
        }
        waitingEnd = nil
        context.window.consume(bytes.count)
        let whole = bytes[...]
        var notes: [DiagnosticNote] = []
        do {
            switch header.id {
            case MatroskaElementID.ebml:
                // A second EBML header: a new stream follows (concatenated WebM); its Segment is read.
                open.removeAll()
            case MatroskaElementID.discardPadding:
                if groupIsParsedTrack, let v = EBMLValue.signed(whole.dropFirst(header.headerSize)) {
                    lastDiscardPadding = v
                }
            case MatroskaElementID.timestamp:
                if inCluster, let time = EBMLValue.unsigned(whole.dropFirst(header.headerSize)) {
                    clusterTimestampRead(time)
                }
            case MatroskaElementID.seekHead:
                let master = try EBMLMaster(whole: whole, depth: 2, limits: limits)
                if cuesPosition == nil {
                    cuesPosition = MatroskaCues.cuesPosition(in: master, depth: 2, limits: limits)
                }
            case MatroskaElementID.cues:
                let master = try EBMLMaster(whole: whole, depth: 2, limits: limits)
                cuePoints = MatroskaCues.decode(master, depth: 2, limits: limits, notes: &notes)
            case MatroskaElementID.info:
                info = try MatroskaSegmentInfo.decode(try EBMLMaster(whole: whole, depth: 2, limits: limits))
                announceMetadata(&context)
            case MatroskaElementID.tracks:
                let master = try EBMLMaster(whole: whole, depth: 2, limits: limits)
                trackEntries = try MatroskaTrackEntry.decodeTracks(master, depth: 2, limits: limits)
            case MatroskaElementID.tags:
                let master = try EBMLMaster(whole: whole, depth: 2, limits: limits)
                let tags = MatroskaTags.decode(master, depth: 2, limits: limits, notes: &notes)
                simpleTags += tags
                announceMetadata(&context)
            case MatroskaElementID.chapters:
                let master = try EBMLMaster(whole: whole, depth: 2, limits: limits)
                chapters += MatroskaChapters.decode(master, depth: 2, limits: limits, notes: &notes)
                announceMetadata(&context)
            case MatroskaElementID.attachments:
                let master = try EBMLMaster(whole: whole, depth: 2, limits: limits)
                artwork += MatroskaAttachments.decode(master, depth: 2, limits: limits, notes: &notes)
                announceMetadata(&context)
            default:
                break
            }
        } catch {
            if header.id == MatroskaElementID.tracks || header.id == MatroskaElementID.info {
                throw context.error(error, at: position)
            }
            context.diagnose(DiagnosticNote(error, whenInvalid: .damagedMetadata), at: position)
        }
        for note in notes { context.diagnose(note, at: position) }
        return .continue
    }

    /// Announces the metadata again when it changes after the header (Tags after the Clusters).
    mutating func announceMetadata(_ context: inout ParseContext) {
        if published && !metadata.isEmpty { context.announce(.metadata(metadata)) }
    }

    /// The metadata read so far: Info's Title and writing application, the Tags (their info keys for
    /// the parsed track), the Chapters and the attached pictures.
    var metadata: AudioMetadata {
        var m = AudioMetadata()
        if let title = info.title, !title.isEmpty {
            m.add(AudioMetadata.Tag(source: "matroska", key: "Title", value: title), infoKey: nil)
        }
        if let app = info.writingApp ?? info.muxingApp, !app.isEmpty {
            m.add(AudioMetadata.Tag(source: "matroska", key: "WritingApp", value: app), infoKey: .encodingApplication)
        }
        MatroskaTags.add(simpleTags, trackUID: (track ?? selectedTrack())?.uid, to: &m)
        if m.info[.title] == nil, let title = info.title, !title.isEmpty { m.info[.title] = title }
        if let seconds = info.durationSeconds { m.info[.approximateDurationInSeconds] = String(seconds) }
        m.chapters = chapters
        m.artwork = artwork
        return m
    }

    /// The track to parse: `ParserOptions.trackID` (a TrackNumber), else the first audio track.
    func selectedTrack() -> MatroskaTrackEntry? {
        if let id = options.trackID { return trackEntries.first { $0.number == UInt64(id) && $0.isAudio } }
        return trackEntries.first { $0.isAudio }
    }

    /// Publishes the header at the first Cluster.
    mutating func publish(_ context: inout ParseContext, at position: Int64) throws(AudioStreamError) {
        guard !trackEntries.isEmpty else {
            throw context.error(.invalidFile, .mkv("Cluster"), "a Cluster before the Tracks")
        }
        guard let selected = selectedTrack() else {
            if let id = options.trackID {
                throw context.error(.unsupportedDataFormat, .mkv("Tracks"), "track \(id) is not an audio track")
            }
            throw context.error(.unsupportedDataFormat, .mkv("Tracks"), "no audio track")
        }
        for other in trackEntries where other.isAudio && other.number != selected.number {
            if (try? MatroskaAudioCodec.decode(other)) == nil {
                context.diagnose(
                    .unsupportedFeature, .mkv("Tracks"),
                    "audio track \(other.number) (\(other.codecID)) has a codec this library does not read")
            }
        }
        var codec: MatroskaAudioCodec
        do {
            codec = try MatroskaAudioCodec.decode(selected)
        } catch {
            context.diagnose(
                .unsupportedFeature, .mkv("Tracks"),
                "track \(selected.number) (\(selected.codecID)) is listed but cannot be parsed")
            throw context.error(error)
        }
        applyImplicitSBR(&context, to: &codec)
        track = selected
        self.codec = codec
        published = true
        dataOffset = position
        var values: [AudioStreamPropertyValue] = [.dataFormat(codec.streamDescription)]
        if !codec.formatList.isEmpty { values.append(.formatList(codec.formatList)) }
        if let cookie = codec.magicCookie { values.append(.magicCookie(cookie)) }
        if let layout = codec.channelLayout { values.append(.channelLayout(layout)) }
        if codec.streamDescription.bytesPerPacket == 0 {
            values.append(.packetSizeUpperBound(UInt32(clamping: limits.maxPacketBytes)))
        }
        if let rate = codec.bitRate { values.append(.bitRate(rate)) }
        let metadata = self.metadata
        if !metadata.isEmpty { values.append(.metadata(metadata)) }
        values.append(.restrictsRandomAccess(codec.streamDescription.formatID != .linearPCM))
        context.publishHeader(values, dataOffset: position)
    }
}
