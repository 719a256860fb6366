import AudioStreamParsing

/// What a parse delivered to its packets handler.
struct ParseTotals: Equatable, CustomStringConvertible {
    var packets: Int
    var bytes: Int

    var description: String { "\(packets) packets, \(bytes) bytes" }
}

/// The minimal real consumer: counts the packets and sums their sizes (constant-size batches, e.g. PCM,
/// by multiplication, as a consumer that honours `constantPacketSize` would).
final class PacketCounter {
    var totals = ParseTotals(packets: 0, bytes: 0)

    func consume(_ batch: PacketBatch) {
        let count = batch.packetCount
        totals.packets &+= count
        if let size = batch.constantPacketSize {
            totals.bytes &+= size &* count
        } else {
            var sum = 0
            for description in batch.descriptions { sum &+= Int(description.dataByteSize) }
            totals.bytes &+= sum
        }
    }
}

/// Parses `input` from memory in chunks of `chunkSize` bytes (the whole input at once when it is larger),
/// finishes, and returns what the packets handler received. Throws when the parser fails or when its own
/// packet count disagrees with the handler's.
@inline(never)
func parse(_ input: UnsafeRawBufferPointer, chunkSize: Int) throws -> ParseTotals {
    let parser = AudioStreamParser()
    let counter = PacketCounter()
    parser.packetsHandler = { batch in counter.consume(batch) }
    if chunkSize >= input.count {
        try parser.parse(input)
    } else if chunkSize == 1, let base = input.baseAddress {
        for offset in 0..<input.count {
            try parser.parse(UnsafeRawBufferPointer(start: base + offset, count: 1))
        }
    } else {
        var offset = 0
        while offset < input.count {
            let end = min(offset + chunkSize, input.count)
            try parser.parse(UnsafeRawBufferPointer(rebasing: input[offset..<end]))
            offset = end
        }
    }
    try parser.finish()
    guard Int64(counter.totals.packets) == parser.parsedPacketCount else {
        throw BenchError("handler saw \(counter.totals.packets) packets, parser counted \(parser.parsedPacketCount)")
    }
    return counter.totals
}

/// The reference totals of `input`: one whole-buffer parse, computed once per input.
func expectedTotals(_ input: Inputs.Loaded) throws -> ParseTotals {
    if let expected = input.expected { return expected }
    let totals = try parse(input.buffer, chunkSize: Int.max)
    guard totals.packets > 0 else { throw BenchError("\(input.path): no packets parsed") }
    input.expected = totals
    return totals
}

/// Checks a chunked parse against the whole-buffer parse, so that a broken parse cannot look fast.
func verify(_ totals: ParseTotals, _ input: Inputs.Loaded, chunkSize: Int) throws {
    let expected = try expectedTotals(input)
    guard totals == expected else {
        throw BenchError("\(input.path) at \(chunkSize)-byte chunks: \(totals), whole-buffer parse: \(expected)")
    }
}
