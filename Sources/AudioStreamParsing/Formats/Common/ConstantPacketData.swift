/// The audio data of a chunk-based container whose packets all have the same size (linear PCM,
/// µ-law, A-law, IMA4, ADPCM blocks): emits whole packets arithmetically, never one description per
/// frame.
///
/// Used by WAVE, AIFF, CAF and NeXT for their data chunk. It knows how many data bytes remain (or
/// that the data runs to the end of the stream) and hands out as many whole packets as are readable.
struct ConstantPacketData {
    /// Bytes per packet (> 0).
    let packetSize: Int
    /// Frames per packet (> 0).
    let framesPerPacket: UInt32
    /// Absolute offset of the first data byte.
    let dataStart: Int64
    /// Data bytes declared by the container, or `nil` when the data runs to the end of the stream.
    let declaredByteCount: Int64?
    /// Absolute offset where the data ends, or `nil` when it runs to the end of the stream.
    var dataEnd: Int64? { declaredByteCount.map { dataStart + $0 } }

    /// The number of whole packets the data holds, when its size is declared.
    var declaredPacketCount: Int64? { declaredByteCount.map { $0 / Int64(packetSize) } }

    /// Emits every whole packet that is readable and inside the data. `structure` is the container,
    /// for messages (`wave`, `aiff`, `caf`, `au`).
    ///
    /// - Returns: the step for the format parser to return (`.continue` when bytes were consumed:
    ///   packets emitted or a partial tail skipped; `.needMoreData` when none was readable), or `nil`
    ///   once the declared data is exhausted and the position is at `dataEnd`.
    func step(_ context: inout ParseContext, _ structure: Structure) -> ParseStep? {
        let position = context.window.position
        var available = Int64(context.window.readable)
        if let end = dataEnd {
            let left = end - position
            if left <= 0 { return nil }
            available = min(available, left)
            if left < Int64(packetSize) {
                // A partial packet at the end of the declared data: skip it when it is all here.
                if Int64(context.window.readable) >= left {
                    context.diagnose(
                        .junkSkipped, structure,
                        "data size is not a whole number of packets; \(left) trailing bytes skipped")
                    context.window.consume(Int(left))
                    return nil
                }
                return .needMoreData(atLeast: Int(left))
            }
        }
        let count = Int(available / Int64(packetSize))
        if count == 0 { return .needMoreData(atLeast: packetSize) }
        // A constant-size packet's index follows from its position, also after a discontinuity that dropped
        // a partial packet (the stream position keeps counting; the packet index must too).
        let relative = position - dataStart
        if relative >= 0 && relative % Int64(packetSize) == 0 {
            context.nextPacketIndex = relative / Int64(packetSize)
        }
        context.emitPackets(count: count, size: packetSize, framesPerPacket: framesPerPacket)
        return .continue
    }

    /// At end of stream: drops a partial last packet with a diagnostic, and reports a data chunk that
    /// ended before its declared size (`structure` is the container, for messages). Returns the number
    /// of whole packets the data really held.
    func finish(_ context: inout ParseContext, _ structure: Structure) -> Int64 {
        let position = context.window.position
        let leftover = context.window.readable
        if leftover > 0 {
            let end = dataEnd.map { min($0, position + Int64(leftover)) } ?? position + Int64(leftover)
            let partial = Int(end - position)
            if partial > 0 {
                context.diagnose(
                    .truncated, structure, "stream ends inside a packet; \(partial) bytes of a partial packet dropped")
                context.window.consume(partial)
            }
        }
        if let end = dataEnd, context.window.position < end {
            context.diagnose(
                .truncated, at: context.window.position, structure,
                "data chunk declares \(declaredByteCount ?? 0) bytes but the stream ends after "
                    + "\(context.window.position - dataStart)")
        }
        let realEnd = dataEnd.map { min($0, context.window.position) } ?? context.window.position
        return max(0, realEnd - dataStart) / Int64(packetSize)
    }

    /// The geometry for translations.
    var packetMap: PacketMap {
        PacketMap(
            bytesPerPacket: Int64(packetSize), framesPerPacket: Int64(framesPerPacket), packetCount: declaredPacketCount
        )
    }
}
