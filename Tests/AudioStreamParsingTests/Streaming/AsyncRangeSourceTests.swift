import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// The async adapter with a range source (`Iterator.rangeSource`): it follows the parser's byte
/// requests and seeks by time by itself, and a cancelled task ends the sequence promptly, without
/// pulling again and without keeping the parser alive. Expected packets: the fixtures' ffprobe oracles
/// and full parses.
// Alone the suite takes seconds; the limit is generous because in the whole suite, on 2 cores, its
// tasks wait for the cooperative pool behind the synchronous conformance tests.
@Suite("Async range source", .timeLimit(.minutes(10)))
struct AsyncRangeSourceTests {
    typealias Iterator = AudioStreamEventSequence<AsyncStream<[UInt8]>>.Iterator

    static func source(_ bytes: [UInt8], from offset: Int64, seed: UInt64 = 0) -> AsyncStream<[UInt8]> {
        let start = Int(min(max(0, offset), Int64(bytes.count)))
        return StreamingTestSupport.stream(
            StreamingTestSupport.chunks(Array(bytes[start...]), .random(seed: seed &+ UInt64(start), maxSize: 900)))
    }

    static func options(allowingRanges: Bool) -> ParserOptions {
        var options = ParserOptions()
        options.allowsByteRangeRequests = allowingRanges
        return options
    }

    /// A `moov`-at-end MP4 and a `pakt`-after-data CAF: the requests are followed without the caller's help
    /// (each still reported as an event) and the packets equal ffprobe's.
    @Test(arguments: ["mp4/aac-44100-2ch-moov-end.m4a", "caf/alac-44100-2ch.caf"])
    func followsRequestsByItself(_ path: String) async throws {
        let fixture = FixtureCatalog.fixture(path)
        let bytes = try fixture.bytes()
        let oracle = try fixture.oracle()
        var iterator = Self.source(bytes, from: 0).audioStreamEvents(options: Self.options(allowingRanges: true))
            .makeAsyncIterator()
        iterator.rangeSource = { Self.source(bytes, from: $0) }
        var requests = 0
        var offsets: [Int64] = []
        while let event = try await iterator.next() {
            switch event {
            case .property(.requestedByteOffset): requests += 1
            case .packets(let b): offsets += b.descriptions.map { b.fileOffset + $0.startOffset }
            default: break
            }
        }
        #expect(requests == 2)
        #expect(offsets == oracle.packets.map { $0.pos ?? -1 })
    }

    /// A seek by time through the range source, on a `moov`-at-end MP4 whose table came from a byte
    /// request: the packets continue exactly from `startPacket`.
    @Test func seeksByTimeThroughTheRangeSource() async throws {
        let fixture = FixtureCatalog.fixture("mp4/aac-44100-2ch-moov-end.m4a")
        let bytes = try fixture.bytes()
        let options = Self.options(allowingRanges: true)
        // The reference: the same file parsed whole, its media data held until the `moov` arrives.
        var buffering = ParserOptions()
        buffering.bufferUnparsedMediaUpTo = bytes.count
        let full = try SeekTests.fullParse(bytes, options: buffering)
        var iterator = Self.source(bytes, from: 0).audioStreamEvents(options: options).makeAsyncIterator()
        iterator.rangeSource = { Self.source(bytes, from: $0, seed: 7) }
        var seen = 0
        while let event = try await iterator.next() {
            if case .packets(let b) = event { seen += b.packetCount }
            if seen >= 2 { break }
        }
        let middle = full.packets.count / 2
        let seconds = Double(full.startFrames[middle]) / full.dataFormat.sampleRate
        let landing = try iterator.seek(toTime: seconds)
        #expect(!landing.isEstimated)
        var after: [Int64] = []
        var indices: [Int64] = []
        while let event = try await iterator.next() {
            if case .packets(let b) = event {
                after += b.descriptions.map { b.fileOffset + $0.startOffset }
                indices += (0..<b.packetCount).map { b.firstPacketIndex + Int64($0) }
            }
        }
        let start = Int(landing.startPacket)
        #expect(indices.first == landing.startPacket)
        #expect(after == full.packets[start...].map(\.offset))
    }

    /// Without a range source, the seeks that need one throw `illegalOperation` and the stream goes on.
    @Test func seekWithoutRangeSourceThrows() async throws {
        let bytes = SyntheticFiles.wave(frames: 1000)
        var iterator = Self.source(bytes, from: 0).audioStreamEvents().makeAsyncIterator()
        while let event = try await iterator.next() {
            if case .packets = event { break }
        }
        #expect {
            try iterator.seek(toTime: 0.01)
        } throws: {
            ($0 as? AudioStreamError)?.code == .illegalOperation
        }
        var packets = 0
        while let event = try await iterator.next() {
            if case .packets(let b) = event { packets += b.packetCount }
        }
        #expect(packets > 0)
    }

    /// Cancelled before the parser's byte request was followed: the iterator throws `CancellationError`
    /// without opening the requested range, and the parser is released with the iterator (no cycle
    /// through the callbacks).
    @Test func cancellationAtARequestEndsPromptlyAndReleases() async throws {
        let bytes = try FixtureCatalog.fixture("mp4/aac-44100-2ch-moov-end.m4a").bytes()
        let opened = CountingOpens()
        let task = Task { () -> Bool in
            var iterator = Self.source(bytes, from: 0).audioStreamEvents(options: Self.options(allowingRanges: true))
                .makeAsyncIterator()
            iterator.rangeSource = { offset in
                opened.count += 1
                return Self.source(bytes, from: offset)
            }
            opened.parser = iterator.parser
            do {
                while let event = try await iterator.next() {
                    if case .property(.fileFormat) = event { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return false
            } catch {
                // Afterwards the iterator is over: `next()` answers nil, it does not trap.
                let after = try? await iterator.next()
                return error is CancellationError && after == nil
            }
        }
        #expect(await task.value)
        #expect(opened.count == 0)
        #expect(opened.parser == nil)
    }

    /// Cancelled in the middle of an endless source after a seek by time: ends at once, no further pull.
    @Test func cancellationAfterATimeSeek() async throws {
        let bytes = SyntheticFiles.wave(frames: 200_000)
        let chunks = StreamingTestSupport.chunks(bytes, .fixed(512))
        let counter = CountingChunks(chunks: chunks, cycles: true)
        let task = Task { () -> (cancelled: Bool, pullsAtCancel: Int, pullsAfter: Int) in
            var iterator = counter.audioStreamEvents().makeAsyncIterator()
            iterator.rangeSource = { _ in counter }
            var packets = 0
            var pullsAtCancel = -1
            var seeked = false
            do {
                while let event = try await iterator.next() {
                    guard case .packets = event else { continue }
                    packets += 1
                    if packets == 5 && !seeked {
                        seeked = true
                        try iterator.seek(toTime: 1)
                    }
                    if packets == 30 && pullsAtCancel < 0 {
                        pullsAtCancel = counter.counter.pulls
                        withUnsafeCurrentTask { $0?.cancel() }
                    }
                }
                return (false, pullsAtCancel, counter.counter.pulls)
            } catch {
                return (error is CancellationError, pullsAtCancel, counter.counter.pulls)
            }
        }
        let result = await task.value
        #expect(result.cancelled)
        #expect(result.pullsAfter == result.pullsAtCancel)
    }
}

/// Counts how often a range source was opened, and watches the parser without keeping it.
final class CountingOpens: @unchecked Sendable {
    var count = 0
    weak var parser: AudioStreamParser?
}
