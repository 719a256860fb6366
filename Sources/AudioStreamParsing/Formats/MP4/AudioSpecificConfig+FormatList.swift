/// What an AudioSpecificConfig from an MP4 `esds` stands for in CoreAudio terms: the data format and
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
/// Backward-compatible signalling (the 0x2B7 sync extension after GASpecificConfig,
/// `backwardCompatibleExtension(_:)`) gives the same layers. The data format is the first (highest)
/// layer. Implicit SBR (found only by decoding) is not detected (docs/formats/mp4.md).
extension AudioSpecificConfig {
    /// The layers, highest first (one item when SBR/PS is not signalled explicitly).
    ///
    /// - Throws: `unsupportedDataFormat` for an object type without a CoreAudio format.
    func formatListLayers() throws(StructureError) -> [FormatListItem] {
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
            throw StructureError(
                .unsupportedDataFormat,
                reason: "mp4 (esds): MPEG-4 audioObjectType \(audioObjectType) is not supported")
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

    /// The CoreAudio layout tag of channelConfiguration 1…7 (`ADTSConfiguration.layoutTags`), else 0.
    static func layoutTag(_ configuration: Int) -> UInt32 {
        (1...7).contains(configuration) ? ADTSConfiguration.layoutTags[configuration] : 0
    }

    private static func compressed(
        _ rate: Double, _ format: AudioFormat, flags: UInt32, frames: UInt32, _ channels: UInt32
    ) -> StreamDescription {
        StreamDescription(
            sampleRate: rate, formatID: format, formatFlags: flags, bytesPerPacket: 0, framesPerPacket: frames,
            bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
    }
}

extension AudioSpecificConfig {
    /// Backward-compatible explicit SBR/PS signalling (ISO/IEC 14496-3 §1.6.5.2, §1.6.2.1 Table 1.15):
    /// after the core's specific configuration, `syncExtensionType` 0x2B7, `extensionAudioObjectType`
    /// 5, `sbrPresentFlag`, `extensionSamplingFrequencyIndex` (+24 bits when 15), then optionally
    /// `syncExtensionType` 0x548 and `psPresentFlag`.
    ///
    /// Read for the GA object types 1–4 and 17 (the ones HE-AAC extends), with or without a
    /// program_config_element. Decoders that ignore the extension play the core (AAC-LC).
    ///
    /// - Returns: the SBR output rate and whether PS is present, or `nil` when no SBR is signalled
    ///   this way (or the configuration is explicit-hierarchical, which `init(bytes:)` reads).
    static func backwardCompatibleExtension(_ bytes: [UInt8]) -> (sbrSamplingFrequency: Int, ps: Bool)? {
        var reader = AACBitReader(bytes)
        func frequency() -> Int? {
            guard let index = reader.read(4) else { return nil }
            if index == 15 { return reader.read(24).map { Int($0) } }
            guard Int(index) < ADTSHeader.samplingFrequencies.count else { return nil }
            return ADTSHeader.samplingFrequencies[Int(index)]
        }
        guard let type = reader.read(5), [1, 2, 3, 4, 17].contains(type), frequency() != nil,
            let configuration = reader.read(4)
        else { return nil }
        // GASpecificConfig (§4.4.1 Table 4.1): frameLengthFlag, dependsOnCoreCoder [+14], extensionFlag.
        guard reader.skip(1), let dependsOnCore = reader.readFlag() else { return nil }
        if dependsOnCore { guard reader.skip(14) else { return nil } }
        guard let extensionFlag = reader.readFlag() else { return nil }
        if configuration == 0 { guard ProgramConfigElement.read(&reader) != nil else { return nil } }
        if extensionFlag {
            // Object type 17: aacSectionDataResilienceFlag, aacScalefactorDataResilienceFlag,
            // aacSpectralDataResilienceFlag; then extensionFlag3.
            if type == 17 { guard reader.skip(3) else { return nil } }
            guard reader.skip(1) else { return nil }
        }
        if type == 17 { guard reader.skip(2) else { return nil } }  // epConfig
        guard reader.remainingBits >= 16, reader.read(11) == 0x2B7, reader.read(5) == 5,
            reader.readFlag() == true, let sbrFrequency = frequency()
        else { return nil }
        var ps = false
        if reader.remainingBits >= 12, reader.read(11) == 0x548 { ps = reader.readFlag() == true }
        return (sbrFrequency, ps)
    }
}
