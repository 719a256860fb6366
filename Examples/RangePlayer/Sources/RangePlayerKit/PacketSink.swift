import AudioStreamParsing

/// Where a player puts the parser's packets: a decoder's input queue in a real player.
///
/// Called on the player's thread, during `AudioStreamParser.parse`; a `PacketBatch` is borrowed
/// (valid only during the call), so a sink that keeps packets copies them.
public protocol PacketSink: AnyObject {
    /// All header properties were announced (`readyToProducePackets`): configure the decoder.
    func configure(_ parser: AudioStreamParser)
    /// Packets, in order.
    func receive(_ batch: PacketBatch)
    /// A seek: drop what is queued; the next packets start at the seek target.
    func flush()
}

/// One packet as the sink saw it.
public struct ReceivedPacket: Hashable, Sendable {
    /// The index the parser gave it (after an estimated seek: the requested index, counted on).
    public var index: Int64
    /// Its absolute offset in the resource.
    public var offset: Int64
    /// Its size in bytes.
    public var size: Int64
    /// Its frames (the format's constant, or the packet's own count).
    public var frames: Int64
}

/// A sink that "plays" by counting: it keeps every packet's index, offset and size per segment (the
/// start, then one segment per seek) and checks what a decoder relies on: indices count up by one
/// without gaps or repeats, offsets never go backwards within a segment, and every packet lies inside
/// the resource.
public final class CountingSink: PacketSink {
    /// Packets received, one array per segment (segment 0 is the start; each seek starts one).
    public private(set) var segments: [[ReceivedPacket]] = [[]]
    /// Violations of the checks above, as messages.
    public private(set) var problems: [String] = []
    /// Packets received in all segments.
    public private(set) var totalPackets = 0
    /// Frames received in all segments.
    public private(set) var totalFrames: Int64 = 0
    /// The resource's length when known (for the bounds check).
    public var resourceLength: Int64?
    private var framesPerPacket: Int64 = 0

    public init() {}

    public func configure(_ parser: AudioStreamParser) {
        framesPerPacket = Int64(parser.dataFormat?.framesPerPacket ?? 0)
    }

    public func receive(_ batch: PacketBatch) {
        record(batch.descriptions, firstPacketIndex: batch.firstPacketIndex, fileOffset: batch.fileOffset)
    }

    /// The same for an owned batch (from `AudioStreamEventSequence`).
    public func receive(_ batch: OwnedPacketBatch) {
        record(batch.descriptions, firstPacketIndex: batch.firstPacketIndex, fileOffset: batch.fileOffset)
    }

    private func record(_ descriptions: PacketDescriptions, firstPacketIndex: Int64, fileOffset: Int64) {
        for (i, d) in descriptions.enumerated() {
            let packet = ReceivedPacket(
                index: firstPacketIndex + Int64(i), offset: fileOffset + d.startOffset,
                size: Int64(d.dataByteSize),
                frames: d.variableFramesInPacket != 0 ? Int64(d.variableFramesInPacket) : framesPerPacket)
            if let previous = segments[segments.count - 1].last {
                if packet.index != previous.index + 1 {
                    problems.append("packet \(packet.index) follows packet \(previous.index)")
                }
                if packet.offset < previous.offset {
                    problems.append(
                        "packet \(packet.index) at \(packet.offset) before packet \(previous.index) "
                            + "at \(previous.offset)")
                }
            }
            if let length = resourceLength, packet.offset < 0 || packet.offset + packet.size > length {
                problems.append("packet \(packet.index) at \(packet.offset) size \(packet.size) outside the resource")
            }
            segments[segments.count - 1].append(packet)
            totalPackets += 1
            totalFrames += packet.frames
        }
    }

    public func flush() {
        segments.append([])
    }

    /// Packets received since the last `flush` (or the start).
    public var currentSegmentCount: Int { segments[segments.count - 1].count }
}
