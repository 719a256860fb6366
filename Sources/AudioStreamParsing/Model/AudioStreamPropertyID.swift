/// The identifier of a stream property (CoreAudio `AudioFileStreamPropertyID`).
///
/// Values are the exact four-character codes of `kAudioFileStreamProperty_*`:
///
/// | Swift name                | CoreAudio constant                                   | code   |
/// | ------------------------- | ---------------------------------------------------- | ------ |
/// | `readyToProducePackets`   | `kAudioFileStreamProperty_ReadyToProducePackets`     | `redy` |
/// | `fileFormat`              | `kAudioFileStreamProperty_FileFormat`                | `ffmt` |
/// | `dataFormat`              | `kAudioFileStreamProperty_DataFormat`                | `dfmt` |
/// | `formatList`              | `kAudioFileStreamProperty_FormatList`                | `flst` |
/// | `magicCookieData`         | `kAudioFileStreamProperty_MagicCookieData`           | `mgic` |
/// | `audioDataByteCount`      | `kAudioFileStreamProperty_AudioDataByteCount`        | `bcnt` |
/// | `audioDataPacketCount`    | `kAudioFileStreamProperty_AudioDataPacketCount`      | `pcnt` |
/// | `maximumPacketSize`       | `kAudioFileStreamProperty_MaximumPacketSize`         | `psze` |
/// | `dataOffset`              | `kAudioFileStreamProperty_DataOffset`                | `doff` |
/// | `channelLayout`           | `kAudioFileStreamProperty_ChannelLayout`             | `cmap` |
/// | `packetToFrame`           | `kAudioFileStreamProperty_PacketToFrame`             | `pkfr` |
/// | `frameToPacket`           | `kAudioFileStreamProperty_FrameToPacket`             | `frpk` |
/// | `restrictsRandomAccess`   | `kAudioFileStreamProperty_RestrictsRandomAccess`     | `rrap` |
/// | `packetToRollDistance`    | `kAudioFileStreamProperty_PacketToRollDistance`      | `pkrl` |
/// | `previousIndependentPacket` | `kAudioFileStreamProperty_PreviousIndependentPacket` | `pind` |
/// | `nextIndependentPacket`   | `kAudioFileStreamProperty_NextIndependentPacket`     | `nind` |
/// | `packetToDependencyInfo`  | `kAudioFileStreamProperty_PacketToDependencyInfo`    | `pkdp` |
/// | `packetToByte`            | `kAudioFileStreamProperty_PacketToByte`              | `pkby` |
/// | `byteToPacket`            | `kAudioFileStreamProperty_ByteToPacket`              | `bypk` |
/// | `packetTableInfo`         | `kAudioFileStreamProperty_PacketTableInfo`           | `pnfo` |
/// | `packetSizeUpperBound`    | `kAudioFileStreamProperty_PacketSizeUpperBound`      | `pkub` |
/// | `averageBytesPerPacket`   | `kAudioFileStreamProperty_AverageBytesPerPacket`     | `abpp` |
/// | `bitRate`                 | `kAudioFileStreamProperty_BitRate`                   | `brat` |
/// | `infoDictionary`          | `kAudioFileStreamProperty_InfoDictionary`            | `info` |
public struct AudioStreamPropertyID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The four-character code as a big-endian `UInt32`.
    public var rawValue: UInt32
    /// Wraps a raw four-character code.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(_ code: StaticString) { self.rawValue = FourCharCode.value(code) }

    /// `kAudioFileStreamProperty_ReadyToProducePackets`: the parser reached the audio data.
    public static let readyToProducePackets = Self("redy")
    /// `kAudioFileStreamProperty_FileFormat`: the container type (`AudioFileType`).
    public static let fileFormat = Self("ffmt")
    /// `kAudioFileStreamProperty_DataFormat`: the audio data's `StreamDescription`.
    public static let dataFormat = Self("dfmt")
    /// `kAudioFileStreamProperty_FormatList`: every decodable layer, richest first.
    public static let formatList = Self("flst")
    /// `kAudioFileStreamProperty_MagicCookieData`: the codec configuration bytes.
    public static let magicCookieData = Self("mgic")
    /// `kAudioFileStreamProperty_AudioDataByteCount`: bytes of audio data.
    public static let audioDataByteCount = Self("bcnt")
    /// `kAudioFileStreamProperty_AudioDataPacketCount`: packets of audio data.
    public static let audioDataPacketCount = Self("pcnt")
    /// `kAudioFileStreamProperty_MaximumPacketSize`: the largest packet in the data.
    public static let maximumPacketSize = Self("psze")
    /// `kAudioFileStreamProperty_DataOffset`: absolute offset of the first audio byte.
    public static let dataOffset = Self("doff")
    /// `kAudioFileStreamProperty_ChannelLayout`: the `ChannelLayout`.
    public static let channelLayout = Self("cmap")
    /// `kAudioFileStreamProperty_PacketToFrame` (a translation, see `AudioStreamParser.packetToFrame(_:)`).
    public static let packetToFrame = Self("pkfr")
    /// `kAudioFileStreamProperty_FrameToPacket` (a translation, see `AudioStreamParser.frameToPacket(_:)`).
    public static let frameToPacket = Self("frpk")
    /// `kAudioFileStreamProperty_RestrictsRandomAccess`: some packets are not random-access points.
    public static let restrictsRandomAccess = Self("rrap")
    /// `kAudioFileStreamProperty_PacketToRollDistance`.
    public static let packetToRollDistance = Self("pkrl")
    /// `kAudioFileStreamProperty_PreviousIndependentPacket`.
    public static let previousIndependentPacket = Self("pind")
    /// `kAudioFileStreamProperty_NextIndependentPacket`.
    public static let nextIndependentPacket = Self("nind")
    /// `kAudioFileStreamProperty_PacketToDependencyInfo`.
    public static let packetToDependencyInfo = Self("pkdp")
    /// `kAudioFileStreamProperty_PacketToByte` (a translation, see `AudioStreamParser.packetToByte(_:)`).
    public static let packetToByte = Self("pkby")
    /// `kAudioFileStreamProperty_ByteToPacket` (a translation, see `AudioStreamParser.byteToPacket(_:)`).
    public static let byteToPacket = Self("bypk")
    /// `kAudioFileStreamProperty_PacketTableInfo`: priming and remainder frames.
    public static let packetTableInfo = Self("pnfo")
    /// `kAudioFileStreamProperty_PacketSizeUpperBound`: the largest packet the format allows.
    public static let packetSizeUpperBound = Self("pkub")
    /// `kAudioFileStreamProperty_AverageBytesPerPacket`.
    public static let averageBytesPerPacket = Self("abpp")
    /// `kAudioFileStreamProperty_BitRate`: bits per second.
    public static let bitRate = Self("brat")
    /// `kAudioFileStreamProperty_InfoDictionary`: metadata (see `AudioMetadata`).
    public static let infoDictionary = Self("info")
    /// The absolute byte offset the parser needs next (`AudioStreamParser.requestedByteOffset`), announced
    /// when `ParserOptions.allowsByteRangeRequests` is set. Private to this library (CoreAudio has no such
    /// property): `'rqof'`.
    public static let requestedByteOffset = Self("rqof")

    /// Every property ID CoreAudio defines for Audio File Stream Services, in header order.
    public static let allKnown: [AudioStreamPropertyID] = [
        .readyToProducePackets, .fileFormat, .dataFormat, .formatList, .magicCookieData,
        .audioDataByteCount, .audioDataPacketCount, .maximumPacketSize, .dataOffset, .channelLayout,
        .packetToFrame, .frameToPacket, .restrictsRandomAccess, .packetToRollDistance,
        .previousIndependentPacket, .nextIndependentPacket, .packetToDependencyInfo, .packetToByte,
        .byteToPacket, .packetTableInfo, .packetSizeUpperBound, .averageBytesPerPacket, .bitRate,
        .infoDictionary,
    ]

    /// The four characters, e.g. `redy`.
    public var description: String { FourCharCode.string(rawValue) }
}
