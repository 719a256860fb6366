import AudioStreamParsing

/// Feeds the segments an ``HLSSession`` hands out to an ``AudioStreamParser`` and turns its callbacks into
/// ``HLSEvent``s (synchronous: the async ``HLSEventSequence`` and the tests use it).
///
/// - One parser per run of contiguous segments: data that ``HLSSegmentData/startsDiscontinuity`` finishes
///   the current parser (its last packets are reported; not its end of stream), reports
///   ``HLSEvent/discontinuity`` and starts a new parser, which detects the format again (an fMP4
///   initialization section comes first, the session makes sure of it).
/// - The file type hint comes from the segment URI's extension for packed audio (`.aac` ADTS, `.mp3`,
///   `.ac3`); other segments (`.ts`, `.m4s`, `.mp4`) are detected from their content.
/// - After ``skip(seconds:)`` (a seek inside a segment), whole packets that end before the time are not
///   reported (exact to the packet, counted in frames of the new parser's format).
public final class HLSParserDriver {
    private let options: ParserOptions
    private var parser: AudioStreamParser?
    private var queue: [HLSEvent] = []
    private var lastFormat: StreamDescription?
    private var formatBeforeDiscontinuity: StreamDescription?
    private var framesToSkip: Double = 0
    private var secondsToSkip: Double?
    private var sequence: Int64 = 0

    /// A driver whose parsers use `options`.
    public init(options: ParserOptions = ParserOptions()) {
        self.options = options
    }

    /// The current parser (cached properties, translations).
    public var currentParser: AudioStreamParser? { parser }

    /// The events queued since the last call, in order (the queue is emptied).
    public func takeEvents() -> [HLSEvent] {
        defer { queue = [] }
        return queue
    }

    /// Queues an event that does not come from the parser.
    public func report(_ event: HLSEvent) { queue.append(event) }

    /// Packets that end before `seconds` from the next segment's start are dropped (after a seek).
    public func skip(seconds: Double) {
        secondsToSkip = seconds > 0 ? seconds : nil
        framesToSkip = 0
    }

    /// Parses one segment's (or initialization section's) bytes.
    public func feed(_ data: HLSSegmentData, url: String) throws(HLSError) {
        sequence = data.segment.sequenceNumber
        if data.startsDiscontinuity || parser == nil {
            if parser != nil {
                try finishParser(reportEnd: false)
                queue.append(.discontinuity)
                formatBeforeDiscontinuity = lastFormat
            }
            parser = makeParser(hint: Self.fileTypeHint(forURI: data.segment.uri))
        }
        if !data.isInitialization {
            queue.append(
                .segment(
                    HLSSegmentInfo(
                        sequenceNumber: data.segment.sequenceNumber, url: url, duration: data.segment.duration,
                        title: data.segment.title, startTime: data.startTime,
                        programDateTime: data.segment.programDateTime,
                        transportStreamTimestamp: data.transportStreamTimestamp, byteRange: data.segment.byteRange)))
        }
        do throws(AudioStreamError) {
            try parser?.parse(data.bytes)
        } catch {
            throw .parser(segment: data.segment.sequenceNumber, error: error.description)
        }
    }

    /// The presentation ended: finishes the parser, reports ``AudioStreamEvent/endOfStream``.
    public func finish() throws(HLSError) {
        try finishParser(reportEnd: true)
    }

    /// The file type hint for a segment URI: packed audio by its extension (RFC 8216 section 3.4).
    public static func fileTypeHint(forURI uri: String) -> AudioFileType? {
        var path = uri[...]
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "aac", "adts": return .aacADTS
        case "mp3": return .mp3
        case "ac3": return .ac3
        default: return nil
        }
    }

    private func finishParser(reportEnd: Bool) throws(HLSError) {
        guard let parser else { return }
        do throws(AudioStreamError) {
            try parser.finish()
        } catch {
            throw .parser(segment: sequence, error: error.description)
        }
        if reportEnd { queue.append(.stream(.endOfStream)) }
        self.parser = nil
    }

    private func makeParser(hint: AudioFileType?) -> AudioStreamParser {
        let parser = AudioStreamParser(fileTypeHint: hint, options: options)
        parser.propertyListener = { [unowned self] parser, id in
            guard let value = try? parser.value(of: id) else { return }
            queue.append(.stream(.property(value)))
            if id == .dataFormat, let format = parser.dataFormat {
                if let old = formatBeforeDiscontinuity, old != format {
                    queue.append(.formatChanged(from: old, to: format))
                }
                formatBeforeDiscontinuity = nil
                lastFormat = format
            }
        }
        parser.diagnosticHandler = { [unowned self] diagnostic in queue.append(.stream(.diagnostic(diagnostic))) }
        parser.packetsHandler = { [unowned self] batch in
            let owned = OwnedPacketBatch(copying: batch)
            guard let seconds = secondsToSkip else {
                queue.append(.stream(.packets(owned)))
                return
            }
            let format = self.parser?.dataFormat
            let rate = format?.sampleRate ?? 0
            var keepFrom = owned.packetCount
            for index in 0..<owned.packetCount {
                let frames = Double(
                    owned.descriptions[index].variableFramesInPacket > 0
                        ? owned.descriptions[index].variableFramesInPacket : format?.framesPerPacket ?? 0)
                guard rate > 0, (framesToSkip + frames) / rate <= seconds else {
                    keepFrom = index
                    break
                }
                framesToSkip += frames
            }
            if keepFrom < owned.packetCount {
                secondsToSkip = nil
                queue.append(.stream(.packets(keepFrom == 0 ? owned : owned.split(at: keepFrom).1)))
            }
        }
        return parser
    }
}
