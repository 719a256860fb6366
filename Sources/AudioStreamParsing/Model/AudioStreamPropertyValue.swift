/// The value of one stream property, as announced to the property listener and returned by
/// `AudioStreamParser.value(of:)` (the typed counterpart of `AudioFileStreamGetProperty`).
public enum AudioStreamPropertyValue: Hashable, Sendable {
    /// `redy`: the parser reached the audio data; all properties that precede the data are known.
    case readyToProducePackets
    /// `ffmt`
    case fileFormat(AudioFileType)
    /// `dfmt`
    case dataFormat(StreamDescription)
    /// `flst`
    case formatList([FormatListItem])
    /// `mgic`
    case magicCookie([UInt8])
    /// `cmap`
    case channelLayout(ChannelLayout)
    /// `bcnt`
    case audioDataByteCount(UInt64)
    /// `pcnt`
    case audioDataPacketCount(UInt64)
    /// `psze`
    case maximumPacketSize(UInt32)
    /// `pkub`
    case packetSizeUpperBound(UInt32)
    /// `abpp`
    case averageBytesPerPacket(Double)
    /// `brat`
    case bitRate(UInt32)
    /// `pnfo`
    case packetTableInfo(PacketTableInfo)
    /// `info`: the info dictionary plus raw tags, artwork and chapters.
    case metadata(AudioMetadata)
    /// `rrap`
    case restrictsRandomAccess(Bool)
    /// `doff`
    case dataOffset(Int64)
    /// `rqof` (private to this library): feed the stream from this absolute offset next.
    case requestedByteOffset(Int64)

    /// The property this value belongs to.
    public var id: AudioStreamPropertyID {
        switch self {
        case .readyToProducePackets: return .readyToProducePackets
        case .fileFormat: return .fileFormat
        case .dataFormat: return .dataFormat
        case .formatList: return .formatList
        case .magicCookie: return .magicCookieData
        case .channelLayout: return .channelLayout
        case .audioDataByteCount: return .audioDataByteCount
        case .audioDataPacketCount: return .audioDataPacketCount
        case .maximumPacketSize: return .maximumPacketSize
        case .packetSizeUpperBound: return .packetSizeUpperBound
        case .averageBytesPerPacket: return .averageBytesPerPacket
        case .bitRate: return .bitRate
        case .packetTableInfo: return .packetTableInfo
        case .metadata: return .infoDictionary
        case .restrictsRandomAccess: return .restrictsRandomAccess
        case .dataOffset: return .dataOffset
        case .requestedByteOffset: return .requestedByteOffset
        }
    }

    /// The position of this property in the listener order that Apple clients expect:
    /// fileFormat, dataFormat, formatList, magicCookie, channelLayout, byte and packet counts, packet
    /// sizes, bitRate, packetTableInfo, metadata, restrictsRandomAccess, dataOffset, readyToProducePackets.
    var announcementOrder: Int {
        switch self {
        case .fileFormat: return 0
        case .dataFormat: return 1
        case .formatList: return 2
        case .magicCookie: return 3
        case .channelLayout: return 4
        case .audioDataByteCount: return 5
        case .audioDataPacketCount: return 6
        case .maximumPacketSize: return 7
        case .packetSizeUpperBound: return 8
        case .averageBytesPerPacket: return 9
        case .bitRate: return 10
        case .packetTableInfo: return 11
        case .metadata: return 12
        case .restrictsRandomAccess: return 13
        case .dataOffset: return 14
        case .readyToProducePackets: return 15
        case .requestedByteOffset: return 16
        }
    }
}

/// Every property value the parser knows, cached (CoreAudio's `PropertyIsCached` is always true here).
public struct StreamProperties: Hashable, Sendable {
    /// `ffmt`
    public var fileFormat: AudioFileType?
    /// `dfmt`
    public var dataFormat: StreamDescription?
    /// `flst`
    public var formatList: [FormatListItem]?
    /// `mgic`
    public var magicCookie: [UInt8]?
    /// `cmap`
    public var channelLayout: ChannelLayout?
    /// `bcnt`
    public var audioDataByteCount: UInt64?
    /// `pcnt`
    public var audioDataPacketCount: UInt64?
    /// `psze`
    public var maximumPacketSize: UInt32?
    /// `pkub`
    public var packetSizeUpperBound: UInt32?
    /// `abpp`
    public var averageBytesPerPacket: Double?
    /// `brat`
    public var bitRate: UInt32?
    /// `pnfo`
    public var packetTableInfo: PacketTableInfo?
    /// `info`
    public var metadata: AudioMetadata?
    /// `rrap`
    public var restrictsRandomAccess: Bool?
    /// `doff`
    public var dataOffset: Int64?
    /// `redy`
    public var isReadyToProducePackets = false
    /// `rqof` (private): the absolute offset the parser asked to be fed from last.
    public var requestedByteOffset: Int64?

    /// Empty: nothing known.
    public init() {}

    /// Stores `value`.
    mutating func apply(_ value: AudioStreamPropertyValue) {
        switch value {
        case .readyToProducePackets: isReadyToProducePackets = true
        case .fileFormat(let v): fileFormat = v
        case .dataFormat(let v): dataFormat = v
        case .formatList(let v): formatList = v
        case .magicCookie(let v): magicCookie = v
        case .channelLayout(let v): channelLayout = v
        case .audioDataByteCount(let v): audioDataByteCount = v
        case .audioDataPacketCount(let v): audioDataPacketCount = v
        case .maximumPacketSize(let v): maximumPacketSize = v
        case .packetSizeUpperBound(let v): packetSizeUpperBound = v
        case .averageBytesPerPacket(let v): averageBytesPerPacket = v
        case .bitRate(let v): bitRate = v
        case .packetTableInfo(let v): packetTableInfo = v
        case .metadata(let v): metadata = v
        case .restrictsRandomAccess(let v): restrictsRandomAccess = v
        case .dataOffset(let v): dataOffset = v
        case .requestedByteOffset(let v): requestedByteOffset = v
        }
    }

    /// The cached value of `id`, or `nil` when not known (or not a stored property).
    public func value(of id: AudioStreamPropertyID) -> AudioStreamPropertyValue? {
        switch id {
        case .readyToProducePackets: return isReadyToProducePackets ? .readyToProducePackets : nil
        case .fileFormat: return fileFormat.map { .fileFormat($0) }
        case .dataFormat: return dataFormat.map { .dataFormat($0) }
        case .formatList: return formatList.map { .formatList($0) }
        case .magicCookieData: return magicCookie.map { .magicCookie($0) }
        case .channelLayout: return channelLayout.map { .channelLayout($0) }
        case .audioDataByteCount: return audioDataByteCount.map { .audioDataByteCount($0) }
        case .audioDataPacketCount: return audioDataPacketCount.map { .audioDataPacketCount($0) }
        case .maximumPacketSize: return maximumPacketSize.map { .maximumPacketSize($0) }
        case .packetSizeUpperBound: return packetSizeUpperBound.map { .packetSizeUpperBound($0) }
        case .averageBytesPerPacket: return averageBytesPerPacket.map { .averageBytesPerPacket($0) }
        case .bitRate: return bitRate.map { .bitRate($0) }
        case .packetTableInfo: return packetTableInfo.map { .packetTableInfo($0) }
        case .infoDictionary: return metadata.map { .metadata($0) }
        case .restrictsRandomAccess: return restrictsRandomAccess.map { .restrictsRandomAccess($0) }
        case .dataOffset: return dataOffset.map { .dataOffset($0) }
        case .requestedByteOffset: return requestedByteOffset.map { .requestedByteOffset($0) }
        default: return nil
        }
    }
}
