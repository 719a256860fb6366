import AudioStreamParsing
import AudioStreamTestSupport

/// The bytes the conformance, chunking, order and seek tests parse for a fixture.
///
/// Normally the fixture itself. The exception: CAF files whose `pakt` chunk follows the `data` chunk
/// (ffmpeg 5.1 writes every VBR CAF that way). With default options the CAF parser follows Apple's
/// AudioFileStream there and stops with `optm` (docs/formats/caf.md, "pakt after data"): a stream cannot
/// go back for the packet table. (With `allowsByteRangeRequests` or `bufferUnparsedMediaUpTo` it reads
/// them: `CAFTableAfterDataTests` compares those runs with the oracle directly.) For the default run, the
/// tests check the `optm` (`FixtureConformanceTests.packetTableAfterDataStopsWithNotOptimized`) and then parse the same
/// file with the `pakt` chunk moved before the `data` chunk, comparing with the oracle shifted by the
/// moved chunk's length — so every packet is still checked against ffprobe.
enum ConformanceInput {
    /// CAF fixtures with the packet table after the audio data (checked complete by
    /// `packetTableAfterDataListIsComplete`).
    static let packetTableAfterData: Set<String> = [
        "caf/alac-44100-2ch.caf", "caf/alac-8000-1ch-silence.caf", "caf/mp3-44100-2ch.caf",
        "caf/opus-48000-1ch.caf", "caf/opus-48000-2ch.caf",
    ]

    /// Fixtures a parser documents as unsupported: the error it must throw, and where it is documented.
    /// When support lands the conformance test fails with "now parses": remove the entry, and the oracle
    /// comparison, chunking, order and seek tests take over.
    /// A `nil` code accepts any result (the file is not parsed as what it is yet, e.g. detected as another
    /// format); the tests that compare packets skip it either way.
    static let knownGaps: [String: (code: AudioStreamError.Code?, why: String)] = [:]

    /// Fixtures damaged on purpose whose parse ends with a documented error after what can still be read
    /// (issue 15: a damaged structure costs only what depends on it). The oracle is not compared (ffprobe
    /// reads them differently: docs/testing.md); `MP4DamagedTableTests` checks the events by hand.
    static let damagedByDesign: [String: (code: AudioStreamError.Code?, why: String)] = [
        "mp4/aac-22050-1ch-stsz-cut.m4b": (
            .invalidFile,
            "docs/formats/mp4.md, Damaged sample tables: the audio track's stsz is cut short; dta? after the metadata"
        )
    ]

    /// Tags ffprobe shows that a parser documents it does not read yet: the comparison asserts they are
    /// still missing (and fails with "now read" when support lands, so the entry gets removed).
    static let knownMissingTags: [String: String] = [:]

    /// Tags ffprobe 5.1 shows differently from what the file holds, documented in `docs/metadata.md`
    /// ("Deviations and known gaps") and `Fixtures/README.md` ("Tag fixtures"): the values expected instead,
    /// by hand from the generator's input (`Fixtures/generate.sh`, `Fixtures/tools/metadata_tags.py`,
    /// `metadata_unsync.pl`). They replace the oracle's value for the key; the other keys keep the oracle's.
    static let correctedTags: [String: (info: [InfoKey: String], why: String)] = [
        // ffprobe 5.1 does not read APEv2 in MP3; the APEv2 tag precedes ID3v1, and an info key keeps the
        // first value a tag gave it (docs/metadata.md, "First wins"; docs/formats/mpeg-audio.md).
        "mpeg/mp3-44100-2ch-apev2-id3v1.mp3": (
            [InfoKey.title: "APE Title", InfoKey.artist: "APE Artist"],
            "generate.sh: mutagen APEv2 Title/Artist before the ID3v1 tag; ffprobe shows only ID3v1"
        ),
        "tags/apev2-mutagen-id3v1.mp3": (
            [InfoKey.title: "APE Tïtle", InfoKey.artist: "APE Artist", InfoKey.trackNumber: "6"],
            "metadata_tags.py write_ape: APEv2 before the ID3v1 tag; ffprobe shows only ID3v1"
        ),
        // Two TPE1 values (ID3v2.4 NUL-separated) joined with "; "; ffprobe shows only the first.
        "tags/id3v24-mutagen-chapters.mp3": (
            [InfoKey.artist: "First Ärtist; Second Artist"],
            "metadata_tags.py: TPE1 text [\"First Ärtist\", \"Second Artist\"]; ffprobe shows the first value only"
        ),
        // Tag-level unsynchronisation: ffprobe cuts the title and loses TPE1.
        "tags/id3v23-mp3tag-unsync.mp3": (
            [InfoKey.title: "Unsync ÿà Tïtle", InfoKey.artist: "Unsync Artist"],
            "metadata_unsync.pl: TIT2 \"Unsync \\xFF\\xE0 T\\xEFtle\" (Latin-1), TPE1 \"Unsync Artist\"; "
                + "ffprobe misreads it"
        ),
    ]

    /// The options the conformance, chunking, order and seek tests parse a fixture with. MP4 files whose `moov`
    /// follows the `mdat` (ffmpeg's default) cannot be parsed as a pure stream with the defaults (`optm`, as
    /// Apple's parser: docs/formats/mp4.md); they are parsed with `bufferUnparsedMediaUpTo` (the media held
    /// until the `moov` arrives). `MP4FixtureTests` checks the default `optm` and the range-request mode on
    /// the same files.
    static func options(for fixture: Fixture) -> ParserOptions {
        guard fixture.folder == "mp4" else { return ParserOptions() }
        return ParserOptions(bufferUnparsedMediaUpTo: ParserLimits().maxBufferedBytes)
    }

    /// Fixtures whose format documents that it does not seek yet (`seek` throws `dataUnavailable`, asserted by
    /// the format's own tests): the seek suites skip them. None today (MPEG-TS seeks since issue 19:
    /// docs/formats/mpeg-ts.md, "Seeking"); kept so that a new format can land before its seeking does.
    static func seekGap(_ fixture: Fixture) -> String? {
        nil
    }

    /// The documented gap for a fixture, if any.
    static func knownGap(_ fixture: Fixture) -> (code: AudioStreamError.Code?, why: String)? {
        knownGaps[fixture.path] ?? damagedByDesign[fixture.path]
    }

    struct Input {
        var bytes: [UInt8]
        /// How far the audio data moved relative to the fixture (oracle offsets + shift).
        var shift: Int64
    }

    static func input(for fixture: Fixture) throws -> Input {
        let bytes = try fixture.bytes()
        guard packetTableAfterData.contains(fixture.path) else { return Input(bytes: bytes, shift: 0) }
        guard let moved = CAFLayout.movingPacketTableBeforeData(bytes) else {
            throw ExpectationError("\(fixture): listed as pakt-after-data, but no pakt follows the data")
        }
        return Input(bytes: moved.bytes, shift: moved.shift)
    }
}

extension ExpectedStream {
    /// The expectation for the same stream with its audio data `shift` bytes later.
    func shifted(by shift: Int64) -> ExpectedStream {
        guard shift != 0 else { return self }
        var e = self
        e.dataOffset += shift
        e.packets = packets?.map { PacketSpan(offset: $0.offset + shift, size: $0.size) }
        e.source += ", shifted by \(shift) bytes (pakt moved before data)"
        return e
    }
}
