import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// `AudioStreamEventSequence`: the asynchronous adapter gives the synchronous parser's events, pulls
/// one chunk at a time, stops on cancellation and seeks with a new source.
@Suite("Async streaming")
struct AsyncStreamingTests {
    static let fixtures = FixtureCatalog.all

    /// Every fixture through an `AsyncStream` in seeded random chunk sizes (with empty chunks) gives the
    /// events of the synchronous parser fed the whole file, and packets that own the input's bytes.
    @Test("Random chunks through an AsyncStream give the synchronous events", arguments: fixtures)
    func matchesSynchronousParse(_ fixture: Fixture) async throws {
        let bytes = try fixture.bytes()
        let reference = StreamingTestSupport.lines(ParseRunner.run(bytes, chunking: .whole, checkBytes: false))
        for chunking in [Chunking.random(seed: 7, maxSize: 4096), .random(seed: 8, maxSize: 61)] {
            let source = StreamingTestSupport.stream(StreamingTestSupport.chunks(bytes, chunking))
            let (events, error) = await StreamingTestSupport.collect(source.audioStreamEvents())
            let lines = StreamingTestSupport.lines(events, error: error, input: bytes)
            let difference = StreamingTestSupport.firstDifference(lines, reference)
            #expect(difference == nil, "\(fixture) \(chunking)")
            if error == nil {
                #expect(events.last.map { if case .endOfStream = $0 { true } else { false } } == true)
            }
        }
    }

    /// Other byte collections than `[UInt8]` work as chunks (here `ArraySlice` and a non-contiguous
    /// `ReversedCollection` reversed back).
    @Test("ArraySlice and non-contiguous chunks")
    func otherCollections() async throws {
        let bytes = SyntheticFiles.wave(frames: 300)
        let reference = StreamingTestSupport.lines(ParseRunner.run(bytes, chunking: .whole, checkBytes: false))
        let slices = Chunking.fixed(37).ranges(count: bytes.count).map { bytes[$0] }
        let sliceStream = AsyncStream<ArraySlice<UInt8>> { c in
            for s in slices { c.yield(s) }
            c.finish()
        }
        let (a, ea) = await StreamingTestSupport.collect(sliceStream.audioStreamEvents())
        let differenceA = StreamingTestSupport.firstDifference(
            StreamingTestSupport.lines(a, error: ea, input: bytes), reference)
        #expect(differenceA == nil)
        let reversed = Chunking.fixed(53).ranges(count: bytes.count).map { Array(bytes[$0].reversed()).reversed() }
        let reversedStream = AsyncStream<ReversedCollection<[UInt8]>> { c in
            for r in reversed { c.yield(r) }
            c.finish()
        }
        let (b, eb) = await StreamingTestSupport.collect(reversedStream.audioStreamEvents())
        let differenceB = StreamingTestSupport.firstDifference(
            StreamingTestSupport.lines(b, error: eb, input: bytes), reference)
        #expect(differenceB == nil)
    }

    /// Back-pressure: each event is yielded while the source has been pulled exactly as many times as
    /// the synchronous parser needed chunks to produce it, so nothing is read ahead of the consumer.
    @Test("Back-pressure: a chunk is pulled only when the previous chunk's events were consumed")
    func backPressure() async throws {
        let bytes = try FixtureCatalog.fixture("mpeg/mp3-44100-2ch-concat.mp3").bytes()
        let chunks = StreamingTestSupport.chunks(bytes, .fixed(1000))
        // Synchronous reference: the chunk (1-based; chunks.count + 1 for finish) that produced each event.
        let parser = AudioStreamParser()
        var producedBy: [Int] = []
        var current = 0
        parser.propertyListener = { _, _ in producedBy.append(current) }
        parser.diagnosticHandler = { _ in producedBy.append(current) }
        parser.packetsHandler = { batch in producedBy.append(current) }
        for (i, chunk) in chunks.enumerated() {
            current = i + 1
            try parser.parse(chunk)
        }
        current = chunks.count
        try parser.finish()

        let source = CountingChunks(chunks: chunks)
        var iterator = source.audioStreamEvents().makeAsyncIterator()
        var pulledAt: [Int] = []
        var firstEventPulls: Int?
        while let event = try await iterator.next() {
            if firstEventPulls == nil { firstEventPulls = source.counter.pulls }
            #expect(iterator.chunksPulled == min(source.counter.pulls, chunks.count))
            if case .endOfStream = event { break }
            pulledAt.append(min(source.counter.pulls, chunks.count))
        }
        #expect(firstEventPulls == 1)
        #expect(source.counter.pulls == chunks.count)
        // Batches may be cut differently from the sync handler's (same chunks, so they are not), so
        // compare the whole sequence.
        #expect(pulledAt == producedBy)
    }

    /// Cancelling the consuming task stops pulling from an endless source: the iterator throws
    /// `CancellationError` and the source is not pulled again.
    @Test("Cancellation stops pulling from the source")
    func cancellationStopsPulling() async throws {
        let bytes = SyntheticFiles.wave(frames: 100_000)
        let source = CountingChunks(chunks: StreamingTestSupport.chunks(bytes, .fixed(512)), cycles: true)
        let task = Task { () -> (pullsAtCancel: Int, pullsAfter: Int, cancelled: Bool) in
            var packets = 0
            var pullsAtCancel = -1
            do {
                for try await event in source.audioStreamEvents() {
                    if case .packets = event { packets += 1 }
                    if packets == 20 && pullsAtCancel < 0 {
                        pullsAtCancel = source.counter.pulls
                        withUnsafeCurrentTask { $0?.cancel() }
                    }
                }
                return (pullsAtCancel, source.counter.pulls, false)
            } catch is CancellationError {
                return (pullsAtCancel, source.counter.pulls, true)
            } catch {
                return (pullsAtCancel, source.counter.pulls, false)
            }
        }
        let result = await task.value
        #expect(result.cancelled)
        #expect(result.pullsAtCancel > 0)
        #expect(result.pullsAfter == result.pullsAtCancel)
    }

    /// A task cancelled while it waits for the network (an `AsyncStream` that has not finished) throws
    /// `CancellationError`; the stream is not finished as if it had ended.
    @Test("Cancellation while suspended on the source")
    func cancellationWhileWaiting() async throws {
        let bytes = SyntheticFiles.wave(frames: 100)
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(bytes)  // never finished
        let (signal, signalled) = AsyncStream<Void>.makeStream()
        let task = Task { () -> (sawEnd: Bool, cancelled: Bool) in
            var sawEnd = false
            do {
                for try await event in stream.audioStreamEvents() {
                    if case .packets = event { signalled.yield() }
                    if case .endOfStream = event { sawEnd = true }
                }
                return (sawEnd, false)
            } catch {
                return (sawEnd, error is CancellationError)
            }
        }
        for await _ in signal { break }
        task.cancel()
        let result = await task.value
        #expect(result.cancelled)
        #expect(!result.sawEnd)
        continuation.finish()
    }

    /// A parse error is thrown after the events that preceded it, then the iterator ends.
    @Test("Errors are thrown after the preceding events")
    func errorsAfterEvents() async throws {
        let garbage: [UInt8] = Array("not audio at all, nothing to detect here".utf8)
        let (events, error) = await StreamingTestSupport.collect(
            StreamingTestSupport.stream([garbage]).audioStreamEvents())
        #expect(events.isEmpty)
        #expect((error as? AudioStreamError)?.code == .unsupportedFileType)
        var iterator = StreamingTestSupport.stream([garbage]).audioStreamEvents().makeAsyncIterator()
        await #expect(throws: AudioStreamError.self) { try await iterator.next() }
        let after = try await iterator.next()
        #expect(after == nil)
    }

    /// Seek between chunks: after `seek(toPacket:from:)` the new source starts at the returned offset and
    /// the packets continue from the requested one, equal to the synchronous parse's packets.
    @Test(
        "Seek continues with a new source at the target",
        arguments: ["wav/pcm_s16le-44100-2ch.wav", "mpeg/mp3-44100-2ch-concat.mp3"])
    func seekWithNewSource(_ path: String) async throws {
        let bytes = try FixtureCatalog.fixture(path).bytes()
        let all = ParseRunner.run(bytes, chunking: .whole, checkBytes: false).packets
        let chunks = StreamingTestSupport.chunks(bytes, .random(seed: 3, maxSize: 700))
        var iterator = StreamingTestSupport.stream(chunks).audioStreamEvents().makeAsyncIterator()
        var packetsSeen = 0
        while let event = try await iterator.next() {
            if case .packets(let b) = event { packetsSeen += b.packetCount }
            if packetsSeen >= 3 { break }
        }
        let packet = Int64(all.count / 2)
        let target = try iterator.seek(toPacket: packet) { target in
            let rest = Array(bytes[Int(target.absoluteOffset)...])
            return StreamingTestSupport.stream(StreamingTestSupport.chunks(rest, .random(seed: 4, maxSize: 500)))
        }
        #expect(target.absoluteOffset == all[Int(packet)].offset)
        var after: [(offset: Int64, size: Int, index: Int64)] = []
        var sawEnd = false
        while let event = try await iterator.next() {
            switch event {
            case .packets(let b):
                for (i, d) in b.descriptions.enumerated() {
                    after.append((b.fileOffset + d.startOffset, Int(d.dataByteSize), b.firstPacketIndex + Int64(i)))
                    let o = Int(b.fileOffset + d.startOffset)
                    #expect(b.packetBytes(at: i).elementsEqual(bytes[o..<(o + Int(d.dataByteSize))]))
                }
            case .endOfStream: sawEnd = true
            default: break
            }
        }
        #expect(sawEnd)
        #expect(after.first?.index == packet)
        #expect(after.map(\.offset) == all[Int(packet)...].map(\.offset))
        #expect(after.map(\.size) == all[Int(packet)...].map(\.size))
    }

    /// An MP4 with the `moov` after the `mdat`, and CAF files with the `pakt` after the `data` chunk,
    /// through the async adapter with byte requests: every `.property(.requestedByteOffset)` is followed
    /// with a new source from that offset, and the packets equal ffprobe's (the committed oracle), though
    /// the media data was skipped the first time.
    @Test(
        "followByteRequest streams a moov-at-end MP4 and a pakt-after-data CAF from the requested offsets",
        arguments: ["mp4/aac-44100-2ch-moov-end.m4a", "caf/alac-44100-2ch.caf", "caf/opus-48000-2ch.caf"])
    func followsByteRequests(_ path: String) async throws {
        let fixture = FixtureCatalog.fixture(path)
        let bytes = try fixture.bytes()
        let oracle = try fixture.oracle()
        var options = ParserOptions()
        options.allowsByteRangeRequests = true
        func source(from offset: Int64) -> AsyncStream<[UInt8]> {
            StreamingTestSupport.stream(
                StreamingTestSupport.chunks(Array(bytes[Int(offset)...]), .random(seed: UInt64(offset), maxSize: 900)))
        }
        var iterator = source(from: 0).audioStreamEvents(options: options).makeAsyncIterator()
        #expect(iterator.followByteRequest(from: source(from:)) == nil)
        var requests: [Int64] = []
        var packets: [(offset: Int64, size: Int64)] = []
        var sawEnd = false
        while let event = try await iterator.next() {
            switch event {
            case .property(.requestedByteOffset(let offset)):
                #expect(iterator.pendingByteRequest == offset)
                requests.append(offset)
                #expect(iterator.followByteRequest(from: source(from:)) == offset)
                #expect(iterator.pendingByteRequest == nil)
            case .packets(let b):
                for (i, d) in b.descriptions.enumerated() {
                    let o = b.fileOffset + d.startOffset
                    packets.append((o, Int64(d.dataByteSize)))
                    #expect(b.packetBytes(at: i).elementsEqual(bytes[Int(o)..<(Int(o) + Int(d.dataByteSize))]))
                }
            case .endOfStream: sawEnd = true
            default: break
            }
            #expect(requests.count <= 4)
        }
        #expect(sawEnd)
        #expect(requests.count == 2)  // the moov (pakt) after the mdat (data), then the mdat (data) again
        #expect(packets.map(\.offset) == oracle.packets.map { $0.pos ?? -1 })
        #expect(packets.map(\.size) == oracle.packets.map(\.size))
    }

    /// Seeking before the audio data is reached throws `more` and leaves the stream usable.
    @Test("Seek before the data throws dataUnavailable")
    func seekTooEarly() async throws {
        let bytes = SyntheticFiles.wave(frames: 10)
        var iterator = StreamingTestSupport.stream([Array(bytes[..<10]), Array(bytes[10...])]).audioStreamEvents()
            .makeAsyncIterator()
        #expect(throws: AudioStreamError.self) {
            try iterator.seek(toPacket: 1) { _ in StreamingTestSupport.stream([]) }
        }
        var count = 0
        while let event = try await iterator.next() {
            if case .packets(let b) = event { count += b.packetCount }
        }
        #expect(count == 10)
    }
}
