import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// Head and tail (docs/formats/ogg.md, "Head and tail"): the header pages fed until
/// `readyToProducePackets`, then the last page with `.discontinuity` (after a few bytes of the page before
/// it, so that the parser resynchronises), then `finish`: `packetTableInfo` holds the stream's valid frames
/// from the last granule position, and `estimatedDuration` is flagged estimated. Expected values: the
/// committed ffprobe oracle's `duration_ts` (the last granule position, in samples), minus the pre-skip
/// for Opus (RFC 7845 §4.5; ffprobe does not subtract it: docs/testing.md), read from the oracle's
/// `extradata_hex` (the OpusHead, RFC 7845 §5.1: pre-skip at offset 10, little-endian).
@Suite("Ogg: head and tail")
struct OggHeadAndTailTests {
    static let singleStreams = [
        "ogg/flac-22050-1ch-paged.oga", "ogg/flac-44100-2ch-ffmpeg.oga", "ogg/flac-96000-2ch-s24-spans-pages.oga",
        // The followed stream is the first audio stream, Opus (the oracle's stream); its page is the last.
        "ogg/multiplexed-opus-vorbis.ogg", "ogg/opus-16000-1ch-16k-opusenc.opus", "ogg/opus-48000-2ch-64k-opusenc.opus",
        "ogg/opus-48000-2ch-cbr-framesize-opusenc.opus", "ogg/opus-48000-2ch-ffmpeg.opus",
        "ogg/opus-48000-2ch-paged.opus", "ogg/opus-48000-2ch-picture-opusenc.opus",
        "ogg/vorbis-22050-1ch-big-comment.ogg", "ogg/vorbis-22050-1ch-oggenc.ogg", "ogg/vorbis-44100-2ch-chapters.ogg",
        "ogg/vorbis-44100-2ch-ffmpeg.ogg", "ogg/vorbis-44100-2ch-oggenc.ogg", "ogg/vorbis-44100-2ch-paged.ogg",
        "ogg/vorbis-48000-6ch-oggenc.ogg", "ogg/vorbis-8000-1ch-oggenc.ogg",
    ]

    /// Where the last page begins (found independently: the last "OggS" whose page checks).
    static func lastPageStart(_ bytes: [UInt8]) -> Int? {
        OggPageBodies(bytes).bodies.last.map { body in
            var start = body.range.lowerBound - 27
            while start >= 0 && !(bytes[start] == 0x4F && bytes[start + 1] == 0x67 && bytes[start + 2] == 0x67) {
                start -= 1
            }
            return start
        }
    }

    /// Feeds `bytes` 512 at a time until the parser is ready to produce packets; returns how many were fed.
    static func feedHead(_ parser: AudioStreamParser, _ bytes: [UInt8]) throws -> Int {
        var fed = 0
        while fed < bytes.count && !parser.isReadyToProducePackets {
            let end = min(bytes.count, fed + 512)
            try parser.parse(bytes[fed..<end])
            fed = end
        }
        return fed
    }

    @Test(arguments: singleStreams)
    func lengthFromTheLastGranulePosition(_ path: String) throws {
        let fixture = FixtureCatalog.fixture(path)
        let oracle = try fixture.oracle()
        let stream = try #require(oracle.stream)
        var expected = try #require(stream.fields["duration_ts"]?.int)
        if stream.codecName == "opus" {
            let head = try #require(stream.fields["extradata_hex"]?.string)
            let byte = { (i: Int) in Int64(head.dropFirst(2 * i).prefix(2), radix: 16) ?? 0 }
            expected -= byte(10) | byte(11) << 8
        }
        let bytes = try fixture.bytes()
        let last = try #require(Self.lastPageStart(bytes))
        let parser = AudioStreamParser()
        _ = try Self.feedHead(parser, bytes)
        // The tail may begin before the end of the head (a short fixture): a discontinuity says only that the
        // bytes do not follow the previous ones.
        try parser.parse(bytes[(last - 5)...], flags: .discontinuity)
        try parser.finish()
        let info = try #require(parser.packetTableInfo, "\(path)")
        #expect(info.numberValidFrames == expected, "\(path)")
        let duration = try #require(parser.estimatedDuration)
        #expect(duration.frames == expected && duration.isEstimated && duration.source == .packetTable, "\(path)")
    }

    @Test("a tail of another link, or of nothing the followed stream wrote, announces no length")
    func chainedTailTellsNothing() throws {
        for path in ["ogg/vorbis-chained-44100-2ch-22050-1ch.ogg", "ogg/opus-chained-2ch-1ch.opus"] {
            let bytes = try FixtureCatalog.fixture(path).bytes()
            let last = try #require(Self.lastPageStart(bytes))
            let parser = AudioStreamParser()
            _ = try Self.feedHead(parser, bytes)
            let before = parser.packetTableInfo
            try parser.parse(bytes[(last - 5)...], flags: .discontinuity)
            try parser.finish()
            #expect(parser.packetTableInfo == before, "\(path)")
        }
    }

    @Test("a whole parse stays exact; after a discontinuity the duration is estimated")
    func exactOnlyWhenWhole() throws {
        let bytes = try FixtureCatalog.fixture("ogg/vorbis-44100-2ch-paged.ogg").bytes()
        let whole = AudioStreamParser()
        try whole.parse(bytes)
        try whole.finish()
        #expect(whole.estimatedDuration?.isEstimated == false)
        let jumped = AudioStreamParser()
        let head = try Self.feedHead(jumped, bytes)
        try jumped.parse(bytes[(head + 1)...], flags: .discontinuity)
        try jumped.finish()
        let d = try #require(jumped.estimatedDuration)
        #expect(d.isEstimated && d.frames == whole.estimatedDuration?.frames)
    }
}
