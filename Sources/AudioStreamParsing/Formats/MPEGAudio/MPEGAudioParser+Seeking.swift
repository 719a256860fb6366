extension MPEGAudioParser {
    /// Packet geometry: every frame seen so far is placed exactly (its offset was recorded); frames not
    /// seen yet are estimated from the Xing TOC, the VBRI TOC, or the bit rate. An `Info` (CBR) stream
    /// whose frames all have one size and follow each other is placed arithmetically and exactly.
    var packetMap: PacketMap {
        guard let stream else { return .unknown }
        var map = PacketMap()
        if stream.hasConstantFramesPerPacket { map.framesPerPacket = Int64(stream.framesPerPacket) }
        map.packetCount = finalPacketCount ?? stream.declaredPacketCount
        let packetOffsets = engine.offsets.offsets
        if !packetOffsets.isEmpty { map.packetOffsets = packetOffsets }
        if stream.xing?.isCBR == true, statistics.isUniform, let size = statistics.uniformSize,
            packetOffsets.first == 0
        {
            map.bytesPerPacket = Int64(size)
        }
        let estimator = MPEGSeekEstimator(stream: stream, statistics: statistics, packetOffsets: packetOffsets)
        map.estimatedByteOffset = { estimator.offset(ofPacket: $0) }
        map.estimatedPacket = { estimator.packet(atByte: $0) }
        return map
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard stream != nil else { return false }
        let map = packetMap
        let isExact = map.packetToByte(packet)?.isEstimated == false
        engine.tags.removeAll()
        isContinuous = false
        packetIndicesAreExact = isExact
        state = isExact ? .inSync : .searching(Search())
        return true
    }
}

/// Estimates where frames not seen yet start, relative to the data offset.
struct MPEGSeekEstimator: Sendable {
    enum Method: Sendable {
        /// Xing TOC: percent of the duration → byte position, over `frames` frames.
        case xing(XingHeader, frames: Int64)
        /// VBRI TOC: byte sizes of runs of frames.
        case vbri(VBRIHeader)
        /// Bytes per frame, from the last exactly placed frame on.
        case bitRate(bytesPerFrame: Double)
    }

    let method: Method
    /// The Xing/VBRI frame's length: TOC offsets count from its start.
    let infoFrameLength: Int64
    /// The last exactly placed packet (the end of the offset table) and its offset.
    let anchorPacket: Int64
    let anchorOffset: Int64
    /// The frame count, when declared.
    let frameCount: Int64?

    init(stream: MPEGStream, statistics: MPEGStatistics, packetOffsets: PositionTable) {
        infoFrameLength = Int64(stream.infoFrameLength)
        anchorPacket = Int64(max(0, packetOffsets.count - 1))
        anchorOffset = packetOffsets.last ?? 0
        frameCount = stream.declaredPacketCount
        if let xing = stream.xing, xing.tableOfContents != nil, xing.byteCount != nil, let frames = xing.frameCount,
            frames > 0
        {
            method = .xing(xing, frames: Int64(frames))
        } else if let vbri = stream.vbri, !vbri.segmentByteCounts.isEmpty, vbri.framesPerEntry > 0 {
            method = .vbri(vbri)
        } else if let rate = statistics.commonBitRate
            ?? (stream.firstHeader.isFreeFormat ? nil : stream.firstHeader.bitRate),
            !statistics.hasMixedBitRates
        {
            // Constant bit rate: samplesPerFrame / 8 × bit rate / sampling frequency bytes per frame.
            method = .bitRate(
                bytesPerFrame: Double(stream.framesPerPacket) / 8 * Double(rate) / Double(stream.sampleRate))
        } else {
            let average = statistics.averageBytesPerPacket ?? Double(stream.frameLength(stream.firstHeader) ?? 417)
            method = .bitRate(bytesPerFrame: average)
        }
    }

    /// The estimated offset of `packet`, relative to the data offset.
    func offset(ofPacket packet: Int64) -> Int64? {
        guard packet >= 0 else { return nil }
        switch method {
        case .xing(let xing, let frames):
            guard packet <= frames, let fromInfo = xing.estimatedOffset(atFraction: Double(packet) / Double(frames))
            else { return nil }
            return max(0, fromInfo - infoFrameLength)
        case .vbri(let vbri):
            guard let fromInfo = vbri.estimatedOffset(ofFrame: packet) else { return nil }
            return max(0, fromInfo - infoFrameLength)
        case .bitRate(let size):
            guard packet >= anchorPacket, size > 0 else { return nil }
            let ahead = Double(packet - anchorPacket) * size
            guard ahead < 9.0e18 else { return nil }
            // One byte early, so that padding slots cannot put the estimate past the frame's start;
            // the parser resynchronises on the first frame at or after it.
            let (offset, overflow) = anchorOffset.addingReportingOverflow(
                max(0, Int64(ahead) - (packet > anchorPacket ? 1 : 0)))
            return overflow ? nil : offset
        }
    }

    /// The packet that probably holds data byte `byte` (relative to the data offset).
    func packet(atByte byte: Int64) -> PacketPosition? {
        guard byte >= 0 else { return nil }
        if case .bitRate(let size) = method {
            guard byte >= anchorOffset, size > 0 else { return nil }
            let ahead = Double(byte - anchorOffset) / size
            guard ahead < 9.0e18 else { return nil }
            let (packet, overflow) = anchorPacket.addingReportingOverflow(Int64(ahead))
            guard !overflow else { return nil }
            return offset(ofPacket: packet).map { PacketPosition(packet: packet, offsetInPacket: max(0, byte - $0)) }
        }
        // Tables: the last packet whose estimated offset is not after `byte`.
        var low: Int64 = 0
        var high = frameCount ?? 0
        guard high > 0 else { return nil }
        while low < high {
            let mid = low + (high - low + 1) / 2
            if let o = offset(ofPacket: mid), o <= byte { low = mid } else { high = mid - 1 }
        }
        guard let start = offset(ofPacket: low) else { return nil }
        return PacketPosition(packet: low, offsetInPacket: byte - start)
    }
}
