import AudioStreamParsing
import AudioStreamTestSupport

/// A source of byte chunks that counts how often it was pulled (from the consumer's side: the
/// iterator's own count is checked against it).
struct CountingChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    typealias Failure = Never

    /// Pulls so far, shared by every iterator of this source.
    final class Counter: @unchecked Sendable {
        var pulls = 0
    }

    let chunks: [[UInt8]]
    /// When true, the chunks repeat forever.
    var cycles = false
    let counter = Counter()

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: [[UInt8]]
        let cycles: Bool
        let counter: Counter
        var index = 0

        mutating func next() async -> [UInt8]? {
            guard !chunks.isEmpty, index < chunks.count || cycles else { return nil }
            counter.pulls += 1
            let chunk = chunks[index % chunks.count]
            index += 1
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks, cycles: cycles, counter: counter) }
}

/// One normalised event: property, diagnostic, one packet, title, error, or a packet whose bytes were wrong.
enum Line: Equatable, CustomStringConvertible {
    case property(AudioStreamPropertyValue)
    case diagnostic(ParserDiagnostic)
    case packet(index: Int64, offset: Int64, size: Int, frames: UInt32)
    case title(ICYMetadata, atPacket: Int64)
    case error(String)
    case bytesDiffer(Int64)

    var description: String {
        switch self {
        case .property(let v): return "property \(v.id): \(v)"
        case .diagnostic(let d): return "diagnostic \(d)"
        case .packet(let i, let o, let s, let f): return "packet \(i) @\(o) size \(s) frames \(f)"
        case .title(let m, let p): return "title \(m) at \(p)"
        case .error(let e): return "error \(e)"
        case .bytesDiffer(let i): return "bytes differ for packet \(i)"
        }
    }
}

enum StreamingTestSupport {
    /// The first difference between two line lists, or `nil` when they are equal.
    static func firstDifference(_ a: [Line], _ b: [Line]) -> String? {
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i].description : "<none>"
            let y = i < b.count ? b[i].description : "<none>"
            if i >= a.count || i >= b.count || a[i] != b[i] {
                return "#\(i) of \(a.count)/\(b.count): \(x)  ≠  \(y)"
            }
        }
        return nil
    }

    /// Cuts `bytes` by `chunking` into owned chunks.
    static func chunks(_ bytes: [UInt8], _ chunking: Chunking) -> [[UInt8]] {
        chunking.ranges(count: bytes.count).map { Array(bytes[$0]) }
    }

    /// An `AsyncStream` that yields `chunks` and finishes.
    static func stream(_ chunks: [[UInt8]]) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }

    /// One line per property, diagnostic and packet (packets expanded), as the synchronous `EventLog`
    /// of `ParseRunner` reports them.
    static func lines(_ log: EventLog) -> [Line] {
        var out: [Line] = []
        for entry in log.entries {
            switch entry {
            case .property(let v): out.append(.property(v))
            case .diagnostic(let d): out.append(.diagnostic(d))
            case .packets(let r):
                for i in 0..<r.count {
                    out.append(
                        .packet(
                            index: r.firstPacketIndex + Int64(i), offset: r.fileOffset + Int64(i * r.size),
                            size: r.size, frames: r.frames))
                }
            }
        }
        if let error = log.error { out.append(.error("\(error)")) }
        return out
    }

    /// The same lines for asynchronous events; packet bytes are checked against `input` (mismatches
    /// are appended as lines so a comparison fails).
    static func lines(_ events: [AudioStreamEvent], error: (any Error)?, input: [UInt8]) -> [Line] {
        var out: [Line] = []
        // A frame of a transport stream is not one range of the file: its pieces lie in its PID's payloads
        // (an LATM payload: at some bit of its LOAS frame).
        let tsPayloads = TSPayloadBytes(input)
        for event in events {
            switch event {
            case .property(let v): out.append(.property(v))
            case .diagnostic(let d): out.append(.diagnostic(d))
            case .packets(let batch):
                for (i, d) in batch.descriptions.enumerated() {
                    let offset = batch.fileOffset + d.startOffset
                    out.append(
                        .packet(
                            index: batch.firstPacketIndex + Int64(i), offset: offset, size: Int(d.dataByteSize),
                            frames: d.variableFramesInPacket))
                    let start = Int(offset)
                    let bytes = batch.packetBytes(at: i)
                    if start < 0 || start + bytes.count > input.count
                        || !input[start..<(start + bytes.count)].elementsEqual(bytes)
                    {
                        if tsPayloads?.contains(start: offset, bytes: bytes) == true { continue }
                        out.append(.bytesDiffer(batch.firstPacketIndex + Int64(i)))
                    }
                }
            case .streamTitle(let m, let packet): out.append(.title(m, atPacket: packet))
            case .endOfStream: break
            }
        }
        if let error { out.append(.error("\(error)")) }
        return out
    }

    /// Collects every event of `sequence` and the error that ended it, if any.
    static func collect<S: AsyncSequence>(_ sequence: S) async -> (events: [AudioStreamEvent], error: (any Error)?)
    where S.Element == AudioStreamEvent {
        var events: [AudioStreamEvent] = []
        do {
            for try await event in sequence { events.append(event) }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }
}
