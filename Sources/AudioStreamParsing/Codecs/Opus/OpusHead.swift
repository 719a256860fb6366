/// The Opus identification header, the first packet of an Ogg Opus stream (RFC 7845 §5.1).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |      'O'      |      'p'      |      'u'      |      's'      |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |      'H'      |      'e'      |      'a'      |      'd'      |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  Version = 1  | Channel Count |           Pre-skip (LE)       |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                     Input Sample Rate (Hz, LE)                |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |   Output Gain (Q7.8 in dB, LE)| Mapping Family|               |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+               :
/// |       Optional Channel Mapping Table (family != 0)...          |
/// ```
///
/// Version: the upper 4 bits are the major version; decoders accept major version 0 (values 0-15).
/// Mapping family 0: mono or stereo, no table; family 1: 1-8 channels in Vorbis order (§5.1.1.2), with
/// a table of stream count, coupled count and one mapping byte per channel.
struct OpusHead: Equatable {
    static let magic: [UInt8] = Array("OpusHead".utf8)

    var version: UInt8
    var channelCount: UInt8
    var preSkip: UInt16
    var inputSampleRate: UInt32
    var outputGain: Int16
    var mappingFamily: UInt8
    /// The whole packet, the magic cookie of `kAudioFormatOpus`.
    var rawBytes: [UInt8]

    /// Decodes the packet, or says why it is rejected (`dta?` malformed, `fmt?` an unknown major version).
    static func decode(_ b: [UInt8]) -> Result<OpusHead, CodecHeaderError> {
        guard b.count >= 19, Array(b[0..<8]) == magic else {
            return .failure(CodecHeaderError(.invalidFile, "opus (OpusHead): shorter than 19 bytes"))
        }
        guard b[8] >> 4 == 0 else {
            return .failure(
                CodecHeaderError(.unsupportedDataFormat, "opus (OpusHead): major version is not 0"))
        }
        guard b[9] > 0 else {
            return .failure(CodecHeaderError(.invalidFile, "opus (OpusHead): channel count is zero"))
        }
        let family = b[18]
        if family == 0 && b[9] > 2 {
            return .failure(
                CodecHeaderError(.invalidFile, "opus (OpusHead): mapping family 0 with more than 2 channels"))
        }
        if family != 0 && b.count < 21 + Int(b[9]) {
            return .failure(
                CodecHeaderError(.invalidFile, "opus (OpusHead): channel mapping table is cut short"))
        }
        return .success(
            OpusHead(
                version: b[8], channelCount: b[9], preSkip: UInt16(b[10]) | UInt16(b[11]) << 8,
                inputSampleRate: UInt32(b[12]) | UInt32(b[13]) << 8 | UInt32(b[14]) << 16 | UInt32(b[15]) << 24,
                outputGain: Int16(bitPattern: UInt16(b[16]) | UInt16(b[17]) << 8), mappingFamily: family,
                rawBytes: b))
    }

    /// `kAudioFormatOpus` at 48 kHz (RFC 7845 §4: granule positions and decoding always use 48 kHz, the
    /// input rate is informational). Frames per packet vary (2.5 to 120 ms): 0, and each packet
    /// description carries its frame count.
    var streamDescription: StreamDescription {
        StreamDescription(
            sampleRate: 48000, formatID: .opus, formatFlags: 0, bytesPerPacket: 0, framesPerPacket: 0,
            bytesPerFrame: 0, channelsPerFrame: UInt32(channelCount), bitsPerChannel: 0)
    }

    /// The channel layout: family 0 mono/stereo; family 1 the Vorbis channel order (RFC 7845
    /// §5.1.1.2) as CoreAudio's Ogg layout tags (`VorbisChannelLayout`); otherwise unknown.
    var channelLayout: ChannelLayout? {
        if mappingFamily > 1 { return nil }
        return VorbisChannelLayout.layout(channels: Int(channelCount))
    }
}

/// Opus packet durations from the TOC byte (RFC 6716 §3.1).
///
/// ```
///  0 1 2 3 4 5 6 7
/// +-+-+-+-+-+-+-+-+
/// | config  |s| c |
/// +-+-+-+-+-+-+-+-+
/// ```
///
/// config 0-11 SILK-only (10, 20, 40, 60 ms), 12-15 Hybrid (10, 20 ms), 16-31 CELT-only (2.5, 5, 10,
/// 20 ms); c = 0: one frame, 1 and 2: two frames, 3: an arbitrary number, given in the low 6 bits of
/// the second byte (§3.2.5).
enum OpusPacket {
    /// Samples per frame at 48 kHz for a TOC config.
    static func frameSize(config: UInt8) -> Int64 {
        switch config {
        case 0...11: return [480, 960, 1920, 2880][Int(config & 3)]
        case 12...15: return [480, 960][Int(config & 1)]
        default: return [120, 240, 480, 960][Int(config & 3)]
        }
    }

    /// The packet's duration in 48 kHz samples, from its first two bytes; 0 for an empty or unreadable
    /// packet (a code-3 packet without its count byte).
    static func frames(toc: UInt8?, second: UInt8?) -> Int64 {
        guard let toc else { return 0 }
        let size = frameSize(config: toc >> 3)
        switch toc & 3 {
        case 0: return size
        case 1, 2: return 2 * size
        default:
            guard let second else { return 0 }
            return Int64(second & 0x3F) * size
        }
    }
}
