import AudioStreamParsing
import AudioStreamTestSupport

/// The bytes the conformance, chunking, order and seek tests parse for a fixture.
///
/// Normally the fixture itself. The exception: CAF files whose `pakt` chunk follows the `data` chunk
/// (ffmpeg 5.1 writes every VBR CAF that way). The CAF parser follows Apple's AudioFileStream there and
/// stops with `optm` at the data chunk (docs/formats/caf.md, "pakt after data: optm"): a stream cannot go
/// back for the packet table. ffprobe reads them because it can seek. For those, the tests check the
/// `optm` (`FixtureConformanceTests.packetTableAfterDataStopsWithNotOptimized`) and then parse the same
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
    static let knownGaps: [String: (code: AudioStreamError.Code, why: String)] = [
        "wav/mp3-44100-2ch.wav": (
            .unsupportedDataFormat,
            "docs/formats/wave.md, Known gaps: MPEG audio in WAVE (0x55) is fmt? until the MPEG parser exists"
        )
    ]

    /// Tags ffprobe shows that a parser documents it does not read yet: the comparison asserts they are
    /// still missing (and fails with "now read" when support lands, so the entry gets removed).
    static let knownMissingTags: [String: String] = [
        "adts/aac-44100-2ch-apetag.aac": "docs/formats/adts.md: APEv2 after the last frame is not recognised yet"
    ]

    /// The documented gap for a fixture, if any: `knownGaps`, plus every MPEG audio file while main has no
    /// MPEG audio parser (the `mpeg` branch; Fixtures/tags holds tagged MP3s): `typ?`.
    static func knownGap(_ fixture: Fixture) -> (code: AudioStreamError.Code, why: String)? {
        if let gap = knownGaps[fixture.path] { return gap }
        if fixture.name.hasSuffix(".mp3") && !mpegParserMerged {
            return (.unsupportedFileType, "no MPEG audio parser on main yet (branch mpeg)")
        }
        return nil
    }

    /// Set to true when the MPEG audio parser is merged: the MP3 fixtures then go through every check.
    static let mpegParserMerged = false

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
