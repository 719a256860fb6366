import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// Hand-built EBML and Matroska bytes (RFC 8794 §4–§6, RFC 9559 §10): header syntax, lacing, unknown
/// sizes, tracks, damage. Expected values are worked out from the specs in the comments, not from the
/// parser's output.
@Suite("Matroska")
struct MatroskaTests {
    /// Builds EBML elements by hand.
    enum EBML {
        /// An element: the ID bytes as written (marker included), a size of `sizeLength` bytes
        /// (`nil` body size: unknown, all value bits set), the body.
        static func element(_ id: [UInt8], _ body: [UInt8], sizeLength: Int = 1, unknown: Bool = false) -> [UInt8] {
            var size: [UInt8] = []
            let value = unknown ? (UInt64(1) << UInt64(7 * sizeLength)) - 1 : UInt64(body.count)
            let marked = value | UInt64(1) << UInt64(7 * sizeLength)
            for k in (0..<sizeLength).reversed() { size.append(UInt8(truncatingIfNeeded: marked >> UInt64(8 * k))) }
            return id + size + (unknown ? [] : body)
        }
        static func uint(_ id: [UInt8], _ v: UInt64, bytes: Int = 1) -> [UInt8] {
            element(id, (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: v >> UInt64(8 * $0)) })
        }
        static func string(_ id: [UInt8], _ s: String) -> [UInt8] { element(id, Array(s.utf8)) }
        static func float64(_ id: [UInt8], _ d: Double) -> [UInt8] {
            element(id, (0..<8).reversed().map { UInt8(truncatingIfNeeded: d.bitPattern >> UInt64(8 * $0)) })
        }

        static func header(docType: String) -> [UInt8] {
            element([0x1A, 0x45, 0xDF, 0xA3], uint([0x42, 0x86], 1) + string([0x42, 0x82], docType))
        }

        /// A PCM track (A_PCM/INT/LIT, 16-bit, `channels` channels at 8000 Hz): PCM needs no
        /// CodecPrivate, and every frame is `2 × channels` bytes.
        static func pcmTrack(number: UInt64, channels: UInt64 = 1, type: UInt64 = 2) -> [UInt8] {
            let audio = element([0xE1], float64([0xB5], 8000) + uint([0x9F], channels) + uint([0x62, 0x64], 16))
            return element(
                [0xAE],
                uint([0xD7], number) + uint([0x83], type) + string([0x86], type == 2 ? "A_PCM/INT/LIT" : "V_TEST")
                    + audio)
        }

        static func simpleBlock(track: UInt8, _ payload: [UInt8], flags: UInt8 = 0x80) -> [UInt8] {
            element([0xA3], [0x80 | track, 0, 0, flags] + payload, sizeLength: 2)
        }

        static func cluster(_ children: [UInt8], unknown: Bool = false) -> [UInt8] {
            element([0x1F, 0x43, 0xB6, 0x75], uint([0xE7], 0) + children, sizeLength: 4, unknown: unknown)
                + (unknown ? uint([0xE7], 0) + children : [])
        }

        static func file(tracks: [UInt8], clusters: [UInt8], unknownSegment: Bool = false, docType: String = "matroska")
            -> [UInt8]
        {
            let body = element([0x16, 0x54, 0xAE, 0x6B], tracks, sizeLength: 2) + clusters
            return header(docType: docType)
                + element([0x18, 0x53, 0x80, 0x67], body, sizeLength: 8, unknown: unknownSegment)
                + (unknownSegment ? body : [])
        }
    }

    static func run(_ bytes: [UInt8], options: ParserOptions = ParserOptions()) -> EventLog {
        let result = ChunkingVerifier.verify(bytes, options: options)
        #expect(result.failures.isEmpty, "\(result.failures)")
        return result.reference
    }

    // MARK: EBML syntax

    @Test func variableLengthIDsAndSizes() {
        // 0x1A45DFA3 (4-byte ID), size 0x84 = 1-byte size 4.
        guard case .header(let h) = EBMLSyntax.peekHeader(in: ByteReader([0x1A, 0x45, 0xDF, 0xA3, 0x84]), at: 0) else {
            Issue.record("no header")
            return
        }
        #expect(h.id == 0x1A45_DFA3 && h.headerSize == 5 && h.bodySize == 4)
        // 2-byte size 0x40 0x10 = 16; 8-byte size 0x01 followed by 7 bytes.
        guard case .header(let two) = EBMLSyntax.peekHeader(in: ByteReader([0xA3, 0x40, 0x10]), at: 0) else {
            Issue.record("no 2-byte size")
            return
        }
        #expect(two.headerSize == 3 && two.bodySize == 16)
        // Unknown size: all value bits set (1 byte 0xFF; 8 bytes 0x01FFFFFFFFFFFFFF).
        guard case .header(let u1) = EBMLSyntax.peekHeader(in: ByteReader([0xA3, 0xFF]), at: 0),
            case .header(let u8) = EBMLSyntax.peekHeader(
                in: ByteReader([0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), at: 0)
        else {
            Issue.record("no unknown-size header")
            return
        }
        #expect(u1.bodySize == nil && u8.bodySize == nil && u8.headerSize == 12)
        // A first byte 0x00: an ID longer than 4 bytes, malformed; a size byte 0x00 too.
        guard case .invalid = EBMLSyntax.peekHeader(in: ByteReader([0x00, 0x81]), at: 0),
            case .invalid = EBMLSyntax.peekHeader(in: ByteReader([0xA3, 0x00]), at: 0),
            case .invalid = EBMLSyntax.peekHeader(in: ByteReader([0x08, 0, 0, 0, 0x81]), at: 0)
        else {
            Issue.record("malformed header accepted")
            return
        }
        // Needs: a 4-byte ID says 4, then the size's length.
        guard case .needMoreData(4) = EBMLSyntax.peekHeader(in: ByteReader([0x1A, 0x45]), at: 0),
            case .needMoreData(6) = EBMLSyntax.peekHeader(in: ByteReader([0x1A, 0x45, 0xDF, 0xA3, 0x40]), at: 0)
        else {
            Issue.record("needMoreData counts wrong")
            return
        }
    }

    @Test func registryHasNoDuplicates() {
        #expect(MatroskaParser.registry.duplicates.isEmpty)
        let ids = MatroskaElementID.schema.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    // MARK: Lacing (RFC 9559 §10.3)

    static func decode(_ body: [UInt8]) -> MatroskaBlock.Decoded {
        MatroskaBlock.decode(in: ByteReader(body), at: 0, bodySize: body.count)
    }

    @Test func xiphLacing() {
        // Track 1, timestamp 0, flags 0x02 (Xiph), 3 frames: sizes 300 (255 + 45), 2, and the rest (4).
        let body: [UInt8] = [0x81, 0, 0, 0x02, 2, 255, 45, 2] + Array(repeating: 7, count: 306)
        #expect(
            Self.decode(body)
                == .block(
                    MatroskaBlock(track: 1, relativeTimestamp: 0, flags: 2, headerLength: 8, frameSizes: [300, 2, 4])))
    }

    @Test func ebmlLacing() {
        // Flags 0x06 (EBML), 3 frames: first size 800 (2-byte vint 0x43 0x20), then a difference of
        // −3 as a 1-byte signed vint (value − 63: 60 → 0xBC), so 797; the last takes the rest (5).
        let body: [UInt8] = [0x81, 0, 0, 0x06, 2, 0x43, 0x20, 0xBC] + Array(repeating: 1, count: 1602)
        #expect(
            Self.decode(body)
                == .block(
                    MatroskaBlock(track: 1, relativeTimestamp: 0, flags: 6, headerLength: 8, frameSizes: [800, 797, 5]))
        )
    }

    @Test func fixedLacingAndItsFaults() {
        // Flags 0x04 (fixed), 4 frames in 12 bytes: 3 each.
        let body: [UInt8] = [0x82, 0xFF, 0xFE, 0x04, 3] + Array(repeating: 0, count: 12)
        #expect(
            Self.decode(body)
                == .block(
                    MatroskaBlock(track: 2, relativeTimestamp: -2, flags: 4, headerLength: 5, frameSizes: [3, 3, 3, 3]))
        )
        // 13 bytes for 4 frames cannot be fixed-size.
        guard case .invalid = Self.decode([0x82, 0, 0, 0x04, 3] + Array(repeating: 0, count: 13)) else {
            Issue.record("uneven fixed lacing accepted")
            return
        }
        // Xiph sizes that exceed the block.
        guard case .invalid = Self.decode([0x81, 0, 0, 0x02, 1, 200, 1, 2]) else {
            Issue.record("Xiph lace larger than the block accepted")
            return
        }
    }

    // MARK: Streams

    @Test func unknownSizeSegmentAndClustersEndAtTheNextCluster() throws {
        // Two clusters of unknown size in a segment of unknown size (a live WebM): each block is one
        // 16-bit mono PCM frame of 2 bytes; 3 blocks in all.
        let clusters =
            EBML.cluster(EBML.simpleBlock(track: 1, [1, 2]) + EBML.simpleBlock(track: 1, [3, 4]), unknown: true)
            + EBML.cluster(EBML.simpleBlock(track: 1, [5, 6]), unknown: true)
        let file = EBML.file(
            tracks: EBML.pcmTrack(number: 1), clusters: clusters, unknownSegment: true, docType: "webm")
        let log = Self.run(file)
        #expect(log.error == nil)
        let packets = log.packets
        #expect(packets.count == 3 && packets.allSatisfy { $0.size == 2 })
        #expect(log.lastValues[.fileFormat] == .fileFormat(.webM))
        // Each packet's bytes are the frame: at its block + 4 (2-byte size, track, timestamp, flags… the
        // block header is 3 + 4 bytes before the frame).
        for (k, p) in packets.enumerated() {
            #expect(Array(file[Int(p.offset)..<Int(p.offset) + 2]) == [UInt8(2 * k + 1), UInt8(2 * k + 2)])
        }
    }

    @Test func otherTracksAreSkippedAndTheFirstAudioTrackIsParsed() throws {
        let tracks = EBML.pcmTrack(number: 1, type: 1) + EBML.pcmTrack(number: 2, channels: 2)
        let clusters = EBML.cluster(
            EBML.simpleBlock(track: 1, Array(repeating: 9, count: 100))
                + EBML.simpleBlock(track: 2, [1, 2, 3, 4, 5, 6, 7, 8]))
        let log = Self.run(EBML.file(tracks: tracks, clusters: clusters))
        #expect(log.error == nil)
        // Stereo 16-bit: 8 bytes are 2 frames of 4 bytes.
        #expect(log.packets.map(\.size) == [4, 4])
        let parser = AudioStreamParser()
        try parser.parse(EBML.file(tracks: tracks, clusters: clusters))
        try parser.finish()
        #expect(parser.tracks.map(\.id) == [1, 2])
        #expect(parser.tracks.map(\.isSelected) == [false, true])
        #expect(parser.tracks.map(\.handlerType) == ["vide", "soun"])
    }

    @Test func damagedClusterCostsOnlyItsBlocks() {
        // Cluster 1 holds a block, then garbage (0x00: no element starts with it); cluster 2 is intact.
        // The garbage makes the first cluster's remaining bytes unreadable; the block of cluster 2 arrives.
        let bad = EBML.cluster(EBML.simpleBlock(track: 1, [1, 2]) + [0x00, 0x00, 0x00, 0x00])
        let good = EBML.cluster(EBML.simpleBlock(track: 1, [3, 4]))
        let log = Self.run(EBML.file(tracks: EBML.pcmTrack(number: 1), clusters: bad + good))
        #expect(log.error == nil)
        #expect(log.packets.count == 2)
        #expect(log.entries.contains { if case .diagnostic(let d) = $0 { d.kind == .junkSkipped } else { false } })
    }

    @Test func truncatedFileGivesThePacketsBeforeTheCut() {
        let clusters = EBML.cluster(
            EBML.simpleBlock(track: 1, [1, 2]) + EBML.simpleBlock(track: 1, [3, 4])
                + EBML.simpleBlock(track: 1, [5, 6]))
        let file = EBML.file(tracks: EBML.pcmTrack(number: 1), clusters: clusters)
        let log = Self.run(Array(file.dropLast(1)))
        #expect(log.error == nil)
        #expect(log.packets.count == 2)
        #expect(log.entries.contains { if case .diagnostic(let d) = $0 { d.kind == .truncated } else { false } })
    }

    @Test func garbageBeforeTheEBMLHeaderIsNotDetected() {
        let file = [0x00, 0x01] + EBML.file(tracks: EBML.pcmTrack(number: 1), clusters: EBML.cluster([]))
        let log = ParseRunner.run(file, chunking: .whole)
        #expect(log.error?.code == .unsupportedFileType)
    }

    @Test func docTypeDecidesTheFileType() {
        let mka = ParseRunner.run(
            EBML.file(tracks: EBML.pcmTrack(number: 1), clusters: EBML.cluster([])), chunking: .whole)
        #expect(mka.lastValues[.fileFormat] == .fileFormat(.matroska))
        let other = ParseRunner.run(
            EBML.header(docType: "other") + EBML.element([0x18, 0x53, 0x80, 0x67], []), chunking: .whole)
        #expect(other.error?.code == .unsupportedFileType)
    }

    @Test func unknownCodecIsListedAndRefused() {
        let track = EBML.element(
            [0xAE], EBML.uint([0xD7], 1) + EBML.uint([0x83], 2) + EBML.string([0x86], "A_REAL/28_8"))
        let log = ParseRunner.run(EBML.file(tracks: track, clusters: EBML.cluster([])), chunking: .whole)
        #expect(log.error?.code == .unsupportedDataFormat)
        #expect(
            log.entries.contains { if case .diagnostic(let d) = $0 { d.kind == .unsupportedFeature } else { false } })
    }

    // MARK: Fixtures (values from the oracle or the generator's input, Fixtures/generate.sh)

    static func parse(_ path: String, options: ParserOptions = ParserOptions()) throws -> (AudioStreamParser, EventLog)
    {
        let bytes = try FixtureCatalog.fixture(path).bytes()
        let parser = AudioStreamParser(options: options)
        let recorder = EventRecorder(parser, input: bytes)
        if let error = parser.feed(bytes[...], chunking: .whole) { recorder.log.error = error }
        return (parser, recorder.log)
    }

    @Test func opusGaplessFromCodecDelayAndDiscardPadding() throws {
        // The oracle: 26 packets of 960 frames (duration_sum 24960), discard_padding 648 on the last;
        // CodecDelay 6.5 ms (mkvinfo: "Codec-inherent delay: 00:00:00.006500000") = 312 frames at 48 kHz.
        let (parser, log) = try Self.parse("mkv/opus-48000-2ch-ffmpeg.webm")
        #expect(log.error == nil)
        #expect(
            parser.packetTableInfo
                == PacketTableInfo(numberValidFrames: 24960 - 312 - 648, primingFrames: 312, remainderFrames: 648))
        // The cookie is the OpusHead: "OpusHead", version 1, 2 channels, pre-skip 312 (0x0138 LE).
        #expect(parser.magicCookie.map { Array($0.prefix(12)) } == Array("OpusHead".utf8) + [1, 2, 0x38, 0x01])
    }

    @Test func theSecondAudioTrackIsParsedWhenChosen() throws {
        // generate.sh: Opus mono (track 1) and Vorbis mono (track 2), 25 Vorbis blocks (one frame each).
        let (parser, log) = try Self.parse("mkv/opus-48000-1ch-two-tracks.mka", options: ParserOptions(trackID: 2))
        #expect(log.error == nil)
        #expect(parser.dataFormat?.formatID == .vorbis)
        #expect(log.packetCount == 25)
        #expect(parser.tracks.map(\.isSelected) == [false, true])
        let (_, none) = try Self.parse("mkv/opus-48000-1ch-two-tracks.mka", options: ParserOptions(trackID: 9))
        #expect(none.error?.code == .unsupportedDataFormat)
    }

    @Test func chaptersTagsAndCoverFromTheGeneratorsInput() throws {
        // generate.sh: ffmetadata chapters 0–200 ms "Intro", 200–400 "Middle", 400–500 "Last part" and
        // title/artist/album/genre/comment.
        let (chaptered, _) = try Self.parse("mkv/flac-44100-2ch-chapters-tags.mka")
        let m = try #require(chaptered.metadata)
        #expect(m.chapters.map(\.title) == ["Intro", "Middle", "Last part"])
        #expect(m.chapters.map(\.startSeconds) == [0, 0.2, 0.4])
        #expect(m.chapters.map(\.endSeconds) == [0.2, 0.4, 0.5])
        #expect(m.info[.album] == "Matroska Album" && m.info[.genre] == "Jazz")
        // mkvmerge: an album-level Tag (TITLE "Cover Album", ARTIST "Cover Artist") and a track-level
        // one (TITLE "Cover Track"); cover.png attached as image/png.
        let (covered, _) = try Self.parse("mkv/mp3-44100-2ch-cover.mka")
        let c = try #require(covered.metadata)
        #expect(c.info[.title] == "Cover Track" && c.info[.album] == "Cover Album" && c.info[.artist] == "Cover Artist")
        #expect(c.artwork.count == 1)
        #expect(c.artwork.first?.mimeType == "image/png" && c.artwork.first?.pictureType == 3)
        #expect(c.artwork.first.map { Array($0.data.prefix(8)) } == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func videoBlocksAreSkippedAndTracksListed() throws {
        let (parser, log) = try Self.parse("mkv/aac-44100-2ch-video.mkv")
        #expect(log.error == nil)
        #expect(parser.tracks.map(\.handlerType) == ["vide", "soun"])
        #expect(parser.tracks.map(\.sampleEntryType) == ["V_MPEG4/ISO/AVC", "A_AAC"])
        #expect(parser.dataFormat?.formatID == .mpeg4AAC)
    }
}
