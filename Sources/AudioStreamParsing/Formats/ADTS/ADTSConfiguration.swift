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
    /// A problem worth a diagnostic (a PCE that could not be found), if any.
    var problem: String?

    /// Builds the configuration of the frame whose header is `header`.
    ///
    /// - Parameter firstRawDataBlock: the bytes after the header (only read for configuration 0).
    init(header: ADTSHeader, firstRawDataBlock: [UInt8]) {
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
    }

    /// The data format (CoreAudio ASBD): `aac `, flags = audioObjectType (CoreAudio's MPEG4ObjectID),
    /// the header's sampling frequency, 1024 frames per packet, variable packet size.
    var streamDescription: StreamDescription {
        StreamDescription(
            sampleRate: Double(header.samplingFrequency), formatID: .mpeg4AAC,
            formatFlags: UInt32(header.audioObjectType), bytesPerPacket: 0,
            framesPerPacket: UInt32(ADTSFrameLayout.framesPerBlock), bytesPerFrame: 0, channelsPerFrame: channelCount,
            bitsPerChannel: 0)
    }

    /// dataFormat, formatList (one item: the header's layer; SBR/PS cannot be seen in a header),
    /// magicCookie and channelLayout (when known).
    var propertyValues: [AudioStreamPropertyValue] {
        let format = streamDescription
        var values: [AudioStreamPropertyValue] = [
            .dataFormat(format),
            .formatList([FormatListItem(streamDescription: format, channelLayoutTag: channelLayout?.tag ?? .noLayout)]),
            .magicCookie(magicCookie),
        ]
        if let channelLayout { values.append(.channelLayout(channelLayout)) }
        return values
    }
}
