/// The synchronous core of ``AudioStreamEventSequence``: owns an ``AudioStreamParser`` (and an
/// optional ``ICYMetadataDemuxer``), feeds it one chunk at a time and turns its callbacks into a
/// queue of owned events. The queue only ever holds the events of one chunk: the sequence feeds
/// the next chunk when it is empty.
///
/// Not `Sendable`: it lives inside one iterator, like the parser it wraps.
final class StreamingParserSession {
    let parser: AudioStreamParser
    private var queue: [AudioStreamEvent] = []
    private var head = 0
    private var failure: (any Error)?
    private var icyInterval: Int?
    private var demuxer: ICYMetadataDemuxer?
    /// Titles read from the ICY stream and waiting for the first packet at or after their offset.
    private var pendingTitles: [(metadata: ICYMetadata, audioOffset: Int64)] = []
    private var lastTitle: ICYMetadata?
    private var nextPacketIndex: Int64 = 0
    private var flags: ParseFlags = []
    /// `followByteRequest()` was called and no chunk was fed since.
    private var requestFollowed = false

    /// Whether the stream is over (finished, failed or cancelled): no more chunks are fed.
    private(set) var isDone = false

    init(fileTypeHint: AudioFileType?, options: ParserOptions, icyMetaInterval: Int?) {
        parser = AudioStreamParser(fileTypeHint: fileTypeHint, options: options)
        icyInterval = icyMetaInterval
        demuxer = icyMetaInterval.map { ICYMetadataDemuxer(metaInterval: $0) }
        parser.propertyListener = { [unowned self] parser, id in
            if let value = try? parser.value(of: id) { queue.append(.property(value)) }
        }
        parser.diagnosticHandler = { [unowned self] diagnostic in queue.append(.diagnostic(diagnostic)) }
        parser.packetsHandler = { [unowned self] batch in enqueue(OwnedPacketBatch(copying: batch)) }
    }

    /// The next queued event, if any.
    func dequeue() -> AudioStreamEvent? {
        guard head < queue.count else { return nil }
        let event = queue[head]
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return event
    }

    /// The error that ended the stream, once all events queued before it were taken.
    func takeFailure() -> (any Error)? {
        defer { failure = nil }
        return failure
    }

    /// Feeds one chunk of the source.
    func feed(_ chunk: some Collection<UInt8>) {
        withBorrowedBytes(of: chunk) { feed(borrowed: $0) }
    }

    private func feed(borrowed chunk: BorrowedBytes) {
        do throws(AudioStreamError) {
            guard var demuxer else {
                try parse(chunk)
                return
            }
            let segments = demuxer.demux(borrowed: chunk)
            self.demuxer = demuxer
            for segment in segments {
                switch segment {
                case .audio(let range): try parse(chunk.extracting(range))
                case .metadata(let metadata, let offset):
                    if metadata != lastTitle {
                        lastTitle = metadata
                        pendingTitles.append((metadata, offset))
                    }
                }
            }
        } catch {
            fail(error)
        }
    }

    private func parse(_ bytes: BorrowedBytes) throws(AudioStreamError) {
        let f = flags
        flags = []
        requestFollowed = false
        try parser.parse(borrowed: bytes, flags: f)
    }

    /// The source ended: finishes the parser, then reports pending titles and `endOfStream`.
    func finish() {
        do throws(AudioStreamError) {
            try parser.finish()
            flushTitles()
            queue.append(.endOfStream)
            isDone = true
        } catch {
            fail(error)
        }
    }

    /// The stream stops with `error` after the events queued so far.
    func fail(_ error: any Error) {
        flushTitles()
        failure = error
        isDone = true
    }

    /// Seeks the parser; queued events and titles of the old position are dropped.
    func seek(toPacket packet: Int64) throws(AudioStreamError) -> SeekTarget {
        let target = try parser.seek(toPacket: packet)
        restart(at: packet)
        return target
    }

    /// Seeks the parser to a presentation frame (`AudioStreamParser.seek(toFrame:)`); queued events and
    /// titles of the old position are dropped.
    func seek(toFrame frame: Int64) throws(AudioStreamError) -> FrameSeekTarget {
        let target = try parser.seek(toFrame: frame)
        restart(at: target.startPacket)
        return target
    }

    /// Forgets the old position after a seek to `packet`.
    private func restart(at packet: Int64) {
        queue.removeAll(keepingCapacity: true)
        head = 0
        pendingTitles.removeAll()
        demuxer = icyInterval.map { ICYMetadataDemuxer(metaInterval: $0) }
        nextPacketIndex = packet
        requestFollowed = false
        flags = .discontinuity
        failure = nil
        isDone = false
    }

    /// The parser's byte request, unless it was already followed (the parser clears it only when the
    /// next chunk arrives).
    var pendingByteRequest: Int64? { requestFollowed ? nil : parser.pendingByteRequest }

    /// Prepares to follow the parser's pending byte request: the next chunk fed starts at the returned
    /// offset (it is fed with `.discontinuity`). `nil` when no request is pending (nothing changes).
    func followByteRequest() -> Int64? {
        guard let offset = pendingByteRequest else { return nil }
        requestFollowed = true
        pendingTitles.removeAll()
        demuxer = icyInterval.map { ICYMetadataDemuxer(metaInterval: $0) }
        flags = .discontinuity
        failure = nil
        isDone = false
        return offset
    }

    /// Appends a packet batch, cutting it where a pending title takes effect.
    private func enqueue(_ batch: OwnedPacketBatch) {
        var batch = batch
        while let title = pendingTitles.first {
            guard
                let i = batch.descriptions.firstIndex(where: {
                    batch.fileOffset + $0.startOffset >= title.audioOffset
                })
            else { break }
            if i > 0 {
                let (head, tail) = batch.split(at: i)
                queue.append(.packets(head))
                batch = tail
            }
            pendingTitles.removeFirst()
            queue.append(.streamTitle(title.metadata, atPacket: batch.firstPacketIndex))
        }
        nextPacketIndex = batch.firstPacketIndex + Int64(batch.packetCount)
        queue.append(.packets(batch))
    }

    /// Titles after the last packet take effect at the next packet index.
    private func flushTitles() {
        for title in pendingTitles { queue.append(.streamTitle(title.metadata, atPacket: nextPacketIndex)) }
        pendingTitles.removeAll()
    }
}

@available(*, unavailable)
extension StreamingParserSession: Sendable {}
