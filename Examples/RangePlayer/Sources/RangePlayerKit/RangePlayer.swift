import AudioStreamParsing
import Foundation

/// Plays an `http://` URL through `AudioStreamParser` into a `PacketSink`, fetching the resource with
/// HTTP `Range` requests: the synchronous-API pattern of a player with its own network thread.
///
/// - The resource is fetched in windows of `window` bytes (`Range: bytes=a-b`, one connection each),
///   so that what is downloaded is what the parser consumed, rounded up to a window; `window` 0 asks
///   for everything from the offset (`bytes=a-`) and closes the connection when done.
/// - The parser is created with `allowsByteRangeRequests`: when it announces `requestedByteOffset`
///   (an MP4 whose `moov` follows the `mdat`), the player closes the transfer and continues with a
///   Range request at that offset, flagged `.discontinuity`. So such a file starts playing after the
///   head, the `moov` and the first samples were fetched, not the whole file.
/// - `seek(toPacket:)` calls the parser's `seek(toPacket:)` and continues with a Range request at the
///   returned `absoluteOffset`, flagged `.discontinuity`.
/// - A server that ignores `Range` (answers 200) still works: the bytes before the offset are read and
///   dropped.
public final class RangePlayer {
    /// What was transferred and when.
    public struct Statistics: Sendable {
        /// HTTP requests sent.
        public var requests = 0
        /// Body bytes received (including bytes dropped because a server ignored `Range`).
        public var bytesFetched: Int64 = 0
        /// `bytesFetched` when the first packet was delivered.
        public var bytesBeforeFirstPacket: Int64?
        /// Seconds from the first request to the first packet.
        public var firstPacketSeconds: Double?
        /// The resource's length (from `Content-Range`).
        public var resourceLength: Int64?
        /// The offsets the parser requested (`requestedByteOffset`) that were followed.
        public var followedByteRequests: [Int64] = []

        public init() {}
    }

    /// The result of one seek.
    public struct SeekOutcome: Sendable {
        /// The packet asked for.
        public var packet: Int64
        /// What the parser answered (`nil` when it threw).
        public var target: SeekTarget?
        /// The parser's error, when the seek was refused (`pck?` past the end, `more` too early).
        public var error: AudioStreamError?
        /// Seconds from the seek to the first packet after it (`nil`: none came).
        public var firstPacketSeconds: Double?
        /// Bytes fetched from the seek to the first packet after it.
        public var bytesBeforeFirstPacket: Int64?
        /// True when the resource ended before enough packets came.
        public var reachedEnd = false

        public init(packet: Int64) { self.packet = packet }
    }

    public let url: URL
    public let parser: AudioStreamParser
    public let sink: PacketSink
    public private(set) var statistics = Statistics()
    /// Bytes per Range request (0: to the end of the resource).
    public let window: Int64
    /// Bytes per socket read (what one `parse` call gets at most).
    public let readSize: Int
    /// At most this many parser byte requests are followed per feed (a parser that keeps asking is an
    /// error, not a loop).
    public let maxByteRequests = 64

    private var requestedOffset: Int64?
    private var packetsDelivered = 0
    private var firstPacketInSegment: (() -> Void)?
    private var started: Date?

    /// - Parameters:
    ///   - window: bytes per Range request; 0 asks for the rest of the resource each time.
    ///   - readSize: bytes per socket read.
    public init(url: URL, sink: PacketSink, window: Int64 = 16 * 1024, readSize: Int = 16 * 1024) {
        self.url = url
        self.sink = sink
        self.window = max(0, window)
        self.readSize = max(1, readSize)
        parser = AudioStreamParser(options: ParserOptions(allowsByteRangeRequests: true))
        parser.propertyListener = { [unowned self] parser, id in
            switch id {
            case .requestedByteOffset: requestedOffset = parser.requestedByteOffset
            case .readyToProducePackets: sink.configure(parser)
            default: break
            }
        }
        parser.packetsHandler = { [unowned self] batch in
            if statistics.firstPacketSeconds == nil, let started {
                statistics.firstPacketSeconds = Date().timeIntervalSince(started)
                statistics.bytesBeforeFirstPacket = statistics.bytesFetched
            }
            firstPacketInSegment?()
            firstPacketInSegment = nil
            packetsDelivered += batch.packetCount
            sink.receive(batch)
        }
    }

    /// Plays from the start until `packets` packets were delivered (`nil`: to the end, then `finish`).
    ///
    /// - Returns: true when the resource ended (and the parser was finished).
    @discardableResult
    public func play(packets limit: Int? = nil) throws -> Bool {
        started = Date()
        packetsDelivered = 0
        return try feed(from: 0, flags: [], until: { limit.map { self.packetsDelivered >= $0 } ?? false })
    }

    /// Seeks to `packet` and plays until `packets` packets were delivered after it (or the end).
    public func seek(toPacket packet: Int64, packets limit: Int) throws -> SeekOutcome {
        var outcome = SeekOutcome(packet: packet)
        let target: SeekTarget
        do {
            target = try parser.seek(toPacket: packet)
        } catch {
            outcome.error = error
            return outcome
        }
        outcome.target = target
        sink.flush()
        let seekStarted = Date()
        let bytesAtSeek = statistics.bytesFetched
        firstPacketInSegment = { [unowned self] in
            outcome.firstPacketSeconds = Date().timeIntervalSince(seekStarted)
            outcome.bytesBeforeFirstPacket = statistics.bytesFetched - bytesAtSeek
        }
        packetsDelivered = 0
        outcome.reachedEnd = try feed(
            from: target.absoluteOffset, flags: .discontinuity, until: { self.packetsDelivered >= limit })
        firstPacketInSegment = nil
        return outcome
    }

    /// Feeds the parser from `offset` until `enough()` holds after a `parse` call (returns false) or
    /// the resource ends (finishes the parser, returns true). Follows the parser's byte requests.
    private func feed(from offset: Int64, flags: ParseFlags, until enough: () -> Bool) throws -> Bool {
        var position = offset
        var flags = flags
        var followed = 0
        var buffer = [UInt8](repeating: 0, count: readSize)
        requestedOffset = nil
        fetching: while !enough() {
            if let length = statistics.resourceLength, position >= length { break }
            let response = try HTTPRangeResponse(
                url: url, first: position, last: window > 0 ? position + window - 1 : nil)
            defer { response.close() }
            statistics.requests += 1
            switch response.status {
            case 206:
                guard response.bodyOffset == position else {
                    throw HTTPError("asked for bytes from \(position), got \(response.bodyOffset)")
                }
                if let length = response.resourceLength { statistics.resourceLength = length }
            case 200:
                if let length = response.resourceLength { statistics.resourceLength = length }
            case 416:
                statistics.resourceLength = response.resourceLength ?? position
                break fetching
            default:
                throw HTTPError("HTTP status \(response.status) for bytes from \(position)")
            }
            // A 200 is the whole resource: drop the bytes before the offset.
            var skip = response.status == 200 ? position : 0
            var got: Int64 = 0
            while true {
                let n = try buffer.withUnsafeMutableBytes { raw throws(HTTPError) in try response.read(into: raw) }
                if n == 0 { break }
                statistics.bytesFetched += Int64(n)
                got += Int64(n)
                let start = Int(min(skip, Int64(n)))
                skip -= Int64(start)
                if start == n { continue }
                try parser.parse(buffer[start..<n], flags: flags)
                flags = []
                position += Int64(n - start)
                if let request = requestedOffset {
                    requestedOffset = nil
                    // An offset past the end cannot be fetched: feed on (as `RangeRequestRunner` does).
                    if request >= 0, statistics.resourceLength.map({ request <= $0 }) ?? true {
                        followed += 1
                        guard followed <= maxByteRequests else {
                            throw HTTPError("the parser asked for more than \(maxByteRequests) byte ranges")
                        }
                        statistics.followedByteRequests.append(request)
                        position = request
                        flags = .discontinuity
                        continue fetching
                    }
                }
                if enough() { return false }
            }
            // The end of the resource: a 200 (whole body), or a window that came back short.
            if response.status == 200 || window == 0 || got < window { break }
        }
        if enough() { return false }
        try parser.finish()
        return true
    }
}
