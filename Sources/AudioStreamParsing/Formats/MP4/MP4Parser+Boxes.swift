/// The top-level boxes: read as the stream passes on the element-tree engine (`ElementStream`), each
/// handled by its role in `MP4Parser.topLevelBoxes`.
extension MP4Parser {
    /// What the parser does with a top-level box it knows.
    enum TopLevelBox: Equatable, Sendable {
        /// `ftyp`: the major brand says whether the file is QuickTime.
        case fileType
        /// `moov`: the tracks, sample tables and metadata.
        case movie
        /// `moof`: a movie fragment's samples.
        case movieFragment
        /// `mdat`: the samples, emitted as their bytes pass.
        case mediaData
    }

    /// The top-level box types (ISO/IEC 14496-12 §8; QuickTime File Format): read whole, streamed, or
    /// skipped unbuffered without a diagnostic. Any other type is skipped with a diagnostic.
    static let topLevelBoxes = ElementRegistry<MP4BoxSyntax, TopLevelBox>([
        (MP4BoxType.ftyp, .leaf(.fileType, limit: .headerChunk)),
        (MP4BoxType.moov, .container(.movie, limit: .buffered)),
        (MP4BoxType.moof, .container(.movieFragment, limit: .buffered)),
        (MP4BoxType.mdat, .streamed(.mediaData)),
        (MP4BoxType.free, .skipped), (MP4BoxType.skip, .skipped), (MP4BoxType.wide, .skipped),
        (MP4BoxType.sidx, .skipped), (MP4BoxType.mfra, .skipped), (MP4BoxType.styp, .skipped),
        (MP4BoxType.pdin, .skipped), (MP4BoxType.uuid, .skipped), (MP4BoxType.pnot, .skipped),
        (MP4BoxType.meta, .skipped),
    ])

    /// Reads a top-level box header and hands the box to its role.
    mutating func stepBox(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        let header: MP4BoxHeader
        switch MP4BoxStream.peekHeader(context.window) {
        case .needMoreData(let n): return .needMoreData(atLeast: n)
        case .invalid(let fault):
            if guessedBoundary {
                context.diagnose(
                    .junkSkipped, .mp4,
                    "no box where the last fragment's data ends (\(fault.error.reason)); the rest is ignored")
                state = .ignoringRest
                return .continue
            }
            throw context.error(fault.error)
        case .header(let h): header = h
        }
        guessedBoundary = false
        let start = context.window.position
        guard MP4BoxStream.endFits(header, at: start) else {
            throw context.error(.invalidFile, .mp4(header.name), "box runs past the largest stream offset")
        }
        guard let role = Self.topLevelBoxes[header.type] else {
            context.diagnose(
                .unknownStructure, .mp4,
                "unknown box '\(header.name)' (\(header.size.map { "\($0)" } ?? "to the end") bytes) skipped")
            return skipBox(&context, header)
        }
        switch role {
        case .skipped:
            return skipBox(&context, header)
        case .streamed:
            return try enterMediaData(&context, header, at: start)
        case .leaf(let box, let limit), .container(let box, let limit):
            return try readWholeBox(box, &context, header, at: start, limit: limit)
        }
    }

    /// `ftyp`, `moov` (a second one is skipped) or `moof`, read whole and decoded. After a `moov` that
    /// media was held for in request mode, requests that media.
    private mutating func readWholeBox(
        _ box: TopLevelBox, _ context: inout ParseContext, _ header: MP4BoxHeader, at start: Int64,
        limit: ElementBufferLimit
    ) throws(AudioStreamError) -> ParseStep {
        if box == .movie, movie != nil {
            if start != movieOffset {
                context.diagnose(.duplicateStructure, .mp4("moov"), "a second movie box is ignored")
            }
            return skipBox(&context, header)
        }
        if box == .movieFragment, movie == nil {
            throw context.error(.invalidFile, .mp4("moof"), "a movie fragment before the movie box")
        }
        guard let bytes = try wholeBox(&context, header, limit: limit) else {
            return .needMoreData(atLeast: Int(header.size ?? 0))
        }
        context.window.consume(bytes.count)
        switch box {
        case .fileType:
            if let ftyp = try? MP4FileTypeBox.decode(bytes[header.headerSize...]) { isQuickTime = ftyp.isQuickTime }
        case .movie:
            try readMovie(&context, bytes[...], at: start)
            releaseMovieBytes()
            if let first = mediaBeforeMovie, options.allowsByteRangeRequests {
                mediaBeforeMovie = nil
                context.announce(.requestedByteOffset(first))
                state = .awaitingRequest(first)
                return .request(first)
            }
        case .movieFragment:
            try readFragment(&context, bytes[...], at: start)
        case .mediaData:
            break  // Streamed (`enterMediaData`), never registered as read whole.
        }
        return .continue
    }

    /// `mdat`: its header is consumed and its samples are emitted as they pass (`stepMedia`); before the
    /// `moov`, see `mediaBeforeMovie`.
    private mutating func enterMediaData(
        _ context: inout ParseContext, _ header: MP4BoxHeader, at start: Int64
    ) throws(AudioStreamError) -> ParseStep {
        if mediaBoxes.last.map({ $0.start < start }) ?? true {
            mediaBoxes.append((start, header.size.map { start + $0 }))
        }
        guard movie != nil else { return try mediaBeforeMovie(&context, header) }
        if !published, !headerAwaitsFirstSample {
            try publish(&context, mediaStart: start + Int64(header.headerSize))
        }
        context.window.consume(header.headerSize)
        state = .media(end: header.size.map { start + $0 })
        return .continue
    }

    /// Consumes the header and skips the body without buffering it; a box of size 0 runs to the end of
    /// the stream, which is then ignored.
    mutating func skipBox(_ context: inout ParseContext, _ header: MP4BoxHeader) -> ParseStep {
        if let step = MP4BoxStream.skipBody(of: header, &context) { return step }
        state = .ignoringRest
        return .continue
    }

    /// The whole box, header included, when readable (nothing consumed); `nil` when more bytes are needed.
    ///
    /// - Throws: `limitExceeded` above `limit`; `invalidFile` for a size-0 box (it would run to the end).
    func wholeBox(
        _ context: inout ParseContext, _ header: MP4BoxHeader, limit: ElementBufferLimit
    ) throws(AudioStreamError) -> [UInt8]? {
        switch MP4BoxStream.wholeElement(header, in: context.window, limit: limit.bytes(in: context.limits)) {
        case .bytes(let box):
            return box
        case .needMoreData:
            return nil
        case .unknownSize:
            throw context.error(
                .invalidFile, .mp4(header.name), "size 0 (to the end of the file) is only read for mdat")
        case .overLimit(let size, let limit):
            throw context.error(
                .limitExceeded, .mp4(header.name), "box of \(size) bytes exceeds the limit of \(limit) bytes")
        }
    }
}

/// The top level of an MP4 file on the element-tree engine.
typealias MP4BoxStream = ElementStream<MP4BoxSyntax>
