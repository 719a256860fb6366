/// The packet geometry of a stream: constant sizes and durations, or a table of them.
///
/// Byte offsets are relative to the start of the audio data (`dataOffset`).
struct PacketMap {
    /// Bytes per packet when constant.
    var bytesPerPacket: Int64?
    /// Frames per packet when constant.
    var framesPerPacket: Int64?
    /// When known, the start offset of every packet plus the end of the last one (`count + 1` entries).
    var packetOffsets: PositionTable?
    /// When known, the start frame of every packet plus the total (`count + 1` entries).
    var packetFrames: PositionTable?
    /// The number of packets, when known.
    var packetCount: Int64?
    /// For packets the constants and tables above do not place: an estimated byte offset (a seek
    /// table such as MP3's Xing TOC, or bit-rate arithmetic). Answers are marked estimated.
    var estimatedByteOffset: (@Sendable (_ packet: Int64) -> Int64?)?
    /// For packets the constants and tables above do not place: their byte offset, exact or estimated as
    /// the answer says (Matroska: the Cluster of a cue point). Asked before `estimatedByteOffset`.
    var unplacedPacketByte: (@Sendable (_ packet: Int64) -> Translation<Int64>?)?
    /// The inverse of `estimatedByteOffset`: the packet an unplaced data byte probably belongs to.
    var estimatedPacket: (@Sendable (_ byte: Int64) -> PacketPosition?)?
    /// For packets past the end of `packetOffsets` (or all packets, without a table): the average
    /// distance in bytes between packet starts, to estimate their offsets from the table's last entry.
    /// Translations that use it are marked estimated.
    var estimatedBytesPerPacket: Double?
    /// For packets past the end of `packetFrames`: their first frame, exact or estimated as the answer
    /// says (Ogg: packets delivered after an estimated seek, placed by a granule position).
    var unplacedPacketFrame: (@Sendable (_ packet: Int64) -> Translation<Int64>?)?
    /// The inverse of `unplacedPacketFrame`: the packet holding a frame past the end of `packetFrames`.
    var unplacedFramePacket: (@Sendable (_ frame: Int64) -> Translation<PacketPosition>?)?

    /// Nothing known.
    static let unknown = PacketMap()

    func packetToFrame(_ packet: Int64) -> Translation<Int64>? {
        guard packet >= 0 else { return nil }
        if let fpp = framesPerPacket, fpp > 0 {
            let (v, o) = packet.multipliedReportingOverflow(by: fpp)
            return o ? nil : Translation(value: v, isEstimated: false)
        }
        if let table = packetFrames, packet < table.count {
            return Translation(value: table[Int(packet)], isEstimated: false)
        }
        return unplacedPacketFrame?(packet)
    }

    func frameToPacket(_ frame: Int64) -> Translation<PacketPosition>? {
        guard frame >= 0 else { return nil }
        if let fpp = framesPerPacket, fpp > 0 {
            return Translation(
                value: PacketPosition(packet: frame / fpp, offsetInPacket: frame % fpp), isEstimated: false)
        }
        if let table = packetFrames, let last = table.last, frame < last {
            let i = table.lastIndex(notAbove: frame)
            return Translation(
                value: PacketPosition(packet: Int64(i), offsetInPacket: frame - table[i]), isEstimated: false)
        }
        return unplacedFramePacket?(frame)
    }

    func packetToByte(_ packet: Int64) -> Translation<Int64>? {
        guard packet >= 0 else { return nil }
        if let bpp = bytesPerPacket, bpp > 0 {
            let (v, o) = packet.multipliedReportingOverflow(by: bpp)
            return o ? nil : Translation(value: v, isEstimated: false)
        }
        if let table = packetOffsets, packet < table.count {
            return Translation(value: table[Int(packet)], isEstimated: false)
        }
        if let answer = unplacedPacketByte?(packet) { return answer }
        if let estimate = estimatedByteOffset?(packet) { return Translation(value: estimate, isEstimated: true) }
        if let average = estimatedBytesPerPacket, average > 0, average.isFinite {
            let (baseIndex, base) = estimationBase
            let estimate = Double(base) + Double(packet - baseIndex) * average
            guard estimate < 9e18 else { return nil }
            return Translation(value: Int64(estimate), isEstimated: true)
        }
        return nil
    }

    func byteToPacket(_ byte: Int64) -> Translation<PacketPosition>? {
        guard byte >= 0 else { return nil }
        if let bpp = bytesPerPacket, bpp > 0 {
            return Translation(
                value: PacketPosition(packet: byte / bpp, offsetInPacket: byte % bpp), isEstimated: false)
        }
        if let table = packetOffsets, let last = table.last, byte < last {
            var i = table.lastIndex(notAbove: byte)
            let start = table[i]
            // Packets that share a position (the raw data blocks of one ADTS frame, recorded at the frame's
            // start): the byte belongs to the first of them.
            while i > 0 && table[i - 1] == start { i -= 1 }
            return Translation(
                value: PacketPosition(packet: Int64(i), offsetInPacket: byte - start), isEstimated: false)
        }
        if let estimate = estimatedPacket?(byte) { return Translation(value: estimate, isEstimated: true) }
        if let average = estimatedBytesPerPacket, average > 0, average.isFinite {
            let (baseIndex, base) = estimationBase
            let count = (Double(byte - base) / average).rounded(.down)
            guard byte >= base, count < 9e18 else { return nil }
            let packet = baseIndex + Int64(count)
            let start = base + Int64((Double(packet - baseIndex) * average).rounded(.down))
            return Translation(
                value: PacketPosition(packet: packet, offsetInPacket: max(0, byte - start)), isEstimated: true)
        }
        return nil
    }

    /// The last exactly known packet start (index, offset) that estimates count from.
    private var estimationBase: (index: Int64, offset: Int64) {
        guard let table = packetOffsets, let last = table.last else { return (0, 0) }
        return (Int64(table.count - 1), last)
    }

    /// The last index `i` with `table[i] <= value` (table ascending, `table[0] <= value`).
    static func lastIndex(in table: [Int64], notAbove value: Int64) -> Int {
        var lo = 0
        var hi = table.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if table[mid] <= value { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
