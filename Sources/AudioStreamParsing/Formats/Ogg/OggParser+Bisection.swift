/// A time seek refined with byte requests (`SeekBisection`; docs/formats/ogg.md, "Bisection"): after an
/// estimated `seek(toFrame:)` with `ParserOptions.allowsByteRangeRequests`, the pages at each landing
/// are read without delivering packets until the page to resume at is found.
///
/// A page's granule position is the frame after the last packet that ends on it (RFC 3533 §6), so a
/// page whose granule position is at or before the target frame T is a safe landing: the packet holding
/// T begins on it or later. The search looks for the last such page A; the landing is then
/// - the page after A, when it follows A directly (next sequence number) and is not continued: its first
///   packet starts at A's granule position, at or before T, and the packet holding T begins on it (no
///   request needed: that page is the one being read);
/// - A itself otherwise (a packet continued from A may hold T): one more request, to A's first byte.
/// Packets are delivered from the landing as after any estimated seek: the first packet that begins on
/// the landing page, labelled with the seek's packet index (approximate, `isIndexEstimated`) and placed
/// in frames by the first granule position (`packetToFrame(labelledIndex)` exact; fixed-blocksize FLAC
/// relabels by frame number). Single-link streams only (a chain's links restart their granule positions).
struct OggBisection {
    var search: SeekBisection
    /// The sequence number of the page that is `search.lower`, when it was read.
    var lowerSequence: UInt32?
    /// The last page at or before the target read in order since the last jump, and its sequence number.
    var below: (point: SeekBisection.Point, sequence: UInt32)?
}

extension OggParser {
    /// Starts a time seek's search (`FormatParser.refineSeek(toFrame:)`): from the last page of the packet
    /// table, with the table's bytes per frame; two average pages are read on rather than requested.
    mutating func refineSeek(toFrame frame: Int64) -> Int64? {
        guard landing != nil, previousStreams.isEmpty, groupCount <= 1, let dataOffset, let s = stream,
            s.granuleBase != nil, endOfTablePages > 0, let total = packetFrames.last, total > 0,
            let lastPage = pageOffsets.last
        else { return nil }
        var pages: Int64 = 0
        var previous: Int64 = -1
        for offset in pageOffsets where offset != previous {
            pages += 1
            previous = offset
        }
        let pageBytes = max(Int64(OggPageHeader.fixedSize), endOfTablePages / max(1, pages))
        let lowerFrame = packetFrames[pageOffsets.count - 1]
        guard lowerFrame <= frame else { return nil }
        let lower = SeekBisection.Point(
            offset: dataOffset + lastPage, end: dataOffset + endOfTablePages, frame: lowerFrame)
        let bytesPerFrame = Double(endOfTablePages) / Double(total)
        let readOn = 2 * pageBytes
        let span = Int64(min(9e15, bytesPerFrame * Double(frame - lowerFrame))) * 2 + readOn
        let search = SeekBisection(
            target: frame, lower: lower, bytesPerFrame: bytesPerFrame, readOnBytes: readOn,
            maxRequests: SeekBisection.requestBudget(span: span, unit: readOn))
        bisection = OggBisection(search: search)
        return search.firstProbe()
    }

    /// A checked page during the search (its bytes readable, `size` long). Returns the step to take, or
    /// `nil` when the page is the landing: it is then read as usual and its packets are delivered.
    mutating func bisectionPage(
        _ header: OggPageHeader, at pageStart: Int64, size: Int, _ context: inout ParseContext
    ) -> ParseStep? {
        guard var b = bisection else { return nil }
        if header.isBeginningOfStream {
            // A chained link: its granule positions start again; the landing stays where it is.
            bisection = nil
            context.diagnose(
                .unsupportedFeature, at: pageStart, Self.ogg,
                "a chained stream's link at \(pageStart): the time seek's search stops here")
            return nil
        }
        guard let s = stream, header.serialNumber == s.serialNumber, header.granulePosition != -1 else {
            // Another stream's page, or no packet of the followed stream ends here.
            context.window.consume(size)
            return .continue
        }
        guard let frame = frameAtEnd(ofGranule: header.granulePosition, s) else {
            bisection = nil
            context.diagnose(
                .inconsistentValues, at: pageStart, Self.ogg,
                "granule position \(header.granulePosition) is not on the stream's timeline: the time seek's search stops"
            )
            return nil
        }
        let point = SeekBisection.Point(offset: pageStart, end: pageStart + Int64(size), frame: frame)
        let target = b.search.target
        if frame <= target {
            if header.isEndOfStream {
                // The target is at or past the last page: resume there.
                return land(at: point, requests: b.search.requests, &context)
            }
            b.below = (point, header.sequenceNumber)
            let next = b.search.reached(below: point)
            if b.search.lower == point { b.lowerSequence = header.sequenceNumber }
            switch next {
            case .readOn:
                bisection = b
                context.window.consume(size)
                return .continue
            case .request(let offset) where offset == point.end:
                // Read the next page in order.
                bisection = b
                context.window.consume(size)
                return .continue
            case .request(let offset):
                return jump(to: offset, b, &context)
            case .settle(let lower):
                return settle(at: lower, b, &context)
            }
        }
        if let below = b.below {
            // Read in order after a page at or before the target: the landing is found.
            if !header.isContinued && header.sequenceNumber == below.sequence &+ 1 {
                return land(at: point, requests: b.search.requests, &context)
            }
            return settle(at: below.point, b, &context)
        }
        switch b.search.reached(above: point) {
        case .request(let offset):
            return jump(to: offset, b, &context)
        case .settle(let lower):
            return settle(at: lower, b, &context)
        case .readOn:
            bisection = b
            context.window.consume(size)
            return .continue
        }
    }

    /// The frame at the end of a page of the followed stream with granule position `granule` (as
    /// `refineLanding` places a landing: single link, from the granule base).
    private func frameAtEnd(ofGranule granule: Int64, _ s: OggLogicalStream) -> Int64? {
        let (sinceBase, o1) = granule.subtractingReportingOverflow(s.granuleBase ?? 0)
        let (frame, o2) = sinceBase.addingReportingOverflow(s.clock?.framesBeforeGranuleZero ?? 0)
        return o1 || o2 || frame < 0 ? nil : frame
    }

    /// The page at `point` (being read) is the landing: its packets are delivered.
    private mutating func land(
        at point: SeekBisection.Point, requests: Int, _ context: inout ParseContext
    ) -> ParseStep? {
        bisection = nil
        context.diagnose(
            .positionCorrected, at: point.offset, Self.ogg,
            "time seek refined after \(requests) byte requests: resuming at the page at \(point.offset)")
        return nil
    }

    /// Resumes at the page at `point` (read before): asks for it; its packets are delivered.
    private mutating func settle(
        at point: SeekBisection.Point, _ b: OggBisection, _ context: inout ParseContext
    ) -> ParseStep {
        bisection = nil
        let exhausted = b.search.requests >= b.search.maxRequests
        context.diagnose(
            exhausted ? .limitExceeded : .positionCorrected, at: point.offset, Self.ogg,
            (exhausted
                ? "time seek's search stopped after \(b.search.requests) byte requests"
                : "time seek refined after \(b.search.requests + 1) byte requests")
                + ": resuming at the page at \(point.offset)")
        return request(point.offset, &context)
    }

    /// Asks for the bytes at `offset` to search on from there.
    private mutating func jump(to offset: Int64, _ b: OggBisection, _ context: inout ParseContext) -> ParseStep {
        var b = b
        b.below = nil
        if offset == b.search.lower.end, let sequence = b.lowerSequence {
            // Reading the bracket in order from its lower page: the next page follows it.
            b.below = (b.search.lower, sequence)
        }
        bisection = b
        return request(offset, &context)
    }

    /// Announces a byte request and resynchronises at the offset once the caller feeds from there.
    private mutating func request(_ offset: Int64, _ context: inout ParseContext) -> ParseStep {
        state = .resync
        junk = nil
        stream?.partial = nil
        stream?.nextSequence = nil
        stream?.clock?.reset()
        context.announce(.requestedByteOffset(offset))
        return .request(offset)
    }
}
