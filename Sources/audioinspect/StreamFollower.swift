import AudioInspectCommon
import AudioStreamParsing

/// `audioinspect URL --follow`: parses an HTTP stream as it arrives and prints what happens (the
/// stream's format, each ICY title change with the packet where it takes effect, each change of the
/// stream's own metadata (a chained Ogg link's comments) with the packet from which it applies, running
/// packet and duration counts) until the server ends the body, `--max-seconds` pass or the user presses ^C.
///
/// Output is line-oriented: text lines (every one through `TerminalText.sanitized`), or with `--json` one
/// JSON object per line (JSON Lines; see `docs/cli.md`). It uses the synchronous parser API on a blocking
/// `HTTPInput`, the pattern a player with its own network thread would use.
///
/// Memory stays bounded however long the stream plays: ICY title changes are printed as they take effect
/// (at most `maxPendingTitles` wait for their packet; older ones are printed at once), nothing per packet
/// is kept, and the parser's seek indexes are capped at `maxPacketTableEntries` (a smaller cap than a
/// file's: seeking is not used here).
final class StreamFollower {
    /// Why following stopped.
    enum EndReason: String {
        case end
        case maxSeconds = "max-seconds"
        case interrupted
        case error
    }

    /// The parser's cap on packet-table entries (seek indexes, MP4/CAF tables) while following: 1 Mi
    /// entries, about 2-10 MiB, against a file's 16 Mi.
    static let maxPacketTableEntries = 1 << 20
    /// ICY title changes waiting for the packet where they take effect, at most.
    static let maxPendingTitles = 16

    private let input: HTTPInput
    private let parser = AudioStreamParser(
        options: ParserOptions(limits: ParserLimits(maxPacketTableEntries: StreamFollower.maxPacketTableEntries)))
    private let json: Bool
    private let printPackets: Bool
    private var out = StandardOutput()
    private var pendingTitles: [(metadata: ICYMetadata, audioOffset: Int64)] = []
    private var nextPacket: Int64 = 0
    private var frames: Int64 = 0
    /// When the request was sent, and when the first packet was parsed (time to first packet).
    private let requested: Double
    private var firstPacketAt: Double?

    /// - Parameter requested: when the request was sent (`MonotonicClock` seconds); `input.deadline` is the
    ///   `--max-seconds` deadline.
    init(input: HTTPInput, json: Bool, packets: Bool, requested: Double = MonotonicClock.now()) {
        self.input = input
        self.requested = requested
        self.json = json
        self.printPackets = packets
        parser.propertyListener = { [unowned self] parser, id in
            switch id {
            case .readyToProducePackets: printFormat(parser)
            case .infoDictionary: printMetadata(parser.metadata)
            default: break
            }
        }
        parser.packetsHandler = { [unowned self] batch in handle(batch) }
        input.onTitle = { [unowned self] metadata, offset in
            if pendingTitles.count >= Self.maxPendingTitles {
                printTitle(pendingTitles.removeFirst().metadata, atPacket: nextPacket)
            }
            pendingTitles.append((metadata, offset))
        }
    }

    /// Follows the stream; returns the exit status (0, or 1 after an error).
    func run() -> Int32 {
        printStream()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var lastProgress = MonotonicClock.now()
        var reason = EndReason.end
        var failure: InspectionReport.Failure?
        do {
            while true {
                let n = try buffer.withUnsafeMutableBytes { raw throws(InputError) in try input.read(into: raw) }
                if n == 0 { break }
                try parser.parse(buffer[0..<n])
                if MonotonicClock.now() - lastProgress >= 1 {
                    lastProgress = MonotonicClock.now()
                    printProgress()
                }
            }
            if Platform.interruptRequested {
                reason = .interrupted
            } else if let deadline = input.deadline, MonotonicClock.now() >= deadline {
                reason = .maxSeconds
            } else {
                try parser.finish()
            }
        } catch let error as AudioStreamError {
            reason = .error
            failure = InspectionReport.Failure(
                code: error.code.description, offset: error.byteOffset, message: error.reason)
        } catch let error as InputError {
            reason = .error
            failure = InspectionReport.Failure(code: "io", offset: error.offset, message: error.message)
        } catch {
            reason = .error
            failure = InspectionReport.Failure(code: "wht?", offset: nil, message: "\(error)")
        }
        input.close()
        flushTitles()
        printEnd(reason, failure: failure)
        out.flush()
        if let failure {
            StandardOutput.writeErrorLine(failure.line)
            return 1
        }
        return 0
    }

    // MARK: Titles

    /// Prints each packet (with `--packets`) and, before the first packet at or after a pending
    /// title's audio offset, the title.
    private func handle(_ batch: PacketBatch) {
        let framesPerPacket = Int64(parser.dataFormat?.framesPerPacket ?? 0)
        if firstPacketAt == nil { firstPacketAt = MonotonicClock.now() }
        for (i, d) in batch.descriptions.enumerated() {
            let offset = batch.fileOffset + d.startOffset
            let index = batch.firstPacketIndex + Int64(i)
            while let title = pendingTitles.first, offset >= title.audioOffset {
                pendingTitles.removeFirst()
                printTitle(title.metadata, atPacket: index)
            }
            let packetFrames = d.variableFramesInPacket != 0 ? Int64(d.variableFramesInPacket) : framesPerPacket
            if printPackets {
                if json {
                    line([
                        ("event", .string("packet")), ("index", .int(index)), ("offset", .int(offset)),
                        ("size", .int(Int64(d.dataByteSize))), ("frames", .int(packetFrames)),
                    ])
                } else {
                    text("Packet        \(index) @\(offset) size \(d.dataByteSize) frames \(packetFrames)")
                }
            }
            frames += packetFrames
            nextPacket = index + 1
        }
    }

    private func flushTitles() {
        for title in pendingTitles { printTitle(title.metadata, atPacket: nextPacket) }
        pendingTitles.removeAll()
    }

    // MARK: Output

    private var seconds: Double? {
        guard let rate = parser.dataFormat?.sampleRate, rate > 0 else { return nil }
        return Double(frames) / rate
    }

    private func printStream() {
        let name = ICYHeaders.value(named: "icy-name", in: input.headers)
        if json {
            line([
                ("event", .string("stream")), ("url", .string(input.url.absoluteString)),
                ("icyMetaInterval", input.metaInterval.map { .int(Int64($0)) } ?? .null),
                ("icyName", name.map { .string($0) } ?? .null),
            ])
        } else {
            text("Stream        \(input.url.absoluteString)")
            if let interval = input.metaInterval { text("ICY metadata  every \(interval) bytes") }
            if let name { text("Station       \(name)") }
        }
        out.flush()
    }

    private func printFormat(_ parser: AudioStreamParser) {
        let type = parser.fileFormat.map { "\($0)" }
        let format = parser.dataFormat
        if json {
            line([
                ("event", .string("format")), ("fileType", type.map { .string($0) } ?? .null),
                ("formatID", format.map { .string("\($0.formatID)") } ?? .null),
                ("sampleRate", format.map { .double($0.sampleRate) } ?? .null),
                ("channelsPerFrame", format.map { .int(Int64($0.channelsPerFrame)) } ?? .null),
                ("framesPerPacket", format.map { .int(Int64($0.framesPerPacket)) } ?? .null),
                ("dataOffset", parser.dataOffset.map { .int($0) } ?? .null),
            ])
        } else if let format {
            text(
                "Format        \(type ?? "?") '\(format.formatID)', \(format.sampleRate) Hz, "
                    + "\(format.channelsPerFrame) ch")
        }
        out.flush()
    }

    private func printTitle(_ metadata: ICYMetadata, atPacket packet: Int64) {
        if json {
            line([
                ("event", .string("title")), ("title", metadata.streamTitle.map { .string($0) } ?? .null),
                ("url", metadata.streamURL.map { .string($0) } ?? .null), ("packet", .int(packet)),
                ("seconds", seconds.map { .double($0) } ?? .null),
            ])
        } else {
            let at = seconds.map { InspectionReport.fixed3($0) + " s" } ?? "?"
            text("Title         \(metadata.streamTitle ?? metadata.description)  (packet \(packet), \(at))")
        }
        out.flush()
    }

    /// The stream's own metadata changed (the header's tags; for a chained Ogg stream, each link's
    /// comments, announced before the link's first packet): its title, with the index of the next packet.
    private func printMetadata(_ metadata: AudioMetadata?) {
        let title = metadata?.info[InfoKey.title]
        if json {
            line([
                ("event", .string("metadata")), ("title", title.map { .string($0) } ?? .null),
                ("artist", metadata?.info[InfoKey.artist].map { .string($0) } ?? .null),
                ("packet", .int(nextPacket)), ("seconds", seconds.map { .double($0) } ?? .null),
            ])
        } else {
            let at = seconds.map { InspectionReport.fixed3($0) + " s" } ?? "?"
            text("Metadata      title \(title.map { "'\($0)'" } ?? "none")  (packet \(nextPacket), \(at))")
        }
        out.flush()
    }

    private func printProgress() {
        if json {
            line([
                ("event", .string("progress")), ("packets", .int(nextPacket)), ("bodyBytes", .int(input.bodyBytes)),
                ("seconds", seconds.map { .double($0) } ?? .null),
            ])
        } else {
            let at = seconds.map { InspectionReport.fixed3($0) + " s" } ?? "?"
            text("Progress      \(nextPacket) packets, \(at), \(input.bodyBytes) bytes received")
        }
        out.flush()
    }

    private func printEnd(_ reason: EndReason, failure: InspectionReport.Failure?) {
        if json {
            var members: [(String, JSONValue)] = [
                ("event", .string("end")), ("reason", .string(reason.rawValue)), ("packets", .int(nextPacket)),
                ("bytes", .int(parser.parsedByteCount)), ("bodyBytes", .int(input.bodyBytes)),
                ("seconds", seconds.map { .double($0) } ?? .null),
                ("firstPacketSeconds", firstPacketAt.map { .double($0 - requested) } ?? .null),
            ]
            if let failure {
                let error: JSONValue = .object([
                    ("code", .string(failure.code)), ("offset", failure.offset.map { .int($0) } ?? .null),
                    ("message", .string(failure.message)),
                ])
                members.append(("error", error))
            }
            line(members)
        } else {
            let at = seconds.map { InspectionReport.fixed3($0) + " s" } ?? "?"
            text("End           \(reason.rawValue): \(nextPacket) packets, \(parser.parsedByteCount) bytes, \(at)")
        }
    }

    /// Writes one text line, sanitized for the terminal (titles, station names and URLs come from the
    /// server).
    private func text(_ line: String) {
        out.write(TerminalText.sanitized(line))
        out.write("\n")
    }

    /// Writes one JSON object on one line.
    private func line(_ members: [(String, JSONValue)]) {
        out.write(JSONLine.object(members))
        out.write("\n")
    }
}

/// Compact one-line JSON for JSON Lines output (scalars and flat objects).
enum JSONLine {
    static func object(_ members: [(String, JSONValue)]) -> String {
        "{" + members.map { "\(string($0.0)):\(value($0.1))" }.joined(separator: ",") + "}"
    }

    static func value(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .uint(let u): return String(u)
        case .double(let d): return d.isFinite ? d.description : "null"
        case .string(let s): return string(s)
        case .hex(let data): return string(InspectionReport.hex(data))
        case .object(let members): return object(members)
        case .array(let elements): return "[" + elements.map(value).joined(separator: ",") + "]"
        case .lazyArray(let make): return "[" + Array(make()).map(value).joined(separator: ",") + "]"
        }
    }

    static func string(_ s: String) -> String { JSONEscaping.quoted(s) }
}
