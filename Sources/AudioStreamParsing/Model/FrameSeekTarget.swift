/// Where a seek by time lands (`AudioStreamParser.seek(toFrame:)`, `seek(toTime:)`): the bytes to feed
/// from, and what a decoder does with the packets that follow to output the requested sample first.
///
/// Frames count on the *presentation* timeline: frame 0 is the first sample a gapless player plays,
/// after the stream's priming frames (encoder delay: `packetTableInfo.primingFrames` from LAME/Info,
/// iTunSMPB, `elst`, CAF `pakt`, Opus pre-skip). The seek adds them: the requested frame is frame
/// `frame + primingFrames` of the decoded stream, which `position` places in a packet.
///
/// To play from exactly `frame`: feed from `target.absoluteOffset` with `.discontinuity`; the first
/// packet delivered is `startPacket` (`rollDistance` packets before `position.packet`, the decoder's
/// pre-roll); decode from it and drop the first `framesToDiscard` decoded frames (counted as
/// `packetToFrame` counts them, from `startPacket`'s first frame). Equivalently: decode the
/// `rollDistance` packets and drop their output, then drop `position.offsetInPacket` frames of packet
/// `position.packet`.
public struct FrameSeekTarget: Hashable, Sendable {
    /// The requested frame, on the presentation timeline (after the priming frames).
    public var frame: Int64
    /// The priming frames added to `frame` (0 when the stream has no gapless info).
    public var primingFrames: Int64
    /// The packet that holds decoded frame `frame + primingFrames`, and that frame's offset in it.
    public var position: PacketPosition
    /// The packets before `position.packet` a decoder decodes (and discards) first: Apple's
    /// `kAudioFilePropertyPacketToRollDistance` (Opus: the packets of 80 ms; Vorbis, AAC, AC-3: 1; MPEG
    /// Layer III: 1 plus the packets its bit reservoir may reach; PCM, FLAC, ALAC: 0). Fewer at the
    /// start of the stream.
    public var rollDistance: Int64
    /// The first packet to feed and decode: `position.packet − rollDistance`. The parser was seeked
    /// there (`seek(toPacket: startPacket)`).
    public var startPacket: Int64
    /// Decoded frames to drop from `startPacket`'s first frame on: `frame + primingFrames −
    /// packetToFrame(startPacket)`.
    public var framesToDiscard: Int64
    /// The result of `seek(toPacket: startPacket)`: where to feed from.
    public var target: SeekTarget
    /// True when the landing is an estimate: the packet that holds the frame, its first frame or its byte
    /// offset was estimated (an MP3 TOC, bit-rate arithmetic, ADTS, Ogg pages not parsed yet). Packets
    /// delivered from such a landing have `PacketBatch.isIndexEstimated` set. False where the container
    /// has tables or constant sizes: then the first packet delivered is `startPacket` and dropping
    /// `framesToDiscard` frames lands exactly on `frame`.
    public var isEstimated: Bool

    /// Creates a target.
    public init(
        frame: Int64, primingFrames: Int64, position: PacketPosition, rollDistance: Int64, startPacket: Int64,
        framesToDiscard: Int64, target: SeekTarget, isEstimated: Bool
    ) {
        self.frame = frame
        self.primingFrames = primingFrames
        self.position = position
        self.rollDistance = rollDistance
        self.startPacket = startPacket
        self.framesToDiscard = framesToDiscard
        self.target = target
        self.isEstimated = isEstimated
    }
}
