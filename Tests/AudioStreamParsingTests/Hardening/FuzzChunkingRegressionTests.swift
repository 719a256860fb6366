import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// Fail cases of the `FuzzChunking` harness (`Fuzz/FailCases/FuzzChunking/`), replayed as the harness
/// does: the first byte seeds the chunk sizes, the rest is the stream.
@Suite("Fuzz regressions: chunking")
struct FuzzChunkingRegressionTests {
    /// The harness's chunk sizes (0…96 bytes) from the seed byte.
    static func chunkSizes(seed: UInt8) -> [Int] {
        var sizes: [Int] = []
        var x = UInt32(seed) | 1
        for _ in 0..<64 {
            x = x &* 1_103_515_245 &+ 12345
            sizes.append(Int((x >> 16) % 97))
        }
        return sizes
    }

    static func parse(_ stream: [UInt8], sizes: [Int]) -> EventLog {
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: stream)
        do {
            var offset = 0
            var i = 0
            while offset < stream.count {
                let n = min(sizes[i % sizes.count], stream.count - offset)
                try parser.parse(Array(stream[offset..<(offset + n)]))
                offset += n
                i += 1
            }
            try parser.finish()
        } catch {
            recorder.log.error = error
        }
        return recorder.log
    }

    @Test(
        "MP3 frames and ADTS frames mixed: the earliest confirmed frame decides the format in every chunking",
        arguments: ["mpeg-adts-mixed-detection.bin"])
    func failCase(_ name: String) throws {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        let data = [UInt8](try Data(contentsOf: url.appendingPathComponent("Fuzz/FailCases/FuzzChunking/\(name)")))
        let stream = Array(data.dropFirst())
        let whole = ParseRunner.run(stream, chunking: .whole)
        let chunked = Self.parse(stream, sizes: Self.chunkSizes(seed: data[0]))
        #expect(chunked == whole, "\(chunked.differences(from: whole))")
        // The MP3 frame at 416 comes before the first confirmed ADTS frame (2366).
        #expect(whole.lastValues[.fileFormat] == .fileFormat(.mp3))
        #expect(whole.lastValues[.dataOffset] == .dataOffset(416))
    }
}
