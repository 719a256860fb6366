import AudioStreamParsing
import Foundation

// parse-count FILE [CHUNK_BYTES|whole] [REPEATS]
//
// Parses FILE from memory with AudioStreamParser (CHUNK_BYTES per `parse` call, default 65536, or the
// whole file in one call) REPEATS times (default 1) and prints the packets and packet bytes the
// packets handler saw, and the best time of the repeats as packets/s and MB/s.
//
// A small, dynamically linked executable: valgrind's callgrind runs it (it refuses the statically
// linked release `audioinspect`): from Benchmarks/, `swift build -c release --product parse-count`, then
// `valgrind --tool=callgrind .build/release/parse-count FILE` counts the parser's instructions (plus
// reading the file into memory) without the CLI around them (docs/performance.md).

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: parse-count FILE [CHUNK_BYTES|whole] [REPEATS]\n".utf8))
    exit(64)
}
let chunkSize = arguments.count > 2 ? (arguments[2] == "whole" ? Int.max : Int(arguments[2]) ?? 65536) : 65536
let repeats = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 1) : 1
guard let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("parse-count: cannot read \(arguments[1])\n".utf8))
    exit(66)
}
let input = [UInt8](data)

var best = Double.infinity
var packets = 0
var bytes = 0
for _ in 0..<repeats {
    let parser = AudioStreamParser()
    var count = 0
    var sum = 0
    parser.packetsHandler = { batch in
        count &+= batch.packetCount
        if let size = batch.constantPacketSize {
            sum &+= size &* batch.packetCount
        } else {
            for description in batch.descriptions { sum &+= Int(description.dataByteSize) }
        }
    }
    let start = DispatchTime.now().uptimeNanoseconds
    do {
        try input.withUnsafeBytes { buffer in
            var offset = 0
            repeat {
                let end = min(offset + min(chunkSize, buffer.count - offset), buffer.count)
                try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                offset = end
            } while offset < buffer.count
        }
        try parser.finish()
    } catch {
        FileHandle.standardError.write(Data("parse-count: \(error)\n".utf8))
        exit(1)
    }
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    packets = count
    bytes = sum
}
let chunkLabel = chunkSize == Int.max ? "whole" : "\(chunkSize)-byte chunks"
let milliseconds = String(format: "%.2f", best * 1e3)
let packetRate = String(format: "%.2f", Double(packets) / best / 1e6)
let byteRate = String(format: "%.0f", Double(input.count) / best / 1e6)
print("\(packets) packets, \(bytes) bytes; \(chunkLabel), best of \(repeats): \(milliseconds) ms, ", terminator: "")
print("\(packetRate) M packets/s, \(byteRate) MB/s")
