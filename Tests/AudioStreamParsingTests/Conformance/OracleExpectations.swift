import AudioStreamParsing
import AudioStreamTestSupport

/// What a fixture must parse to, derived from its ffprobe oracle (normalized as `docs/testing.md`
/// explains) or, where the oracle cannot speak, from the hand-derived table in `HandDerived`.
struct ExpectedStream: CustomStringConvertible {
    /// The codec family (`AudioFormat`), from the codec table.
    var format: AudioFormat
    var sampleRate: Int
    var channels: Int
    /// For linear PCM: the sample layout the codec name states.
    var pcm: PCMLayout?
    /// For constant-size packets: the size of one packet (ffprobe `block_align`).
    var constantPacketSize: Int?
    /// Absolute offset of the first audio byte.
    var dataOffset: Int64
    /// Bytes of audio data.
    var byteCount: Int64
    /// Sample frames in all packets (nominal: priming/remainder not subtracted).
    var frameCount: Int64
    /// How far the frame count may be off (Matroska: ffprobe's durations are in TimestampScale units,
    /// not frames); 0: exact.
    var frameTolerance: Int64 = 0
    /// Every packet as (absolute offset, size), when the oracle's packets can be mapped to ours.
    var packets: [PacketSpan]?
    /// Info-dictionary entries ffprobe shows (`format_tags`), mapped to Apple's keys.
    var info: [InfoKey: String]
    /// Where the values come from.
    var source: String

    var description: String {
        "\(format) \(sampleRate) Hz \(channels) ch, data @\(dataOffset) \(byteCount) B, \(frameCount) frames"
            + " [\(source)]"
    }
}

/// An (absolute offset, size) pair.
struct PacketSpan: Equatable, CustomStringConvertible {
    var offset: Int64
    var size: Int64
    var description: String { "@\(offset)+\(size)" }
}

/// The linear PCM sample layout encoded in an ffmpeg `pcm_*` codec name.
struct PCMLayout: Equatable {
    var bits: Int
    var isFloat: Bool
    var isSigned: Bool
    /// nil for 8-bit samples (no byte order).
    var isBigEndian: Bool?
}

/// The codec table: ffprobe `codec_name` → our `AudioFormat`, and how ffprobe packetizes it.
enum CodecTable {
    /// How ffprobe's packets relate to ours (see `/work/shared/reference/ffprobe-oracle.md`).
    enum Packetization {
        /// Constant-size units (a PCM frame, a µ-law/A-law frame, an ADPCM block): ffprobe groups several
        /// units into one packet; expand each oracle packet into `size / block_align` units.
        case grouped
        /// One oracle packet is one of our packets (CAF pakt entries, MP3 frames, IMA4 blocks).
        case oneToOne
    }

    struct Entry {
        var format: AudioFormat
        var packetization: Packetization
    }

    /// Non-PCM codecs. `pcm_*` names are decoded by `pcmLayout(_:)`.
    static let entries: [String: Entry] = [
        "pcm_mulaw": Entry(format: .uLaw, packetization: .grouped),
        "pcm_alaw": Entry(format: .aLaw, packetization: .grouped),
        // QuickTime/Apple IMA4: 34 bytes × channels per 64 frames; ffprobe: one block per packet.
        "adpcm_ima_qt": Entry(format: .appleIMA4, packetization: .grouped),
        // WAVE IMA (tag 0x11) and MS ADPCM (tag 0x2): ffprobe groups several blocks per packet.
        "adpcm_ima_wav": Entry(format: .dviIntelIMA, packetization: .grouped),
        "adpcm_ms": Entry(format: .microsoftADPCM, packetization: .grouped),
        "gsm_ms": Entry(format: .microsoftGSM, packetization: .grouped),
        // The WAVE format tags without a CoreAudio constant: 'ms' << 16 | tag (AudioFormat.microsoftACM).
        // FFmpeg's G.726 in WAVE is tag 0x45; in NeXT/Sun files (adpcm_g726le, encoding 23) the G.721 ID 0x40.
        "adpcm_g726": Entry(format: .microsoftACM(tag: 0x0045), packetization: .grouped),
        "adpcm_g726le": Entry(format: .microsoftACM(tag: 0x0040), packetization: .grouped),
        "adpcm_g722": Entry(format: .microsoftACM(tag: 0x028F), packetization: .grouped),
        "g723_1": Entry(format: .microsoftACM(tag: 0x0042), packetization: .grouped),
        "adpcm_yamaha": Entry(format: .microsoftACM(tag: 0x0020), packetization: .grouped),
        "amr_nb": Entry(format: .amr, packetization: .oneToOne),
        "amr_wb": Entry(format: .amrWB, packetization: .oneToOne),
        // QuickTime's 'agsm' entry, delivered opaque with the entry type as the format ID.
        "gsm": Entry(format: AudioFormat(rawValue: 0x6167_736D), packetization: .oneToOne),
        "alac": Entry(format: .appleLossless, packetization: .oneToOne),
        "opus": Entry(format: .opus, packetization: .oneToOne),
        "mp3": Entry(format: .mpegLayer3, packetization: .oneToOne),
        "mp2": Entry(format: .mpegLayer2, packetization: .oneToOne),
        "mp1": Entry(format: .mpegLayer1, packetization: .oneToOne),
        "aac": Entry(format: .mpeg4AAC, packetization: .oneToOne),
        "flac": Entry(format: .flac, packetization: .oneToOne),
        "vorbis": Entry(format: .vorbis, packetization: .oneToOne),
        "ac3": Entry(format: .ac3, packetization: .oneToOne),
        "eac3": Entry(format: .enhancedAC3, packetization: .oneToOne),
        // LATM in a transport stream (HandDerived: ffprobe's packets are whole LOAS frames).
        "aac_latm": Entry(format: .mpeg4AAC, packetization: .oneToOne),
    ]

    /// ffprobe's AAC profiles with SBR and their CoreAudio formats (kAudioFormatMPEG4AAC_HE 'aach',
    /// kAudioFormatMPEG4AAC_HE_V2 'aacp').
    static let sbrFormats: [String: AudioFormat] = ["HE-AAC": .mpeg4AAC_HE, "HE-AACv2": .mpeg4AAC_HE_V2]

    /// The entry for a codec name, or nil when the table lacks it (the test then fails, naming it).
    static func entry(_ codec: String) -> Entry? {
        if pcmLayout(codec) != nil { return Entry(format: .linearPCM, packetization: .grouped) }
        return entries[codec]
    }

    /// Decodes `pcm_<s|u|f><bits>[le|be]` (ffmpeg's linear PCM codec names).
    static func pcmLayout(_ codec: String) -> PCMLayout? {
        guard codec.hasPrefix("pcm_") else { return nil }
        var rest = Substring(codec.dropFirst(4))
        guard let kind = rest.first, "suf".contains(kind) else { return nil }
        rest = rest.dropFirst()
        let digits = rest.prefix { $0.isNumber }
        guard let bits = Int(digits), [8, 16, 24, 32, 64].contains(bits) else { return nil }
        rest = rest.dropFirst(digits.count)
        let bigEndian: Bool?
        switch rest {
        case "": bigEndian = nil
        case "be": bigEndian = true
        case "le": bigEndian = false
        default: return nil
        }
        if bits > 8 && bigEndian == nil { return nil }
        return PCMLayout(
            bits: bits, isFloat: kind == "f", isSigned: kind == "s", isBigEndian: bits > 8 ? bigEndian : nil)
    }
}

/// ffprobe `format_tags` keys that name an Apple info-dictionary entry (`kAFInfoDictionary_*`).
enum TagTable {
    static let infoKeys: [String: InfoKey] = [
        "title": InfoKey.title,
        "artist": InfoKey.artist,
        "album": InfoKey.album,
        "comment": InfoKey.comments,
        "genre": InfoKey.genre,
        "copyright": InfoKey.copyright,
        "composer": InfoKey.composer,
        "track": InfoKey.trackNumber,
    ]
}

extension ExpectedStream {
    /// Derives the expectation from an oracle. Throws a readable message when the oracle lacks a value
    /// the comparison needs (the fixture then needs a `HandDerived` entry).
    ///
    /// - Parameter file: the fixture's bytes, needed for ADTS (the frame header length of each packet).
    init(oracle: Oracle, file: [UInt8] = []) throws(ExpectationError) {
        guard oracle.ok else { throw ExpectationError("oracle has ok: false") }
        guard let stream = oracle.stream, let codec = stream.codecName else {
            throw ExpectationError("oracle has no audio stream")
        }
        guard var entry = CodecTable.entry(codec) else {
            throw ExpectationError("codec \(codec) is not in CodecTable")
        }
        // AAC with SBR (ffprobe's profile): the HE-AAC layer is the data format, 2048 frames per block.
        let sbrProfile =
            codec == "aac" || codec == "aac_latm" ? CodecTable.sbrFormats[stream.fields["profile"]?.string ?? ""] : nil
        if let sbrProfile { entry.format = sbrProfile }
        guard let rate = stream.sampleRate, let channels = stream.channels else {
            throw ExpectationError("oracle stream lacks sample_rate or channels")
        }
        guard let summary = oracle.summary, let firstPos = summary.firstPos, let bytes = summary.bytes else {
            throw ExpectationError("oracle summary lacks first_pos or bytes (no packets?)")
        }
        if oracle.formatName == "mpegts" {
            self = try Self.transportStream(oracle: oracle, file: file, entry: entry, rate: rate, channels: channels)
            return
        }
        let pcm = CodecTable.pcmLayout(codec)
        var unit: Int?
        if entry.packetization == .grouped {
            // block_align is the size of one constant packet; for PCM it must be channels × bytes.
            if let pcm {
                unit = channels * pcm.bits / 8
                if let b = stream.blockAlign, b != 0, b != unit {
                    throw ExpectationError("oracle block_align \(b) ≠ channels × bits / 8 = \(unit ?? 0)")
                }
            } else if codec == "pcm_mulaw" || codec == "pcm_alaw" {
                unit = channels
            } else if codec == "adpcm_ima_qt" {
                // Apple IMA4 (QuickTime): every packet is 34 bytes per channel (2-byte header + 32 bytes of
                // 4-bit samples) holding 64 frames. ffprobe 5.1 prints no block_align for ADPCM.
                unit = 34 * channels
            } else {
                guard let b = stream.blockAlign, b > 0 else { throw ExpectationError("oracle lacks block_align") }
                unit = b
            }
        }
        var packets: [PacketSpan] = []
        var adtsFrames: Int64 = 0
        // Matroska: `pos` is the block body's start; the frames of a laced block share it (MatroskaLayout).
        let matroska = oracle.formatName?.hasPrefix("matroska") == true
        var frameSpans: [PacketSpan] = []
        if matroska {
            var list: [(pos: Int64, size: Int64)] = []
            for (i, p) in oracle.packets.enumerated() {
                guard let pos = p.pos else { throw ExpectationError("oracle packet \(i) has no pos") }
                list.append((pos, p.size))
            }
            frameSpans = try MatroskaLayout.packets(file, oracle: list)
        }
        let ogg = oracle.formatName == "ogg" ? try OggPacketLayout(file) : nil
        if let ogg, ogg.audio.count != oracle.packets.count {
            throw ExpectationError(
                "the pages hold \(ogg.audio.count) audio packets, the oracle \(oracle.packets.count)")
        }
        for (i, p) in oracle.packets.enumerated() {
            guard var pos = p.pos else { throw ExpectationError("oracle packet \(i) has no pos") }
            if matroska { pos = frameSpans[i].offset }
            if let unit {
                guard p.size % Int64(unit) == 0 else {
                    throw ExpectationError("oracle packet \(i) size \(p.size) is not a multiple of block_align \(unit)")
                }
                for k in 0..<(p.size / Int64(unit)) {
                    packets.append(PacketSpan(offset: pos + k * Int64(unit), size: Int64(unit)))
                }
            } else if matroska {
                packets.append(frameSpans[i])
            } else if oracle.formatName == "aac" {
                // ADTS: ffprobe's packet is the whole frame; ours is its raw data block (the header stripped).
                let frame = try ADTSFrame(file, at: pos, index: i)
                guard frame.blocks == 1 || frame.protectionAbsent else {
                    throw ExpectationError("ADTS frame \(i) has \(frame.blocks) blocks and a CRC: needs a hand entry")
                }
                packets.append(PacketSpan(offset: pos + frame.headerLength, size: p.size - frame.headerLength))
                adtsFrames += (sbrProfile == nil ? 1024 : 2048) * Int64(frame.blocks)
            } else if oracle.formatName == "mp3" {
                // MPEG audio: one frame per packet, except that ffprobe prepends junk found between frames to
                // the next frame's packet; ours is the frame alone (the packet's tail, docs/formats/mpeg-audio.md).
                let frame = try MPEGFrame.last(in: file, packetAt: pos, size: p.size, index: i)
                packets.append(PacketSpan(offset: frame, size: pos + p.size - frame))
            } else if let ogg {
                // Ogg: `pos` is the page where the packet begins (ffprobe-oracle.md); the packet itself begins
                // where the page's lacing puts it.
                let start = ogg.audio[ogg.audio.startIndex + i]
                guard start.page == pos else {
                    throw ExpectationError(
                        "oracle packet \(i) at page \(pos), the lacing puts it on page \(start.page)")
                }
                packets.append(PacketSpan(offset: start.offset, size: p.size))
            } else {
                packets.append(PacketSpan(offset: pos, size: p.size))
            }
        }
        var frames: Int64 = 0
        var tolerance: Int64 = 0
        if matroska {
            // ffprobe's Matroska durations are in TimestampScale units (1 ms), each rounded, a last Opus
            // packet is shortened by its DiscardPadding, and some packets have none (the first AAC packet,
            // every ALAC packet): the known durations, within one unit per packet plus the padding and
            // the largest known duration per packet without one; none known: not compared.
            let known = oracle.packets.compactMap(\.duration)
            frames = known.reduce(0, +)
            let missing = Int64(oracle.packets.count - known.count)
            tolerance =
                known.isEmpty
                ? Int64.max
                : Int64(oracle.packets.count) * Int64((rate + 999) / 1000) + missing * (known.max() ?? 0)
                    + (summary.fields["discard_padding"]?.int ?? 0)
        } else if oracle.formatName == "aac" {
            // ffprobe counts 1024 per frame even for a multi-block frame; the headers say how many blocks.
            frames = adtsFrames
        } else if oracle.formatName == "ogg", let d = summary.durationSum,
            stream.codecName == "opus" || stream.codecName == "vorbis"
        {
            // Opus and Vorbis in Ogg: ffprobe shortens the last packet's duration to the final granule
            // position (its discard_padding; 2^32-wrapped when that makes it negative). Our packets carry
            // their nominal durations, so add the padding back.
            let sum = d >= 1 << 31 ? d - (1 << 32) : d
            frames = sum + (summary.fields["discard_padding"]?.int ?? 0)
        } else if let d = summary.durationSum {
            frames = d
        } else if let d = stream.fields["duration_ts"]?.int, stream.fields["time_base"]?.string == "1/\(rate)" {
            // Packets without a duration (ALAC, Opus in CAF): the stream's duration in 1/rate units, which
            // ffmpeg computes as packets × framesPerPacket (pakt priming/remainder ignored).
            frames = d
        } else {
            throw ExpectationError("oracle lacks duration_sum and a 1/sample_rate duration_ts")
        }
        var info: [InfoKey: String] = [:]
        for (k, v) in oracle.formatTags {
            if let key = TagTable.infoKeys[k.lowercased()] { info[key] = v }
        }
        self.init(
            format: entry.format, sampleRate: rate, channels: channels, pcm: pcm, constantPacketSize: unit,
            dataOffset: matroska ? try MatroskaLayout.firstCluster(file) : firstPos, byteCount: bytes,
            frameCount: frames, frameTolerance: tolerance, packets: packets, info: info, source: "ffprobe oracle")
    }
}

/// The fields of an ADTS frame header that say where its raw data starts (ISO/IEC 13818-7 §6.2.1,
/// `adts_fixed_header` + `adts_variable_header`, 7 bytes; byte 1 bit 0 = protection_absent, byte 6 bits
/// 1–0 = number_of_raw_data_blocks_in_frame; a CRC (`protection_absent` 0) adds 2 bytes to a one-block
/// header, §6.2.2 `adts_error_check`).
struct ADTSFrame {
    var protectionAbsent: Bool
    var blocks: Int
    /// Bytes before the raw data of a one-block frame (7, or 9 with a CRC); for a multi-block frame
    /// without CRC, 7.
    var headerLength: Int64 { protectionAbsent ? 7 : 9 }

    init(_ file: [UInt8], at pos: Int64, index: Int) throws(ExpectationError) {
        let p = Int(pos)
        guard p >= 0, p + 7 <= file.count, file[p] == 0xFF, file[p + 1] & 0xF6 == 0xF0 else {
            throw ExpectationError("oracle packet \(index) at \(pos) is not an ADTS frame header")
        }
        protectionAbsent = file[p + 1] & 1 == 1
        blocks = Int(file[p + 6] & 3) + 1
    }
}

/// MPEG audio frame lengths, from the header alone (ISO/IEC 11172-3 §2.4.2.3 bit rate and sampling
/// frequency tables, §2.4.3.1 frame length; ISO/IEC 13818-3 lower sampling frequencies; MPEG-2.5):
///
/// ```
///  byte 1: AAABBCCD  (A sync, B version 00 2.5 / 10 MPEG-2 / 11 MPEG-1, C layer 01 III / 10 II / 11 I)
///  byte 2: EEEEFFGH  (E bitrate_index, F sampling_frequency, G padding)
/// ```
///
/// Layer I: (12 × bitrate / fs + padding) × 4 bytes; Layers II and III: 144 × bitrate / fs + padding; Layer III
/// of MPEG-2/2.5: 72 × bitrate / fs + padding. Free format (bitrate_index 0) has no length in the header.
enum MPEGFrame {
    /// kbit/s by [table][bitrate_index]: MPEG-1 Layer I, II, III; MPEG-2/2.5 Layer I; MPEG-2/2.5 Layer II/III.
    static let bitRates: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]

    /// The length of the frame whose header is at `p`, or nil (no header, reserved values, free format).
    static func length(_ b: [UInt8], at p: Int) -> Int? {
        guard p >= 0, p + 4 <= b.count, b[p] == 0xFF, b[p + 1] & 0xE0 == 0xE0 else { return nil }
        let version = Int(b[p + 1] >> 3 & 3)
        let layer = Int(b[p + 1] >> 1 & 3)
        let index = Int(b[p + 2] >> 4)
        let rateIndex = Int(b[p + 2] >> 2 & 3)
        guard version != 1, layer != 0, index != 0, index != 15, rateIndex != 3 else { return nil }
        let baseRate = [44100, 48000, 32000][rateIndex]
        let fs = version == 3 ? baseRate : version == 2 ? baseRate / 2 : baseRate / 4
        let padding = Int(b[p + 2] >> 1 & 1)
        let table = version == 3 ? 3 - layer : (layer == 3 ? 3 : 4)
        let bitRate = bitRates[table][index] * 1000
        switch layer {
        case 3: return (12 * bitRate / fs + padding) * 4
        case 1 where version != 3: return 72 * bitRate / fs + padding
        default: return 144 * bitRate / fs + padding
        }
    }

    /// Where the frame of an oracle packet starts: `pos` when the packet is one frame; else the first offset
    /// inside the packet holding a header whose frame ends exactly where the packet ends (junk before it).
    static func last(in file: [UInt8], packetAt pos: Int64, size: Int64, index: Int) throws(ExpectationError) -> Int64 {
        let start = Int(pos)
        let end = Int(pos + size)
        guard start >= 0, end <= file.count else {
            throw ExpectationError("oracle packet \(index) (@\(pos)+\(size)) lies outside the file")
        }
        for p in start..<max(start, end - 4) where length(file, at: p) == end - p {
            return Int64(p)
        }
        throw ExpectationError("oracle packet \(index) (@\(pos)+\(size)) ends with no whole MPEG frame")
    }
}

/// Why an expectation could not be derived.
struct ExpectationError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
