import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// Every MP4 fixture in the three ways a caller can meet a file whose `moov` may follow its `mdat`
/// (docs/formats/mp4.md, "moov after mdat"): default options (Apple's behaviour), range requests
/// (`allowsByteRangeRequests`, driven by `RangeRequestRunner`) and held media (`bufferUnparsedMediaUpTo`,
/// which the conformance suite uses for its oracle comparison). Packets are compared with the ffprobe oracle.
@Suite("MP4 fixtures", .timeLimit(.minutes(5)))
struct MP4FixtureTests {
    static let fixtures = FixtureCatalog.all.filter { $0.folder == "mp4" && ConformanceInput.knownGap($0) == nil }

    @Test func thereAreMP4Fixtures() {
        #expect(Self.fixtures.count >= 10)
    }

    /// Default options: a fast-start file parses; a file with the `moov` after the `mdat` stops with `optm`
    /// at the `mdat` header, the error's offset being where the `moov` is — in every chunking.
    @Test(arguments: fixtures)
    func defaultOptionsFollowApple(_ fixture: Fixture) throws {
        let bytes = try fixture.bytes()
        let layout = try #require(MP4Layout(bytes))
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(fixture): \(failures)")
        if layout.movieFollowsMedia {
            #expect(log.error?.code == .notOptimized, "\(fixture): \(String(describing: log.error))")
            #expect(log.error?.byteOffset == layout.first("moov")?.offset, "\(fixture)")
            #expect(log.packetCount == 0)
        } else {
            #expect(log.error == nil, "\(fixture): \(String(describing: log.error))")
        }
    }

    /// Range requests: the oracle's packets in every chunking; a file with the `moov` last asks for the
    /// `moov`'s offset, then for the first `mdat`'s.
    @Test(arguments: fixtures)
    func rangeRequestsGiveTheOraclePackets(_ fixture: Fixture) throws {
        let bytes = try fixture.bytes()
        let layout = try #require(MP4Layout(bytes))
        let expected = try FixtureConformanceTests.expectation(for: fixture)
        let (log, _, failures) = RangeRequestRunner.verify(bytes, options: ParserOptions(allowsByteRangeRequests: true))
        #expect(failures.isEmpty, "\(fixture): \(failures)")
        #expect(log.error == nil, "\(fixture): \(String(describing: log.error))")
        let requests = log.entries.compactMap { e -> Int64? in
            if case .property(.requestedByteOffset(let o)) = e { return o } else { return nil }
        }
        if layout.movieFollowsMedia, let moov = layout.first("moov"), let mdat = layout.first("mdat") {
            #expect(requests == [moov.offset, mdat.offset], "\(fixture)")
        } else {
            #expect(requests.isEmpty, "\(fixture)")
        }
        if let want = expected.packets {
            let got = log.packets.map { PacketSpan(offset: $0.offset, size: Int64($0.size)) }
            if let difference = describeFirstDifference(got: got, expected: want) {
                Issue.record("\(fixture): packets \(difference)")
            }
        }
    }

    /// Held media: a bound smaller than the media before the `moov` gives `optm` with the `moov`'s offset when
    /// the look-ahead reached it, else the end of the `mdat`.
    @Test(arguments: fixtures.filter { (try? MP4Layout($0.bytes())?.movieFollowsMedia) == true })
    func heldMediaBeyondTheBoundIsNotOptimized(_ fixture: Fixture) throws {
        let bytes = try fixture.bytes()
        let layout = try #require(MP4Layout(bytes))
        let log = ParseRunner.run(bytes, chunking: .whole, options: ParserOptions(bufferUnparsedMediaUpTo: 64))
        #expect(log.error?.code == .notOptimized, "\(fixture): \(String(describing: log.error))")
        let mdat = try #require(layout.first("mdat"))
        #expect(log.error?.byteOffset == mdat.offset + mdat.size, "\(fixture)")
    }

    /// The audiobook's chapter text track (tref/chap): the titles and times of the ffmetadata input in
    /// `Fixtures/generate.sh` (Chapter One 0–0.7 s, Two 0.7–1.4 s, Three 1.4–2.0 s), announced as a metadata
    /// update once the last chapter sample has passed, in every chunking.
    @Test func chapterTextTrackGivesTheChapters() throws {
        let fixture = FixtureCatalog.fixture("mp4/aac-22050-1ch-chapters.m4b")
        let (log, failures) = ChunkingVerifier.verify(
            try fixture.bytes(), options: ConformanceInput.options(for: fixture))
        #expect(failures.isEmpty, "\(failures)")
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(m.chapters.map(\.title) == ["Chapter One", "Chapter Two", "Chapter Three"])
        #expect(m.chapters.map(\.startSeconds) == [0, 0.7, 1.4])
        #expect(m.chapters.map(\.endSeconds) == [0.7, 1.4, 2.0])
    }

    /// The file with a video track lists both tracks; the audiobook lists its chapter text track.
    @Test func trackListsOfTheMultiTrackFixtures() throws {
        for (path, handlers) in [
            ("mp4/aac-44100-2ch-video.mp4", ["soun", "vide"]), ("mp4/aac-22050-1ch-chapters.m4b", ["soun", "text"]),
        ] {
            let fixture = FixtureCatalog.fixture(path)
            let parser = AudioStreamParser(options: ConformanceInput.options(for: fixture))
            try parser.parse(try fixture.bytes())
            try parser.finish()
            #expect(Set(parser.tracks.map(\.handlerType)) == Set(handlers), "\(path): \(parser.tracks)")
            #expect(parser.tracks.filter(\.isSelected).map(\.handlerType) == ["soun"], "\(path)")
            if path.hasSuffix(".m4b") {
                #expect(parser.tracks.contains { $0.isChapterTrack && $0.handlerType == "text" }, "\(path)")
            }
        }
    }
}

/// Seeded byte mutations of the MP4 fixtures' box structure: whatever the damage, the parser ends with a
/// result or an `AudioStreamError` (never a trap or a hang), the same whole and byte by byte, in all three
/// moov modes.
@Suite("MP4 mutations", .timeLimit(.minutes(5)))
struct MP4MutationTests {
    @Test(arguments: MP4FixtureTests.fixtures)
    func mutatedBoxesEndCleanly(_ fixture: Fixture) throws {
        let original = try fixture.bytes()
        guard let layout = MP4Layout(original) else { return }
        // Mutate inside the boxes that are parsed (moov, moof), not the media.
        var targets = layout.boxes.filter { $0.type == "moov" || $0.type == "moof" || $0.type == "ftyp" }
        // And the headers of the other top-level boxes (mdat sizes, free, …).
        targets += layout.boxes.filter { $0.type == "mdat" || $0.type == "free" || $0.type == "wide" }.map {
            MP4Layout.Box(type: $0.type, offset: $0.offset, size: min($0.size, 16))
        }
        guard !targets.isEmpty else { return }
        var rng = SplitMix64(seed: 0x4D50_3400 &+ UInt64(original.count))
        let modes = [
            ParserOptions(), ParserOptions(bufferUnparsedMediaUpTo: 1 << 20),
            ParserOptions(allowsByteRangeRequests: true),
        ]
        for round in 0..<60 {
            var bytes = original
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let box = targets[Int(rng.next() % UInt64(targets.count))]
                let at = Int(box.offset) + Int(rng.next() % UInt64(max(1, box.size)))
                guard at < bytes.count else { continue }
                switch rng.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes[at] = 0xFF
                default: bytes[at] = 0
                }
            }
            let options = modes[round % modes.count]
            if round % modes.count == 2 {
                let (whole, _) = RangeRequestRunner.run(bytes, chunking: .whole, options: options)
                let (chunked, _) = RangeRequestRunner.run(
                    bytes, chunking: .random(seed: UInt64(round), maxSize: 97), options: options)
                #expect(whole == chunked, "\(fixture) round \(round)")
            } else {
                let whole = ParseRunner.run(bytes, chunking: .whole, options: options)
                let chunked = ParseRunner.run(
                    bytes, chunking: .random(seed: UInt64(round), maxSize: 97), options: options)
                #expect(whole == chunked, "\(fixture) round \(round): \(whole.differences(from: chunked))")
            }
        }
    }
}
