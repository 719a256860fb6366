import AudioStreamParsing
import AudioStreamTestSupport

/// Expectations for fixtures whose ffprobe oracle cannot be used as is (ffprobe fails, reports no
/// packets, misreads the codec, or omits a value the comparison needs), derived by hand from the
/// specification and the file's bytes. `Fixtures/README.md` ("What ffprobe 5.1 gets wrong") lists the
/// oracle problems.
///
/// Each entry says where every value comes from. Byte offsets were read with `xxd` from the fixture
/// and checked against the chunk layout the cited specification defines.
enum HandDerived {
    struct Entry {
        enum Kind {
            /// A complete expectation.
            case stream(ExpectedStream)
            /// The oracle of another fixture that holds the same stream.
            case sameStreamAs(String)
            /// The fixture's own oracle, with fields ffprobe gets wrong or does not print replaced.
            case correctedOracle(codec: String? = nil, blockAlign: Int? = nil)
            /// Computed (from another fixture's oracle and the file layout the comment explains).
            case computed(@Sendable () throws -> ExpectedStream)
        }
        var kind: Kind
        /// Why the oracle is not used as is, and where the values come from.
        var why: String
    }

    static let entries: [String: Entry] = [
        // Implicit SBR on a mono core without a PS extension (Fixtures/tools/heaac.py, docstring: no
        // bs_extended_data in any frame). ISO/IEC 14496-3 §4.4.2.8: parametric stereo is an
        // sbr_extension with bs_extension_id 2; without it the output is HE-AAC v1, mono, at twice the
        // core rate (kAudioFormatMPEG4AAC_HE 'aach'). ffprobe 5.1 reports HE-AACv2, 2 channels, for any
        // mono SBR stream: its decoder sets up PS before it could know (docs/testing.md). Everything else
        // (rate, packets, frames: 2048 per raw data block) is the oracle's.
        "adts/heaac-44100-1ch-implicit.aac": monoSBRWithoutPS("adts/heaac-44100-1ch-implicit.aac"),
        "adts/heaac-44100-1ch-multiband.aac": monoSBRWithoutPS("adts/heaac-44100-1ch-multiband.aac"),
        "mp4/heaac-44100-1ch-implicit.m4a": monoSBRWithoutPS("mp4/heaac-44100-1ch-implicit.m4a"),
        "mp4/heaac-44100-1ch-implicit-faststart.m4a": monoSBRWithoutPS("mp4/heaac-44100-1ch-implicit-faststart.m4a"),
        "mkv/heaac-44100-1ch-implicit.mka": monoSBRWithoutPS("mkv/heaac-44100-1ch-implicit.mka"),
        // FLAC with an ID3v1 tag appended (id3lib `id3v2 -1`): ffprobe 5.1 splits native FLAC at frame
        // headers, so its last packet runs to the end of the file and holds the 128-byte tag (1806 + 282 =
        // 2088, the file size), and it shows no tags. The frames are the oracle's, the last one 128 bytes
        // shorter: ID3v1 (id3.org "ID3v1") is the last 128 bytes, starting "TAG"; RFC 9639 §9.3: the
        // frame ends with its CRC-16, which is 0 over the frame at 1806 + 154. Tags: generate.sh's values.
        "flac/flac-12000-1ch-s16-id3v1.flac": Entry(
            kind: .computed({
                let fixture = FixtureCatalog.fixture("flac/flac-12000-1ch-s16-id3v1.flac")
                var e = try ExpectedStream(oracle: fixture.oracle(), file: fixture.bytes())
                guard var packets = e.packets, let last = packets.popLast() else {
                    throw ExpectationError("no packets in the oracle")
                }
                e.packets = packets + [PacketSpan(offset: last.offset, size: last.size - 128)]
                e.byteCount -= 128
                e.info = [InfoKey.title: "V1 Title", InfoKey.artist: "V1 Artist", InfoKey.trackNumber: "2"]
                e.source = "ffprobe oracle without the trailing 128-byte ID3v1 tag; tags from generate.sh"
                return e
            }),
            why: "ffprobe 5.1 counts a trailing ID3v1 tag into the last FLAC packet and does not read it"),
        // 32-bit FLAC (flac 1.4.2): ffprobe 5.1 finds the stream (flac, 48000 Hz, mono, s32) but returns 0
        // packets. Frames from libFLAC's own analysis (`flac --analyze`, generate.sh's encoder): frame 0 at
        // 152, 10024 bits = 1253 bytes, 4096 samples; frame 1 at 1405, 2232 bits = 279 bytes, 704 samples;
        // 1405 + 279 = 1684 = the file size. 152 = 4 (fLaC) + 4 + 34 (STREAMINFO) + 4 + 18 (SEEKTABLE, one
        // point) + 4 + 84 (VORBIS_COMMENT, last), block lengths as `metaflac --list` shows: the end of the
        // metadata.
        "flac/flac-48000-1ch-s32.flac": Entry(
            kind: .stream(
                ExpectedStream(
                    format: .flac, sampleRate: 48000, channels: 1, pcm: nil, constantPacketSize: nil,
                    dataOffset: 152, byteCount: 1532, frameCount: 4800,
                    packets: [PacketSpan(offset: 152, size: 1253), PacketSpan(offset: 1405, size: 279)], info: [:],
                    source: "hand-derived: flac --analyze (libFLAC) frame list")),
            why: "ffprobe 5.1 cannot decode 32-bit FLAC: 0 packets"),
        // RF64 written to a pipe: ffmpeg cannot seek back, so ds64 stays all zero and the data chunk size
        // is 0xFFFFFFFF. ffprobe 5.1 finds the stream but returns 0 packets (Fixtures/README.md).
        // EBU Tech 3306 §3 (ds64): the real sizes live in ds64; with ds64 all zero and data size 0xFFFFFFFF
        // there is no size at all, and the data runs to the end of the file (what tolerant readers do).
        // Layout (xxd): 'RF64' size 'WAVE' (12) | 'ds64' 28 (8 + 28, ends @48) | 'fmt ' 16 (8 + 16,
        // ends @72: PCM, 2 ch, 44100 Hz, block align 4, 16 bits) | 'data' 0xFFFFFFFF (8) → first audio
        // byte @80; the file is 17720 bytes → 17640 bytes of audio = 4410 frames (0.1 s × 44100, as
        // generate.sh asked).
        "wav/pcm_s16le-44100-2ch-rf64-pipe.wav": Entry(
            kind: .stream(
                ExpectedStream(
                    format: .linearPCM, sampleRate: 44100, channels: 2,
                    pcm: PCMLayout(bits: 16, isFloat: false, isSigned: true, isBigEndian: false),
                    constantPacketSize: 4, dataOffset: 80, byteCount: 17640, frameCount: 4410,
                    packets: (0..<4410).map { PacketSpan(offset: 80 + Int64($0) * 4, size: 4) }, info: [:],
                    source: "hand-derived: EBU Tech 3306 + file layout")),
            why: "ffprobe reports 0 packets for a pipe-written RF64"),
        // BW64 (ITU-R BS.2088-1: the RF64 layout with magic 'BW64'). The fixture is the -rf64 fixture with
        // only the magic changed (tools/derive.py magic): `cmp -l` shows bytes 1 and 2 differ ('RF' →
        // 'BW') and nothing else, so the stream is the RF64 fixture's stream. (The provenance note says
        // ffprobe 5.1 does not know BW64; ffprobe 5.1.9 does, and its oracle agrees.)
        "wav/pcm_s16le-44100-2ch-bw64.wav": Entry(
            kind: .sameStreamAs("wav/pcm_s16le-44100-2ch-rf64.wav"),
            why: "provenance: ffprobe 5.1 may not recognise BW64"),
        // A valid WAVE with zero frames: ffprobe has no packet, so no first_pos. RIFF WAVE (Multimedia
        // Programming Interface and Data Specifications 1.0, "WAVE Form"): 'RIFF' size 'WAVE' (12) |
        // 'fmt ' 16 (ends @36: PCM, 2 ch, 44100 Hz, 16 bits) | 'data' 0 (ends @44; the file is 44 bytes).
        "wav/pcm_s16le-44100-2ch-empty.wav": Entry(
            kind: .stream(
                ExpectedStream(
                    format: .linearPCM, sampleRate: 44100, channels: 2,
                    pcm: PCMLayout(bits: 16, isFloat: false, isSigned: true, isBigEndian: false),
                    constantPacketSize: 4, dataOffset: 44, byteCount: 0, frameCount: 0, packets: [], info: [:],
                    source: "hand-derived: RIFF WAVE layout")),
            why: "no packets, so the oracle has no first_pos"),
        // ffmpeg writing AIFF to a pipe leaves FORM size, numSampleFrames and SSND size at 0; ffprobe gives up
        // ("Invalid data", ok: false). AIFF 1.3 (Apple, 1989) §COMM/§SSND: 'FORM' 0 'AIFF' (12) | 'COMM' 18
        // (ends @38: 2 ch, numSampleFrames 0, 16 bits, rate 0x400E AC44 0000… = 44100) | 'SSND' 0 (header
        // @38, offset 0, blockSize 0) → first audio byte @54. Sizes of 0 are unpatched placeholders (as in
        // the WAVE datasize0 fixture, which ffprobe itself reads to EOF), so the audio runs to the end:
        // 17694 − 54 = 17640 bytes = 4410 big-endian 16-bit stereo frames.
        "aiff/pcm_s16be-44100-2ch-pipe.aiff": Entry(
            kind: .stream(
                ExpectedStream(
                    format: .linearPCM, sampleRate: 44100, channels: 2,
                    pcm: PCMLayout(bits: 16, isFloat: false, isSigned: true, isBigEndian: true),
                    constantPacketSize: 4, dataOffset: 54, byteCount: 17640, frameCount: 4410,
                    packets: (0..<4410).map { PacketSpan(offset: 54 + Int64($0) * 4, size: 4) }, info: [:],
                    source: "hand-derived: AIFF 1.3 layout, placeholder sizes read to EOF")),
            why: "ffprobe fails (ok: false) on the zero placeholder sizes"),
        // RIFX (big-endian RIFF, sox -B): ffprobe 5.1 names the codec pcm_s16le and decodes byte-swapped
        // samples, but the fmt chunk is big-endian (xxd: 'fmt ' 0x00000010, tag 0x0001, 2 ch, 0x0000AC44)
        // and RIFX means every field and sample is big-endian: pcm_s16be. Packets and sizes are right.
        "wav/pcm_s16be-44100-2ch-rifx.wav": Entry(
            kind: .correctedOracle(codec: "pcm_s16be"), why: "ffprobe 5.1 misnames RIFX samples as little-endian"),
        // ADPCM in WAVE: ffprobe 5.1 prints no block_align; nBlockAlign (fmt body +12, little-endian) read
        // with xxd, cross-checked with wSamplesPerBlock (fmt extension) × blocks = the oracle's duration_sum.
        // ffmpeg IMA (tag 0x11), 22050 Hz mono: nBlockAlign 0x0400, 2041 frames per block (4 × 2041 = 8164).
        "wav/adpcm_ima_wav-22050-1ch.wav": Entry(
            kind: .correctedOracle(blockAlign: 1024), why: "no block_align for ADPCM in ffprobe 5.1"),
        // ffmpeg IMA stereo 44100 Hz: nBlockAlign 0x0400, 1017 frames per block (14 × 1017 = 14238). (The
        // provenance table says block_align 2048; the fmt chunk says 1024.)
        "wav/adpcm_ima_wav-44100-2ch.wav": Entry(
            kind: .correctedOracle(blockAlign: 1024), why: "no block_align for ADPCM in ffprobe 5.1"),
        // sox IMA 8000 Hz mono: nBlockAlign 0x0100, 505 frames per block (5 × 505 = 2525).
        "wav/adpcm_ima_wav-8000-1ch-sox.wav": Entry(
            kind: .correctedOracle(blockAlign: 256), why: "no block_align for ADPCM in ffprobe 5.1"),
        // ffmpeg MS ADPCM (tag 0x2) 22050 Hz mono: nBlockAlign 0x0400, 2036 frames per block (4 × 2036 = 8144).
        "wav/adpcm_ms-22050-1ch.wav": Entry(
            kind: .correctedOracle(blockAlign: 1024), why: "no block_align for ADPCM in ffprobe 5.1"),
        // ffmpeg MS ADPCM stereo 44100 Hz: nBlockAlign 0x0400, 1012 frames per block (14 × 1012 = 14168).
        "wav/adpcm_ms-44100-2ch.wav": Entry(
            kind: .correctedOracle(blockAlign: 1024), why: "no block_align for ADPCM in ffprobe 5.1"),
        // sox MS ADPCM 8000 Hz mono: nBlockAlign 0x0100, 500 frames per block (5 × 500 = 2500).
        "wav/adpcm_ms-8000-1ch-sox.wav": Entry(
            kind: .correctedOracle(blockAlign: 256), why: "no block_align for ADPCM in ffprobe 5.1"),
        // Wave64 MS ADPCM (ffmpeg -f w64): the fmt GUID chunk at 40, its body at 64: tag 0x0002, 1 ch, 8000 Hz,
        // 16000 bytes/s, nBlockAlign 0x0400 (body +12), 2036 frames per block (2 × 2036 = 4072, duration_sum).
        "wav/adpcm_ms-8000-1ch.w64": Entry(
            kind: .correctedOracle(blockAlign: 1024), why: "no block_align for ADPCM in ffprobe 5.1"),
        // GSM 6.10 (tag 0x31): nBlockAlign 0x0041 = 65 (fmt body +12), wSamplesPerBlock 0x0140 = 320 in the
        // 2-byte extension; 8 blocks × 320 = 2560 = duration_sum.
        "wav/gsm_ms-8000-1ch.wav": Entry(
            kind: .correctedOracle(blockAlign: 65), why: "no block_align for GSM in ffprobe 5.1"),
        // The ITU-T ADPCM bitstreams and the opaque tags: nBlockAlign (fmt body +12) read with xxd. G.726
        // (tag 0x45) and G.722 (tag 0x28F) from ffmpeg: nBlockAlign 1, wBitsPerSample 4 or 2.
        "wav/g726-8000-1ch-32k.wav": Entry(
            kind: .correctedOracle(blockAlign: 1), why: "no block_align for ADPCM in ffprobe 5.1"),
        "wav/g726-8000-1ch-16k.wav": Entry(
            kind: .correctedOracle(blockAlign: 1), why: "no block_align for ADPCM in ffprobe 5.1"),
        "wav/g722-16000-1ch.wav": Entry(
            kind: .correctedOracle(blockAlign: 1), why: "no block_align for ADPCM in ffprobe 5.1"),
        // G.723.1 (tag 0x42): nBlockAlign 0x0018 = 24; 240 frames per block from nAvgBytesPerSec 800 at 8000 Hz.
        "wav/g723_1-8000-1ch.wav": Entry(
            kind: .correctedOracle(blockAlign: 24), why: "no block_align for G.723.1 in ffprobe 5.1"),
        // Yamaha ADPCM (tag 0x20): nBlockAlign 0x0400 = 1024, 4 bits per sample: 2048 frames per block.
        "wav/adpcm_yamaha-22050-1ch.wav": Entry(
            kind: .correctedOracle(blockAlign: 1024), why: "no block_align for ADPCM in ffprobe 5.1"),
        // NeXT/Sun G.72x (encodings 23, 24: 4 bits per sample, mono): packets of the fewest frames filling
        // whole bytes, 1 byte of 2 frames (docs/formats/au.md); ffprobe prints no block_align.
        "au/g726le-8000-1ch-32k.au": Entry(
            kind: .correctedOracle(blockAlign: 1), why: "no block_align for ADPCM in ffprobe 5.1"),
        "au/g722-16000-1ch.au": Entry(
            kind: .correctedOracle(blockAlign: 1), why: "no block_align for ADPCM in ffprobe 5.1"),
        // ADTS fixtures derived from adts/aac-44100-2ch.aac by tools/adts.py (Fixtures/README.md, "What
        // ffprobe 5.1 gets wrong"): ffprobe turns the junk into packets, so the base file's 45 frames are the
        // expectation, 100 bytes later (37 more bytes of junk after frame 10: 137 later from frame 10 on).
        // audioDataByteCount is the span from the first frame to the end of the last one (junk between
        // frames included, as the ADTS parser defines it, docs/formats/adts.md).
        "adts/aac-44100-2ch-junk.aac": Entry(
            kind: .computed {
                try adtsBase(shifts: [(0, 100), (10, 137)], extraSpan: 37, source: "base frames + junk offsets")
            }, why: "ffprobe reads the junk as packets"),
        // A 67-byte ID3v2 tag between frames 19 and 20: ffprobe reports positions as if it were absent;
        // frames 20–44 are 67 bytes later than in the base file.
        "adts/aac-44100-2ch-id3-between.aac": Entry(
            kind: .computed {
                try adtsBase(shifts: [(0, 0), (20, 67)], extraSpan: 67, source: "base frames + tag offset")
            }, why: "ffprobe ignores the tag's bytes in packet positions"),
        // The base file's 45 raw data blocks regrouped two per frame with CRCs (ffprobe decodes one block per
        // frame). ISO/IEC 13818-7 §6.2: a frame of n > 1 blocks with protection_absent 0 is the 7-byte header,
        // n − 1 raw_data_block_position fields and a crc_check (2 bytes each), then each block followed by its
        // 2-byte CRC; a one-block frame is the header + crc_check (9 bytes) and the block. Block sizes come
        // from the base file's oracle (frame size − 7); the layout is checked against each frame's size.
        "adts/aac-44100-2ch-2blocks-crc.aac": Entry(
            kind: .computed { try adtsTwoBlocksWithCRC() }, why: "ffprobe reads one block per multi-block frame"),
        // Free-format MPEG audio (bitrate_index 0): ffprobe 5.1 fails ("Invalid frame size", ok: false).
        // ISO/IEC 11172-3 §2.4.3.1: a Layer II/III frame is 144 × bitrate / fs slots (+ 1 with the padding bit,
        // byte 2 bit 1); LAME --freeformat -b 200 at 44.1 kHz: 144 × 200000 / 44100 = 653 bytes. The
        // values agree with `MPEGAudioTests.freeFormatLayerIII`/`freeFormatLayerII`.
        // Layer III: the first frame (offset 0, xxd: "Info" at 36 = 4 + 32 bytes of MPEG-1 stereo side
        // information) is the Info frame, not a packet (docs/formats/mpeg-audio.md); 40 audio frames of 653
        // or 654 bytes follow it to the end of the file, 40 × 1152 frames.
        "mpeg/mp3-44100-2ch-lame-free.mp3": Entry(
            kind: .computed {
                try freeFormat(
                    "mpeg/mp3-44100-2ch-lame-free.mp3", format: .mpegLayer3, first: 653, slots: 653, packets: 40)
            }, why: "ffprobe 5.1 fails on free format (Invalid frame size)"),
        // Layer II (TwoLAME --freeformat -b 200, never padded): 39 frames of 653 bytes = the whole file.
        "mpeg/mp2-44100-2ch-twolame-free.mp2": Entry(
            kind: .computed {
                try freeFormat(
                    "mpeg/mp2-44100-2ch-twolame-free.mp2", format: .mpegLayer2, first: 0, slots: 653, packets: 39)
            }, why: "ffprobe 5.1 fails on free format (Invalid frame size)"),
        // LATM/LOAS in a transport stream: ffprobe's packets are whole LOAS frames (its aac_latm parser),
        // ours the raw data blocks inside their AudioMuxElements (ISO/IEC 14496-3 §1.7.3). generate.sh made
        // the stream by stream-copying ts/aac-48000-2ch-latm-source.aac (ADTS) through ffmpeg's latm muxer,
        // so that file's frames less their 7-byte headers are the payloads, in order; each packet's offset is
        // its LOAS frame's first byte (ffprobe's packets placed in the elementary stream, TSLayout).
        "ts/aac-48000-2ch-latm.ts": Entry(
            kind: .computed {
                try latmInTransportStream("ts/aac-48000-2ch-latm.ts", source: "ts/aac-48000-2ch-latm-source.aac")
            }, why: "ffprobe's LATM packets are whole LOAS frames; the payload sizes come from the ADTS source"),
        // The same for HE-AAC with implicit signalling: adts/heaac-44100-2ch-implicit.aac stream-copied
        // through the latm muxer (an AAC-LC StreamMuxConfig; SBR only in the payloads' fill elements).
        "ts/heaac-44100-2ch-implicit-latm.ts": Entry(
            kind: .computed {
                try latmInTransportStream(
                    "ts/heaac-44100-2ch-implicit-latm.ts", source: "adts/heaac-44100-2ch-implicit.aac")
            }, why: "ffprobe's LATM packets are whole LOAS frames; the payload sizes come from the ADTS source"),
        // Raw LOAS: as in the transport stream, ffprobe's packets are whole LOAS frames (ISO/IEC 14496-3
        // §1.7.2) and ours the raw data blocks inside their AudioMuxElements, each at its frame's first byte.
        // generate.sh stream-copied ts/aac-48000-2ch-latm-source.aac (ADTS) through ffmpeg's latm muxer:
        // that file's frames less their headers are the payloads, in order.
        "loas/aac-48000-2ch.loas": Entry(
            kind: .computed { try rawLOAS("loas/aac-48000-2ch.loas", sourceFramesBefore: 0) },
            why: "ffprobe's LATM packets are whole LOAS frames; the payload sizes come from the ADTS source"),
        // The same stream from its second frame on (tools/loas_cut_in.py): an AudioMuxElement whose first
        // bit, useSameStreamMux (§1.7.3.1, Table 1.41), is 1 reuses a StreamMuxConfig, and none came before
        // it, so the frames up to the first one with the bit 0 cannot be read; from there the packets are
        // the source's blocks from index 1 + that frame's index.
        "loas/aac-48000-2ch-cut-in.loas": Entry(
            kind: .computed { try rawLOAS("loas/aac-48000-2ch-cut-in.loas", sourceFramesBefore: 1) },
            why: "ffprobe's LATM packets are whole LOAS frames; frames before the first StreamMuxConfig are unreadable"),
        // Chained Ogg (RFC 3533 §4): the files are `cat` of two fixtures (generate.sh), so the stream is the
        // first file's packets followed by the second's, shifted by the first file's length. ffprobe cannot
        // read chains (it keeps the first link's format; ffprobe-oracle.md). The format announced last is the
        // second link's; dataOffset is the first link's.
        "ogg/vorbis-chained-44100-2ch-22050-1ch.ogg": Entry(
            kind: .computed { try chainedOgg("ogg/vorbis-44100-2ch-oggenc.ogg", "ogg/vorbis-22050-1ch-oggenc.ogg") },
            why: "ffprobe cannot read chained Ogg"),
        "ogg/opus-chained-2ch-1ch.opus": Entry(
            kind: .computed {
                try chainedOgg("ogg/opus-48000-2ch-64k-opusenc.opus", "ogg/opus-16000-1ch-16k-opusenc.opus")
            }, why: "ffprobe cannot read chained Ogg"),
    ]

    /// Two Ogg files concatenated: each link's expectation from its own oracle, the second shifted.
    static func chainedOgg(_ first: String, _ second: String) throws -> ExpectedStream {
        let a = FixtureCatalog.fixture(first)
        let b = FixtureCatalog.fixture(second)
        let e1 = try ExpectedStream(oracle: a.oracle(), file: a.bytes())
        let e2 = try ExpectedStream(oracle: b.oracle(), file: b.bytes()).shifted(by: Int64(try a.bytes().count))
        var e = e2
        e.dataOffset = e1.dataOffset
        e.byteCount = e1.byteCount + e2.byteCount
        e.frameCount = e1.frameCount + e2.frameCount
        e.packets = (e1.packets ?? []) + (e2.packets ?? [])
        e.source = "oracles of \(first) and \(second), the second shifted by the first's length"
        return e
    }

    /// A free-format MPEG-1 44.1 kHz stereo stream of 1152-sample frames: `packets` frames of `slots` bytes
    /// (+ 1 when the header's padding bit is set) from `first` to the end of the file, each checked to start
    /// with a free-format header (sync, bitrate_index 0).
    static func freeFormat(
        _ path: String, format: AudioFormat, first: Int64, slots: Int64, packets count: Int
    ) throws -> ExpectedStream {
        let file = try FixtureCatalog.fixture(path).bytes()
        var packets: [PacketSpan] = []
        var at = first
        while at < Int64(file.count) {
            let p = Int(at)
            guard p + 4 <= file.count, file[p] == 0xFF, file[p + 1] & 0xE0 == 0xE0, file[p + 2] >> 4 == 0 else {
                throw ExpectationError("\(path): no free-format header at \(at)")
            }
            let size = slots + Int64(file[p + 2] >> 1 & 1)
            packets.append(PacketSpan(offset: at, size: size))
            at += size
        }
        guard at == Int64(file.count), packets.count == count else {
            throw ExpectationError("\(path): \(packets.count) frames ending at \(at), expected \(count) to the end")
        }
        return ExpectedStream(
            format: format, sampleRate: 44100, channels: 2, pcm: nil, constantPacketSize: nil, dataOffset: first,
            byteCount: Int64(file.count) - first, frameCount: Int64(count) * 1152, packets: packets, info: [:],
            source: "hand-derived: ISO/IEC 11172-3 §2.4.3.1 free-format frames of \(slots) slots")
    }

    /// The base ADTS file's expectation with its packets shifted: `shifts` are (first packet, shift) pairs.
    static func adtsBase(shifts: [(Int, Int64)], extraSpan: Int64, source: String) throws -> ExpectedStream {
        let base = FixtureCatalog.fixture("adts/aac-44100-2ch.aac")
        var e = try ExpectedStream(oracle: base.oracle(), file: base.bytes())
        func shift(_ i: Int) -> Int64 { shifts.last { $0.0 <= i }?.1 ?? 0 }
        e.packets = e.packets?.enumerated().map { i, p in PacketSpan(offset: p.offset + shift(i), size: p.size) }
        e.dataOffset += shift(0)
        e.byteCount += extraSpan
        e.source = "hand-derived: adts/aac-44100-2ch.aac oracle, \(source)"
        return e
    }

    /// An LATM transport stream made from an ADTS file (`source`): the transport stream's oracle (LOAS
    /// frame positions, byte count, frames) with each packet's size replaced by the source's raw data
    /// block (see the entries).
    static func latmInTransportStream(_ path: String, source sourcePath: String) throws -> ExpectedStream {
        let source = FixtureCatalog.fixture(sourcePath)
        let blocks = try ExpectedStream(oracle: source.oracle(), file: source.bytes()).packets ?? []
        let fixture = FixtureCatalog.fixture(path)
        var e = try ExpectedStream(oracle: fixture.oracle(), file: fixture.bytes())
        let frames = e.packets ?? []
        guard frames.count == blocks.count else {
            throw ExpectationError("\(frames.count) LOAS frames, \(blocks.count) ADTS frames in the source")
        }
        e.packets = zip(frames, blocks).map { PacketSpan(offset: $0.offset, size: $1.size) }
        e.source = "ffprobe oracle (LOAS frames) with the payload sizes of \(sourcePath)'s oracle"
        return e
    }

    /// A raw LOAS file of one payload per frame, `loas/aac-48000-2ch.loas` less its first
    /// `sourceFramesBefore` frames: that file's oracle's LOAS frames (shifted by the bytes cut away; ffprobe
    /// gives the cut-in file no durations) from the first that carries a StreamMuxConfig (the first bit
    /// after the 3-byte header is useSameStreamMux = 0), each packet the ADTS source's raw data block of the
    /// same frame.
    static func rawLOAS(_ path: String, sourceFramesBefore cut: Int) throws -> ExpectedStream {
        let source = FixtureCatalog.fixture("ts/aac-48000-2ch-latm-source.aac")
        let blocks = try ExpectedStream(oracle: source.oracle(), file: source.bytes()).packets ?? []
        let whole = FixtureCatalog.fixture("loas/aac-48000-2ch.loas")
        var e = try ExpectedStream(oracle: whole.oracle(), file: whole.bytes())
        let allFrames = e.packets ?? []
        guard allFrames.count == blocks.count, cut < allFrames.count else {
            throw ExpectationError("\(allFrames.count) LOAS frames, \(blocks.count) ADTS frames in the source")
        }
        let shift = allFrames[cut].offset
        let file = try FixtureCatalog.fixture(path).bytes()
        let frames = allFrames[cut...].map { PacketSpan(offset: $0.offset - shift, size: $0.size) }
        guard frames.last.map({ Int($0.offset + $0.size) }) == file.count else {
            throw ExpectationError("\(path) is not the whole file's frames from \(cut) on")
        }
        guard
            let first = frames.firstIndex(where: {
                file[Int($0.offset)] == 0x56 && file[Int($0.offset) + 3] & 0x80 == 0
            })
        else { throw ExpectationError("no LOAS frame with a StreamMuxConfig") }
        let kept = frames[first...]
        e.packets = kept.enumerated().map { k, frame in
            PacketSpan(offset: frame.offset, size: blocks[cut + first + k].size)
        }
        e.dataOffset = kept.first?.offset ?? 0
        e.byteCount = kept.reduce(0) { $0 + $1.size }
        e.frameCount = Int64(kept.count) * 1024
        e.source =
            "oracle of loas/aac-48000-2ch.loas (LOAS frames from the first StreamMuxConfig) with the payload sizes of its ADTS source"
        return e
    }

    static func adtsTwoBlocksWithCRC() throws -> ExpectedStream {
        let base = FixtureCatalog.fixture("adts/aac-44100-2ch.aac")
        var e = try ExpectedStream(oracle: base.oracle(), file: base.bytes())
        let blocks = (e.packets ?? []).map(\.size)
        let fixture = FixtureCatalog.fixture("adts/aac-44100-2ch-2blocks-crc.aac")
        let file = try fixture.bytes()
        let oracle = try fixture.oracle()
        var packets: [PacketSpan] = []
        for (i, frame) in oracle.packets.enumerated() {
            guard let pos = frame.pos else { throw ExpectationError("frame \(i) has no pos") }
            let header = try ADTSFrame(file, at: pos, index: i)
            let n = header.blocks
            var at = pos + (n == 1 ? 9 : 7 + 2 * Int64(n - 1) + 2)
            for _ in 0..<n {
                guard packets.count < blocks.count else { throw ExpectationError("more blocks than the base file") }
                let size = blocks[packets.count]
                packets.append(PacketSpan(offset: at, size: size))
                at += size + (n == 1 ? 0 : 2)
            }
            guard at == pos + frame.size else {
                throw ExpectationError("frame \(i): blocks end at \(at), the frame at \(pos + frame.size)")
            }
        }
        guard packets.count == blocks.count else {
            throw ExpectationError("\(packets.count) blocks, base has \(blocks.count)")
        }
        e.packets = packets
        e.byteCount = oracle.summary?.bytes ?? 0
        e.source = "hand-derived: ISO/IEC 13818-7 §6.2 layout, block sizes from adts/aac-44100-2ch.aac"
        return e
    }

    /// The oracle of a mono-core SBR fixture without PS, with the spec's HE-AAC v1 mono for ffprobe's
    /// HE-AACv2 stereo.
    static func monoSBRWithoutPS(_ path: String) -> Entry {
        Entry(
            kind: .computed({
                let fixture = FixtureCatalog.fixture(path)
                var e = try ExpectedStream(oracle: fixture.oracle(), file: fixture.bytes())
                e.format = .mpeg4AAC_HE
                e.channels = 1
                e.source = "ffprobe oracle with HE-AAC v1 mono (no PS extension in the first SBR payload, §4.4.2.8)"
                return e
            }),
            why: "ffprobe reports HE-AACv2 stereo for any mono SBR stream; without a PS extension it is HE-AAC v1 mono")
    }
}
