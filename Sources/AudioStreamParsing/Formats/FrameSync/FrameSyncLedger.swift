/// What a frame-sync parser knows about the packets it emitted in order from its first frame: running
/// totals, whether packet indices still count from that frame, the final count, and the packet offsets
/// (``FrameOffsetTable``). Raw AC-3 and LOAS keep one; from it come the counts `finish` announces, the
/// packet map, and the seek decision.
///
/// - Counting: a packet is counted only while indices are exact and it is the next one in order
///   (a seek backwards replays packets without counting them twice).
/// - A discontinuity without a seek makes the indices approximate for the rest of the stream.
/// - A seek to a packet in the table lands exactly (indices exact again); beyond it, the landing is
///   estimated and indices are exact only when the target is the table's next packet and the table
///   holds every packet counted.
struct FrameSyncLedger {
    /// Absolute offset of the first frame.
    var dataOffset: Int64 = 0
    var packets: Int64 = 0
    /// The frames' bytes (a frame of several packets counted once).
    var bytes: Int64 = 0
    var seconds: Double = 0
    var maximumPacketSize = 0
    /// Absolute end of the last frame.
    var end: Int64 = 0
    /// False once the packet indices no longer count from the first frame.
    var indicesExact = true
    /// The packet count known at `finish`.
    var finalPacketCount: Int64?

    /// Counts the packet the parser just emitted as `index` (its size `packetSize`, `seconds` long),
    /// cut from the frame at `start` of `frameBytes` bytes (0 for a later packet of the same frame),
    /// ending at `frameEnd`; records its offset in `offsets`.
    mutating func count(
        index: Int64, start: Int64, frameEnd: Int64, frameBytes: Int, packetSize: Int, seconds: Double,
        offsets: inout FrameOffsetTable, limit: Int
    ) {
        guard indicesExact && index == packets else { return }
        let relative = start - dataOffset
        _ = offsets.record(packet: packets, start: relative, end: frameEnd - dataOffset, limit: limit)
        packets += 1
        bytes += Int64(frameBytes)
        self.seconds += seconds
        maximumPacketSize = max(maximumPacketSize, packetSize)
        end = frameEnd
    }

    /// At `finish`, when the stream was parsed in order: keeps the final count and announces
    /// audioDataByteCount, audioDataPacketCount, maximumPacketSize, averageBytesPerPacket and bitRate.
    mutating func announceFinal(_ context: inout ParseContext) {
        guard indicesExact && context.nextPacketIndex == packets else { return }
        finalPacketCount = packets
        context.announce(.audioDataByteCount(UInt64(max(0, end - dataOffset))))
        context.announce(.audioDataPacketCount(UInt64(packets)))
        context.announce(.maximumPacketSize(UInt32(maximumPacketSize)))
        guard packets > 0 else { return }
        context.announce(.averageBytesPerPacket(Double(bytes) / Double(packets)))
        if seconds > 0 {
            context.announce(.bitRate(UInt32(min(Double(UInt32.max), (Double(bytes) * 8 / seconds).rounded()))))
        }
    }

    /// The packet map: `framesPerPacket`, the recorded offsets, the final count, the average packet span.
    func packetMap(framesPerPacket: Int64, offsets table: FrameOffsetTable) -> PacketMap {
        let offsets = table.offsets
        var map = PacketMap(
            framesPerPacket: framesPerPacket, packetOffsets: offsets.isEmpty ? nil : offsets,
            packetCount: finalPacketCount)
        if packets > 0 { map.estimatedBytesPerPacket = Double(end - dataOffset) / Double(packets) }
        return map
    }

    /// The seek decision for `packet`: true when the table holds it (the parser lands in sync on its
    /// frame, indices exact), false when the landing is estimated (the parser searches).
    mutating func landsInTable(_ packet: Int64, offsets: FrameOffsetTable) -> Bool {
        let recorded = Int64(offsets.packetCount)
        if packet < recorded {
            indicesExact = true
            return true
        }
        indicesExact = packet == recorded && recorded == packets
        return false
    }
}
