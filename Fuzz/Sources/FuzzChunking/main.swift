#if !FUZZ_SINGLE_MODULE
import AudioStreamParsing
#endif

/// libFuzzer entry for the chunking differential: the first byte seeds the chunk sizes; the rest is
/// the stream. The stream is parsed whole and then in fuzz-chosen chunks (including empty and
/// 1-byte chunks); the packets (offset, size, frames, bytes), the final properties and the error
/// must be identical, otherwise the harness traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunking(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 1 else { return 0 }
    let seed = data[0]
    let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let whole = Outcome.parse(stream, chunkSizes: [])
    var sizes: [Int] = []
    var x = UInt32(seed) | 1
    for _ in 0..<64 {
        x = x &* 1_103_515_245 &+ 12345
        sizes.append(Int((x >> 16) % 97))  // 0…96, so empty chunks happen too
    }
    let chunked = Outcome.parse(stream, chunkSizes: sizes)
    if whole != chunked {
        fatalError("chunking changed the outcome:\nwhole:   \(whole)\nchunked: \(chunked)")
    }
    return 0
}

struct Outcome: Equatable, CustomStringConvertible {
    var packets: [[Int64]] = []
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var properties = StreamProperties()
    var error: AudioStreamError?

    static func parse(_ stream: UnsafeRawBufferPointer, chunkSizes: [Int]) -> Outcome {
        var outcome = Outcome()
        let parser = AudioStreamParser()
        parser.packetsHandler = { batch in
            for (i, d) in batch.descriptions.enumerated() {
                outcome.packets.append([batch.fileOffset + d.startOffset, Int64(d.dataByteSize), Int64(d.variableFramesInPacket)])
                for b in batch.packetBytes(at: i) {
                    outcome.hash = (outcome.hash ^ UInt64(b)) &* 0x100_0000_01b3
                }
            }
        }
        do {
            if chunkSizes.isEmpty {
                try parser.parse(stream)
            } else {
                var offset = 0
                var i = 0
                while offset < stream.count {
                    let n = min(chunkSizes[i % chunkSizes.count], stream.count - offset)
                    try parser.parse(UnsafeRawBufferPointer(rebasing: stream[offset..<(offset + n)]))
                    offset += n
                    i += 1
                }
            }
            try parser.finish()
        } catch {
            outcome.error = error
        }
        outcome.properties = parser.properties
        return outcome
    }

    var description: String {
        "\(packets.count) packets, hash \(hash), error \(String(describing: error))"
    }
}
