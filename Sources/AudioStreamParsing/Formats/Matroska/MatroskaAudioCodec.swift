/// A Matroska audio track's codec (RFC 9559 §5.1.4.1.4 CodecID, and the Matroska codec mappings,
/// "Audio Codec Mappings") as CoreAudio sees it: the data format, the magic cookie and how each
/// packet's frames are counted, through the decoders in `Codecs/` so that every container gives the
/// same format IDs and cookies.
///
/// | CodecID | format | cookie (from CodecPrivate) |
/// | --- | --- | --- |
/// | `A_OPUS` | `opus` | the OpusHead itself (as Ogg's first packet) |
/// | `A_VORBIS` | `vorb` | the three Xiph-laced headers, comment header stripped (as Ogg Vorbis) |
/// | `A_AAC`, `A_AAC/MPEG2/…`, `A_AAC/MPEG4/…` | `aac ` (layers for SBR/PS) | an ES_Descriptor around the AudioSpecificConfig (as ADTS) |
/// | `A_FLAC` | `flac` | STREAMINFO in the `dfLa` layout (as native FLAC) |
/// | `A_ALAC` | `alac` | the ALACSpecificConfig (as MP4) |
/// | `A_MPEG/L3`, `A_MPEG/L2`, `A_MPEG/L1` | `.mp3`, `.mp2`, `.mp1` | none |
/// | `A_AC3`, `A_EAC3` | `ac-3`, `ec-3` | none |
/// | `A_PCM/INT/LIT`, `A_PCM/INT/BIG`, `A_PCM/FLOAT/IEEE` | `lpcm` | none |
struct MatroskaAudioCodec {
    /// How the frames of each packet are known.
    enum FrameCounter {
        /// Every packet holds `framesPerPacket` frames.
        case constant
        /// From the packet's TOC byte (RFC 6716 §3.1).
        case opus
        /// From the mode number and the previous block size (Vorbis I §4.3).
        case vorbis(VorbisPacketDuration)
        /// From each frame's header (RFC 9639 §9.1): the block size.
        case flac(FLACStreamInfo)
        /// Linear PCM: each block is a run of constant-size frames.
        case pcm(frameBytes: Int)

        /// Packets of one stream may hold different frame counts (Opus, Vorbis).
        var isVariable: Bool {
            switch self {
            case .opus, .vorbis: return true
            case .constant, .flac, .pcm: return false
            }
        }
    }

    var streamDescription: StreamDescription
    var magicCookie: [UInt8]?
    var formatList: [FormatListItem] = []
    var channelLayout: ChannelLayout?
    var frameCounter: FrameCounter = .constant
    var bitRate: UInt32?
    /// A_AAC: the AudioSpecificConfig as announced (implicit SBR is looked for from it,
    /// `MatroskaParser+ImplicitSBR.swift`); `nil` for other codecs.
    var audioSpecificConfig: AudioSpecificConfig?

    /// The codec of an audio track.
    ///
    /// - Throws: `unsupportedDataFormat` for a CodecID this library does not map, or content
    ///   encodings (compression, encryption); `invalidFile` when CodecPrivate is missing or does not
    ///   decode where the codec needs it.
    static func decode(_ track: MatroskaTrackEntry) throws(StructureError) -> MatroskaAudioCodec {
        let structure = Structure.mkv("CodecPrivate")
        if track.hasContentEncodings {
            throw Structure.mkv("ContentEncodings").unsupported(
                "track \(track.number) uses content encodings (compression or encryption)")
        }
        let rate = track.samplingFrequency
        let channels = UInt32(clamping: track.channels)
        guard channels > 0 else { throw Structure.mkv("Channels").invalid("track \(track.number) has 0 channels") }
        func compressed(_ format: AudioFormat, frames: UInt32, rate: Double = rate) -> StreamDescription {
            StreamDescription(
                sampleRate: rate, formatID: format, formatFlags: 0, bytesPerPacket: 0, framesPerPacket: frames,
                bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
        }
        let priv = track.codecPrivate
        switch track.codecID {
        case "A_OPUS":
            guard let priv else { throw structure.invalid("A_OPUS without an OpusHead") }
            let head = try OpusHead.decode(priv)
            return MatroskaAudioCodec(
                streamDescription: head.streamDescription, magicCookie: head.rawBytes,
                channelLayout: head.channelLayout, frameCounter: .opus)
        case "A_VORBIS":
            guard let priv else { throw structure.invalid("A_VORBIS without three Xiph-laced header packets") }
            let headers = try VorbisXiphLacedHeaders.decode(priv[...], structure)
            let id = headers.identification
            return MatroskaAudioCodec(
                streamDescription: id.streamDescription, magicCookie: headers.magicCookie,
                channelLayout: VorbisChannelLayout.layout(channels: id.channels),
                frameCounter: .vorbis(VorbisPacketDuration(identification: id, setup: headers.setup)),
                bitRate: id.bitrateNominal > 0 ? UInt32(clamping: id.bitrateNominal) : nil)
        case "A_FLAC":
            // "fLaC", then metadata blocks, STREAMINFO first (RFC 9639 §8).
            guard let priv, priv.count >= 8 + FLACStreamInfo.size, priv.starts(with: Array("fLaC".utf8)),
                priv[4] & 0x7F == 0
            else { throw structure.invalid("A_FLAC without fLaC and a STREAMINFO block") }
            let info = try FLACStreamInfo.decode(priv[8..<(8 + FLACStreamInfo.size)])
            return MatroskaAudioCodec(
                streamDescription: info.streamDescription, magicCookie: info.magicCookie,
                channelLayout: FLACParser.channelLayout(channels: info.channels), frameCounter: .flac(info))
        case "A_ALAC":
            // CodecPrivate is the ALACSpecificConfig without the atom header.
            guard let priv else { throw structure.invalid("A_ALAC without an ALACSpecificConfig") }
            let config = try ALACSpecificConfig.decode(alacBoxBody: [0, 0, 0, 0] + priv[...])
            return MatroskaAudioCodec(streamDescription: config.streamDescription, magicCookie: config.bytes)
        case "A_MPEG/L3":
            return MatroskaAudioCodec(streamDescription: compressed(.mpegLayer3, frames: rate < 32000 ? 576 : 1152))
        case "A_MPEG/L2":
            return MatroskaAudioCodec(streamDescription: compressed(.mpegLayer2, frames: 1152))
        case "A_MPEG/L1":
            return MatroskaAudioCodec(streamDescription: compressed(.mpegLayer1, frames: 384))
        case "A_AC3", "A_AC3/BSID9", "A_AC3/BSID10":
            return MatroskaAudioCodec(streamDescription: compressed(.ac3, frames: 1536))
        case "A_EAC3":
            return MatroskaAudioCodec(streamDescription: compressed(.enhancedAC3, frames: 1536))
        case "A_PCM/INT/LIT", "A_PCM/INT/BIG", "A_PCM/FLOAT/IEEE":
            return try pcm(track, channels: channels)
        default:
            if track.codecID.hasPrefix("A_AAC") { return try aac(track, channels: channels) }
            throw Structure.mkv("CodecID").unsupported("codec \(track.codecID) is not supported")
        }
    }

    /// Linear PCM: BitDepth bits per sample (integers 8–32, little- or big-endian; floats 32 or 64),
    /// one frame per packet.
    static func pcm(_ track: MatroskaTrackEntry, channels: UInt32) throws(StructureError) -> MatroskaAudioCodec {
        let isFloat = track.codecID == "A_PCM/FLOAT/IEEE"
        let bits = UInt32(clamping: track.bitDepth ?? 0)
        let valid: Set<UInt32> = isFloat ? [32, 64] : [8, 16, 24, 32]
        guard valid.contains(bits) else {
            throw Structure.mkv("BitDepth").invalid("\(track.codecID) with BitDepth \(bits)")
        }
        guard channels <= 1024 else { throw Structure.mkv("Channels").limit("\(channels) PCM channels") }
        // 8-bit Matroska PCM is unsigned (as WAVE's).
        let format = StreamDescription.linearPCM(
            sampleRate: track.samplingFrequency, channels: channels, validBits: bits, containerBits: bits,
            isFloat: isFloat, isBigEndian: track.codecID == "A_PCM/INT/BIG", isSigned: bits > 8 || isFloat)
        return MatroskaAudioCodec(
            streamDescription: format, frameCounter: .pcm(frameBytes: Int(format.bytesPerPacket)))
    }

    /// AAC: the AudioSpecificConfig in CodecPrivate, or, for the legacy `A_AAC/MPEG2/…` and
    /// `A_AAC/MPEG4/…` IDs without one, a configuration built from the profile in the ID, the track's
    /// rate and channels (ISO/IEC 14496-3 §1.6.2.1; `/SBR`: explicit SBR with the output rate).
    static func aac(_ track: MatroskaTrackEntry, channels: UInt32) throws(StructureError) -> MatroskaAudioCodec {
        var bytes = track.codecPrivate ?? []
        if bytes.isEmpty {
            guard let built = legacyAudioSpecificConfig(track) else {
                throw Structure.mkv("CodecPrivate").invalid("\(track.codecID) without an AudioSpecificConfig")
            }
            bytes = built
        }
        var notes: [DiagnosticNote] = []
        var asc = try AudioSpecificConfig.decode(bytes, notes: &notes)
        if asc.channelCount == nil { asc.channelCount = Int(channels) }
        guard let format = AACStreamFormat(asc) else {
            throw Structure.mkv("CodecPrivate").unsupported("MPEG-4 audioObjectType \(asc.audioObjectType)")
        }
        return MatroskaAudioCodec(
            streamDescription: format.streamDescription, magicCookie: AACStreamFormat.magicCookie(bytes),
            formatList: format.layeredFormatList, channelLayout: format.channelLayout, audioSpecificConfig: asc)
    }

    /// The AudioSpecificConfig a legacy AAC CodecID implies: `…/MAIN` 1, `…/LC` 2, `…/SSR` 3, `…/LTP` 4;
    /// `…/SBR` adds explicit SBR (object type 5) at OutputSamplingFrequency. `nil` for a rate or
    /// channel count a configuration cannot state.
    static func legacyAudioSpecificConfig(_ track: MatroskaTrackEntry) -> [UInt8]? {
        let id = track.codecID
        let profile: UInt32
        if id.hasSuffix("/MAIN") {
            profile = 1
        } else if id.hasSuffix("/LC") || id.hasSuffix("/SBR") {
            profile = 2
        } else if id.hasSuffix("/SSR") {
            profile = 3
        } else if id.hasSuffix("/LTP") {
            profile = 4
        } else {
            return nil
        }
        let rates = AudioSpecificConfig.samplingFrequencies
        guard track.samplingFrequency < 1e6, let index = rates.firstIndex(of: Int(track.samplingFrequency)),
            track.channels <= 7
        else { return nil }
        var writer = BitWriter()
        if id.hasSuffix("/SBR") {
            let output = track.outputSamplingFrequency ?? 2 * track.samplingFrequency
            guard output < 1e6, let extIndex = rates.firstIndex(of: Int(output)) else { return nil }
            writer.write(5, bits: 5)
            writer.write(UInt32(index), bits: 4)
            writer.write(UInt32(track.channels), bits: 4)
            writer.write(UInt32(extIndex), bits: 4)
            writer.write(profile, bits: 5)
        } else {
            writer.write(profile, bits: 5)
            writer.write(UInt32(index), bits: 4)
            writer.write(UInt32(track.channels), bits: 4)
        }
        writer.write(0, bits: 3)  // GASpecificConfig: 1024 frames, no core coder, no extension
        return writer.bytes
    }
}
