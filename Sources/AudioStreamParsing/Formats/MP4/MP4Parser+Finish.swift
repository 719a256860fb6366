/// The end of the stream.
extension MP4Parser {
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        if case .awaitingRequest(let offset) = state {
            throw context.error(
                .notOptimized, .mp4, "the stream ended without the requested bytes from offset \(offset)")
        }
        guard movie != nil else {
            if !mediaBoxes.isEmpty {
                throw context.error(.invalidFile, .mp4, "the stream ended without a movie box ('moov') after the media")
            }
            throw context.error(.invalidFile, .mp4, "the stream ended before a movie box ('moov')")
        }
        if headerAwaitsFirstSample {
            // The stream ended before the first sample: the core as signalled.
            try publishHeldHeader(&context)
        }
        guard published else {
            // A fragmented file without fragments for the track: nothing to play.
            try publish(&context, mediaStart: nil)
            return
        }
        if let chapters = chapterTrack, !chapters.titles.isEmpty { announceChapters(&context) }
        let readable = context.window.readable
        if case .box = state, readable > 0 {
            context.diagnose(.junkSkipped, .mp4, "\(readable) bytes at the end of the stream are not a whole box")
        }
        // Counts: what the tables list (fragmented: all fragments seen), or, for a stream that ended before
        // its last sample, what it really held.
        var packets = Int64(samples.count)
        if !hadJump, cursor.run < samples.runs.count {
            packets = cursor.packet
            context.diagnose(
                .truncated, .mp4,
                "the stream ended before sample \(cursor.packet) of \(samples.count); counts are what it held")
        }
        var bytes: Int64 = 0
        var counted: Int64 = 0
        for run in samples.runs where counted < packets {
            let n = Int(min(Int64(run.count), packets - counted))
            if case .constant(let s) = run.size {
                bytes += Int64(s) * Int64(n)
            } else {
                for k in 0..<n { bytes += Int64(samples.size(run, k)) }
            }
            counted += Int64(n)
        }
        context.announce(.audioDataByteCount(UInt64(bytes)))
        context.announce(.audioDataPacketCount(UInt64(packets)))
        if movie?.isFragmented == true {
            isFinished = true
            rebuildPacketMap()
            var largest: UInt32 = 0
            for run in samples.runs {
                for k in 0..<(run.size == .constant(0) ? 0 : run.count) { largest = max(largest, samples.size(run, k)) }
            }
            if largest > 0 { context.announce(.maximumPacketSize(largest)) }
            if !hadJump, packets == Int64(samples.count) { announceFragmentedGapless(&context) }
        }
    }

    /// A fragmented movie's gapless information over every fragment (docs/formats/mp4.md, "Fragmented
    /// files"): announced with the `moov`, it knew only the `moov`'s own samples. Priming from the edit
    /// list (or `iTunSMPB`) as before; the valid frames from `mehd`'s fragment_duration (the presentation
    /// with its fragments, ISO/IEC 14496-12 §8.8.2) when the movie has one, else from the edit list's
    /// segment duration; at most the frames after the priming. Without either, a last sample whose `trun`
    /// duration is trimmed short of a full packet makes the frames after it a remainder
    /// (``MP4Gapless/fromTrimmedLastSample(sampleFrames:totalFrames:framesPerPacket:)``), so the duration
    /// ends where the frame table does. Announced again when it differs.
    mutating func announceFragmentedGapless(_ context: inout ParseContext) {
        guard let movie, let track, let entry else { return }
        let fpp = Int64(entry.streamDescription.framesPerPacket)
        let decoded = fpp > 0 ? Int64(samples.count) * fpp : sampleTotals().frames
        var info = gaplessInfo(movie: movie, track: track, totalFrames: decoded)
        let rate = entry.streamDescription.sampleRate
        if let duration = movie.fragmentDuration, movie.timescale > 0, rate > 0, rate.isFinite, decoded > 0 {
            let priming = Int64(info?.primingFrames ?? 0)
            let presentation = (Double(duration) / Double(movie.timescale) * rate).rounded()
            if presentation.isFinite, presentation >= 0, priming <= decoded {
                let valid = min(Int64(min(presentation, 0x1p62)), decoded - priming)
                info = PacketTableInfo(
                    numberValidFrames: valid, primingFrames: Int32(clamping: priming),
                    remainderFrames: Int32(clamping: decoded - priming - valid))
            }
        }
        if info == nil, fpp > 0 {
            info = MP4Gapless.fromTrimmedLastSample(
                sampleFrames: sampleTotals().frames, totalFrames: decoded, framesPerPacket: fpp)
        }
        guard let info, info != announcedGapless else { return }
        announcedGapless = info
        context.announce(.packetTableInfo(info))
    }
}
