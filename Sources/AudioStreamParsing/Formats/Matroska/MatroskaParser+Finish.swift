/// The end of the stream.
extension MatroskaParser {
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        if case .ebmlHeader = state {
            throw context.error(.invalidFile, .mkv("EBML"), "the stream ended inside the EBML header")
        }
        if !published {
            guard !trackEntries.isEmpty else {
                throw context.error(.invalidFile, .mkv, "the stream ended before the Tracks")
            }
            // Tracks but no Cluster: a header without packets.
            try publish(&context, at: context.window.position)
        }
        let readable = context.window.readable
        if readable > 0 {
            if case .resync = state {
                context.diagnose(.junkSkipped, .mkv, "\(readable) bytes at the end are no element")
            } else {
                context.diagnose(
                    .truncated, .mkv, "the stream ended inside an element; \(readable) bytes at the end are not read")
            }
            context.window.consume(readable)
        }
        isFinished = true
        let packets = hadJump ? Int64(offsets.packetCount) : emittedPackets
        if !hadJump {
            context.announce(.audioDataByteCount(UInt64(emittedBytes)))
            context.announce(.audioDataPacketCount(UInt64(packets)))
            if largestPacket > 0 { context.announce(.maximumPacketSize(UInt32(clamping: largestPacket))) }
            if let info = gaplessInfo() { context.announce(.packetTableInfo(info)) }
        }
    }

    /// Priming from CodecDelay and remainder from the last DiscardPadding (nanoseconds, at the codec's
    /// rate: Opus 48 kHz), when either is set (RFC 9559 §5.1.4.1.18, §10.2 "DiscardPadding"). When the
    /// stream description claims a constant frames per packet that the packets' own counts fall short of
    /// (FLAC's short last frame), the difference is remainder too, as the native FLAC parser announces it,
    /// so that a duration taken as packets × framesPerPacket is not overstated.
    func gaplessInfo() -> PacketTableInfo? {
        guard let track, let codec else { return nil }
        let rate = codec.streamDescription.sampleRate
        let primingFrames = (Double(track.codecDelay) * rate / 1e9).rounded()
        let remainderFrames = (Double(max(0, lastDiscardPadding)) * rate / 1e9).rounded()
        guard primingFrames <= Double(Int32.max), remainderFrames <= Double(Int32.max) else { return nil }
        let priming = Int64(primingFrames)
        let remainder = Int64(remainderFrames)
        let perPacket = Int64(codec.streamDescription.framesPerPacket)
        let (nominal, overflow) = emittedPackets.multipliedReportingOverflow(by: perPacket)
        let short = perPacket > 0 && !overflow ? max(0, nominal - nextFrame) : 0
        guard priming > 0 || remainder > 0 || short > 0, short <= Int64(Int32.max) - remainder else { return nil }
        let valid = max(0, nextFrame - priming - remainder)
        return PacketTableInfo(
            numberValidFrames: valid, primingFrames: Int32(priming), remainderFrames: Int32(remainder + short))
    }
}
