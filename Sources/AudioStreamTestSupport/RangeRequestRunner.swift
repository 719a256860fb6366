import AudioStreamParsing

/// Drives a parser the way a caller with range access does (a file, HTTP range requests): whenever the
/// parser announces `requestedByteOffset`, feeding continues from that offset, flagged `.discontinuity`.
///
/// Used with `ParserOptions.allowsByteRangeRequests` (MP4 with the `moov` after the media data).
package enum RangeRequestRunner {
    /// Parses `input` cut by `chunking` (restarted at every requested offset), then finishes. At most
    /// `maxJumps` requests are followed (a parser that keeps asking is reported as an error in the log's
    /// `requestFailures`).
    package static func run(
        _ input: [UInt8], chunking: Chunking, hint: AudioFileType? = nil, options: ParserOptions,
        maxJumps: Int = 64
    ) -> (log: EventLog, jumps: [Int64]) {
        let parser = AudioStreamParser(fileTypeHint: hint, options: options)
        let recorder = EventRecorder(parser, input: input)
        let inner = parser.propertyListener
        var requested: Int64?
        parser.propertyListener = { p, id in
            inner?(p, id)
            if id == .requestedByteOffset { requested = p.requestedByteOffset }
        }
        var jumps: [Int64] = []
        var start = 0
        var flags: ParseFlags = []
        do {
            feeding: while true {
                for r in chunking.ranges(count: input.count - start) {
                    let range = (start + r.lowerBound)..<(start + r.upperBound)
                    try parser.parse(input[range], flags: flags)
                    flags = []
                    if let offset = requested {
                        requested = nil
                        // An offset past the end cannot be fetched: feed on (a forward request is reached by skipping).
                        guard offset >= 0, offset <= Int64(input.count) else { continue }
                        guard jumps.count < maxJumps else { break feeding }
                        jumps.append(offset)
                        start = Int(offset)
                        flags = .discontinuity
                        continue feeding
                    }
                }
                break
            }
            try parser.finish()
        } catch {
            recorder.log.error = error
        }
        return (recorder.log, jumps)
    }

    /// Runs `input` whole and in every chunking; returns the whole-input log and one message per chunking
    /// whose log differs from it, or whose packets' bytes are not the input's at their offsets.
    package static func verify(
        _ input: [UInt8], chunkings: [Chunking] = Chunking.standard, hint: AudioFileType? = nil,
        options: ParserOptions
    ) -> (reference: EventLog, jumps: [Int64], failures: [String]) {
        let (reference, jumps) = run(input, chunking: .whole, hint: hint, options: options)
        var failures: [String] = []
        if !reference.bytesMismatches.isEmpty {
            failures.append("whole: packet bytes differ from input: \(reference.bytesMismatches)")
        }
        for chunking in chunkings {
            if case .whole = chunking { continue }
            let (log, _) = run(input, chunking: chunking, hint: hint, options: options)
            if log != reference {
                failures.append("\(chunking): " + log.differences(from: reference).joined(separator: "; "))
            }
            if !log.bytesMismatches.isEmpty {
                failures.append("\(chunking): packet bytes differ from input: \(log.bytesMismatches)")
            }
        }
        return (reference, jumps, failures)
    }
}
