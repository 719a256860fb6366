/// An MPEG-4 Audio decoder configuration (`AudioSpecificConfig()`, ISO/IEC 14496-3 §1.6.2.1
/// Table 1.15), the `DecoderSpecificInfo` inside an AAC magic cookie.
///
/// ```
///  audioObjectType          5   (31: 32 + the next 6 bits)
///  samplingFrequencyIndex   4   (15: samplingFrequency follows in 24 bits)
///  channelConfiguration     4   (0: a program_config_element in GASpecificConfig)
///  [audioObjectType 5 or 29 (explicit SBR / PS): extensionSamplingFrequencyIndex 4 (+24),
///   audioObjectType again]
///  GASpecificConfig (object types 1–4, 6, 7, 17, 19–23), §4.4.1 Table 4.1:
///    frameLengthFlag 1 (0: 1024 frames, 1: 960), dependsOnCoreCoder 1 [coreCoderDelay 14],
///    extensionFlag 1, [program_config_element() when channelConfiguration is 0], …
/// ```
///
/// An ADTS stream's configuration is built from its first header: audioObjectType = profile + 1,
/// the header's sampling frequency index and channel configuration, GASpecificConfig all zero
/// (1024-frame blocks, no core coder, no extension), and, for channel configuration 0, the
/// program_config_element found at the start of the first raw data block. AAC-LC at 44.1 kHz in
/// stereo is `0x12 0x10`.
///
/// Use ``init(magicCookie:)`` to read the configuration back from a parser's `magicCookie`.
public struct AudioSpecificConfig: Hashable, Sendable {
    /// The MPEG-4 audioObjectType of the core (2 = AAC LC). For explicitly signalled SBR/PS
    /// (object type 5 or 29 first), the underlying object type.
    public var audioObjectType: Int
    /// samplingFrequencyIndex (15 when the frequency is written explicitly).
    public var samplingFrequencyIndex: Int
    /// The core sampling frequency in Hz.
    public var samplingFrequency: Int
    /// channelConfiguration (0 = defined by a program_config_element).
    public var channelConfiguration: Int
    /// Output channels: from the channel configuration (ISO/IEC 14496-3 Table 1.19; 7 is 8 channels),
    /// or from the program_config_element; `nil` when neither tells.
    public var channelCount: Int?
    /// 5 (SBR) when SBR is signalled explicitly (audioObjectType 5 or 29), else `nil`.
    public var extensionAudioObjectType: Int?
    /// The SBR output sampling frequency, when SBR is signalled explicitly.
    public var extensionSamplingFrequency: Int?
    /// True when parametric stereo is signalled explicitly (audioObjectType 29).
    public var psPresent: Bool
    /// Frames per raw data block from GASpecificConfig's frameLengthFlag (1024 or 960), when the
    /// object type has a GASpecificConfig.
    public var frameLength: Int?
    /// The encoded configuration.
    public var bytes: [UInt8]

    /// Channels per channel configuration 1…7 (ISO/IEC 14496-3 Table 1.19).
    static let channelsPerConfiguration: [Int] = [0, 1, 2, 3, 4, 5, 6, 8]

    /// Decodes an AudioSpecificConfig.
    ///
    /// - Parameter bytes: the configuration, from its first bit.
    /// - Returns: `nil` when the bytes end before the fields this type reads, or the sampling
    ///   frequency index is reserved.
    public init?(bytes: [UInt8]) {
        var reader = AACBitReader(bytes)
        func objectType() -> Int? {
            guard let t = reader.read(5) else { return nil }
            if t != 31 { return Int(t) }
            return reader.read(6).map { 32 + Int($0) }
        }
        func frequency() -> (index: Int, hertz: Int)? {
            guard let index = reader.read(4) else { return nil }
            if index == 15 { return reader.read(24).map { (15, Int($0)) } }
            guard Int(index) < ADTSHeader.samplingFrequencies.count else { return nil }
            return (Int(index), ADTSHeader.samplingFrequencies[Int(index)])
        }
        guard var type = objectType(), let core = frequency(), let configuration = reader.read(4) else { return nil }
        self.samplingFrequencyIndex = core.index
        self.samplingFrequency = core.hertz
        self.channelConfiguration = Int(configuration)
        self.psPresent = type == 29
        if type == 5 || type == 29 {
            guard let ext = frequency(), let underlying = objectType() else { return nil }
            self.extensionAudioObjectType = 5
            self.extensionSamplingFrequency = ext.hertz
            type = underlying
            if type == 22 { guard reader.skip(4) else { return nil } }
        }
        self.audioObjectType = type
        self.channelCount = (1...7).contains(configuration) ? Self.channelsPerConfiguration[Int(configuration)] : nil
        self.bytes = bytes
        if [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23].contains(type) {
            // GASpecificConfig(), 14496-3 §4.4.1 Table 4.1.
            guard let frameLengthFlag = reader.readFlag(), let dependsOnCore = reader.readFlag() else { return nil }
            self.frameLength = frameLengthFlag ? 960 : 1024
            if dependsOnCore { guard reader.skip(14) else { return nil } }
            guard reader.skip(1) else { return nil }  // extensionFlag
            // The program_config_element follows directly (no element ID), aligned relative to the
            // configuration's first bit.
            if configuration == 0 { self.channelCount = ProgramConfigElement.read(&reader)?.channelCount }
        }
    }

    /// Reads the configuration carried by an AAC magic cookie: an ES_Descriptor (ISO/IEC 14496-1
    /// §7.2.6.5) or a whole `esds` box body (version and flags first).
    ///
    /// - Returns: `nil` when the cookie holds no DecoderSpecificInfo or it does not decode.
    public init?(magicCookie: [UInt8]) {
        guard let info = ESDescriptor.decoderSpecificInfo(in: magicCookie) else { return nil }
        self.init(bytes: info)
    }

    /// The configuration an ADTS header stands for (see the type's discussion).
    init(adtsHeader header: ADTSHeader, programConfigElement pce: ProgramConfigElement?) {
        var writer = AACBitWriter()
        writer.write(UInt32(header.audioObjectType), bits: 5)
        writer.write(UInt32(header.samplingFrequencyIndex), bits: 4)
        writer.write(UInt32(header.channelConfiguration), bits: 4)
        writer.write(false)  // frameLengthFlag: 1024-frame blocks
        writer.write(false)  // dependsOnCoreCoder
        writer.write(false)  // extensionFlag
        if header.channelConfiguration == 0, let pce { pce.write(to: &writer) }
        writer.alignToByte()
        self.audioObjectType = header.audioObjectType
        self.samplingFrequencyIndex = Int(header.samplingFrequencyIndex)
        self.samplingFrequency = header.samplingFrequency
        self.channelConfiguration = Int(header.channelConfiguration)
        self.channelCount =
            header.channelConfiguration == 0
            ? pce?.channelCount : Self.channelsPerConfiguration[Int(header.channelConfiguration)]
        self.extensionAudioObjectType = nil
        self.extensionSamplingFrequency = nil
        self.psPresent = false
        self.frameLength = 1024
        self.bytes = writer.bytes
    }
}
