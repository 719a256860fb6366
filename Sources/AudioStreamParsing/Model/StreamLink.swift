/// One link of a chained stream: a file or a radio stream made of several complete streams one after
/// the other (RFC 3533 §4: a new group of beginning-of-stream pages after the end of the previous
/// logical streams), each with its own format, magic cookie, tags and duration.
///
/// The parser announces a link's `dataFormat`, `magicCookie`, `channelLayout`, `packetTableInfo` and
/// `metadata` again at its first audio packet (the properties always describe the current link); this
/// value keeps every link's, so that nothing is lost when the next link replaces them. Only Ogg produces
/// links today (`AudioStreamParser.links`); a stream of one link has one.
public struct StreamLink: Hashable, Sendable {
    /// The offset of the page where the link's first audio packet begins.
    public var offset: Int64
    /// The packet index (counted over the whole stream) of the link's first audio packet.
    public var firstPacketIndex: Int64
    /// The link's format.
    public var streamDescription: StreamDescription
    /// The link's tags, when it has any.
    public var metadata: AudioMetadata?
    /// The frames in the link's packets (nominal: priming and remainder included), once it ended.
    public var frameCount: Int64?
    /// Priming, remainder and valid frames from the link's last granule position, once it ended, when
    /// they fit its packets.
    public var packetTableInfo: PacketTableInfo?

    /// Creates a link description.
    public init(
        offset: Int64, firstPacketIndex: Int64, streamDescription: StreamDescription, metadata: AudioMetadata?,
        frameCount: Int64? = nil, packetTableInfo: PacketTableInfo? = nil
    ) {
        self.offset = offset
        self.firstPacketIndex = firstPacketIndex
        self.streamDescription = streamDescription
        self.metadata = metadata
        self.frameCount = frameCount
        self.packetTableInfo = packetTableInfo
    }

    /// The link's duration in seconds: its valid frames when the trimming is known, else its frames, at
    /// its own sample rate; `nil` before it ended or without a rate.
    public var duration: Double? {
        let rate = streamDescription.sampleRate
        guard rate > 0, let frames = packetTableInfo?.numberValidFrames ?? frameCount else { return nil }
        return Double(frames) / rate
    }
}
