import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// FLAC in Ogg announces its length as the native FLAC parser does: the frames of its packets (each FLAC
/// frame header states its block size) as valid frames, and, where the stream description claims a
/// constant block size, a shorter last frame as the remainder. Found on mutagen's `empty.oggflac`, whose
/// last frame holds 1,216 of 4,608 samples: the duration was packets × 4,608 before. Expected values:
/// the sum of the packet durations in the committed ffprobe oracle (`duration_sum`, in samples).
@Suite("Ogg FLAC: valid frames and remainder")
struct OggFLACLengthTests {
    @Test(arguments: [
        "ogg/flac-22050-1ch-paged.oga", "ogg/flac-44100-2ch-ffmpeg.oga", "ogg/flac-96000-2ch-s24-spans-pages.oga",
    ])
    func lengthEqualsTheOracle(_ path: String) throws {
        let fixture = FixtureCatalog.fixture(path)
        let oracle = try fixture.oracle()
        let total = try #require(oracle.summary?.durationSum)
        let packets = try #require(oracle.summary?.packets)
        let log = ParseRunner.run(try fixture.bytes(), chunking: .whole)
        guard case .packetTableInfo(let info)? = log.lastValues[.packetTableInfo],
            case .dataFormat(let format)? = log.lastValues[.dataFormat]
        else {
            Issue.record("\(path): no packetTableInfo or dataFormat")
            return
        }
        #expect(info.numberValidFrames == total)
        #expect(info.primingFrames == 0)
        let nominal = Int64(packets) * Int64(format.framesPerPacket)
        #expect(Int64(info.remainderFrames) == (format.framesPerPacket > 0 ? nominal - total : 0))
    }
}
