/// A run of audio packets handed to the packets handler (the arguments of CoreAudio's
/// `AudioFileStream_PacketsProc`).
///
/// The bytes are **borrowed**: they lie in the caller's chunk (zero-copy) or in the parser's own
/// buffer, and are valid only during the handler call. Read them as a `RawSpan`, which the compiler
/// keeps from escaping the closure that receives it: ``withBytes(_:)``, ``withPacket(at:_:)``,
/// ``forEachPacket(_:)``. A C decoder that takes a pointer gets one from the explicitly unsafe
/// ``bytes`` and ``packetBytes(at:)`` (valid during the handler call only: nothing checks that).
/// Copy what you keep (``copyBytes()``, or `Array(...)` of a packet's bytes).
///
/// ```swift
/// parser.packetsHandler = { batch in
///     batch.forEachPacket { description, packet in   // packet: RawSpan, borrowed
///         decoder.decode(packet, frames: description.variableFramesInPacket)
///     }
/// }
/// ```
///
/// Every packet has a description (offsets relative to `bytes`). For constant-size formats such as
/// linear PCM the descriptions are computed on access, never stored one per frame: check
/// ``constantPacketSize`` to take the fast path.
public struct PacketBatch {
    /// The batch's bytes, borrowed (`bytes` gives them as a raw buffer).
    let storage: BorrowedBytes
    /// One description per packet, offsets relative to `bytes`.
    public let descriptions: PacketDescriptions
    /// The index (from the start of the stream, 0-based) of the batch's first packet.
    public let firstPacketIndex: Int64
    /// The absolute stream offset of `bytes[0]`.
    public let fileOffset: Int64
    /// True when ``firstPacketIndex`` is counted from an estimated seek landing, not known: after
    /// `seek(toPacket:)` or `seek(toFrame:)` returned an estimated offset (an MP3 Xing/VBRI TOC or
    /// bit-rate arithmetic, ADTS, Ogg), the first packet found at that offset is labelled with the
    /// requested index although it may be a nearby packet, and the following ones count on from it.
    /// The packets' bytes and offsets are exact; only their indices (and the frame positions derived
    /// from them) are estimates. False whenever the index is the packet's true index: before any seek,
    /// after an exact seek, and once the stream told the true index (a FLAC frame number relabels the
    /// landing at once). The true index of an estimated landing, when it becomes known, is in
    /// `AudioStreamParser.seekLanding` (docs/streaming.md, "Estimated seeks").
    public let isIndexEstimated: Bool

    init(
        bytes: BorrowedBytes, descriptions: PacketDescriptions, firstPacketIndex: Int64, fileOffset: Int64,
        isIndexEstimated: Bool = false
    ) {
        self.storage = bytes
        self.descriptions = descriptions
        self.firstPacketIndex = firstPacketIndex
        self.fileOffset = fileOffset
        self.isIndexEstimated = isIndexEstimated
    }

    /// The number of packets.
    public var packetCount: Int { descriptions.count }

    /// The size of every packet when they all have the same size and lie back to back (linear PCM and
    /// other constant-bit-rate formats), otherwise `nil`.
    public var constantPacketSize: Int? {
        if case .constant(let size, _) = descriptions.storage { return size }
        return nil
    }

    /// A copy of the batch's bytes.
    public func copyBytes() -> [UInt8] { Array(storage) }

    /// A copy of the bytes of packet `index` (0-based within the batch), to keep after the handler
    /// returns. `index` must be in `0..<packetCount` (checked: traps otherwise).
    public func copyPacket(at index: Int) -> [UInt8] {
        let description = descriptions[index]
        let start = Int(description.startOffset)
        return Array(storage.extracting(start..<(start + Int(description.dataByteSize))))
    }

    /// Calls `body` with the batch's bytes, from the first packet's first byte to the last packet's
    /// last byte, as a `RawSpan`: a bounds-checked view that cannot escape `body` (the compiler
    /// rejects storing or returning it). Offsets in ``descriptions`` are relative to its first byte.
    public func withBytes<R, E: Error>(_ body: (RawSpan) throws(E) -> R) throws(E) -> R {
        try storage.withRawSpan(body)
    }

    /// Calls `body` with the bytes of packet `index` (0-based within the batch) as a `RawSpan` that
    /// cannot escape `body`. `index` must be in `0..<packetCount` (checked: traps otherwise).
    public func withPacket<R, E: Error>(at index: Int, _ body: (RawSpan) throws(E) -> R) throws(E) -> R {
        let description = descriptions[index]
        let start = Int(description.startOffset)
        return try storage.extracting(start..<(start + Int(description.dataByteSize))).withRawSpan(body)
    }

    /// Calls `body` with each packet's description and bytes, in order; the bytes are a `RawSpan` that
    /// cannot escape `body`.
    public func forEachPacket<E: Error>(_ body: (PacketDescription, RawSpan) throws(E) -> Void) throws(E) {
        for description in descriptions {
            let start = Int(description.startOffset)
            try storage.extracting(start..<(start + Int(description.dataByteSize))).withRawSpan {
                (span) throws(E) in try body(description, span)
            }
        }
    }
}

/// The packet descriptions of a `PacketBatch`: stored for variable-size packets, computed for
/// constant-size ones.
public struct PacketDescriptions: RandomAccessCollection, Sendable {
    // Inlinable, so that a client's loop over a batch's descriptions compiles to plain loads (it runs once
    // per packet: docs/performance.md).
    @usableFromInline
    enum Storage: Sendable {
        case explicit(ArraySlice<PacketDescription>)
        case constant(size: Int, count: Int)
    }

    @usableFromInline
    let storage: Storage

    /// Constant-size packets, back to back.
    init(constantSize size: Int, count: Int) { storage = .constant(size: size, count: count) }
    /// Explicit descriptions.
    init(_ slice: ArraySlice<PacketDescription>) { storage = .explicit(slice) }

    /// Always 0.
    @inlinable
    public var startIndex: Int { 0 }
    /// The number of packets.
    @inlinable
    public var endIndex: Int {
        switch storage {
        case .explicit(let slice): return slice.count
        case .constant(_, let count): return count
        }
    }

    /// The description of packet `position` (0-based within the batch).
    @inlinable
    public subscript(position: Int) -> PacketDescription {
        switch storage {
        case .explicit(let slice):
            return slice[slice.startIndex + position]
        case .constant(let size, _):
            return PacketDescription(
                startOffset: Int64(position) * Int64(size), variableFramesInPacket: 0, dataByteSize: UInt32(size))
        }
    }
}
