import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// Seeking by time (`seek(toFrame:)`, `seek(toTime:)`) on every fixture, checked against the packets of
/// a full parse: the packet that holds the requested frame (priming frames included) is found from the
/// full parse's packet frame counts, the decoder pre-roll before it from the codec's rule, and the
/// packets delivered after feeding from the returned offset must start with `startPacket`.
///
/// Where the container places packets exactly (PCM, CAF `pakt`, MP4 sample tables; and every format once
/// its whole stream was parsed) the landing must be exact. Elsewhere (framed streams seeked from their
/// header) the landing may be estimated: then it must say so, the first batch must be labelled
/// (`isIndexEstimated`, except FLAC whose frame number gives the true index), and its packets must be
/// a contiguous run of the full parse.
@Suite("Seek by time", .timeLimit(.minutes(5)))
struct TimeSeekTests {
    /// One delivered packet, with the batch's label.
    struct Delivered: Equatable, CustomStringConvertible {
        var index: Int64
        var offset: Int64
        var size: Int
        var isIndexEstimated: Bool
        var description: String { "#\(index)\(isIndexEstimated ? "~" : "") @\(offset)+\(size)" }
    }

    /// Records every packet the parser delivers (replacing any other handler).
    final class Collector {
        var packets: [Delivered] = []
        /// Replaces the parser's handlers (those of a recorder that may be gone).
        init(_ parser: AudioStreamParser) {
            parser.propertyListener = nil
            parser.diagnosticHandler = nil
            parser.packetsHandler = { batch in
                for (i, d) in batch.descriptions.enumerated() {
                    self.packets.append(
                        Delivered(
                            index: batch.firstPacketIndex + Int64(i), offset: batch.fileOffset + d.startOffset,
                            size: Int(d.dataByteSize), isIndexEstimated: batch.isIndexEstimated))
                }
            }
        }
    }

    static let fixtures = FixtureCatalog.all.filter {
        ConformanceInput.knownGap($0) == nil && ConformanceInput.seekGap($0) == nil
    }

    /// Frames 0, 1, the middle and the last valid one.
    static func frames(valid: Int64) -> [Int64] {
        Array(Set([0, 1, valid / 2, valid - 1].filter { $0 >= 0 && $0 < valid })).sorted()
    }

    /// The last packet whose first frame is at or before `frame`.
    static func packet(holding frame: Int64, _ startFrames: [Int64]) -> Int {
        var i = 0
        while i + 2 < startFrames.count && startFrames[i + 1] <= frame { i += 1 }
        return i
    }

    /// The first packet to decode for packet `p`, by the codec rules of the spec (DecoderPreRoll's table),
    /// computed here from the full parse's frames: nil for MPEG Layer III and Layer I, whose reach depends
    /// on the frame sizes or spans two packets (checked to be at least one packet).
    static func expectedStart(_ p: Int, _ format: StreamDescription, _ startFrames: [Int64]) -> Int? {
        switch format.formatID {
        case .mpegLayer3, .mpegLayer1:
            return nil
        case .mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .vorbis, .ac3, .enhancedAC3, .mpegLayer2:
            return max(0, p - 1)
        case .opus:
            let from = startFrames[p] - 3840 * Int64(format.sampleRate) / 48000
            return from <= 0 ? 0 : packet(holding: from, startFrames)
        default:
            // PCM, a-law, µ-law, ADPCM, FLAC, ALAC …: independent packets.
            return p
        }
    }

    /// The folders whose positions are exact as soon as the header was parsed.
    static let tableFolders: Set<String> = ["wav", "aiff", "caf", "au", "mp4"]

    /// Gaps of the packet maps (docs/streaming.md, "What is left"): none left (Ogg FLAC of fixed block
    /// size and ADTS frames of several unsplit raw data blocks place their frames since session 10).
    static func framesNotPlaced(_ fixture: Fixture) -> Bool { false }

    @Test(arguments: fixtures.filter { !framesNotPlaced($0) })
    func seekByFrameLandsOnTheRequestedSample(_ fixture: Fixture) throws {
        let input = try ConformanceInput.input(for: fixture).bytes
        let options = ConformanceInput.options(for: fixture)
        let full = try SeekTests.fullParse(input, options: options)
        let duration = try #require(full.parser.estimatedDuration, "\(fixture): no duration")
        #expect(!duration.isEstimated, "\(fixture): duration estimated after a full parse")
        let priming = Int64(full.parser.packetTableInfo?.primingFrames ?? 0)
        var preparations: [SeekTests.Preparation] = [.wholeFile]
        if Self.tableFolders.contains(SeekTests.tableFolder(fixture)) && SeekTests.model(fixture) == .exact {
            preparations.append(.headerOnly)
        }
        for preparation in preparations {
            for frame in Self.frames(valid: duration.frames) {
                let context = "\(fixture) seek to frame \(frame) \(preparation)"
                let (parser, _) = try SeekTests.prepare(input, preparation, options: options)
                let collector = Collector(parser)
                let result: FrameSeekTarget
                do {
                    result = try parser.seek(toFrame: frame)
                } catch {
                    // A CAF whose pakt follows the data cannot place packets from its header (`more`).
                    if preparation == .headerOnly && error.code == .dataUnavailable { continue }
                    Issue.record("\(context): \(error)")
                    continue
                }
                #expect(!result.isEstimated, "\(context): estimated")
                let decoded = frame + priming
                let p = Self.packet(holding: decoded, full.startFrames)
                #expect(
                    result.position == PacketPosition(packet: Int64(p), offsetInPacket: decoded - full.startFrames[p]),
                    "\(context): position \(result.position), expected packet \(p)")
                #expect(result.primingFrames == priming, "\(context): priming")
                let start = Int(result.startPacket)
                #expect(result.startPacket == result.position.packet - result.rollDistance, "\(context): roll")
                if let expected = Self.expectedStart(p, full.dataFormat, full.startFrames) {
                    #expect(start == expected, "\(context): start packet \(start), expected \(expected)")
                } else {
                    #expect(start <= max(0, p - 1), "\(context): start packet \(start) for packet \(p)")
                }
                guard start >= 0, start < full.packets.count else {
                    Issue.record("\(context): start packet \(start) outside the stream")
                    continue
                }
                #expect(
                    result.framesToDiscard == decoded - full.startFrames[start], "\(context): frames to discard")
                let from = Int(result.target.absoluteOffset)
                let error = parser.feed(
                    input[from...], chunking: .random(seed: UInt64(frame) &+ 3, maxSize: 1500),
                    firstFlags: .discontinuity)
                #expect(error == nil, "\(context): \(String(describing: error))")
                let want = full.packets[start]
                let first = try #require(collector.packets.first, "\(context): no packet after the seek")
                #expect(
                    first
                        == Delivered(index: want.index, offset: want.offset, size: want.size, isIndexEstimated: false),
                    "\(context): first packet \(first), expected \(want)")
                #expect(parser.seekLanding == SeekLanding(labelledIndex: Int64(start), trueIndex: Int64(start)))
            }
        }
    }

    /// Framed streams seeked right after their header: estimated landings are labelled, and the packets
    /// delivered are a contiguous run of the full parse.
    @Test(arguments: fixtures.filter { !tableFolders.contains(SeekTests.tableFolder($0)) })
    func estimatedSeekByTimeIsLabelled(_ fixture: Fixture) throws {
        let input = try ConformanceInput.input(for: fixture).bytes
        let options = ConformanceInput.options(for: fixture)
        let full = try SeekTests.fullParse(input, options: options)
        let duration = try #require(full.parser.estimatedDuration)
        for frame in [duration.frames / 2, duration.frames * 9 / 10] where frame > 0 {
            let (parser, _) = try SeekTests.prepare(input, .headerOnly, options: options)
            let collector = Collector(parser)
            // The first link's rate (a chained stream's full parse ends with the last link's).
            let rate = try #require(parser.dataFormat?.sampleRate)
            let context = "\(fixture) seek to \(Double(frame) / rate) s after the header"
            let result: FrameSeekTarget
            do {
                result = try parser.seek(toTime: Double(frame) / rate)
            } catch {
                // Nothing tells where the frame is yet (an ADTS or Ogg stream with no packet parsed), or the
                // declared length ends before it: not a landing to check.
                if error.code == .dataUnavailable || error.code == .invalidPacketOffset { continue }
                Issue.record("\(context): \(error)")
                continue
            }
            #expect(result.frame == frame, "\(context): frame")
            let error = parser.feed(
                input[Int(min(result.target.absoluteOffset, Int64(input.count)))...],
                chunking: .random(seed: UInt64(frame), maxSize: 1500), firstFlags: .discontinuity)
            #expect(error == nil, "\(context): \(String(describing: error))")
            guard let first = collector.packets.first else { continue }  // landed past the last packet's start
            guard let k = full.packets.firstIndex(where: { $0.offset == first.offset && $0.size == first.size }) else {
                Issue.record("\(context): the first packet \(first) is not a packet of the full parse")
                continue
            }
            let run = collector.packets.map { [$0.offset, Int64($0.size)] }
            let expected = full.packets[k..<min(full.packets.count, k + run.count)].map { [$0.offset, Int64($0.size)] }
            #expect(run == Array(expected), "\(context): not a contiguous run of the full parse")
            if !result.target.isEstimated {
                // The offset was exact (the packet was parsed before): its index is exact, even when the frame
                // it was chosen for was estimated.
                #expect(k == Int(result.startPacket) && !first.isIndexEstimated, "\(context): exact landing")
                continue
            }
            let fixedBlockFLAC =
                (fixture.folder == "flac" || (fixture.folder == "ogg" && fixture.name.hasPrefix("flac-")))
                && full.dataFormat.framesPerPacket > 0 && full.parser.links.count <= 1
            if fixedBlockFLAC {
                // The frame number relabels the landing with its true index at once.
                #expect(first.index == Int64(k) && !first.isIndexEstimated, "\(context): FLAC relabelling \(first)")
                #expect(parser.seekLanding?.trueIndex == Int64(k), "\(context): landing")
            } else {
                #expect(first.index == result.startPacket, "\(context): label \(first.index)")
                #expect(first.isIndexEstimated, "\(context): estimated landing not labelled")
                if let trueIndex = parser.seekLanding?.trueIndex {
                    // Only a declared packet count places it, at the end of the stream.
                    #expect(trueIndex == Int64(k), "\(context): true index \(trueIndex), the packet is #\(k)")
                }
            }
        }
    }

    @Test("seek(toFrame:) rejects frames outside the stream, and seeks before the header")
    func seekByFrameErrors() throws {
        let fixture = try #require(Self.fixtures.first { $0.path == "wav/pcm_s16le-44100-2ch.wav" })
        let input = try fixture.bytes()
        let parser = AudioStreamParser()
        #expect(throws: AudioStreamError.self) { try parser.seek(toTime: 1) }
        if let error = parser.feed(input[...], chunking: .whole) { throw error }
        let duration = try #require(parser.estimatedDuration)
        for bad in [-1, duration.frames, duration.frames + 100] {
            #expect {
                try parser.seek(toFrame: bad)
            } throws: {
                ($0 as? AudioStreamError)?.code == .invalidPacketOffset
            }
        }
        for bad in [-0.5, Double.nan, Double.infinity] {
            #expect {
                try parser.seek(toTime: bad)
            } throws: {
                ($0 as? AudioStreamError)?.code == .invalidPacketOffset
            }
        }
        let last = try parser.seek(toFrame: duration.frames - 1)
        #expect(!last.isEstimated && last.framesToDiscard == 0 && last.rollDistance == 0)
    }

    @Test("estimatedDuration: the rule, in the library")
    func durationRule() {
        let pcm = StreamDescription.linearPCM(
            sampleRate: 8000, channels: 1, validBits: 16, containerBits: 16, isFloat: false, isBigEndian: true)
        let info = PacketTableInfo(numberValidFrames: 700, primingFrames: 50, remainderFrames: 50)
        #expect(
            StreamDuration.estimate(
                packetTableInfo: info, packetCount: 800, byteCount: 1600, bitRate: 128_000, format: pcm,
                parsedFrames: 800, isComplete: true)
                == StreamDuration(frames: 700, seconds: 0.0875, isEstimated: false, source: .packetTable))
        var vbr = pcm
        vbr.framesPerPacket = 0
        // After a seek the parsed frames are not the stream's: no rule 3.
        #expect(
            StreamDuration.estimate(
                packetTableInfo: nil, packetCount: 3, byteCount: 16000, bitRate: 128_000, format: vbr,
                parsedFrames: nil, isComplete: true)
                == StreamDuration(frames: 8000, seconds: 1, isEstimated: true, source: .bitRate))
    }
}

/// The async adapter seeks by time like the synchronous parser: the new source starts at the target, the
/// first packet is `startPacket`, and the events of the old position are dropped.
// The limit guards against a hang, not a slow test: alone the suite takes well under a second, but Swift
// Testing runs it on the cooperative pool (one thread per core) beside the synchronous conformance suites,
// and on a 2-core machine an `await` can wait minutes for a thread to resume on (4 cases hit a 2-minute
// limit in full runs beside other builds). 10 minutes, like the async range source's suite.
@Suite("Seek by time, async", .timeLimit(.minutes(10)))
struct AsyncTimeSeekTests {
    @Test(arguments: [
        "mp4/aac-44100-2ch-faststart.m4a", "ogg/opus-48000-2ch-64k-opusenc.opus", "wav/pcm_s16le-44100-2ch.wav",
        "mpeg/mp3-44100-2ch-concat.mp3",
    ])
    func seekByTimeWithNewSource(_ path: String) async throws {
        let fixture = try #require(FixtureCatalog.all.first { $0.path == path })
        let bytes = try fixture.bytes()
        let options = ConformanceInput.options(for: fixture)
        let full = try SeekTests.fullParse(bytes, options: options)
        let chunks = StreamingTestSupport.chunks(bytes, .random(seed: 5, maxSize: 700))
        var iterator = StreamingTestSupport.stream(chunks).audioStreamEvents(options: options).makeAsyncIterator()
        var packetsSeen = 0
        while let event = try await iterator.next() {
            if case .packets(let b) = event { packetsSeen += b.packetCount }
            if packetsSeen >= 2 { break }
        }
        let seconds = Double(full.startFrames[full.packets.count / 2]) / full.dataFormat.sampleRate
        let landing = try iterator.seek(toTime: seconds) { target in
            StreamingTestSupport.stream(
                StreamingTestSupport.chunks(Array(bytes[Int(target.absoluteOffset)...]), .random(seed: 6, maxSize: 500))
            )
        }
        var first: (index: Int64, offset: Int64, estimated: Bool)?
        while let event = try await iterator.next() {
            if case .packets(let b) = event, first == nil {
                first = (b.firstPacketIndex, b.fileOffset, b.isIndexEstimated)
            }
        }
        let got = try #require(first)
        #expect(got.index == landing.startPacket)
        if !landing.isEstimated {
            #expect(got.offset == full.packets[Int(landing.startPacket)].offset && !got.estimated)
        } else {
            #expect(got.estimated)
        }
    }
}
