/// A frame position split into packet and frame within it (CoreAudio `AudioFramePacketTranslation`).
public struct PacketPosition: Hashable, Sendable {
    /// The packet index.
    public var packet: Int64
    /// The frame (for frame→packet) or byte (for byte→packet) offset within the packet.
    public var offsetInPacket: Int64

    /// Creates a position.
    public init(packet: Int64, offsetInPacket: Int64) {
        self.packet = packet
        self.offsetInPacket = offsetInPacket
    }
}
