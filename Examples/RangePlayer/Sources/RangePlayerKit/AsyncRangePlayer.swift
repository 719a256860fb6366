import AudioStreamParsing
import Foundation

/// The bytes of an `http://` resource from `offset` on, as an `AsyncSequence` of chunks: Range requests
/// of `window` bytes, one after the other, until the resource ends. Pull-based: a window is requested
/// only when the consumer asks for more bytes, so the parser's pace is the download's pace.
///
/// The reads block the calling task (a POSIX socket); an app would use `URLSession.bytes(for:)`
/// chunked, AsyncHTTPClient, or an `AsyncStream` fed by a `URLSession` delegate instead.
public struct HTTPRangeChunks: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public let url: URL
    public let offset: Int64
    public let window: Int64
    public let readSize: Int
    /// Counts body bytes received (shared by every sequence of one player).
    public let meter: ByteMeter

    public init(url: URL, offset: Int64, window: Int64, readSize: Int, meter: ByteMeter) {
        self.url = url
        self.offset = offset
        self.window = Swift.max(1, window)
        self.readSize = Swift.max(1, readSize)
        self.meter = meter
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: self, position: offset)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let chunks: HTTPRangeChunks
        var position: Int64
        var response: HTTPRangeResponse?
        var windowReceived: Int64 = 0
        var done = false

        public mutating func next() async throws -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: chunks.readSize)
            while !done {
                if response == nil {
                    let r = try HTTPRangeResponse(
                        url: chunks.url, first: position, last: position + chunks.window - 1)
                    chunks.meter.add(requests: 1)
                    guard r.status == 206 else {
                        if r.status == 416 {
                            done = true
                            return nil
                        }
                        throw HTTPError("HTTP status \(r.status) for bytes from \(position)")
                    }
                    response = r
                    windowReceived = 0
                }
                guard let r = response else { continue }
                let n = try buffer.withUnsafeMutableBytes { raw throws(HTTPError) in try r.read(into: raw) }
                if n > 0 {
                    chunks.meter.add(bytes: Int64(n))
                    position += Int64(n)
                    windowReceived += Int64(n)
                    return Array(buffer[0..<n])
                }
                r.close()
                response = nil
                // A short window, or the end of the resource: done.
                if windowReceived < chunks.window || r.resourceLength.map({ position >= $0 }) ?? false {
                    done = true
                }
            }
            return nil
        }
    }
}

/// Bytes and requests of a player, readable from any task.
public final class ByteMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var _bytes: Int64 = 0
    private var _requests = 0
    public init() {}
    public func add(bytes: Int64 = 0, requests: Int = 0) {
        lock.lock()
        _bytes += bytes
        _requests += requests
        lock.unlock()
    }
    public var bytes: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return _bytes
    }
    public var requests: Int {
        lock.lock()
        defer { lock.unlock() }
        return _requests
    }
}

/// The same player as `RangePlayer`, on `AudioStreamEventSequence` (the async adapter): it consumes
/// events in a task and seeks with `Iterator.seek(toPacket:from:)`, giving it a new `HTTPRangeChunks`
/// that starts at the target offset.
///
/// The parser is created with `allowsByteRangeRequests`: when `.property(.requestedByteOffset(n))`
/// arrives (an MP4 with the `moov` after the `mdat`), the player follows it with
/// `Iterator.followByteRequest(from:)` and a new `HTTPRangeChunks` from `n`.
public enum AsyncRangePlayer {
    public struct Result {
        public var statistics = RangePlayer.Statistics()
        public var outcomes: [RangePlayer.SeekOutcome] = []
        public var fileType: AudioFileType?
        public var dataFormat: StreamDescription?
        public var dataOffset: Int64?
    }

    /// Plays `initial` packets (nil: to the end), then each seek with `after` packets.
    public static func run(
        url: URL, sink: CountingSink, seeks: [Int64], initial: Int?, after: Int, window: Int64, readSize: Int
    ) async throws -> Result {
        let meter = ByteMeter()
        var result = Result()
        let started = Date()
        let chunks = HTTPRangeChunks(url: url, offset: 0, window: window, readSize: readSize, meter: meter)
        var events = chunks.audioStreamEvents(options: ParserOptions(allowsByteRangeRequests: true))
            .makeAsyncIterator()
        var delivered = 0
        var segmentStart: (date: Date, bytes: Int64)?
        var outcome: RangePlayer.SeekOutcome?
        var pendingSeeks = seeks[...]

        /// Consumes events until `limit` packets were delivered (nil: to the end of the stream).
        func consume(until limit: Int?) async throws -> Bool {
            while let event = try await events.next() {
                switch event {
                case .property(.readyToProducePackets): sink.configure(events.parser)
                case .property(.requestedByteOffset):
                    let followed = try events.followByteRequest { offset in
                        HTTPRangeChunks(url: url, offset: offset, window: window, readSize: readSize, meter: meter)
                    }
                    if let followed { result.statistics.followedByteRequests.append(followed) }
                case .packets(let batch):
                    if result.statistics.firstPacketSeconds == nil {
                        result.statistics.firstPacketSeconds = Date().timeIntervalSince(started)
                        result.statistics.bytesBeforeFirstPacket = meter.bytes
                    }
                    if let start = segmentStart {
                        outcome?.firstPacketSeconds = Date().timeIntervalSince(start.date)
                        outcome?.bytesBeforeFirstPacket = meter.bytes - start.bytes
                        segmentStart = nil
                    }
                    sink.receive(batch)
                    delivered += batch.packetCount
                    if let limit, delivered >= limit { return false }
                default: break
                }
            }
            return true
        }

        _ = try await consume(until: seeks.isEmpty ? initial : (initial ?? 1))
        while let packet = pendingSeeks.popFirst() {
            var o = RangePlayer.SeekOutcome(packet: packet)
            do {
                o.target = try events.seek(toPacket: packet) { target in
                    HTTPRangeChunks(
                        url: url, offset: target.absoluteOffset, window: window, readSize: readSize, meter: meter)
                }
            } catch let error as AudioStreamError {
                o.error = error
                result.outcomes.append(o)
                continue
            }
            sink.flush()
            delivered = 0
            segmentStart = (Date(), meter.bytes)
            outcome = o
            let ended = try await consume(until: after)
            if var finished = outcome {
                finished.reachedEnd = ended
                result.outcomes.append(finished)
            }
            outcome = nil
        }
        result.statistics.bytesFetched = meter.bytes
        result.statistics.requests = meter.requests
        result.fileType = events.parser.fileFormat
        result.dataFormat = events.parser.dataFormat
        result.dataOffset = events.parser.dataOffset
        return result
    }
}
