/// What an ADTS stream's first frame says about the stream: the data format, the decoder
/// configuration, the magic cookie and the channel layout.
///
/// Built from the fixed header fields (which every frame of the stream repeats) and, for channel
/// configuration 0, from the program_config_element at the start of the frame's first raw data
/// block.
struct ADTSConfiguration: Hashable {
    /// The header the configuration was built from (its fixed fields define the stream).
    var header: ADTSHeader
    /// The decoder configuration.
    var audioSpecificConfig: AudioSpecificConfig
    /// The channel count (0 when channel configuration 0 comes without a readable PCE).
    var channelCount: UInt32
    /// CoreAudio's channel layout for channel configurations 1…7; `nil` for configuration 0.
    var channelLayout: ChannelLayout?
    /// The ES_Descriptor cookie.
    var magicCookie: [UInt8]
    /// The configuration the formats are reported from: ``audioSpecificConfig`` with implicitly
    /// signalled SBR (found in the first raw data block) applied
    /// (``AudioSpecificConfig/withImplicitSBR(parametricStereo:)``, docs/formats/adts.md).
    var signalledFormat: AudioSpecificConfig
    /// A problem worth a diagnostic (a PCE that could not be found, a first raw data block that could
    /// not be read), if any.
    var problem: String?
    /// The frames one raw data block decodes to at the reported (highest) layer's rate: 1024, or 2048 with
    /// implicit SBR (the output rate is twice the core rate). Packet frame counts and positions use it.
    var framesPerBlock = ADTSFrameLayout.framesPerBlock

    /// Builds the configuration of the frame whose header is `header`.
    ///
    /// - Parameters:
    ///   - firstRawDataBlock: the bytes after the header: a program_config_element is looked for at its
    ///     start (configuration 0), and the block is read for SBR data (implicit HE-AAC).
    ///   - readsImplicitSBR: false to report the core as signalled without reading the block (a transport
    ///     stream that looked already: ``TSAudioFrame/lookingForImplicitSBR(in:)``).
    init(header: ADTSHeader, firstRawDataBlock: [UInt8], readsImplicitSBR: Bool = true) {
        self.header = header
        var pce: ProgramConfigElement?
        if header.channelConfiguration == 0 {
            pce = ProgramConfigElement.find(inRawDataBlock: firstRawDataBlock)
            if pce == nil {
                problem =
                    "channel_configuration 0 but the first raw data block does not start with a "
                    + "program_config_element; channel count unknown"
            } else if let pce,
                pce.samplingFrequencyIndex != header.samplingFrequencyIndex
                    || pce.objectType != header.profile
            {
                problem =
                    "the program_config_element's object type or sampling frequency index differs "
                    + "from the header's; the header's are used"
            }
        }
        let asc = AudioSpecificConfig(adtsHeader: header, programConfigElement: pce)
        self.audioSpecificConfig = asc
        if readsImplicitSBR {
            let report = asc.reportedWithProblem(firstRawDataBlock: firstRawDataBlock[...])
            signalledFormat = report.config
            problem = problem ?? report.problem
        } else {
            signalledFormat = asc
        }
        let channels = UInt32(asc.channelCount ?? 0)
        self.channelCount = channels
        let configuration = Int(header.channelConfiguration)
        self.channelLayout = configuration == 0 ? nil : ChannelLayout(tag: AudioSpecificConfig.layoutTag(configuration))
        // 6144 bits (768 bytes) per channel and raw data block; at least one channel's worth when the
        // count is unknown.
        let bufferBytes = 768 * max(channels, 1)
        let (maxBits, overflow) = UInt64(bufferBytes * 8).multipliedReportingOverflow(
            by: UInt64(header.samplingFrequency))
        let maxBitrate = overflow ? UInt32.max : UInt32(min(maxBits / 1024, UInt64(UInt32.max)))
        self.magicCookie = ESDescriptor.encode(
            audioSpecificConfig: asc.bytes, bufferSizeDB: bufferBytes, maxBitrate: maxBitrate, avgBitrate: 0)
        framesPerBlock = Int(streamDescription.framesPerPacket)
    }

    /// The data format (CoreAudio ASBD) and the layers: `aac `, flags = audioObjectType (CoreAudio's
    /// MPEG4ObjectID), the header's sampling frequency, 1024 frames per packet, variable packet size;
    /// with implicit SBR the HE-AAC layers above it (``AudioSpecificConfig/withImplicitSBR(parametricStereo:)``), the
    /// data format then being the highest.
    var layers: [FormatListItem] {
        let core = StreamDescription(
            sampleRate: Double(header.samplingFrequency), formatID: .mpeg4AAC,
            formatFlags: UInt32(header.audioObjectType), bytesPerPacket: 0,
            framesPerPacket: UInt32(ADTSFrameLayout.framesPerBlock), bytesPerFrame: 0, channelsPerFrame: channelCount,
            bitsPerChannel: 0)
        let coreItem = FormatListItem(streamDescription: core, channelLayoutTag: channelLayout?.tag ?? .noLayout)
        guard signalledFormat.extensionAudioObjectType != nil, var layers = signalledFormat.formatListLayers() else {
            return [coreItem]
        }
        // The core layer as the header gives it (the channel count of a PCE included).
        layers[layers.count - 1] = coreItem
        return layers
    }

    /// The data format: the highest layer.
    var streamDescription: StreamDescription { layers[0].streamDescription }

    /// dataFormat, formatList (the header's layer, with the HE-AAC layers above it when the first
    /// block has SBR), magicCookie and channelLayout (when known; stereo for HE-AAC v2).
    var propertyValues: [AudioStreamPropertyValue] {
        let layers = self.layers
        var values: [AudioStreamPropertyValue] = [
            .dataFormat(layers[0].streamDescription), .formatList(layers), .magicCookie(magicCookie),
        ]
        let tag = layers[0].channelLayoutTag
        if tag.rawValue != 0 {
            values.append(.channelLayout(ChannelLayout(tag: tag)))
        } else if let channelLayout {
            values.append(.channelLayout(channelLayout))
        }
        return values
    }
}
