/// What a container announces for an AAC (or MPEG-4 audio) stream from its AudioSpecificConfig: the same
/// in MP4 (`esds`), Matroska (A_AAC CodecPrivate) and LATM (the StreamMuxConfig's first layer, in a
/// transport stream or a raw LOAS file).
///
/// - dataFormat: the highest layer of ``AudioSpecificConfig/formatListLayers()`` (HE-AAC v2 over HE-AAC
///   over the core when SBR/PS is signalled explicitly).
/// - formatList: every layer, highest first; containers announce it when it has more than one layer
///   (LATM always does: its configuration can change in-band).
/// - channelLayout: the top layer's tag (channel configuration 1…7, or stereo for PS); none for channel
///   configuration 0.
/// - magicCookie: for containers without one of their own, an ES_Descriptor (ISO/IEC 14496-1 §7.2.6.5)
///   around the configuration bytes, as MP4's `esds` carries it and Apple's parser returns it.
struct AACStreamFormat {
    var streamDescription: StreamDescription
    /// Every layer, highest first.
    var layers: [FormatListItem]
    var channelLayout: ChannelLayout?

    /// The format of `config`; `nil` for an object type without a CoreAudio format.
    init?(_ config: AudioSpecificConfig) {
        guard let layers = config.formatListLayers() else { return nil }
        let top = layers[0]
        streamDescription = top.streamDescription
        self.layers = layers
        channelLayout = top.channelLayoutTag.rawValue != 0 ? ChannelLayout(tag: top.channelLayoutTag) : nil
    }

    /// The layers when there is more than one (what MP4 and Matroska announce), else none.
    var layeredFormatList: [FormatListItem] { layers.count > 1 ? layers : [] }

    /// The ES_Descriptor magic cookie around the AudioSpecificConfig bytes `configBytes`.
    static func magicCookie(_ configBytes: [UInt8]) -> [UInt8] {
        ESDescriptor.encode(audioSpecificConfig: configBytes, bufferSizeDB: 0, maxBitrate: 0, avgBitrate: 0)
    }

    /// An LATM stream's properties (a transport stream's 0x11 stream, a raw LOAS file): dataFormat, the
    /// format list, the cookie and the channel layout; none for an object type without a CoreAudio format.
    static func latmPropertyValues(_ config: AudioSpecificConfig) -> [AudioStreamPropertyValue] {
        guard let format = AACStreamFormat(config) else { return [] }
        var values: [AudioStreamPropertyValue] = [
            .dataFormat(format.streamDescription), .formatList(format.layers), .magicCookie(magicCookie(config.bytes)),
        ]
        if let layout = format.channelLayout { values.append(.channelLayout(layout)) }
        return values
    }
}
