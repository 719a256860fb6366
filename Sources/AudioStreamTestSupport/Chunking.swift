import AudioStreamParsing

/// How an input is cut into chunks before being fed to the parser.
package enum Chunking: CustomStringConvertible, Sendable {
    /// One chunk with everything.
    case whole
    /// One byte per chunk.
    case bytewise
    /// Chunks of a fixed size.
    case fixed(Int)
    /// Seeded random sizes from 1 byte to `maxSize`, with empty chunks inserted.
    case random(seed: UInt64, maxSize: Int)

    package var description: String {
        switch self {
        case .whole: return "whole"
        case .bytewise: return "1-byte"
        case .fixed(let n): return "\(n)-byte"
        case .random(let seed, let max): return "random(seed \(seed), ≤\(max))"
        }
    }

    /// The standard matrix: whole, one byte at a time, and three seeded random chunkings up to 64 KiB.
    package static let standard: [Chunking] = [
        .whole, .bytewise, .random(seed: 1, maxSize: 64 * 1024), .random(seed: 2, maxSize: 4096),
        .random(seed: 3, maxSize: 17),
    ]

    /// The chunk ranges for an input of `count` bytes.
    package func ranges(count: Int) -> [Range<Int>] {
        switch self {
        case .whole:
            return [0..<count]
        case .bytewise:
            return (0..<count).map { $0..<($0 + 1) }
        case .fixed(let n):
            return stride(from: 0, to: count, by: max(1, n)).map { $0..<min(count, $0 + max(1, n)) }
        case .random(let seed, let maxSize):
            var rng = SplitMix64(seed: seed)
            var out: [Range<Int>] = []
            var i = 0
            while i < count {
                if rng.next() % 8 == 0 { out.append(i..<i) }
                let n = 1 + Int(rng.next() % UInt64(max(1, maxSize)))
                out.append(i..<min(count, i + n))
                i += n
            }
            out.append(count..<count)
            return out
        }
    }
}

/// A small deterministic PRNG (SplitMix64) so chunkings are reproducible on every platform.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Records a parser's callbacks into an `EventLog`.
package final class EventRecorder {
    package var log = EventLog()
    private let input: [UInt8]?
    private let inputBase: Int64
    private var oggBodies: OggPageBodies?
    private var tsPayloads: TSPayloadBytes??

    /// Installs callbacks on `parser`. `input` (optional) is the whole stream: packets are checked
    /// against it at their absolute offsets (minus `inputBase`).
    package init(_ parser: AudioStreamParser, input: [UInt8]? = nil, inputBase: Int64 = 0) {
        self.input = input
        self.inputBase = inputBase
        parser.propertyListener = { [unowned self] parser, id in
            if let v = try? parser.value(of: id) { log.entries.append(.property(v)) }
        }
        parser.diagnosticHandler = { [unowned self] d in log.entries.append(.diagnostic(d)) }
        parser.packetsHandler = { [unowned self] batch in record(batch) }
    }

    private func record(_ batch: PacketBatch) {
        for (i, d) in batch.descriptions.enumerated() {
            let offset = batch.fileOffset + d.startOffset
            log.appendPacket(
                offset: offset, size: Int(d.dataByteSize), frames: d.variableFramesInPacket,
                index: batch.firstPacketIndex + Int64(i))
            let bytes = batch.packetBytes(at: i)
            log.hash(bytes)
            if let input {
                let start = Int(offset - inputBase)
                if start < 0 || start + bytes.count > input.count
                    || !input[start..<(start + bytes.count)].elementsEqual(bytes)
                {
                    // An Ogg packet continued across pages: its pieces lie in consecutive page bodies.
                    if oggBodies == nil { oggBodies = OggPageBodies(input) }
                    if start >= 0, oggBodies?.matches(input, start: start, bytes: bytes) == true { continue }
                    // A frame of a transport stream: its pieces lie in consecutive payloads of its PID.
                    if tsPayloads == nil { tsPayloads = .some(TSPayloadBytes(input)) }
                    if let ts = tsPayloads ?? nil, ts.contains(start: offset - inputBase, bytes: bytes) { continue }
                    if log.bytesMismatches.count < 5 {
                        log.bytesMismatches.append(
                            "packet \(batch.firstPacketIndex + Int64(i)) at \(offset) size \(bytes.count)")
                    }
                }
            }
        }
    }
}

/// Runs the parser over an input and records the normalised event log.
package enum ParseRunner {
    /// Parses `input` cut by `chunking`, then finishes.
    ///
    /// - Parameters:
    ///   - checkBytes: also check that every packet's bytes equal `input` at the packet's claimed
    ///     absolute offset (true for every container whose packets are contiguous file ranges).
    package static func run(
        _ input: [UInt8], chunking: Chunking, hint: AudioFileType? = nil, options: ParserOptions = ParserOptions(),
        checkBytes: Bool = true
    ) -> EventLog {
        let parser = AudioStreamParser(fileTypeHint: hint, options: options)
        let recorder = EventRecorder(parser, input: checkBytes ? input : nil)
        do {
            for r in chunking.ranges(count: input.count) {
                try parser.parse(input[r])
            }
            try parser.finish()
        } catch {
            recorder.log.error = error
        }
        return recorder.log
    }
}

/// Checks that every chunking of an input gives the same normalised event log.
package enum ChunkingVerifier {
    /// Parses `input` whole and in every chunking of `chunkings`; returns one message per chunking
    /// whose log differs from the whole-input log (empty when all agree), plus any packet whose bytes
    /// were not the input's bytes at its offset.
    package static func verify(
        _ input: [UInt8], chunkings: [Chunking] = Chunking.standard, hint: AudioFileType? = nil,
        options: ParserOptions = ParserOptions(), checkBytes: Bool = true
    ) -> (reference: EventLog, failures: [String]) {
        let reference = ParseRunner.run(input, chunking: .whole, hint: hint, options: options, checkBytes: checkBytes)
        var failures: [String] = []
        if !reference.bytesMismatches.isEmpty {
            failures.append("whole: packet bytes differ from input: \(reference.bytesMismatches)")
        }
        for chunking in chunkings {
            if case .whole = chunking { continue }
            let log = ParseRunner.run(input, chunking: chunking, hint: hint, options: options, checkBytes: checkBytes)
            if log != reference {
                failures.append("\(chunking): " + log.differences(from: reference).joined(separator: "; "))
            }
            if !log.bytesMismatches.isEmpty {
                failures.append("\(chunking): packet bytes differ from input: \(log.bytesMismatches)")
            }
        }
        return (reference, failures)
    }
}
