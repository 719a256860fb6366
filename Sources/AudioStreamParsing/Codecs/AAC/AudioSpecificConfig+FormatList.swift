/// What an AudioSpecificConfig stands for in CoreAudio terms: the data format and
/// the layered format list (ISO/IEC 14496-3 §1.6.2.1, §1.6.5 for the explicit SBR/PS signalling).
///
/// | audioObjectType                  | mFormatID | mFormatFlags | frames per packet        |
/// | -------------------------------- | --------- | ------------ | ------------------------ |
/// | 1 Main, 2 LC, 3 SSR, 4 LTP, 17 ER LC | `aac `  | the type     | 1024 (960: frameLengthFlag) |
/// | 23 ER AAC LD                     | `aacl`    | 23           | 512 (480)                |
/// | 39 ER AAC ELD                    | `aace`    | 39           | 512                      |
/// | 42 USAC                          | `usac`    | 42           | 0 (variable)             |
/// | 32/33/34 Layer 1/2/3             | `.mp1` `.mp2` `.mp3` | 0 | 384 / 1152 / 1152 (576 below 32 kHz) |
///
/// Explicit hierarchical signalling (audioObjectType 5 = SBR or 29 = SBR + PS written first, §1.6.5.2)
/// adds layers, highest first as Apple lists them in `kAudioFilePropertyFormatList`:
/// SBR: `aach` (extension rate, 2048 frames, flags 5), then the core `aac `.
/// PS: `aacp` (extension rate, 2 channels, 2048 frames, flags 29), `aach` (core channels), then the core.
/// Backward-compatible signalling (the 0x2B7 sync extension after GASpecificConfig, read by
/// `decode`) gives the same layers. The data format is the first (highest)
/// layer. Implicit SBR (found only by decoding) is not detected (docs/formats/mp4.md).
extension AudioSpecificConfig {
    /// The layers, highest first (one item when SBR/PS is not signalled explicitly); `nil` for an
    /// object type without a CoreAudio format.
    func formatListLayers() -> [FormatListItem]? {
        let channels = UInt32(channelCount ?? 0)
        let tag = Self.layoutTag(channelConfiguration)
        let rate = Double(samplingFrequency)
        let base: StreamDescription
        switch audioObjectType {
        case 1, 2, 3, 4, 17:
            let frames = UInt32(frameLength ?? 1024)
            base = Self.compressed(rate, .mpeg4AAC, flags: UInt32(audioObjectType), frames: frames, channels)
        case 23:
            base = Self.compressed(rate, .mpeg4AAC_LD, flags: 23, frames: frameLength == 960 ? 480 : 512, channels)
        case 39:
            base = Self.compressed(rate, .mpeg4AAC_ELD, flags: 39, frames: 512, channels)
        case 42:
            base = Self.compressed(rate, .mpegD_USAC, flags: 42, frames: 0, channels)
        case 32:
            base = Self.compressed(rate, .mpegLayer1, flags: 0, frames: 384, channels)
        case 33:
            base = Self.compressed(rate, .mpegLayer2, flags: 0, frames: 1152, channels)
        case 34:
            let frames: UInt32 = samplingFrequency < 32000 ? 576 : 1152
            base = Self.compressed(rate, .mpegLayer3, flags: 0, frames: frames, channels)
        default:
            return nil
        }
        var layers = [FormatListItem(streamDescription: base, channelLayoutTag: tag)]
        guard extensionAudioObjectType == 5 else { return layers }
        let sbrRate = Double(extensionSamplingFrequency ?? samplingFrequency)
        let coreFrames = base.framesPerPacket
        let sbr = Self.compressed(sbrRate, .mpeg4AAC_HE, flags: 5, frames: coreFrames * 2, channels)
        layers.insert(FormatListItem(streamDescription: sbr, channelLayoutTag: tag), at: 0)
        if psPresent {
            let ps = Self.compressed(sbrRate, .mpeg4AAC_HE_V2, flags: 29, frames: coreFrames * 2, 2)
            layers.insert(FormatListItem(streamDescription: ps, channelLayoutTag: ChannelLayout.Tag.stereo), at: 0)
        }
        return layers
    }

    /// CoreAudio layout tags for channel configurations 1…7 (ISO/IEC 14496-3 Table 1.19 channel
    /// order), from Apple's `CoreAudioBaseTypes.h`: Mono (100<<16|1), Stereo (101<<16|2),
    /// AAC_3_0 = MPEG_3_0_B (114<<16|3, C L R), AAC_4_0 = MPEG_4_0_B (116<<16|4, C L R Cs),
    /// AAC_5_0 = MPEG_5_0_D (120<<16|5, C L R Ls Rs), AAC_5_1 = MPEG_5_1_D (124<<16|6,
    /// C L R Ls Rs LFE), AAC_7_1 = MPEG_7_1_B (127<<16|8, C Lc Rc L R Ls Rs LFE).
    static let layoutTags: [ChannelLayout.Tag] = [
        .noLayout, .mono, .stereo, .aac_3_0, .aac_4_0, .aac_5_0, .aac_5_1, .aac_7_1,
    ]

    /// The CoreAudio layout tag of channelConfiguration 1…7 (`layoutTags`), else no layout.
    static func layoutTag(_ configuration: Int) -> ChannelLayout.Tag {
        (1...7).contains(configuration) ? layoutTags[configuration] : .noLayout
    }

    private static func compressed(
        _ rate: Double, _ format: AudioFormat, flags: UInt32, frames: UInt32, _ channels: UInt32
    ) -> StreamDescription {
        StreamDescription(
            sampleRate: rate, formatID: format, formatFlags: flags, bytesPerPacket: 0, framesPerPacket: frames,
            bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
    }
}
