extension AudioStreamParser {
    // MARK: Seeking by time

    /// Prepares to play from presentation frame `frame` (`ExtAudioFileSeek` for a stream): accounts for
    /// the priming frames and the decoder's pre-roll, then seeks to the first packet to decode.
    ///
    /// Frame 0 is the first sample after the priming frames (`packetTableInfo.primingFrames`; 0 without
    /// gapless info). The packet that holds decoded frame `frame + primingFrames` is found with
    /// `frameToPacket` (the format's `packetHolding(frame:)` hook), the codec's pre-roll is added before
    /// it (``FrameSeekTarget/rollDistance``), and `seek(toPacket:)` is called with the first of those
    /// packets. Feed from `result.target.absoluteOffset` with `.discontinuity`, decode from
    /// `result.startPacket` and drop `result.framesToDiscard` decoded frames.
    ///
    /// Exact (`isEstimated == false`: the first packet delivered is `startPacket`, and the frame lands on
    /// the requested sample) where the container places packets exactly: constant-size PCM (WAVE, AIFF,
    /// CAF, AU), packet tables (CAF `pakt`, MP4 `stts`/`stsz`), and the parts of any stream already
    /// parsed. Estimated elsewhere (MP3 TOC or bit rate, ADTS, FLAC and Ogg past what was parsed): see
    /// `PacketBatch.isIndexEstimated` and `seekLanding`, and the measured errors in docs/streaming.md.
    ///
    /// - Parameter frame: the frame to play first, on the presentation timeline, at the stream's sample
    ///   rate (`dataFormat.sampleRate`).
    /// - Throws: `invalidPacketOffset` (`pck?`) for a negative frame or one at or past the end of a stream
    ///   of known length; `dataUnavailable` (`more`) before the audio data was reached or while the frame
    ///   cannot be placed yet; the errors of `seek(toPacket:)`.
    public func seek(toFrame frame: Int64) throws(AudioStreamError) -> FrameSeekTarget {
        try checkSeekCall()
        guard let format, isReadyToProducePackets else {
            throw seekError(.dataUnavailable, "cannot seek before the audio data is reached")
        }
        let priming = Int64(max(0, packetTableInfo?.primingFrames ?? 0))
        let (decoded, overflow) = frame.addingReportingOverflow(priming)
        let end = estimatedDuration.flatMap {
            $0.isEstimated || $0.source == .bitRate || $0.source == .links ? nil : $0.frames
        }
        guard frame >= 0, !overflow, end.map({ frame < $0 || frame == 0 }) ?? true else {
            throw seekError(.invalidPacketOffset, "seek target frame \(frame) outside the stream")
        }
        guard let holding = format.packetHolding(frame: decoded) else {
            throw seekError(.dataUnavailable, "the packet holding frame \(frame) is not known yet")
        }
        let packet = holding.value.packet
        let start = packet - (rollDistance(toPacket: packet)?.value ?? 0)
        let startFrame = packetToFrame(start)
        var target = try seekPacket(start)
        let firstFrame = startFrame?.value ?? (decoded - holding.value.offsetInPacket)
        // With byte-range requests, Ogg and MPEG-TS search the unit holding the first frame to decode from
        // an offset of their own (docs/streaming.md, "Refined time seeks").
        // Where the format can place the packets at its landing (Ogg), it drops those before that frame.
        if target.isEstimated {
            let aim = max(0, min(firstFrame, decoded))
            aimSeekLanding(atFrame: aim)
            if let refined = refineSeek(toFrame: aim) { target = refined }
        }
        return FrameSeekTarget(
            frame: frame, primingFrames: priming, position: holding.value, rollDistance: packet - start,
            startPacket: start, framesToDiscard: max(0, decoded - firstFrame), target: target,
            isEstimated: holding.isEstimated || target.isEstimated || startFrame?.isEstimated != false)
    }

    /// The number of packets before `packet` a decoder must decode (and discard) to output `packet`
    /// exactly after a seek: Apple's `kAudioFilePropertyPacketToRollDistance`, by the codec's rule
    /// (Opus: the packets of the 80 ms before it; Vorbis, AAC, AC-3: 1; MPEG Layer III: 1 plus the packets
    /// its bit reservoir may reach; PCM, FLAC, ALAC: 0). Never reaches before packet 0. Estimated when the
    /// packets' frames are (Opus past what was parsed); `nil` before the data format is known.
    public func rollDistance(toPacket packet: Int64) -> Translation<Int64>? {
        guard let format, let dataFormat, packet >= 0 else { return nil }
        let preRoll = DecoderPreRoll(format: dataFormat, averageBytesPerPacket: averageBytesPerPacket, bitRate: bitRate)
        switch preRoll {
        case .none:
            return Translation(value: 0, isEstimated: false)
        case .packets(let n):
            return Translation(value: min(packet, n), isEstimated: false)
        case .frames(let n):
            guard let first = packetToFrame(packet) else { return nil }
            if first.value - n <= 0 { return Translation(value: packet, isEstimated: first.isEstimated) }
            guard let earlier = format.packetHolding(frame: first.value - n) else {
                return Translation(value: min(packet, 1), isEstimated: true)
            }
            return Translation(
                value: max(0, packet - earlier.value.packet), isEstimated: first.isEstimated || earlier.isEstimated)
        }
    }

    /// `seek(toFrame:)` at `seconds × dataFormat.sampleRate`, rounded to the nearest frame: the time on the
    /// presentation timeline (0 is the first sample after the priming frames).
    ///
    /// - Throws: `invalidPacketOffset` (`pck?`) for a negative, infinite or NaN time, or one past the end;
    ///   `dataUnavailable` (`more`) before the sample rate is known; the errors of `seek(toFrame:)`.
    public func seek(toTime seconds: Double) throws(AudioStreamError) -> FrameSeekTarget {
        try seek(toFrame: presentationFrame(atTime: seconds))
    }

    /// `seconds × sampleRate`, rounded to the nearest frame; throws as `seek(toTime:)` does.
    func presentationFrame(atTime seconds: Double) throws(AudioStreamError) -> Int64 {
        try checkSeekCall()
        guard let rate = dataFormat?.sampleRate, rate > 0, rate.isFinite else {
            throw seekError(.dataUnavailable, "the sample rate is not known yet")
        }
        let frames = (seconds * rate).rounded()
        guard frames.isFinite, frames >= 0, frames < 9.0e18 else {
            throw seekError(.invalidPacketOffset, "seek time \(seconds) s is not a time in the stream")
        }
        return Int64(frames)
    }
}
