import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

// A damaged sample table costs only its track (issue 15, item 2; docs/formats/mp4.md, "Damaged sample
// tables"). The fixture mp4/aac-22050-1ch-stsz-cut.m4b is ffmpeg's fast-start audiobook with its audio
// stsz cut short by Fixtures/tools/damage_mp4.py (sample_count 45, 22 entries, a free box after). Expected
// values: the ffprobe oracle's format tags, the chapters of generate.sh's ffmetadata input, the 16x16
// PNG cover (100 bytes, as ffmpeg's png encoder writes it), and the box offsets read by MP4Layout.

@Suite("MP4: damaged sample tables")
struct MP4DamagedTableTests {
    static let path = "mp4/aac-22050-1ch-stsz-cut.m4b"

    static func moovOffset(_ bytes: [UInt8]) throws -> Int64 {
        try #require(MP4Layout(bytes)?.first("moov")).offset
    }

    /// Parses `bytes` in every chunking (they must agree) and checks that the parse ends with `dta?` at
    /// the `moov` and no packet; returns the whole-input log and the error.
    static func endsInvalidAtMoov(_ bytes: [UInt8]) throws -> (EventLog, AudioStreamError) {
        let moov = try moovOffset(bytes)
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let error = try #require(log.error)
        #expect(error.code == .invalidFile)
        #expect(error.byteOffset == moov)
        #expect(log.packetCount == 0)
        return (log, error)
    }

    /// The metadata the log announced last.
    static func metadata(_ log: EventLog) -> AudioMetadata? {
        if case .metadata(let m) = log.lastValues[.infoDictionary] { return m }
        return nil
    }

    @Test func tagsChaptersAndArtworkThenTheError() throws {
        let fixture = FixtureCatalog.fixture(Self.path)
        let bytes = try fixture.bytes()
        let oracle = try fixture.oracle()
        let moov = try Self.moovOffset(bytes)
        // The error: the stsz decoder's own code and reason, at the moov.
        let (log, error) = try Self.endsInvalidAtMoov(bytes)
        #expect(error.reason == "mp4 (stsz): 45 entries declared, the box holds 22")
        // The metadata, announced before the error.
        let metadata = try #require(Self.metadata(log))
        #expect(metadata.info[InfoKey.title] == oracle.formatTags["title"])
        #expect(metadata.info[InfoKey.artist] == oracle.formatTags["artist"])
        #expect(metadata.info[InfoKey.title] == "Book Title")
        #expect(metadata.chapters.map(\.title) == ["Chapter One", "Chapter Two", "Chapter Three"])
        #expect(metadata.chapters.map(\.startSeconds) == [0, 0.7, 1.4])
        #expect(metadata.artwork.count == 1)
        #expect(metadata.artwork.first?.data.count == 100)
        // The data format from the intact sample entry (the oracle's codec, rate, channels).
        guard case .dataFormat(let format) = log.lastValues[.dataFormat] else {
            Issue.record("no dataFormat announced")
            return
        }
        #expect(format.formatID == .mpeg4AAC)
        #expect(Int(format.sampleRate) == oracle.stream?.sampleRate)
        #expect(Int(format.channelsPerFrame) == oracle.stream?.channels)
        // No readyToProducePackets, no dataOffset: the track cannot give packets.
        #expect(log.lastValues[.readyToProducePackets] == nil)
        #expect(log.lastValues[.dataOffset] == nil)
        // One diagnostic naming the track, of kind inconsistentValues, at the moov.
        let diagnostics = log.entries.compactMap { e -> ParserDiagnostic? in
            if case .diagnostic(let d) = e { return d } else { return nil }
        }
        #expect(diagnostics.map(\.kind) == [.inconsistentValues])
        #expect(diagnostics.first?.byteOffset == moov)
        #expect(diagnostics.first?.message.hasPrefix("mp4 (trak): track 1 is unusable") == true)
    }

    /// The same file with its stsz repaired and another table of the audio track damaged (a count past
    /// its box): the same outcome, with that box's reason.
    @Test(arguments: ["stco", "stsc", "stts"])
    func otherTablesCutShort(_ box: String) throws {
        var bytes = try FixtureCatalog.fixture(Self.path).bytes()
        let file = try MP4TestFile(Self.path)
        // The stsz made consistent (sample_count 22, what it holds), then `box` damaged.
        let stsz = try #require(file.stbl("soun")?.child("stsz", in: bytes))
        bytes[stsz.bodyStart + 11] = 22
        let table = try #require(file.stbl("soun")?.child(box, in: bytes))
        // entry_count (after version/flags) set far past what the box holds.
        let at = table.bodyStart + 4
        bytes.replaceSubrange(at..<at + 4, with: [0x00, 0x01, 0x00, 0x00])
        let (log, error) = try Self.endsInvalidAtMoov(bytes)
        #expect(error.reason.hasPrefix("mp4 (\(box)): 65536 entries declared"), "\(error.reason)")
        let metadata = try #require(Self.metadata(log))
        #expect(metadata.info[InfoKey.title] == "Book Title")
        #expect(metadata.chapters.count == 3)
        #expect(metadata.artwork.count == 1)
    }

    /// A table above a limit keeps its code (`lim!`) and gives a `limitExceeded` diagnostic.
    @Test func aTableAboveTheLimitKeepsItsCode() throws {
        let bytes = try FixtureCatalog.fixture(Self.path).bytes()
        var limits = ParserLimits()
        limits.maxPacketTableEntries = 10
        let log = ParseRunner.run(bytes, chunking: .whole, options: ParserOptions(limits: limits))
        #expect(log.error?.code == .limitExceeded)
        let kinds = log.entries.compactMap { e -> ParserDiagnostic.Kind? in
            if case .diagnostic(let d) = e { return d.kind } else { return nil }
        }
        #expect(kinds.contains(.limitExceeded))
        #expect(Self.metadata(log)?.info[InfoKey.title] == "Book Title")
    }

    /// The undamaged tables of the same file still parse: the cut is what fails.
    @Test func theFixtureIsOnlyCutInStsz() throws {
        let bytes = try FixtureCatalog.fixture(Self.path).bytes()
        let file = try MP4TestFile(Self.path)
        let stsz = try #require(file.stbl("soun")?.child("stsz", in: bytes))
        // stsz: 12 + 4 + 4 + 4 + 22 × 4 bytes; a free box follows it in stbl.
        #expect(stsz.whole.count == 20 + 22 * 4)
        #expect(Array(bytes[stsz.whole.endIndex + 4..<stsz.whole.endIndex + 8]) == Array("free".utf8))
    }
}
