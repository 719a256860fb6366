/// What the MPEG audio parser knows about the stream once its first frame was found.
struct MPEGStream {
    /// The fields every frame must share (a confirmed change is announced as a new data format).
    var signature: MPEGFrameHeader.Signature
    /// True when the frames are free format (bitrate_index 0).
    var isFreeFormat: Bool
    /// Free format: the slots of a frame without padding, measured on the first frame.
    var freeFormatSlots: Int?
    /// Samples per frame of the current frames.
    var framesPerPacket: UInt32
    /// False once the frames per packet changed within the stream.
    var hasConstantFramesPerPacket = true
    /// Absolute offset of the first audio frame (after a Xing/Info/VBRI frame).
    let dataOffset: Int64
    /// The length of the Xing/Info/VBRI frame before `dataOffset`, or 0.
    let infoFrameLength: Int
    let xing: XingHeader?
    let vbri: VBRIHeader?
    /// The header of the first audio frame (or of the info frame when no audio frame follows).
    let firstHeader: MPEGFrameHeader
    /// The largest frame the stream's version, layer and sampling frequency allow (free format:
    /// the measured frame plus a padding slot).
    let packetSizeUpperBound: Int

    /// The audio frame count the Xing or VBRI header declares (a count of 0, which some encoders
    /// leave when they cannot seek back to fill it in, counts as not declared).
    var declaredPacketCount: Int64? {
        if let frames = xing?.frameCount ?? vbri?.frameCount, frames > 0 { return Int64(frames) }
        return nil
    }

    /// The audio byte count the Xing or VBRI header declares (its own frame excluded), when it is
    /// larger than that frame.
    var declaredByteCount: Int64? {
        guard let bytes = xing?.byteCount ?? vbri?.byteCount, Int64(bytes) > Int64(infoFrameLength) else { return nil }
        return Int64(bytes) - Int64(infoFrameLength)
    }

    /// The sampling frequency of the current frames.
    var sampleRate: UInt32 { firstHeader.sampleRate }

    /// The frame length of a header that agrees with the stream.
    func frameLength(_ header: MPEGFrameHeader) -> Int? {
        if let length = header.frameLength { return length }
        guard let slots = freeFormatSlots else { return nil }
        return MPEGFrameHeader.frameLength(slots: slots, header: header)
    }

    /// True when `header` can be the next frame of this stream.
    func agrees(with header: MPEGFrameHeader) -> Bool {
        header.signature == signature && header.isFreeFormat == isFreeFormat
    }
}

/// Running totals of the frames emitted since the first frame (or since the last seek).
struct MPEGStatistics {
    var packets: Int64 = 0
    var bytes: Int64 = 0
    var largest = 0
    /// The bit rate (bit/s) of every frame so far, while they all have the same non-free one.
    var commonBitRate: UInt32?
    var hasMixedBitRates = false
    /// The size of every frame so far while they are all equal and back to back from the data offset.
    var uniformSize: Int?
    var isUniform = true
    /// Absolute end of the last frame.
    var lastEnd: Int64?

    mutating func add(_ header: MPEGFrameHeader, length: Int, at offset: Int64) {
        add(bitRate: header.isFreeFormat ? nil : header.bitRate, length: length, at: offset)
    }

    /// Adds a frame of `bitRate` bit/s (`nil` for free format).
    @inline(__always)
    mutating func add(bitRate: UInt32?, length: Int, at offset: Int64) {
        if packets == 0 {
            commonBitRate = bitRate
            hasMixedBitRates = bitRate == nil
            uniformSize = length
        } else {
            if bitRate == nil || bitRate != commonBitRate {
                hasMixedBitRates = true
                commonBitRate = nil
            }
            if length != uniformSize || offset != lastEnd {
                isUniform = false
                uniformSize = nil
            }
        }
        packets += 1
        bytes += Int64(length)
        largest = max(largest, length)
        lastEnd = offset + Int64(length)
    }

    /// The mean bytes per frame, when a frame was seen.
    var averageBytesPerPacket: Double? { packets > 0 ? Double(bytes) / Double(packets) : nil }

    /// The bit rate: the common one when every frame has the same, otherwise bytes × 8 over the
    /// duration (`samplesPerFrame` samples per frame at `sampleRate`).
    func bitRate(samplesPerFrame: UInt32, sampleRate: UInt32) -> UInt32? {
        if let common = commonBitRate, !hasMixedBitRates { return common }
        guard packets > 0, samplesPerFrame > 0 else { return nil }
        let bits = Double(bytes) * 8 * Double(sampleRate) / (Double(packets) * Double(samplesPerFrame))
        return bits < Double(UInt32.max) ? UInt32(bits.rounded()) : nil
    }
}
