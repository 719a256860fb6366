/// One thing an ``AudioStreamEventSequence`` reports, in stream order.
public enum AudioStreamEvent: Sendable {
    /// A property was parsed or changed (the property listener's call, with the value).
    case property(AudioStreamPropertyValue)
    /// A run of packets, copied out of the parser (see ``OwnedPacketBatch``).
    case packets(OwnedPacketBatch)
    /// A recoverable oddity (junk skipped, unknown chunk, CRC mismatch …).
    case diagnostic(ParserDiagnostic)
    /// An ICY (Shoutcast/Icecast) metadata block changed the stream title: it applies from packet
    /// `atPacket` on (the first packet that starts at or after the block's position in the audio).
    /// Every packet before `atPacket` was reported before this event, every later one after it.
    case streamTitle(ICYMetadata, atPacket: Int64)
    /// The source ended and `finish()` completed: the final properties were reported before it.
    case endOfStream
}

/// A packet batch that owns its bytes (the ``PacketBatch`` of the synchronous handler is borrowed and
/// valid only during the call; the asynchronous API copies it once so the consumer may keep it).
public struct OwnedPacketBatch: Sendable {
    /// The batch's bytes, from the first packet's first byte to the last packet's last byte.
    public let bytes: [UInt8]
    /// One description per packet, offsets relative to `bytes` (computed on access for constant-size
    /// packets, like ``PacketBatch/descriptions``).
    public let descriptions: PacketDescriptions
    /// The index (from the start of the stream, 0-based) of the batch's first packet.
    public let firstPacketIndex: Int64
    /// The absolute stream offset of `bytes[0]` (in the audio stream: ICY metadata blocks removed).
    public let fileOffset: Int64
    /// True when `firstPacketIndex` counts from an estimated seek landing (``PacketBatch/isIndexEstimated``).
    public let isIndexEstimated: Bool

    /// Copies a borrowed batch.
    public init(copying batch: PacketBatch) {
        bytes = batch.copyBytes()
        switch batch.descriptions.storage {
        case .constant: descriptions = batch.descriptions
        // A fresh array: a slice would keep (and later force a copy of) the parser's whole buffer.
        case .explicit(let slice): descriptions = PacketDescriptions(ArraySlice(Array(slice)))
        }
        firstPacketIndex = batch.firstPacketIndex
        fileOffset = batch.fileOffset
        isIndexEstimated = batch.isIndexEstimated
    }

    init(
        bytes: [UInt8], descriptions: PacketDescriptions, firstPacketIndex: Int64, fileOffset: Int64,
        isIndexEstimated: Bool
    ) {
        self.bytes = bytes
        self.descriptions = descriptions
        self.firstPacketIndex = firstPacketIndex
        self.fileOffset = fileOffset
        self.isIndexEstimated = isIndexEstimated
    }

    /// The number of packets.
    public var packetCount: Int { descriptions.count }

    /// The bytes of packet `index` (0-based within the batch).
    public func packetBytes(at index: Int) -> ArraySlice<UInt8> {
        let d = descriptions[index]
        let start = Int(d.startOffset)
        return bytes[start..<(start + Int(d.dataByteSize))]
    }

    /// Splits the batch before packet `index` (0 < index < packetCount): the packets before it and the
    /// packets from it on, each with its own bytes, descriptions, first index and file offset (the HLS
    /// product drops the packets before a seek time with it).
    public func split(at index: Int) -> (OwnedPacketBatch, OwnedPacketBatch) {
        let cut = Int(descriptions[index].startOffset)
        let head: PacketDescriptions
        let tail: PacketDescriptions
        switch descriptions.storage {
        case .constant(let size, let count):
            head = PacketDescriptions(constantSize: size, count: index)
            tail = PacketDescriptions(constantSize: size, count: count - index)
        case .explicit(let slice):
            head = PacketDescriptions(slice.prefix(index))
            tail = PacketDescriptions(
                ArraySlice(
                    slice.dropFirst(index).map {
                        PacketDescription(
                            startOffset: $0.startOffset - Int64(cut), variableFramesInPacket: $0.variableFramesInPacket,
                            dataByteSize: $0.dataByteSize)
                    }))
        }
        let end = descriptions.last.map { Int($0.startOffset) + Int($0.dataByteSize) } ?? bytes.count
        return (
            OwnedPacketBatch(
                bytes: Array(bytes[..<cut]), descriptions: head, firstPacketIndex: firstPacketIndex,
                fileOffset: fileOffset, isIndexEstimated: isIndexEstimated),
            OwnedPacketBatch(
                bytes: Array(bytes[cut..<end]), descriptions: tail, firstPacketIndex: firstPacketIndex + Int64(index),
                fileOffset: fileOffset + Int64(cut), isIndexEstimated: isIndexEstimated)
        )
    }
}
