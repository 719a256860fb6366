/// An MPEG-4 Audio decoder configuration (`AudioSpecificConfig()`, ISO/IEC 14496-3 §1.6.2.1
/// Table 1.15), the `DecoderSpecificInfo` inside an AAC magic cookie.
///
/// ```
///  audioObjectType          5   (31: 32 + the next 6 bits)
///  samplingFrequencyIndex   4   (15: samplingFrequency follows in 24 bits)
///  channelConfiguration     4   (0: a program_config_element in GASpecificConfig)
///  [audioObjectType 5 or 29 (explicit SBR / PS): extensionSamplingFrequencyIndex 4 (+24),
///   audioObjectType again (22: extensionChannelConfiguration 4)]
///  GASpecificConfig (object types 1–4, 6, 7, 17, 19–23), §4.4.1 Table 4.1:
///    frameLengthFlag 1 (0: 1024 frames, 1: 960), dependsOnCoreCoder 1 [coreCoderDelay 14],
///    extensionFlag 1, [program_config_element() when channelConfiguration is 0], …
///  [syncExtensionType 0x2B7 … (backward-compatible SBR / PS, §1.6.5.2): see syncExtension]
/// ```
///
/// An ADTS stream's configuration is built from its first header: audioObjectType = profile + 1,
/// the header's sampling frequency index and channel configuration, GASpecificConfig all zero
/// (1024-frame blocks, no core coder, no extension), and, for channel configuration 0, the
/// program_config_element found at the start of the first raw data block. AAC-LC at 44.1 kHz in
/// stereo is `0x12 0x10`.
///
/// Read by MP4 (`esds`), and by any container whose AAC cookie is an ES_Descriptor (CAF, ADTS's
/// own cookie). Use ``init(magicCookie:)`` to read the configuration back from a parser's
/// `magicCookie`.
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
    /// 5 (SBR) when SBR is signalled explicitly: hierarchically (audioObjectType 5 or 29 first) or
    /// backward-compatibly (the 0x2B7 sync extension with sbrPresentFlag 1); else `nil`.
    public var extensionAudioObjectType: Int?
    /// The SBR output sampling frequency, when SBR is signalled explicitly.
    public var extensionSamplingFrequency: Int?
    /// True when parametric stereo is signalled explicitly (audioObjectType 29, or psPresentFlag in
    /// the 0x548 sync extension).
    public var psPresent: Bool
    /// Frames per raw data block from GASpecificConfig's frameLengthFlag (1024 or 960), when the
    /// object type has a GASpecificConfig.
    public var frameLength: Int?
    /// The encoded configuration.
    public var bytes: [UInt8]

    /// Channels per channel configuration 1…7 (ISO/IEC 14496-3 Table 1.19).
    static let channelsPerConfiguration: [Int] = [0, 1, 2, 3, 4, 5, 6, 8]

    /// The sampling frequencies of samplingFrequencyIndex 0…12 in Hz (ISO/IEC 14496-3 Table 1.18;
    /// 13…14 are reserved, 15 writes the frequency out).
    static let samplingFrequencies: [Int] = [
        96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350,
    ]

    /// The object types with a GASpecificConfig (§1.6.2.1 Table 1.15): AAC Main, LC, SSR, LTP,
    /// scalable, TwinVQ, and their error-resilient forms.
    static let generalAudioObjectTypes: Set<Int> = [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23]

    /// Where decoding errors point.
    static let structure = Structure("aac", "AudioSpecificConfig")

    /// Decodes an AudioSpecificConfig (``decode(_:notes:)``), dropping its diagnostics.
    static func decode(_ bytes: [UInt8]) throws(StructureError) -> AudioSpecificConfig {
        var notes: [DiagnosticNote] = []
        return try decode(bytes, notes: &notes)
    }

    /// Decodes an AudioSpecificConfig, also when HE-AAC is signalled backward-compatibly after it
    /// (``syncExtension(_:audioObjectType:)``).
    ///
    /// Lenient past the channel configuration: a GASpecificConfig cut short (the bytes end inside
    /// frameLengthFlag, dependsOnCoreCoder, its 14 coreCoderDelay bits or extensionFlag; writers have been
    /// seen to set dependsOnCoreCoder without the delay) still gives the object type, the rates and the
    /// channels, with a `.truncated` note; a missing frameLengthFlag is taken as 0 (1024 frames), and what
    /// follows the cut (program_config_element, sync extension) is not read.
    ///
    /// - Parameters:
    ///   - bytes: the configuration, from its first bit.
    ///   - notes: receives a note when the GASpecificConfig is cut short.
    /// - Throws: `invalidFile` when the bytes end before the object type, sampling frequency or channel
    ///   configuration (and, for explicit SBR/PS, the extension frequency and the core object type), or a
    ///   sampling frequency index is reserved. A program_config_element that does not read leaves
    ///   ``channelCount`` `nil` rather than failing.
    static func decode(_ bytes: [UInt8], notes: inout [DiagnosticNote]) throws(StructureError) -> AudioSpecificConfig {
        var reader = BitReader(bytes, order: .mostSignificantFirst)
        return try decode(&reader, bytes: bytes, readsSyncExtension: true, notes: &notes)
    }

    /// Decodes an AudioSpecificConfig embedded in a bitstream at `reader`'s position, as LATM's
    /// StreamMuxConfig carries it (ISO/IEC 14496-3 §1.7.3.1): with `bitLength` (audioMuxVersion 1's
    /// ascLen) the configuration is those bits, sync extension included, and the reader moves past all
    /// of them; without (audioMuxVersion 0) it ends where its syntax ends, and a backward-compatible
    /// sync extension is not looked for (nothing delimits it there). ``bytes`` holds the configuration's
    /// bits byte-aligned, as an `esds` would.
    ///
    /// - Throws: as ``decode(_:notes:)``, and `invalidFile` when `bitLength` runs past the bits left.
    static func decode(_ reader: inout BitReader, bitLength: Int?, notes: inout [DiagnosticNote])
        throws(StructureError) -> AudioSpecificConfig
    {
        // A configuration is a few bytes; a program_config_element with its comment, a few hundred.
        let available = min(reader.remainingBits, bitLength ?? 4096)
        if let bitLength, bitLength > reader.remainingBits { throw structure.invalid("ascLen runs past the element") }
        var copy = reader
        guard let aligned = copy.readBits(available) else { throw structure.invalid("ends before the configuration") }
        var inner = BitReader(aligned, order: .mostSignificantFirst)
        var config = try decode(&inner, bytes: aligned, readsSyncExtension: bitLength != nil, notes: &notes)
        let used = bitLength ?? inner.bitPosition
        var own = Array(aligned.prefix((used + 7) / 8))
        if used & 7 != 0, !own.isEmpty { own[own.count - 1] &= 0xFF << UInt8(8 - used & 7) }
        config.bytes = own
        _ = reader.skip(used)
        return config
    }

    /// The decoder behind both entry points: reads from `reader`'s position; `bytes` becomes ``bytes``.
    private static func decode(
        _ reader: inout BitReader, bytes: [UInt8], readsSyncExtension: Bool, notes: inout [DiagnosticNote]
    ) throws(StructureError) -> AudioSpecificConfig {
        func read(_ count: Int, _ field: String) throws(StructureError) -> UInt32 {
            guard let value = reader.read(count) else { throw structure.invalid("ends inside \(field)") }
            return value
        }
        func objectType() throws(StructureError) -> Int {
            let type = try read(5, "audioObjectType")
            if type != 31 { return Int(type) }
            return try 32 + Int(read(6, "audioObjectTypeExt"))
        }
        func frequency(_ field: String) throws(StructureError) -> (index: Int, hertz: Int) {
            let index = try Int(read(4, field))
            if index == 15 { return try (15, Int(read(24, "\(field) 15's frequency"))) }
            guard index < samplingFrequencies.count else { throw structure.invalid("\(field) \(index) is reserved") }
            return (index, samplingFrequencies[index])
        }
        var type = try objectType()
        let core = try frequency("samplingFrequencyIndex")
        let configuration = try Int(read(4, "channelConfiguration"))
        var config = AudioSpecificConfig(
            audioObjectType: type, samplingFrequencyIndex: core.index, samplingFrequency: core.hertz,
            channelConfiguration: configuration,
            channelCount: (1...7).contains(configuration) ? channelsPerConfiguration[configuration] : nil,
            frameLength: nil, bytes: bytes)
        let explicit = type == 5 || type == 29
        if explicit {
            config.psPresent = type == 29
            // Explicit hierarchical signalling (§1.6.5.2): the SBR rate, then the core's object type.
            config.extensionAudioObjectType = 5
            config.extensionSamplingFrequency = try frequency("extensionSamplingFrequencyIndex").hertz
            type = try objectType()
            if type == 22 { _ = try read(4, "extensionChannelConfiguration") }
        }
        config.audioObjectType = type
        guard generalAudioObjectTypes.contains(type) else { return config }
        // GASpecificConfig(), §4.4.1 Table 4.1; cut short: what was read is kept (see above).
        let extensionFlag: Bool
        do throws(StructureError) {
            config.frameLength = 1024
            config.frameLength = try read(1, "frameLengthFlag") == 1 ? 960 : 1024
            if try read(1, "dependsOnCoreCoder") == 1 { _ = try read(14, "coreCoderDelay") }
            extensionFlag = try read(1, "extensionFlag") == 1
        } catch {
            notes.append(
                DiagnosticNote(
                    .truncated,
                    "\(error.reason) (GASpecificConfig cut short); object type, rate and channels kept, "
                        + "\(config.frameLength ?? 1024) frames per block"))
            return config
        }
        if configuration == 0 {
            // The program_config_element follows directly (no element ID), aligned relative to the
            // configuration's first bit.
            guard let pce = try? ProgramConfigElement.decode(&reader) else { return config }
            config.channelCount = pce.channelCount
        }
        if !explicit, readsSyncExtension,
            let sbr = syncExtension(&reader, audioObjectType: type, extensionFlag: extensionFlag)
        {
            config.extensionAudioObjectType = 5
            config.extensionSamplingFrequency = sbr.samplingFrequency
            config.psPresent = sbr.ps
        }
        return config
    }

    /// Backward-compatible explicit SBR/PS signalling (ISO/IEC 14496-3 §1.6.5.2, §1.6.2.1 Table 1.15),
    /// read after the GASpecificConfig up to its extensionFlag (and the program_config_element):
    ///
    /// ```
    ///  [extensionFlag: object type 17: 3 resilience flags; extensionFlag3 1]
    ///  [object type 17: epConfig 2]
    ///  syncExtensionType 11 = 0x2B7, extensionAudioObjectType 5 = 5, sbrPresentFlag 1 = 1,
    ///  extensionSamplingFrequencyIndex 4 (+24 when 15),
    ///  [syncExtensionType 11 = 0x548, psPresentFlag 1]
    /// ```
    ///
    /// Read for the GA object types 1–4 and 17 (the ones HE-AAC extends). Decoders that ignore the
    /// extension play the core (AAC-LC); ffmpeg writes it with sbrPresentFlag 0 (no SBR).
    ///
    /// - Returns: the SBR output rate and whether PS is present, or `nil` when no SBR is signalled
    ///   this way.
    private static func syncExtension(
        _ reader: inout BitReader, audioObjectType type: Int, extensionFlag: Bool
    ) -> (samplingFrequency: Int, ps: Bool)? {
        guard [1, 2, 3, 4, 17].contains(type) else { return nil }
        if extensionFlag {
            // Object type 17: aacSectionDataResilienceFlag, aacScalefactorDataResilienceFlag,
            // aacSpectralDataResilienceFlag; then extensionFlag3.
            if type == 17 { guard reader.skip(3) else { return nil } }
            guard reader.skip(1) else { return nil }
        }
        if type == 17 { guard reader.skip(2) else { return nil } }  // epConfig
        guard reader.remainingBits >= 16, reader.read(11) == 0x2B7, reader.read(5) == 5,
            reader.readFlag() == true, let index = reader.read(4)
        else { return nil }
        let frequency: Int
        if index == 15 {
            guard let hertz = reader.read(24) else { return nil }
            frequency = Int(hertz)
        } else {
            guard Int(index) < samplingFrequencies.count else { return nil }
            frequency = samplingFrequencies[Int(index)]
        }
        var ps = false
        if reader.remainingBits >= 12, reader.read(11) == 0x548 { ps = reader.readFlag() == true }
        return (frequency, ps)
    }

    /// Decodes an AudioSpecificConfig (`decode(_:)`).
    ///
    /// - Parameter bytes: the configuration, from its first bit.
    /// - Returns: `nil` when the bytes end before the object type, sampling frequency and channel
    ///   configuration, or the sampling frequency index is reserved. A GASpecificConfig cut short still
    ///   gives a configuration (1024 frames per block when frameLengthFlag is missing).
    public init?(bytes: [UInt8]) {
        guard let config = try? Self.decode(bytes) else { return nil }
        self = config
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
        var writer = BitWriter()
        writer.write(UInt32(header.audioObjectType), bits: 5)
        writer.write(UInt32(header.samplingFrequencyIndex), bits: 4)
        writer.write(UInt32(header.channelConfiguration), bits: 4)
        writer.write(false)  // frameLengthFlag: 1024-frame blocks
        writer.write(false)  // dependsOnCoreCoder
        writer.write(false)  // extensionFlag
        if header.channelConfiguration == 0, let pce { pce.write(to: &writer) }
        writer.alignToByte()
        let configuration = Int(header.channelConfiguration)
        self.init(
            audioObjectType: header.audioObjectType, samplingFrequencyIndex: Int(header.samplingFrequencyIndex),
            samplingFrequency: header.samplingFrequency, channelConfiguration: configuration,
            channelCount: configuration == 0 ? pce?.channelCount : Self.channelsPerConfiguration[configuration],
            frameLength: 1024, bytes: writer.bytes)
    }

    /// A configuration without explicit SBR/PS signalling.
    private init(
        audioObjectType: Int, samplingFrequencyIndex: Int, samplingFrequency: Int, channelConfiguration: Int,
        channelCount: Int?, frameLength: Int?, bytes: [UInt8]
    ) {
        self.audioObjectType = audioObjectType
        self.samplingFrequencyIndex = samplingFrequencyIndex
        self.samplingFrequency = samplingFrequency
        self.channelConfiguration = channelConfiguration
        self.channelCount = channelCount
        self.extensionAudioObjectType = nil
        self.extensionSamplingFrequency = nil
        self.psPresent = false
        self.frameLength = frameLength
        self.bytes = bytes
    }
}
