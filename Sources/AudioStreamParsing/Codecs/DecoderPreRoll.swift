/// What a decoder must decode before a packet for that packet's output to be exact after a seek: the
/// roll distance of Apple's `kAudioFilePropertyPacketToRollDistance` (packets) or a pre-roll duration
/// (frames), by codec. `AudioStreamParser.seek(toFrame:)` starts the feed that far before the packet that
/// holds the requested frame.
///
/// | codec | pre-roll | why |
/// | --- | --- | --- |
/// | linear PCM, a-law, µ-law, FLAC, ALAC | none | every packet decodes on its own |
/// | AAC (all object types), AC-3, E-AC-3 | 1 packet | MDCT overlap-add with the previous frame (ISO/IEC 14496-3 §4.6.11; ATSC A/52 §7.9) |
/// | Vorbis | 1 packet | a packet's output is the overlap of its window with the previous one (Vorbis I §4.3.8) |
/// | Opus | 3,840 frames at 48 kHz (80 ms) | RFC 7845 §4.6: decoding starts at least 80 ms before the target so the decoder converges |
/// | MPEG-1/2 Layer III | 1 + the packets that hold the bit reservoir | `main_data_begin` reaches back at most 511 bytes (MPEG-1) or 255 (MPEG-2/2.5) of main data (ISO/IEC 11172-3 §2.4.3.4.7.1), plus the hybrid filter bank's overlap of one granule |
/// | MPEG Layer I, II | 1 packet (Layer I: 2) | the 512-tap synthesis filter bank's memory (ISO/IEC 11172-3 §2.4.3.2) |
/// | other codecs (IMA ADPCM, …) | none | packets are independent, or the library does not know |
enum DecoderPreRoll: Hashable, Sendable {
    /// No pre-roll.
    case none
    /// This many packets before the target packet.
    case packets(Int64)
    /// The packets that hold this many frames before the target packet's first frame.
    case frames(Int64)

    /// Opus pre-roll: 80 ms at 48 kHz (RFC 7845 §4.6).
    static let opusPreRollFrames: Int64 = 3840

    /// The pre-roll of a stream's codec.
    ///
    /// - Parameters:
    ///   - format: the stream's data format.
    ///   - averageBytesPerPacket: the average packet size when known (MP3's reservoir spans more packets
    ///     when they are small); otherwise the bit rate gives it.
    ///   - bitRate: the stream's bit rate, when known.
    init(format: StreamDescription, averageBytesPerPacket: Double?, bitRate: UInt32?) {
        switch format.formatID {
        case .mpeg4AAC, .mpeg4AAC_HE, .mpeg4AAC_HE_V2, .mpeg4AAC_LD, .mpeg4AAC_ELD, .mpeg4AAC_ELD_SBR,
            .mpeg4AAC_ELD_V2, .mpegD_USAC, .ac3, .enhancedAC3, .vorbis:
            self = .packets(1)
        case .opus:
            let rate = format.sampleRate > 0 && format.sampleRate.isFinite ? format.sampleRate : 48000
            self = .frames(Int64((Double(Self.opusPreRollFrames) * rate / 48000).rounded(.up)))
        case .mpegLayer1:
            self = .packets(2)
        case .mpegLayer2:
            self = .packets(1)
        case .mpegLayer3:
            self = .packets(1 + Self.reservoirPackets(format, averageBytesPerPacket, bitRate))
        default:
            self = .none
        }
    }

    /// The packets before a Layer III frame whose main data its bit reservoir may use: the reservoir's
    /// largest reach divided by the main data an average frame carries (its size less the 4-byte header
    /// and the side information), rounded up; at most 16.
    private static func reservoirPackets(
        _ format: StreamDescription, _ averageBytesPerPacket: Double?, _ bitRate: UInt32?
    ) -> Int64 {
        let mpeg1 = format.sampleRate >= 32000
        let mono = format.channelsPerFrame == 1
        let reach: Double = mpeg1 ? 511 : 255
        let sideInformation: Double = mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        var frameBytes = averageBytesPerPacket ?? 0
        if !(frameBytes > 0), let bits = bitRate, bits > 0, format.sampleRate > 0, format.framesPerPacket > 0 {
            frameBytes = Double(format.framesPerPacket) / format.sampleRate * Double(bits) / 8
        }
        let mainData = frameBytes - 4 - sideInformation
        guard mainData.isFinite, mainData > 0 else { return 16 }
        return min(16, Int64((reach / mainData).rounded(.up)))
    }
}
