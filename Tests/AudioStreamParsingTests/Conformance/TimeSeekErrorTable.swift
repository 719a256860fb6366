import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// Measures the error of seeks by time per format on long inputs (the table in docs/streaming.md,
/// "Seeking by time"). Opt-in: set `SEEK_ERROR_INPUTS` to the directory `Benchmarks/make-inputs.sh`
/// writes (its 60 s cuts), e.g.
/// `SEEK_ERROR_INPUTS=Benchmarks/.inputs swift test --filter TimeSeekErrorTable`.
///
/// A player that fetched the first 16 KiB (header and first packets) seeks to 10, 30, 50, 70 and 90 %
/// of the duration and feeds from the returned offset to the end. The landing is the first packet
/// delivered, found in a full parse by its offset; its error is its first frame minus the first frame
/// of the packet the seek named (`startPacket`), in packets and milliseconds. Every estimated landing
/// must be labelled (`isIndexEstimated`) unless the stream told its true index.
@Suite("Seek by time: measured error", .enabled(if: ProcessInfo.processInfo.environment["SEEK_ERROR_INPUTS"] != nil))
struct TimeSeekErrorTable {
    static let files = [
        "source-60s.wav", "aiff-60s.aiff", "caf-60s.caf", "m4a-60s.m4a", "mp3cbr-60s.mp3", "mp3vbr-60s.mp3",
        "adts-60s.aac", "flac-60s.flac", "opus-60s.opus", "vorbis-60s.ogg",
    ]

    @Test(arguments: files)
    func measure(_ name: String) throws {
        let directory = try #require(ProcessInfo.processInfo.environment["SEEK_ERROR_INPUTS"])
        let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
        let input = [UInt8](try Data(contentsOf: url))
        let full = try SeekTests.fullParse(input)
        let duration = try #require(full.parser.estimatedDuration)
        let rate = full.dataFormat.sampleRate
        var rows: [String] = []
        var worstPackets: Int64 = 0
        var worstMilliseconds = 0.0
        var estimated = 0
        var corrected = 0
        for percent in [10, 30, 50, 70, 90] {
            let seconds = Double(duration.frames) * Double(percent) / 100 / rate
            let parser = AudioStreamParser()
            let collector = TimeSeekTests.Collector(parser)
            try parser.parse(input.prefix(16384))
            let result = try parser.seek(toTime: seconds)
            collector.packets.removeAll()
            let from = Int(min(result.target.absoluteOffset, Int64(input.count)))
            let error = parser.feed(input[from...], chunking: .fixed(65536), firstFlags: .discontinuity)
            #expect(error == nil, "\(name): \(String(describing: error))")
            let first = try #require(collector.packets.first, "\(name) at \(percent) %: no packet")
            let k = try #require(full.packets.firstIndex { $0.offset == first.offset && $0.size == first.size })
            let start = Int(result.startPacket)
            let errorPackets = Int64(k - start)
            let errorMilliseconds = Double(full.startFrames[k] - full.startFrames[start]) / rate * 1000
            if result.isEstimated { estimated += 1 }
            if first.index != Int64(k) {
                #expect(first.isIndexEstimated, "\(name) at \(percent) %: wrong index \(first.index) not labelled")
            }
            if parser.seekLanding?.trueIndex == Int64(k), result.isEstimated { corrected += 1 }
            worstPackets = max(worstPackets, abs(errorPackets))
            worstMilliseconds = max(worstMilliseconds, abs(errorMilliseconds))
            rows.append("\(percent)%: \(start)→\(k) (\(String(format: "%+.1f", errorMilliseconds)) ms)")
        }
        print(
            "SEEK-ERROR | \(name) | \(full.packets.count) | \(rows.joined(separator: ", ")) | \(worstPackets) | "
                + String(format: "%.1f", worstMilliseconds)
                + " | \(estimated)/5 estimated, \(corrected) true index found")
    }

    /// The same seeks refined by byte-range requests (`allowsByteRangeRequests`; docs/streaming.md, "Refined
    /// time seeks"): the requests are followed from the file's bytes; the row gives the landing's error
    /// and the number of requests. `ts-60s.ts`: the M4A's AAC remuxed (`ffmpeg -i m4a-60s.m4a -c copy -f
    /// mpegts ts-60s.ts`), when present.
    @Test(arguments: ["opus-60s.opus", "vorbis-60s.ogg", "ts-60s.ts"])
    func measureRefined(_ name: String) throws {
        let directory = try #require(ProcessInfo.processInfo.environment["SEEK_ERROR_INPUTS"])
        let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url) else { return }
        let input = [UInt8](data)
        let full = try SeekTests.fullParse(input)
        let duration = try #require(full.parser.estimatedDuration)
        let rate = full.dataFormat.sampleRate
        var rows: [String] = []
        var worstMilliseconds = 0.0
        var mostRequests = 0
        for percent in [10, 30, 50, 70, 90] {
            let seconds = Double(duration.frames) * Double(percent) / 100 / rate
            let parser = AudioStreamParser(options: ParserOptions(allowsByteRangeRequests: true))
            let collector = TimeSeekTests.Collector(parser)
            try parser.parse(input.prefix(16384))
            let result = try parser.seek(toTime: seconds)
            collector.packets.removeAll()
            let served = RefinedTimeSeekTests.serve(
                parser, input, from: result.target.absoluteOffset, chunking: .fixed(65536))
            #expect(served.error == nil, "\(name): \(String(describing: served.error))")
            let first = try #require(collector.packets.first, "\(name) at \(percent) %: no packet")
            let k = try #require(full.packets.firstIndex { $0.offset == first.offset && $0.size == first.size })
            // The error against the frame the search aimed at (the first frame of the first packet to decode).
            let target = result.frame + result.primingFrames - result.framesToDiscard
            let errorMilliseconds = Double(full.startFrames[k] - target) / rate * 1000
            worstMilliseconds = max(worstMilliseconds, abs(errorMilliseconds))
            mostRequests = max(mostRequests, served.jumps.count)
            rows.append(
                "\(percent)%: \(result.startPacket)→\(k) (\(String(format: "%+.1f", errorMilliseconds)) ms, "
                    + "\(served.jumps.count) requests)")
        }
        print(
            "SEEK-REFINED | \(name) | \(full.packets.count) | \(rows.joined(separator: ", ")) | "
                + String(format: "%.1f", worstMilliseconds) + " ms | \(mostRequests) requests at most")
    }
}
