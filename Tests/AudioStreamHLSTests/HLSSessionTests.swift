import AudioStreamHLS
import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// The session and the driver on the ffmpeg-made fixtures (Fixtures/generate-hls.sh) with an in-memory
/// fetcher: packet counts, rates and channels against ffprobe's reading of the same playlists.
@Suite struct HLSSessionTests {
    func fetcher(_ folders: String...) throws -> MemoryFetcher {
        let f = MemoryFetcher()
        for folder in folders { try f.addFixtures(folder) }
        return f
    }

    func path(_ p: String) -> String { FixtureCatalog.fixturesRoot + "/hls/" + p }

    func expectOracle(_ run: HLSRun, _ oracle: String) throws {
        let o = try hlsOracle(oracle)
        #expect(run.error == nil, "\(run.error.map { "\($0)" } ?? "")")
        #expect(run.packets.count == o.packets)
        #expect(run.formats.last?.sampleRate == o.rate)
        #expect(run.formats.last.map { Int($0.channelsPerFrame) } == o.channels)
        #expect(run.discontinuities == 0)
        if case .stream(.endOfStream)? = run.events.last {} else { Issue.record("no endOfStream at the end") }
    }

    @Test func packedAudioVOD() throws {
        let f = try fetcher("packed")
        let run = play(path("packed/index.m3u8"), fetcher: f)
        try expectOracle(run, "packed/index.ffprobe.json")
        #expect(run.segments.count == 4)
        // The PRIV timestamps tools/hls_priv.py wrote.
        let data = try Data(contentsOf: URL(fileURLWithPath: path("packed/timestamps.json")))
        let written = try JSONSerialization.jsonObject(with: data) as! [String: Int]
        for segment in run.segments {
            #expect(segment.transportStreamTimestamp.map(Int.init) == written[segment.segment.uri])
        }
        let infos = run.events.compactMap { if case .segment(let i) = $0 { i } else { nil } }
        #expect(infos.map(\.sequenceNumber) == [0, 1, 2, 3])
        #expect(abs(infos[2].startTime - (1.021678 + 0.998458)) < 1e-9)
    }

    @Test func fragmentedMP4VOD() throws {
        let f = try fetcher("fmp4")
        let run = play(path("fmp4/index.m3u8"), fetcher: f)
        try expectOracle(run, "fmp4/index.ffprobe.json")
        #expect(run.segments.filter(\.isInitialization).count == 1)
        #expect(run.segments.first?.isInitialization == true)
        #expect(f.requests.filter { $0.kind == .initialization }.count == 1)
    }

    /// `-hls_flags single_file`: EXT-X-MAP and every segment are byte ranges of one file.
    @Test func byteRanges() throws {
        let f = try fetcher("single")
        let run = play(path("single/index.m3u8"), fetcher: f)
        try expectOracle(run, "single/index.ffprobe.json")
        let ranges = f.requests.compactMap(\.byteRange)
        #expect(ranges.first == HLSByteRange(length: 765, offset: 0))
        #expect(ranges.count == 5)
        // The sub-ranges tile the file.
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.offset + $0.length == $1.offset })
        #expect(ranges.last.map { $0.offset + $0.length } == Int64(f.resources[path("single/audio.mp4")]!.count))
    }

    /// openssl encrypted the segments (IV from the tag, then from the sequence number): decrypted, they are
    /// the packed segments byte for byte.
    @Test func aes128() throws {
        let f = try fetcher("aes", "packed")
        let run = play(path("aes/index.m3u8"), fetcher: f)
        try expectOracle(run, "aes/index.ffprobe.json")
        for segment in run.segments {
            #expect(segment.bytes == f.resources[path("packed/" + segment.segment.uri)])
        }
        #expect(f.requests.filter { $0.kind == .key }.count == 1)

        let wrong = try fetcher("aes")
        wrong.resources[path("aes/key.bin")] = [UInt8](repeating: 7, count: 16)
        let failed = play(path("aes/index.m3u8"), fetcher: wrong)
        guard case .decryptionFailed(let segment, _)? = failed.error else {
            Issue.record("expected decryptionFailed, got \(String(describing: failed.error))")
            return
        }
        #expect(segment == 0)
        let short = try fetcher("aes")
        short.resources[path("aes/key.bin")] = [1, 2, 3]
        #expect(play(path("aes/index.m3u8"), fetcher: short).error.map { "\($0)" }?.contains("3 bytes") == true)
    }

    @Test func sampleAESIsRefused() {
        let f = MemoryFetcher()
        f.resources["p.m3u8"] = Array(
            "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\"\n#EXTINF:1,\na.aac\n#EXT-X-ENDLIST\n"
                .utf8)
        let run = play("p.m3u8", fetcher: f)
        #expect(run.error == .unsupportedEncryption(method: "SAMPLE-AES", segment: 0))
        #expect(run.error?.description.contains("not supported") == true)
    }

    /// Packed ADTS at 44.1 kHz, EXT-X-DISCONTINUITY, fMP4 at 48 kHz: a new parser, the format change
    /// announced, every packet of both.
    @Test func discontinuityAndFormatChange() throws {
        let f = try fetcher("packed", "fmp4", "mixed")
        let run = play(MemoryFetcher.fixturePath("mixed/discontinuity.m3u8"), fetcher: f)
        #expect(run.error == nil)
        let packed = try hlsOracle("packed/index.ffprobe.json")
        let fmp4 = try hlsOracle("fmp4/index.ffprobe.json")
        #expect(run.packets.count == packed.packets + fmp4.packets)
        #expect(run.discontinuities == 1)
        #expect(run.formats.map(\.sampleRate) == [packed.rate, fmp4.rate])
        let changes = run.events.compactMap { if case .formatChanged(let a, let b) = $0 { (a, b) } else { nil } }
        #expect(changes.count == 1 && changes.first?.0.sampleRate == 44100 && changes.first?.1.sampleRate == 48000)
    }

    @Test func masterPlaylistChoices() throws {
        let f = try fetcher("packed", "fmp4", "mixed")
        let master = MemoryFetcher.fixturePath("mixed/master.m3u8")
        let auto = play(master, fetcher: f)
        #expect(auto.formats.last?.sampleRate == 48000)  // the audio-only variant with the highest bandwidth
        if case .selected(let s)? = auto.events.first {
            #expect(s.variant?.bandwidth == 48000)
        }
        var options = HLSSessionOptions()
        options.variantChoice = .automatic(maxBandwidth: 45000)
        #expect(play(master, fetcher: f, options: options).formats.last?.sampleRate == 44100)
        options.variantChoice = .rendition(name: "English")
        #expect(play(master, fetcher: f, options: options).formats.last?.sampleRate == 48000)
        options.variantChoice = .rendition(name: "Klingon")
        guard case .noAudioVariant? = play(master, fetcher: f, options: options).error else {
            Issue.record("expected noAudioVariant")
            return
        }
    }

    @Test func segmentRetryThenError() throws {
        let f = try fetcher("packed")
        f.failures[path("packed/seg1.aac")] = 2
        let run = play(path("packed/index.m3u8"), fetcher: f)
        try expectOracle(run, "packed/index.ffprobe.json")
        #expect(run.waits == [0.5, 0.5])

        let g = try fetcher("packed")
        g.resources[path("packed/seg2.aac")] = nil
        let failed = play(path("packed/index.m3u8"), fetcher: g)
        #expect(failed.error == .fetchFailed(url: path("packed/seg2.aac"), attempts: 3, reason: "HTTP 404"))
        #expect(g.requests.filter { $0.url.hasSuffix("seg2.aac") }.count == 3)
        // The segments before it were parsed and reported.
        #expect(failed.segments.count == 2 && !failed.packets.isEmpty)

        let h = MemoryFetcher()
        h.resources["p.m3u8"] = Array("<html>".utf8)
        #expect(play("p.m3u8", fetcher: h).error == .notAPlaylist(url: "p.m3u8"))
    }

    /// A live playlist (no ENDLIST) of 3-segment windows over the packed segments, advanced by one segment
    /// each second of virtual time; the window ends with ENDLIST after the last.
    func livePlaylist(first: Int, count: Int, end: Bool, total: Int = 4) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for n in first..<min(first + count, total) { text += "#EXTINF:1.0,\nseg\(n).aac\n" }
        if end { text += "#EXT-X-ENDLIST\n" }
        return Array(text.utf8)
    }

    @Test func liveSlidingWindow() throws {
        let f = try fetcher("packed")
        let url = path("packed/live.m3u8")
        f.resources[url] = livePlaylist(first: 0, count: 2, end: false)
        let run = play(url, fetcher: f) { f in
            let step = Int(f.now)  // one more segment per second
            let last = min(step + 2, 4)
            f.resources[url] = self.livePlaylist(first: max(0, last - 2), count: 2, end: last == 4)
        }
        #expect(run.error == nil)
        #expect(run.segments.map(\.segment.sequenceNumber) == [0, 1, 2, 3])
        #expect(run.discontinuities == 0)
        try expectOracle(run, "packed/index.ffprobe.json")
        #expect(f.requests.filter { $0.kind == .mediaPlaylist || $0.kind == .playlist }.count >= 3)
    }

    /// Segments that leave the window before they are fetched are skipped: a discontinuity.
    @Test func liveWindowOverrun() throws {
        let f = try fetcher("packed")
        let url = path("packed/live.m3u8")
        f.resources[url] = livePlaylist(first: 0, count: 1, end: false)
        let run = play(url, fetcher: f) { f in
            f.resources[url] = self.livePlaylist(first: 3, count: 1, end: true)
        }
        #expect(run.error == nil)
        #expect(run.segments.map(\.segment.sequenceNumber) == [0, 3])
        #expect(run.segments.last?.startsDiscontinuity == true)
        #expect(run.discontinuities == 1)
    }

    @Test func stalledLivePlaylist() throws {
        let f = try fetcher("packed")
        let url = path("packed/live.m3u8")
        f.resources[url] = livePlaylist(first: 0, count: 2, end: false)
        let run = play(url, fetcher: f)
        guard case .playlistStalled(_, let seconds)? = run.error else {
            Issue.record("expected playlistStalled, got \(String(describing: run.error))")
            return
        }
        #expect(seconds >= 3 && seconds < 3.5)
        #expect(run.segments.count == 2)
        #expect(f.now < 4)
    }

    /// Seek to 1.5 s of the fMP4 presentation: the segment of 1.002667…2.005333 s (sequence 1), then the
    /// packets that end before 1.5 s dropped: 1024 frames a packet at 48 kHz, 47 packets in segment 0
    /// (48128 frames = 1.002667 s), 23 more dropped (23 × 1024 ≤ 0.497333 s × 48000 = 23872 < 24 × 1024),
    /// so the first packet is the presentation's packet 70.
    @Test func seekByTime() throws {
        let f = try fetcher("fmp4")
        let whole = play(path("fmp4/index.m3u8"), fetcher: f)
        var landing: HLSSeekLanding?
        let run = play(
            path("fmp4/index.m3u8"), fetcher: f,
            seek: { session, driver, step throws(HLSError) in
                if step == 6, landing == nil {
                    landing = try session.seek(toTime: 1.5)
                    driver.skip(seconds: landing!.offsetInSegment)
                }
            })
        #expect(run.error == nil)
        #expect(landing?.sequenceNumber == 1)
        let afterSeek = run.events.drop { if case .discontinuity = $0 { false } else { true } }
        var packets: [[UInt8]] = []
        for case .stream(.packets(let b)) in afterSeek {
            for i in 0..<b.packetCount { packets.append(Array(b.packetBytes(at: i))) }
        }
        #expect(packets == Array(whole.packets[70...]))
        let session = HLSSession(url: "x")
        #expect(throws: HLSError.self) { try session.seek(toTime: 1) }
    }

    /// What `upcomingSegmentRequest` offers for prefetching after each segment is the very next segment
    /// request the session makes (so a prefetch is used, not fetched twice).
    @Test func upcomingSegmentIsTheNextRequest() throws {
        let f = try fetcher("fmp4")
        let session = HLSSession(url: path("fmp4/index.m3u8"))
        var offered: HLSResourceRequest?
        var hits = 0
        loop: while true {
            switch try session.next(now: 0) {
            case .fetch(let request):
                if request.kind == .segment, let offered {
                    #expect(request == offered)
                    hits += 1
                }
                try session.deliver(f.fetch(request), now: 0)
            case .data(let data):
                if !data.isInitialization { offered = session.upcomingSegmentRequest }
            case .wait: Issue.record("no wait in a VOD")
            case .end: break loop
            }
        }
        #expect(hits == 3)
        #expect(offered == nil)
    }

    /// The async sequence gives the same packets as the synchronous driver.
    @Test func asyncSequence() async throws {
        let f = try fetcher("packed", "fmp4", "mixed")
        let whole = play(MemoryFetcher.fixturePath("mixed/discontinuity.m3u8"), fetcher: f)
        var packets: [[UInt8]] = []
        var discontinuities = 0
        var ended = false
        for try await event in HLSEventSequence(url: MemoryFetcher.fixturePath("mixed/discontinuity.m3u8"), fetcher: f)
        {
            switch event {
            case .stream(.packets(let b)): for i in 0..<b.packetCount { packets.append(Array(b.packetBytes(at: i))) }
            case .discontinuity: discontinuities += 1
            case .stream(.endOfStream): ended = true
            default: break
            }
        }
        #expect(packets == whole.packets && discontinuities == 1 && ended)
    }

    /// A segment fed to its parser in random chunks gives the same packets as whole (the parsers' own
    /// chunking guarantee, on the HLS segments).
    @Test func segmentsInAnyChunking() throws {
        let f = try fetcher("packed")
        let run = play(path("packed/index.m3u8"), fetcher: f)
        var joined: [UInt8] = []
        for segment in run.segments { joined += segment.bytes }
        var generator = SystemRandomNumberGenerator()
        let parser = AudioStreamParser(fileTypeHint: .aacADTS)
        var count = 0
        parser.packetsHandler = { count += $0.packetCount }
        var offset = 0
        while offset < joined.count {
            let n = min(joined.count - offset, Int.random(in: 1...700, using: &generator))
            try parser.parse(joined[offset..<(offset + n)])
            offset += n
        }
        try parser.finish()
        #expect(count == run.packets.count)
    }
}
