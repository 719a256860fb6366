/// A stream's duration in sample frames, where it came from, and whether it is exact
/// (`AudioStreamParser.estimatedDuration`).
///
/// One rule for every container, the one `audioinspect` prints (docs/cli.md, "Duration"):
///
/// 1. `packetTableInfo.numberValidFrames`, when the stream has gapless info (priming and remainder
///    frames already trimmed);
/// 2. else `audioDataPacketCount × framesPerPacket`, when both are known and frames per packet is
///    constant (> 0);
/// 3. else the frames of the packets parsed, when the whole stream was parsed from its start (not
///    after a seek);
/// 4. else `audioDataByteCount × 8 / bitRate × sampleRate`, when all three are known (always estimated:
///    a VBR stream's nominal bit rate is not its average);
/// 5. else unknown (`nil`).
///
/// The result is exact (`isEstimated == false`) only when the stream was parsed to its end
/// (`finish()` succeeded) and rule 1, 2 or 3 applied: before the end, a declared count or table may
/// still be contradicted by the data.
public struct StreamDuration: Hashable, Sendable {
    /// Which rule gave the frames.
    public enum Source: String, Hashable, Sendable {
        /// `packetTableInfo.numberValidFrames`.
        case packetTable
        /// `audioDataPacketCount × framesPerPacket`.
        case packetCount
        /// The frames of the packets actually parsed.
        case parsedFrames
        /// `audioDataByteCount × 8 / bitRate × sampleRate`.
        case bitRate
        /// A chained stream (`AudioStreamParser.links`, more than one link): the sum of its links' durations,
        /// each at its own sample rate; `frames` then only counts (the links may differ in rate).
        case links
    }

    /// Sample frames (after gapless trimming when the stream says how much to trim).
    public var frames: Int64
    /// `frames / sampleRate`, or `nil` when the sample rate is unknown or 0.
    public var seconds: Double?
    /// True unless the stream was parsed to its end and `frames` came from the packet table, the packet
    /// count or the parsed packets.
    public var isEstimated: Bool
    /// Which rule gave `frames`.
    public var source: Source

    /// Creates a duration.
    public init(frames: Int64, seconds: Double?, isEstimated: Bool, source: Source) {
        self.frames = frames
        self.seconds = seconds
        self.isEstimated = isEstimated
        self.source = source
    }

    /// Applies the rule above to property values (those a parser caches, or any others).
    ///
    /// - Parameters:
    ///   - packetTableInfo: the gapless info (`pnfo`).
    ///   - packetCount: `audioDataPacketCount` (`pcnt`).
    ///   - byteCount: `audioDataByteCount` (`bcnt`).
    ///   - bitRate: the bit rate (`brat`), in bits per second.
    ///   - format: the data format (`dfmt`): its sample rate and frames per packet.
    ///   - parsedFrames: the frames of the packets parsed from the start of the stream, or `nil` when the
    ///     packets parsed are not all the stream's (a seek or a discontinuity skipped some).
    ///   - isComplete: the whole stream was parsed from its start and `finish()` succeeded.
    /// - Returns: the duration, or `nil` when no rule applies.
    public static func estimate(
        packetTableInfo: PacketTableInfo?, packetCount: UInt64?, byteCount: UInt64?, bitRate: UInt32?,
        format: StreamDescription?, parsedFrames: Int64?, isComplete: Bool
    ) -> StreamDuration? {
        let rate = format?.sampleRate ?? 0
        func make(_ frames: Int64, _ source: Source, estimated: Bool) -> StreamDuration {
            let seconds = rate > 0 && rate.isFinite ? Double(frames) / rate : nil
            return StreamDuration(frames: frames, seconds: seconds, isEstimated: estimated, source: source)
        }
        if let info = packetTableInfo {
            return make(info.numberValidFrames, .packetTable, estimated: !isComplete)
        }
        if let packets = packetCount, let fpp = format?.framesPerPacket, fpp > 0, packets <= UInt64(Int64.max) {
            let (frames, overflow) = Int64(packets).multipliedReportingOverflow(by: Int64(fpp))
            if !overflow { return make(frames, .packetCount, estimated: !isComplete) }
        }
        if isComplete, let parsedFrames {
            return make(parsedFrames, .parsedFrames, estimated: false)
        }
        if let bytes = byteCount, let bits = bitRate, bits > 0, rate > 0, rate.isFinite {
            let seconds = Double(bytes) * 8 / Double(bits)
            let frames = (seconds * rate).rounded()
            if frames < 9.0e18 { return make(Int64(frames), .bitRate, estimated: true) }
        }
        return nil
    }

    /// A chained stream's duration: the sum of its links' (seconds, each at its own sample rate; frames
    /// summed over links that may differ in rate, so they only count). `nil` unless there are several
    /// links and every one has a duration (each link ended).
    public static func sum(of links: [StreamLink], isComplete: Bool) -> StreamDuration? {
        guard links.count > 1 else { return nil }
        var seconds = 0.0
        var frames: Int64 = 0
        for link in links {
            guard let d = link.duration, let f = link.packetTableInfo?.numberValidFrames ?? link.frameCount else {
                return nil
            }
            seconds += d
            frames = frames.addingReportingOverflow(f).partialValue
        }
        return StreamDuration(frames: frames, seconds: seconds, isEstimated: !isComplete, source: .links)
    }
}
