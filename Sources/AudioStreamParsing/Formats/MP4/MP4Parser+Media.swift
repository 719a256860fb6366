/// Media data (`mdat`): emitting the parsed track's samples as their bytes pass, reading chapter samples,
/// and skipping everything else.
extension MP4Parser {
    mutating func stepMedia(_ context: inout ParseContext, end: Int64?) throws(AudioStreamError) -> ParseStep {
        let position = context.window.position
        if let end, position >= end {
            state = .box
            return .continue
        }
        let audio = cursor.run < samples.runs.count ? cursor.offset : nil
        let chapter = chapterTrack.flatMap { $0.isDone ? nil : $0.cursor.offset }
        if headerAwaitsFirstSample, let audio, audio == position, chapter.map({ $0 > audio }) ?? true {
            // The held header (implicit HE-AAC): published once the first sample is readable whole.
            let size = Int64(samples.size(samples.runs[cursor.run], cursor.k))
            let fits = end.map { audio + size <= $0 } ?? true
            if fits, size <= Int64(context.limits.maxPacketBytes) {
                guard Int(size) <= context.window.readable else { return .needMoreData(atLeast: Int(size)) }
                try publishWithFirstSample(&context, size: Int(size))
            } else {
                try publishHeldHeader(&context)  // `emitAudio` reports the sample's fault
            }
            return .continue
        }
        if let audio, audio == position, chapter.map({ $0 > audio }) ?? true, emitAudioInChunk(&context, end: end) {
            return .continue
        }
        let next: Int64?
        switch (audio, chapter) {
        case (let a?, let c?): next = min(a, c)
        case (let a?, nil): next = a
        case (nil, let c?): next = c
        case (nil, nil): next = nil
        }
        guard let next else {
            // Nothing more to read in this box.
            if let end { return .skip(end - position) }
            if movie?.isFragmented == true, let last = samples.runs.last {
                // After a seek into a fragment whose mdat header was not seen: the next box is taken to start
                // where the last known sample ends (writers put each fragment's data in its own mdat); a header
                // that does not parse there ends the walk with a diagnostic.
                var lastEnd = last.offset
                for k in 0..<last.count { lastEnd += Int64(samples.size(last, k)) }
                if lastEnd > position { return .skip(lastEnd - position) }
                if lastEnd == position {
                    guessedBoundary = true
                    state = .box
                    return .continue
                }
            }
            context.diagnose(.junkSkipped, .mp4, "no box boundary known after the last sample; the rest is ignored")
            state = .ignoringRest
            return .continue
        }
        if next < position {
            // A sample that lies before the bytes fed (overlapping samples, or one outside every mdat).
            if audio == next {
                context.diagnose(
                    .inconsistentValues, .mp4,
                    "sample \(cursor.packet) at \(next) lies before the current position; skipped")
                advanceAudio(by: 1)
            } else {
                advanceChapter()
            }
            return .continue
        }
        if next > position {
            let target = end.map { min($0, next) } ?? next
            return .skip(target - position)
        }
        if audio == next {
            return try emitAudio(&context, end: end)
        }
        return try readChapterSample(&context, end: end)
    }

    /// Emits the sample at the cursor (for constant-size frames such as PCM, every readable sample of the run).
    private mutating func emitAudio(_ context: inout ParseContext, end: Int64?) throws(AudioStreamError) -> ParseStep {
        let run = samples.runs[cursor.run]
        let size = Int64(samples.size(run, cursor.k))
        if let end, cursor.offset + size > end {
            throw context.error(
                .invalidFile, .mp4("mdat"), "sample \(cursor.packet) (\(size) bytes) runs past the end of its mdat")
        }
        if size > Int64(context.limits.maxPacketBytes) {
            throw context.error(.limitExceeded, .mp4, "sample \(cursor.packet) of \(size) bytes exceeds maxPacketBytes")
        }
        guard let entry else { return .continue }
        let format = entry.streamDescription
        let n = Int(size)
        if format.bytesPerPacket > 0, Int64(format.bytesPerPacket) == size, case .constant = run.size,
            frames(samples.duration(run, cursor.k)) == Int64(format.framesPerPacket)
        {
            // Constant packets back to back: as many as are readable, in one run.
            var count = run.count - cursor.k
            if let end { count = min(count, Int((end - cursor.offset) / size)) }
            count = min(count, context.window.readable / max(n, 1))
            guard count > 0 else { return .needMoreData(atLeast: n) }
            context.emitPackets(count: count, size: n, framesPerPacket: format.framesPerPacket)
            advanceAudio(by: count)
            return .continue
        }
        guard n <= context.window.readable else { return .needMoreData(atLeast: n) }
        let f = frames(samples.duration(run, cursor.k))
        let variable: UInt32 =
            format.framesPerPacket != 0 && f == Int64(format.framesPerPacket) ? 0 : UInt32(clamping: f)
        context.emitPacket(size: n, variableFrames: variable, frames: f)
        advanceAudio(by: 1)
        return .continue
    }

    /// The fast path of `emitAudio` for samples with an explicit description: emits the samples at the cursor
    /// that lie back to back in the caller's chunk, in one step, with the same decisions `emitAudio` takes
    /// (a sample is emitted when it is readable, within its `mdat` and within `maxPacketBytes`); stops at the
    /// first sample that needs anything else (not readable, an error, the next run, a chapter sample in
    /// between), which the general path then handles. True when it emitted at least one sample.
    private mutating func emitAudioInChunk(_ context: inout ParseContext, end: Int64?) -> Bool {
        guard context.window.pendingRemaining == 0, cursor.run < samples.runs.count,
            let scale = frameScale
        else { return false }
        let run = samples.runs[cursor.run]
        let sizeBase: Int
        let constantSize: Int64
        switch run.size {
        case .constant(let s):
            // Constant packets are emitted as one arithmetic batch by the general path when they match the
            // format's bytes per packet.
            if scale.bytesPerPacket > 0, scale.bytesPerPacket == Int64(s) { return false }
            sizeBase = -1
            constantSize = Int64(s)
        case .table(let base):
            sizeBase = base
            constantSize = 0
        case .timeToSample:
            return false
        }
        let chapterOffset = chapterTrack.flatMap { $0.isDone ? nil : $0.cursor.offset } ?? Int64.max
        let stop = min(end ?? Int64.max, chapterOffset)
        let maxPacket = Int64(context.limits.maxPacketBytes)
        var durations = MP4DurationWalker(samples, run, from: cursor.k)
        var k = cursor.k
        var offset = cursor.offset
        let count = run.count
        var readable = Int64(context.window.readable)
        let sizes = samples.sizes
        while k < count {
            let size = sizeBase >= 0 ? Int64(sizes[sizeBase + k]) : constantSize
            guard size <= readable, size <= maxPacket, offset + size <= stop else { break }
            let f = scale.frames(durations.next())
            let variable: UInt32 = scale.framesPerPacket != 0 && f == scale.framesPerPacket ? 0 : UInt32(clamping: f)
            context.emitPacketInChunk(size: Int(size), variableFrames: variable, frames: f)
            readable -= size
            offset += size
            k += 1
        }
        let emitted = k - cursor.k
        guard emitted > 0 else { return false }
        cursor.k = k
        cursor.offset = offset
        cursor.packet += Int64(emitted)
        if k >= count {
            cursor.run += 1
            cursor.k = 0
            if cursor.run < samples.runs.count { cursor.offset = samples.runs[cursor.run].offset }
        }
        return true
    }

    /// Moves the audio cursor `count` samples on (within the current run, or to the next run).
    mutating func advanceAudio(by count: Int) {
        guard cursor.run < samples.runs.count else { return }
        let run = samples.runs[cursor.run]
        if case .constant(let s) = run.size {
            cursor.offset += Int64(s) * Int64(count)
        } else {
            for k in cursor.k..<(cursor.k + count) { cursor.offset += Int64(samples.size(run, k)) }
        }
        cursor.k += count
        cursor.packet += Int64(count)
        if cursor.k >= run.count {
            cursor.run += 1
            cursor.k = 0
            if cursor.run < samples.runs.count { cursor.offset = samples.runs[cursor.run].offset }
        }
    }

    /// The first sample whose offset is at or after `position`.
    func firstSample(atOrAfter position: Int64) -> SampleCursor {
        let runs = samples.runs
        var i = 0
        while i < runs.count {
            let run = runs[i]
            var at = run.offset
            if at >= position { return SampleCursor(run: i, k: 0, offset: at, packet: runPackets[i]) }
            var runEnd = at
            if case .constant(let s) = run.size {
                runEnd += Int64(s) * Int64(run.count)
                if runEnd > position, s > 0 {
                    let k = Int((position - at + Int64(s) - 1) / Int64(s))
                    if k < run.count {
                        return SampleCursor(
                            run: i, k: k, offset: at + Int64(k) * Int64(s), packet: runPackets[i] + Int64(k))
                    }
                }
            } else {
                for k in 0..<run.count {
                    if at >= position {
                        return SampleCursor(run: i, k: k, offset: at, packet: runPackets[i] + Int64(k))
                    }
                    at += Int64(samples.size(run, k))
                }
            }
            i += 1
        }
        return SampleCursor(run: runs.count, k: 0, offset: 0, packet: Int64(samples.count))
    }

    /// The cursor at packet `packet`.
    func sampleCursor(forPacket packet: Int64) -> SampleCursor {
        guard packet < Int64(samples.count), !runPackets.isEmpty else {
            return SampleCursor(run: samples.runs.count, k: 0, offset: 0, packet: Int64(samples.count))
        }
        let i = PacketMap.lastIndex(in: runPackets, notAbove: packet)
        let run = samples.runs[i]
        let k = Int(packet - runPackets[i])
        var at = run.offset
        if case .constant(let s) = run.size {
            at += Int64(s) * Int64(k)
        } else {
            for j in 0..<k { at += Int64(samples.size(run, j)) }
        }
        return SampleCursor(run: i, k: k, offset: at, packet: packet)
    }

    // MARK: Chapter text track

    /// Reads one chapter sample (QuickTime text sample: UInt16 length + text …) and decodes its title.
    private mutating func readChapterSample(
        _ context: inout ParseContext, end: Int64?
    ) throws(AudioStreamError) -> ParseStep {
        guard let chapters = chapterTrack else { return .continue }
        let run = chapters.samples.runs[chapters.cursor.run]
        let size = Int(chapters.samples.size(run, chapters.cursor.k))
        if size > context.limits.maxTagBytes {
            context.diagnose(.limitExceeded, .mp4, "chapter sample of \(size) bytes exceeds maxTagBytes; skipped")
            advanceChapter()
            return .continue
        }
        guard let bytes = context.window.peekBytes(at: 0, count: size) else { return .needMoreData(atLeast: size) }
        if let title = MP4Chapters.decodeTextSample(bytes[...]) {
            chapterTrack?.titles[run.firstSample + chapters.cursor.k] = title
        }
        advanceChapter()
        if chapterTrack?.isDone == true { announceChapters(&context) }
        // The bytes stay: the audio track never shares them, and skipping to the next sample consumes them.
        return .continue
    }

    mutating func advanceChapter() {
        guard var chapters = chapterTrack, !chapters.isDone else { return }
        let run = chapters.samples.runs[chapters.cursor.run]
        chapters.cursor.offset += Int64(chapters.samples.size(run, chapters.cursor.k))
        chapters.cursor.k += 1
        if chapters.cursor.k >= run.count {
            chapters.cursor.run += 1
            chapters.cursor.k = 0
            if chapters.cursor.run < chapters.samples.runs.count {
                chapters.cursor.offset = chapters.samples.runs[chapters.cursor.run].offset
            }
        }
        chapterTrack = chapters
    }

    /// After a seek or discontinuity: chapter samples before `position` are not read.
    mutating func skipChapterSamples(before position: Int64) {
        while let c = chapterTrack, !c.isDone, c.cursor.offset < position { advanceChapter() }
    }

    /// Builds the chapters from the titles read (start times from the chapter track's `stts`) and announces
    /// the metadata when they changed.
    mutating func announceChapters(_ context: inout ParseContext) {
        guard let chapters = chapterTrack, !chapters.titles.isEmpty else { return }
        let ts = Double(chapters.timescale)
        var starts: [Int64] = []
        var t: Int64 = 0
        let tts = chapters.samples.timeToSample
        for i in 0..<chapters.samples.count {
            starts.append(t)
            t += Int64(tts.delta(ofSample: i))
        }
        let total = max(t, Int64(chapters.duration))
        var list: [AudioMetadata.Chapter] = []
        for i in 0..<chapters.samples.count {
            guard let title = chapters.titles[i] else { continue }
            let end = i + 1 < starts.count ? starts[i + 1] : total
            list.append(
                AudioMetadata.Chapter(title: title, startSeconds: Double(starts[i]) / ts, endSeconds: Double(end) / ts))
        }
        guard list != metadata.chapters else { return }
        metadata.chapters = list
        if published { context.announce(.metadata(metadata)) }
    }
}
