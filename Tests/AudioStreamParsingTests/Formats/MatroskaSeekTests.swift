import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// Seeking in Matroska and WebM (docs/formats/matroska.md, "Seeking and translations"): exact in time from
/// the Cues (before the Clusters, or after them and fetched through the SeekHead with a byte range
/// request), estimated from the Duration and bit rate without them and placed by the next Cluster's
/// Timestamp. Expected values come from the oracles beside the fixtures: ffprobe's packets with their pts
/// (`<fixture>.pts.txt`) and mkvinfo's element positions (`<fixture>.mkvinfo.txt`), both written by
/// Fixtures/make-mkv-oracles.sh.
@Suite("Matroska seeking")
struct MatroskaSeekTests {
    /// ffprobe's packets (pts in ms, from the stream's time base: the TimestampScale; size; pos) and
    /// mkvinfo's Clusters (position and Timestamp in ms) and Cues position.
    struct Reference {
        var pts: [Double] = []
        var sizes: [Int] = []
        var pos: [Int64] = []
        var clusters: [(at: Int64, ms: Int64)] = []
        var cuesAt: Int64?
        var sampleRate: Double = 0

        init(_ path: String) throws {
            let fixture = FixtureCatalog.fixture(path)
            let info = try String(contentsOfFile: fixture.absolutePath + ".mkvinfo.txt", encoding: .utf8)
            var scale = 1_000_000.0
            for line in info.split(separator: "\n") where line.hasPrefix("| + Timestamp scale: ") {
                scale = Double(line.split(separator: " ")[4]) ?? scale
            }
            let pts = try String(contentsOfFile: fixture.absolutePath + ".pts.txt", encoding: .utf8)
            for line in pts.split(separator: "\n") {
                let f = line.split(separator: ",").compactMap { Int64($0) }
                guard f.count == 3 else { continue }
                self.pts.append(Double(f[0]) * scale / 1e6)
                sizes.append(Int(f[1]))
                pos.append(f[2])
            }
            var clusterAt: Int64?
            for line in info.split(separator: "\n").map(String.init) {
                if line.hasPrefix("|+ Cluster at ") { clusterAt = Int64(line.split(separator: " ")[3]) }
                if line.hasPrefix("|+ Cues at ") { cuesAt = Int64(line.split(separator: " ")[3]) }
                if line.hasPrefix("| + Cluster timestamp: "), let at = clusterAt {
                    clusters.append((at, Self.milliseconds(line.split(separator: " ")[4])))
                    clusterAt = nil
                }
                if line.contains("Sampling frequency: "), sampleRate == 0 {
                    sampleRate = Double(line.split(separator: " ")[4]) ?? 0
                }
            }
        }

        /// "00:00:01.481000000" → 1481.
        static func milliseconds(_ s: Substring) -> Int64 {
            let parts = s.split(separator: ":")
            let seconds = (Double(parts[0]) ?? 0) * 3600 + (Double(parts[1]) ?? 0) * 60 + (Double(parts[2]) ?? 0)
            return Int64((seconds * 1000).rounded())
        }

        /// The first packet of the Cluster at `at`.
        func firstPacket(inClusterAt at: Int64) -> Int? { pos.firstIndex { $0 > at } }

        /// The packet whose frame starts at `offset`: ffprobe's `pos` is its block's body (the track number
        /// first), ours the frame's first byte (docs/testing.md, "Matroska"): the last `pos` at or before it.
        /// The frames of a laced block share its `pos`: the block's first frame is the first with that `pos`.
        func packet(at offset: Int64) -> Int? {
            guard let last = pos.last(where: { $0 <= offset }) else { return nil }
            return pos.firstIndex(of: last)
        }

        /// A packet's decoded frame from its pts (the first packet is frame 0: pts minus the first pts).
        func frame(ofPacket j: Int) -> Double { (pts[j] - pts[0]) * sampleRate / 1000 }
    }

    static let chunkings: [Chunking] = [.whole, .bytewise, .random(seed: 4, maxSize: 700), .fixed(4096)]

    /// Feeds the header and the first Cluster's first `extra` bytes, following byte range requests (the
    /// Cues after the Clusters, then the first Cluster again).
    static func feedHead(
        _ parser: AudioStreamParser, _ input: [UInt8], firstCluster: Int64, extra: Int, chunking: Chunking
    ) throws {
        var start = 0
        var end = Int(firstCluster) + extra
        var flags: ParseFlags = []
        for _ in 0..<4 {
            for r in chunking.ranges(count: end - start) {
                try parser.parse(input[(start + r.lowerBound)..<(start + r.upperBound)], flags: flags)
                if !r.isEmpty { flags = [] }
                if parser.pendingByteRequest != nil { break }
            }
            guard let request = parser.pendingByteRequest else { return }
            start = Int(request)
            end = request <= firstCluster ? Int(firstCluster) + extra : input.count
            flags = .discontinuity
        }
    }

    /// Seeks to `seconds`, feeds from the target, and checks the landing against the oracles; returns the
    /// target and the oracle packet the landing delivered first.
    static func seekAndFeed(
        _ parser: AudioStreamParser, _ recorder: EventRecorder, _ input: [UInt8], _ ref: Reference,
        seconds: Double, chunking: Chunking, context: String
    ) throws -> (FrameSeekTarget, Int)? {
        let target = try parser.seek(toTime: seconds)
        let rate = ref.sampleRate
        let decodedTarget = Int64((seconds * rate).rounded()) + target.primingFrames
        #expect(
            (parser.packetToFrame(target.startPacket)?.value ?? -1) + target.framesToDiscard == decodedTarget,
            "\(context): start frame + frames to discard")
        recorder.log = EventLog()
        let start = Int(target.target.absoluteOffset)
        #expect(parser.feed(input[start...], chunking: chunking, firstFlags: .discontinuity) == nil, "\(context)")
        let got = recorder.log.indexedPackets
        guard let first = got.first, let j = ref.packet(at: first.offset) else {
            Issue.record("\(context): no packet after landing at \(start)")
            return nil
        }
        #expect(ref.pos[j] >= Int64(start), "\(context): first packet at \(first.offset), oracle \(ref.pos[j])")
        #expect(got.map(\.size) == Array(ref.sizes[j...]), "\(context): sizes")
        #expect(first.index == target.startPacket, "\(context): first index")
        // The landing's frame: exact (no estimate left), the oracle's pts to the timestamp precision (1 ms).
        let frame = parser.packetToFrame(first.index)
        #expect(frame?.isEstimated == false, "\(context): landing frame estimated")
        #expect(
            abs(Double(frame?.value ?? -1_000_000) - ref.frame(ofPacket: j)) <= rate / 1000,
            "\(context): landing frame \(String(describing: frame)), oracle pts \(ref.pts[j]) ms")
        return (target, j)
    }

    static let cueFixtures = [
        "mkv/opus-48000-2ch-cues-front.webm", "mkv/opus-48000-2ch-cues-end.webm", "mkv/flac-22050-1ch-cues-end.mka",
    ]

    @Test(arguments: cueFixtures, [0, 1, 2, 3])
    func seekFromCuesLandsOnTheirCluster(_ path: String, _ chunkingIndex: Int) throws {
        let input = try FixtureCatalog.fixture(path).bytes()
        let ref = try Reference(path)
        let chunking = Self.chunkings[chunkingIndex]
        let parser = AudioStreamParser(options: ParserOptions(allowsByteRangeRequests: true))
        let recorder = EventRecorder(parser, input: input)
        let firstCluster = try #require(ref.clusters.first).at
        try Self.feedHead(parser, input, firstCluster: firstCluster, extra: 300, chunking: chunking)
        #expect(parser.dataOffset == firstCluster, "\(path): dataOffset")
        if let cues = ref.cuesAt, cues > firstCluster {
            #expect(parser.requestedByteOffset == firstCluster, "\(path): back to the first Cluster after the Cues")
        }
        let constant = path.contains("flac")
        let preRoll = path.contains("opus") ? 80.0 : 0
        let duration = (ref.pts.last! - ref.pts[0]) / 1000
        for seconds in [duration * 0.3, duration * 0.55, duration * 0.9, 0.0] {
            let context = "\(path) [\(chunking)] seek to \(seconds) s"
            guard
                let (target, j) = try Self.seekAndFeed(
                    parser, recorder, input, ref, seconds: seconds, chunking: chunking, context: context)
            else { continue }
            // Landed on the Cluster a cue point names: the last one at or before the target minus the pre-roll.
            let start = target.target.absoluteOffset
            let clusterIndex = ref.clusters.firstIndex { $0.at == start }
            // A seek to a packet an earlier landing delivered (every seek after the first here) lands on its
            // block: the first packet's block body follows the landing by the block's header (at most 9 bytes).
            let onBlock = ref.pos[j] > start && ref.pos[j] - start <= 9
            if seconds > 0 {
                #expect(clusterIndex != nil || onBlock, "\(context): offset \(start) is no Cluster and no block")
                #expect(target.target.isEstimated == !constant, "\(context): offset estimated (index label)")
                #expect(target.isEstimated == !constant, "\(context): estimated")
            }
            // The cue point holding the target, or (Opus) the one before when the pre-roll before the holding
            // cue point's Cluster reaches back into it.
            let targetMs = ref.pts[0] + seconds * 1000
            #expect(j == 0 || ref.pts[j] <= targetMs - preRoll + 1, "\(context): landing after the target")
            let holding = ref.clusters.lastIndex {
                ref.firstPacket(inClusterAt: $0.at).map { ref.pts[$0] <= targetMs + 1 } ?? false
            }
            if let k = clusterIndex, let h = holding {
                #expect(k == h || (preRoll > 0 && k == h - 1), "\(context): landed on Cluster \(k), holding \(h)")
            }
        }
    }

    @Test(arguments: [0, 1, 2, 3])
    func seekWithoutCuesIsEstimatedThenPlacedByTheClusterTimestamp(_ chunkingIndex: Int) throws {
        let path = "mkv/opus-48000-2ch-no-cues.mka"
        let input = try FixtureCatalog.fixture(path).bytes()
        let ref = try Reference(path)
        let chunking = Self.chunkings[chunkingIndex]
        #expect(ref.cuesAt == nil)
        let parser = AudioStreamParser(options: ParserOptions(allowsByteRangeRequests: true))
        let recorder = EventRecorder(parser, input: input)
        let firstCluster = try #require(ref.clusters.first).at
        try Self.feedHead(parser, input, firstCluster: firstCluster, extra: 300, chunking: chunking)
        for seconds in [1.3, 2.2, 3.1] {
            let context = "\(path) [\(chunking)] seek to \(seconds) s"
            let target = try parser.seek(toTime: seconds)
            #expect(target.isEstimated && target.target.isEstimated, "\(context): not estimated")
            // Within a tenth of the stream of the Cluster that holds the target.
            let holding = try #require(ref.clusters.last { Double($0.ms) <= seconds * 1000 })
            #expect(abs(target.target.absoluteOffset - holding.at) < Int64(input.count / 10), "\(context): landing")
            let landing = target.target.absoluteOffset
            // The parser resynchronises on the next block (or Cluster): the first packet whose block body
            // (ffprobe's pos) follows the landing, or the one after when the landing fell into the first one's
            // block header (an ID and a size: at most 9 bytes before the body).
            guard let next = ref.pos.firstIndex(where: { $0 >= landing }) else { continue }
            recorder.log = EventLog()
            #expect(parser.feed(input[Int(landing)...], chunking: chunking, firstFlags: .discontinuity) == nil)
            let got = recorder.log.indexedPackets
            let block = got.first.flatMap { ref.packet(at: $0.offset) } ?? -1
            #expect(
                block == next || (block == next + 1 && ref.pos[next] - landing <= 9),
                "\(context): first block at packet \(block), the first after the landing \(next)")
            guard block >= 0 else { continue }
            // A later seek to a packet an earlier landing delivered lands on its block and drops the laced
            // frames before it (this file's blocks are laced): the packet is the block's frame from which the
            // rest of the stream was delivered.
            var j = block
            while j + 1 < ref.pos.count && ref.pos[j + 1] == ref.pos[block] && got.count < ref.sizes.count - j {
                j += 1
            }
            #expect(got.map(\.size) == Array(ref.sizes[j...]), "\(context): sizes")
            let frame = parser.packetToFrame(target.startPacket)
            #expect(frame?.isEstimated == false, "\(context): not placed by the next Cluster's Timestamp")
            #expect(
                abs(Double(frame?.value ?? -1_000_000) - ref.frame(ofPacket: j)) <= ref.sampleRate / 1000,
                "\(context): placed at \(String(describing: frame)), oracle pts \(ref.pts[j])")
        }
    }

    /// With `allowsByteRangeRequests`, a stream whose Cues follow its Clusters asks for them (the SeekHead's
    /// position, mkvinfo's `Cues at`), then for the first Cluster again; every chunking gives the same events,
    /// and the packets are ffprobe's. (The runner records the offsets it jumped to; a forward request
    /// the parser reached by skipping within the chunk at hand needs no jump.)
    @Test(arguments: ["mkv/opus-48000-2ch-cues-end.webm", "mkv/flac-22050-1ch-cues-end.mka"])
    func cuesAfterTheClustersAreFetchedWithARangeRequest(_ path: String) throws {
        let input = try FixtureCatalog.fixture(path).bytes()
        let ref = try Reference(path)
        let result = RangeRequestRunner.verify(input, options: ParserOptions(allowsByteRangeRequests: true))
        #expect(result.failures.isEmpty, "\(result.failures)")
        // In 1 KiB chunks the Cues lie beyond the chunk at hand: both requests are jumps.
        let small = RangeRequestRunner.run(
            input, chunking: .fixed(1024), options: ParserOptions(allowsByteRangeRequests: true))
        #expect(small.jumps == [try #require(ref.cuesAt), try #require(ref.clusters.first).at], "\(path): 1 KiB")
        let cues = try #require(ref.cuesAt)
        let first = try #require(ref.clusters.first).at
        #expect(
            result.jumps == [first] || result.jumps == [cues, first],
            "\(path): requests \(result.jumps), Cues at \(String(describing: ref.cuesAt))")
        #expect(result.reference.indexedPackets.map(\.size) == ref.sizes, "\(path): sizes")
        // Without the option: no request, the same packets.
        let plain = ChunkingVerifier.verify(input, options: ParserOptions())
        #expect(plain.reference.indexedPackets.map(\.size) == ref.sizes, "\(path): sizes without requests")
        #expect(plain.reference.lastValues[.requestedByteOffset] == nil)
    }
}
