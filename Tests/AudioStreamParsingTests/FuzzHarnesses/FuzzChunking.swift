#if !FUZZ_SINGLE_MODULE
@testable import AudioStreamParsing
#endif

/// The chunking differential over every format (detection chooses; `FuzzChunking`), or over the
/// formats `only` names (`FuzzChunkingMatroska`).
///
/// Input layout: the stream, then an 8-byte control trailer (so a fixture with a trailer appended is a
/// good seed, and mutations of the stream keep the trailer):
///
/// ```
/// offset from the end  bytes  meaning
///   -8 … -5              4    chunk-size PRNG seed (little-endian)
///   -4                   1    bits 0-2: largest chunk [1, 2, 3, 7, 17, 96, 4096, 65536];
///                             bit 3: insert empty chunks (one call in four)
///   -3                   1    bit 7: a `.discontinuity` at chunk index (bits 0-6)
///   -2                   1    bytes dropped from the input just before the discontinuity (0-255)
///   -1                   1    bit 0: `bufferUnparsedMediaUpTo` 1 MiB (an MP4 `mdat` before its `moov` is
///                             held and parsed once the `moov` arrives); other bits reserved
/// ```
///
/// The stream is parsed whole, then in the chosen chunks. Without a discontinuity the event logs
/// (properties in order, packets with index/offset/size/frames/bytes, diagnostics) and the errors must
/// be equal. With one, the events delivered before it must be a prefix of the whole parse's events,
/// and after it every packet must still be the input's bytes at its offset (shifted by the dropped
/// bytes; when no packet came before it, the flag is ignored by contract and the packets are the bytes of
/// the input without the dropped ones) and the other invariants of `FuzzRecorder` must hold. Otherwise the
/// harness fails.
enum FuzzChunking {
    static let trailerCount = 8
    static let maxChunk = [1, 2, 3, 7, 17, 96, 4096, 65536]

    struct Outcome {
        var events: [FuzzEvent]
        var error: AudioStreamError?
        /// Events delivered before the discontinuity (nil: none happened).
        var beforeDiscontinuity: Int?
    }

    static func run(_ data: [UInt8], only: Set<AudioFileType>? = nil) throws {
        guard data.count >= trailerCount else { return }
        let c = Array(data[(data.count - trailerCount)...])
        let stream = Array(data[..<(data.count - trailerCount)])
        var options = FuzzHarness.options(only: only)
        if c[7] & 1 != 0 { options.bufferUnparsedMediaUpTo = 1 << 20 }
        let whole = try parse(stream, chunks: [stream.count], discontinuityAt: nil, dropped: 0, options: options)
        var rng = UInt64(c[0]) | UInt64(c[1]) << 8 | UInt64(c[2]) << 16 | UInt64(c[3]) << 24
        let largest = maxChunk[Int(c[4] & 7)]
        let empties = c[4] & 8 != 0
        var chunks: [Int] = []
        var total = 0
        while total < stream.count {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let r = Int(truncatingIfNeeded: rng >> 33)
            if empties && r % 4 == 0 {
                chunks.append(0)
                continue
            }
            let n = 1 + (r >> 2) % largest
            chunks.append(n)
            total += n
        }
        let discontinuityAt = c[5] & 0x80 != 0 ? Int(c[5] & 0x7F) : nil
        let chunked = try parse(
            stream, chunks: chunks, discontinuityAt: discontinuityAt, dropped: Int(c[6]), options: options)
        if let k = chunked.beforeDiscontinuity {
            let prefix = Array(chunked.events[..<k])
            if !isPrefix(prefix, of: whole.events) {
                throw FuzzCheckFailure("before the discontinuity: " + firstDifference(prefix, whole.events))
            }
        } else if chunked.events != whole.events || chunked.error != whole.error {
            var message = "chunking changed the outcome: " + firstDifference(chunked.events, whole.events)
            if chunked.error != whole.error {
                message += "; error \(String(describing: chunked.error)) ≠ whole \(String(describing: whole.error))"
            }
            throw FuzzCheckFailure(message)
        }
    }

    /// Parses `stream` in `chunks` (sizes; the last may run past the end), with a `.discontinuity` on
    /// chunk `discontinuityAt`, before which `dropped` bytes of the input are left out.
    static func parse(
        _ stream: [UInt8], chunks: [Int], discontinuityAt: Int?, dropped: Int, options: ParserOptions
    ) throws -> Outcome {
        let parser = AudioStreamParser(options: options)
        let recorder = FuzzRecorder(parser, input: stream)
        var outcome = Outcome(events: [], error: nil, beforeDiscontinuity: nil)
        var offset = 0
        do {
            for (i, n) in chunks.enumerated() {
                var flags: ParseFlags = []
                if i == discontinuityAt {
                    let skip = min(dropped, stream.count - offset)
                    if recorder.packetCount == 0 {
                        // No packet yet: the flag is ignored (`ParseFlags.discontinuity`: AudioToolbox clients
                        // flag every call until the first packet), so the parser takes what follows as the
                        // next bytes, and a packet it was gathering spans the gap: the stream it sees is the
                        // input without the dropped bytes.
                        recorder.dropUnannounced(skip, at: offset)
                    } else {
                        recorder.shift += Int64(skip)
                        recorder.lastPacketEnd = -1
                        recorder.breakRun = true
                    }
                    offset += skip
                    outcome.beforeDiscontinuity = recorder.events.count
                    flags = .discontinuity
                }
                let end = min(stream.count, offset + n)
                try stream[offset..<end].withUnsafeBytes { try parser.parse($0, flags: flags) }
                offset = end
            }
            try parser.finish()
        } catch let error as AudioStreamError {
            outcome.error = error
        }
        try recorder.throwIfFailed(outcome.beforeDiscontinuity == nil ? "parse" : "parse with a discontinuity")
        try FuzzHarness.check(
            outcome.beforeDiscontinuity != nil || recorder.packetCount == parser.parsedPacketCount,
            "\(recorder.packetCount) packets delivered but parsedPacketCount is \(parser.parsedPacketCount)")
        outcome.events = recorder.events
        return outcome
    }

    /// True when `prefix` starts `events`; its last packet run may be cut short (the run went on after
    /// the discontinuity in the whole parse).
    static func isPrefix(_ prefix: [FuzzEvent], of events: [FuzzEvent]) -> Bool {
        guard prefix.count <= events.count else { return false }
        guard let last = prefix.last else { return true }
        guard prefix.dropLast().elementsEqual(events[..<(prefix.count - 1)]) else { return false }
        let other = events[prefix.count - 1]
        if case .packets(let i, let o, let s, let f, let n) = last, case .packets(i, o, s, f, let m) = other {
            return n <= m
        }
        return last == other
    }

    static func firstDifference(_ a: [FuzzEvent], _ b: [FuzzEvent]) -> String {
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i].description : "<none>"
            let y = i < b.count ? b[i].description : "<none>"
            if i >= a.count || i >= b.count || a[i] != b[i] {
                return "event #\(i): chunked \(x) ≠ whole \(y) (\(a.count) vs \(b.count) events)"
            }
        }
        return "no event differs"
    }
}
