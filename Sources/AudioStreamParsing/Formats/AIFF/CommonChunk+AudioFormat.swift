/// The audio format a `COMM` chunk defines: the stream description and the constant packet geometry.
struct AIFFAudioFormat: Hashable, Sendable {
    /// The `dataFormat` (ASBD).
    var streamDescription: StreamDescription
    /// Bytes per packet (one frame for PCM, µ-law and A-law; 34 × channels for IMA4).
    var packetSize: Int
    /// Frames per packet (1, or 64 for IMA4).
    var framesPerPacket: UInt32

    /// `kAudioChannelLayoutTag_Mono` / `_Stereo` for one or two channels; AIFF defines no layout for
    /// more (and the AIFF-C `CHAN` chunk is not read).
    var channelLayout: ChannelLayout? {
        switch streamDescription.channelsPerFrame {
        case 1: return ChannelLayout(tag: ChannelLayout.Tag.mono)
        case 2: return ChannelLayout(tag: ChannelLayout.Tag.stereo)
        default: return nil
        }
    }

    /// Bits per second: rate × packet bytes × 8 / frames per packet, when it fits in 32 bits.
    var bitRate: UInt32? {
        let d = streamDescription
        let bits = d.sampleRate * Double(packetSize) * 8 / Double(framesPerPacket)
        guard bits.isFinite, bits >= 0, bits < 4_294_967_295.5 else { return nil }
        return UInt32(bits.rounded())
    }
}

extension CommonChunk {
    /// The audio format this chunk describes.
    ///
    /// `NONE` and `twos` are re-derived from `sampleSize` (8, 16, 24 or 32 bits, or any size from 1 to
    /// 32 stored in `ceil(sampleSize / 8)` bytes, left-justified: AIFF 1.3, "Sample Points"), as is
    /// `sowt`. Fixed-size codes (`in24`, `in32`, `fl32`, `fl64`, `raw `, `ulaw`, `alaw`, `ima4`) ignore
    /// `sampleSize`, which for compressed data gives the size of the source samples.
    ///
    /// - Parameter limits: the limits in force (`maxPacketBytes`).
    /// - Throws: `invalidFile` for a PCM `sampleSize` of 0 or above 32; `unsupportedDataFormat` for a
    ///   compression type not listed in `AIFFCompressionType`; `limitExceeded` for a packet larger than
    ///   `ParserLimits.maxPacketBytes`.
    func audioFormat(limits: ParserLimits) throws(StructureError) -> AIFFAudioFormat {
        let channels = UInt32(numChannels)
        let rate = sampleRate
        let description: StreamDescription
        func pcm(bits: UInt32, float: Bool = false, bigEndian: Bool = true, signed: Bool = true) -> StreamDescription {
            // Safe: bits is 1…64, so the container is 8…64 bits.
            let containerBits = (bits + 7) / 8 * 8
            return .linearPCM(
                sampleRate: rate, channels: channels, validBits: bits, containerBits: containerBits, isFloat: float,
                isBigEndian: bigEndian, isSigned: signed)
        }
        switch compressionType {
        case .notCompressed, .twos, .sowt:
            guard sampleSize >= 1, sampleSize <= 32 else {
                throw Self.structure.invalid("sampleSize \(sampleSize) is outside 1…32 bits")
            }
            description = pcm(bits: UInt32(sampleSize), bigEndian: compressionType != .sowt)
        case .int24: description = pcm(bits: 24)
        case .int32: description = pcm(bits: 32)
        case .float32, .float32Upper: description = pcm(bits: 32, float: true)
        case .float64, .float64Upper: description = pcm(bits: 64, float: true)
        case .raw: description = pcm(bits: 8, signed: false)
        case .uLaw, .uLawUpper: description = Self.companded(.uLaw, rate: rate, channels: channels)
        case .aLaw, .aLawUpper: description = Self.companded(.aLaw, rate: rate, channels: channels)
        case .ima4:
            // Apple IMA4: per channel, a 2-byte header (predictor and step index) and 32 bytes of 4-bit
            // samples = 64 frames; channels are stored one packet after another.
            description = StreamDescription(
                sampleRate: rate, formatID: .appleIMA4, formatFlags: 0, bytesPerPacket: 34 * channels,
                framesPerPacket: 64, bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
        default:
            throw Self.structure.unsupported("compression type '\(compressionType)' is not supported")
        }
        let packetSize = Int(description.bytesPerPacket)
        guard packetSize <= limits.maxPacketBytes else {
            throw Self.structure.limit("packet size exceeds maxPacketBytes")
        }
        return AIFFAudioFormat(
            streamDescription: description, packetSize: packetSize, framesPerPacket: description.framesPerPacket)
    }

    /// G.711 µ-law or A-law: one byte per sample, one frame per packet.
    private static func companded(_ format: AudioFormat, rate: Double, channels: UInt32) -> StreamDescription {
        StreamDescription(
            sampleRate: rate, formatID: format, formatFlags: 0, bytesPerPacket: channels, framesPerPacket: 1,
            bytesPerFrame: channels, channelsPerFrame: channels, bitsPerChannel: 8)
    }
}
