/// Where one packet lies in a packet batch (CoreAudio `AudioStreamPacketDescription`).
public struct PacketDescription: Hashable, Sendable {
    /// `mStartOffset`: the packet's first byte, relative to the start of the batch's bytes.
    public var startOffset: Int64
    /// `mVariableFramesInPacket`: frames in this packet when the format's frames per packet vary,
    /// otherwise 0.
    public var variableFramesInPacket: UInt32
    /// `mDataByteSize`: the packet's size in bytes.
    public var dataByteSize: UInt32

    /// Creates a description.
    @inlinable
    public init(startOffset: Int64, variableFramesInPacket: UInt32, dataByteSize: UInt32) {
        self.startOffset = startOffset
        self.variableFramesInPacket = variableFramesInPacket
        self.dataByteSize = dataByteSize
    }
}

/// Gapless information (CoreAudio `AudioFilePacketTableInfo`, 16 bytes).
///
/// Invariant (when all three are known): the nominal frames of all packets minus `primingFrames` minus
/// `remainderFrames` equals `numberValidFrames`.
public struct PacketTableInfo: Hashable, Sendable {
    /// `mNumberValidFrames`: frames that remain after trimming.
    public var numberValidFrames: Int64
    /// `mPrimingFrames`: frames to discard at the start (encoder delay).
    public var primingFrames: Int32
    /// `mRemainderFrames`: frames to discard at the end (padding).
    public var remainderFrames: Int32

    /// Creates a packet table info.
    public init(numberValidFrames: Int64, primingFrames: Int32, remainderFrames: Int32) {
        self.numberValidFrames = numberValidFrames
        self.primingFrames = primingFrames
        self.remainderFrames = remainderFrames
    }
}
