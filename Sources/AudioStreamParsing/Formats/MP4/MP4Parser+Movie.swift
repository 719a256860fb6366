/// The movie box: choosing the track, its sample entry and tables, metadata, and publishing the header.
extension MP4Parser {
    /// Decodes a whole `moov` box (header included) found at `offset`.
    mutating func readMovie(_ context: inout ParseContext, _ bytes: ArraySlice<UInt8>, at offset: Int64)
        throws(AudioStreamError)
    {
        var notes: [DiagnosticNote] = []
        defer { for note in notes { context.diagnose(note, at: offset) } }
        let movie: MP4Movie
        do throws(StructureError) {
            movie = try MP4Movie.decode(bytes, limits: context.limits, notes: &notes)
        } catch {
            throw context.error(error, at: offset)
        }
        self.movie = movie
        movieOffset = offset
        // The audio track: the one the options name, or the first 'soun' track.
        let chosen: MP4Track
        if let id = options.trackID {
            guard let t = movie.tracks.first(where: { $0.id == id }) else {
                throw context.error(.unsupportedDataFormat, at: offset, .mp4("moov"), "no track with ID \(id)")
            }
            guard t.isAudio else {
                throw context.error(
                    .unsupportedDataFormat, at: offset, .mp4("trak"),
                    "track \(id) is '\(FourCharCode.string(t.handlerType))', not an audio track")
            }
            chosen = t
        } else {
            guard let t = movie.tracks.first(where: \.isAudio) else {
                trackList = Self.describe(movie.tracks, selected: nil, chapters: [])
                throw context.error(.unsupportedDataFormat, at: offset, .mp4("moov"), "no audio ('soun') track")
            }
            chosen = t
        }
        track = chosen
        trackList = Self.describe(movie.tracks, selected: chosen.id, chapters: chosen.chapterTrackIDs)
        guard let entryBox = chosen.sampleEntries.first else {
            throw context.error(.invalidFile, at: offset, .mp4("stsd"), "the audio track has no sample entry")
        }
        let decoded: MP4AudioSampleEntry
        do throws(StructureError) {
            decoded = try MP4AudioSampleEntry.decode(
                bytes[entryBox.start..<entryBox.end], isQuickTime: isQuickTime, limits: context.limits)
        } catch {
            throw context.error(error, at: offset)
        }
        notes += decoded.notes
        do throws(StructureError) {
            samples = try MP4SampleTable.decode(
                bytes, stbl: chosen.sampleTableBoxes, limits: context.limits, notes: &notes)
        } catch {
            throw damagedSampleTable(&context, movie, chosen, decoded, error, at: offset, notes: &notes)
        }
        entry = decoded
        if decoded.streamDescription.sampleRate <= 0 {
            throw context.error(.unsupportedDataFormat, at: offset, .mp4("stsd"), "sample rate is zero")
        }
        rebuildRunPackets()
        readMetadata(&context, movie, notes: &notes)
        readChapterTrack(&context, movie, chosen, notes: &notes)
        if !movie.isFragmented || samples.count > 0 {
            // Not fragmented: the packet map is built by `releaseMovieBytes`, once the box's bytes are gone.
            if holdsHeaderForFirstSample {
                headerAwaitsFirstSample = true
            } else {
                try publish(&context, mediaStart: nil, buildingPacketMap: movie.isFragmented)
            }
        }
    }

    /// The audio track's sample table cannot be read (a table cut short, a count past its box, a missing
    /// box, a table above a limit): the track is unusable, but the rest of the `moov` is not lost. A
    /// diagnostic names the track; the data format (when the sample entry gives a rate) and the metadata
    /// (`udta/meta/ilst` tags and artwork, `chpl` chapters) are announced; the error returned is the table's
    /// own (`dta?`, `lim!`), placed at the `moov`, for the caller to throw: no packet can be located, so it
    /// comes where the parser would go on to the media. Another audio track is not chosen instead
    /// (docs/formats/mp4.md, "Damaged sample tables").
    mutating func damagedSampleTable(
        _ context: inout ParseContext, _ movie: MP4Movie, _ track: MP4Track, _ entry: MP4AudioSampleEntry,
        _ error: StructureError, at offset: Int64, notes: inout [DiagnosticNote]
    ) -> AudioStreamError {
        let kind = DiagnosticNote.kind(of: error, whenInvalid: .inconsistentValues)
        notes.append(
            DiagnosticNote(
                kind, .mp4("trak"), "track \(track.id) is unusable, its sample table is damaged (\(error.reason))"))
        readMetadata(&context, movie, notes: &notes)
        if entry.streamDescription.sampleRate > 0 { context.announce(.dataFormat(entry.streamDescription)) }
        if !metadata.isEmpty { context.announce(.metadata(metadata)) }
        return context.error(error, at: offset)
    }

    /// After `readMovie`, once the caller no longer holds the `moov` bytes: a published movie that is not
    /// fragmented reads nothing more from them (its sample tables are decoded, its metadata, chapters and
    /// gapless information announced), so they are released, then the packet map (which `readMovie` left
    /// to this) is built. The peak then holds the box or the map, not both.
    mutating func releaseMovieBytes() {
        guard published, let isFragmented = movie?.isFragmented, !isFragmented else { return }
        movie?.bytes = []
        rebuildPacketMap()
    }

    static func describe(_ tracks: [MP4Track], selected: UInt32?, chapters: [UInt32]) -> [TrackInfo] {
        tracks.map { t in
            TrackInfo(
                id: t.id, handlerType: FourCharCode.string(t.handlerType),
                sampleEntryType: t.sampleEntries.first.map { FourCharCode.string($0.type) }, timescale: t.timescale,
                duration: t.duration, sampleCount: t.declaredSampleCount, language: t.language,
                isSelected: t.id == selected, isChapterTrack: chapters.contains(t.id))
        }
    }

    /// iTunes metadata (`udta/meta/ilst`), Nero chapters (`chpl`).
    mutating func readMetadata(_ context: inout ParseContext, _ movie: MP4Movie, notes: inout [DiagnosticNote]) {
        for box in movie.metaBoxes {
            let (m, itemNotes) = MP4ItemList.decode(meta: movie.bytes[box.start..<box.end], limits: context.limits)
            metadata = metadata.merging(m)
            notes += itemNotes
        }
        if let chpl = movie.neroChapters, metadata.chapters.isEmpty {
            do throws(StructureError) {
                metadata.chapters = try MP4Chapters.decodeNero(chpl: movie.bytes[chpl.start..<chpl.end])
            } catch {
                notes.append(DiagnosticNote(.damagedMetadata, error.reason + "; chapters ignored"))
            }
        }
    }

    /// The QuickTime chapter text track the audio track references (`tref/chap`), read from the media data.
    mutating func readChapterTrack(
        _ context: inout ParseContext, _ movie: MP4Movie, _ audio: MP4Track, notes: inout [DiagnosticNote]
    ) {
        guard let id = audio.chapterTrackIDs.first, let t = movie.tracks.first(where: { $0.id == id }) else { return }
        do throws(StructureError) {
            let list = try MP4SampleTable.decode(
                movie.bytes, stbl: t.sampleTableBoxes, limits: context.limits, notes: &notes)
            guard list.count > 0, t.timescale > 0 else { return }
            chapterTrack = ChapterTrack(samples: list, timescale: t.timescale, duration: t.duration)
            if let first = list.runs.first { chapterTrack?.cursor.offset = first.offset }
        } catch {
            notes.append(DiagnosticNote(.damagedMetadata, error.reason + "; the chapter track is ignored"))
        }
    }

    /// Recomputes the packet index of each run's first sample.
    mutating func rebuildRunPackets() {
        runPackets.removeAll(keepingCapacity: true)
        var p: Int64 = 0
        for run in samples.runs {
            runPackets.append(p)
            p += Int64(run.count)
        }
        if let first = samples.runs.first, cursor == SampleCursor() { cursor.offset = first.offset }
    }

    /// A sample's duration in sample frames (media timescale → sample rate; exact when they are equal).
    func frames(_ delta: UInt32) -> Int64 {
        frameScale?.frames(delta) ?? Int64(delta)
    }

    /// The duration conversion and the format's constants, for per-sample loops (`nil` without a sample
    /// entry or track: durations are then taken as sample frames).
    var frameScale: MP4FrameScale? {
        guard let entry, let track else { return nil }
        let format = entry.streamDescription
        return MP4FrameScale(
            rate: format.sampleRate, timescale: track.timescale, framesPerPacket: format.framesPerPacket,
            bytesPerPacket: format.bytesPerPacket)
    }

    /// The identity conversion, used where `frameScale` is `nil` (as `frames(_:)` does).
    static let identityScale = MP4FrameScale(rate: 0, timescale: 0, framesPerPacket: 0, bytesPerPacket: 0)

    /// Packet geometry for translations and seeking: arithmetic for contiguous constant-size samples of one
    /// duration (PCM), otherwise a table of every sample's offset (relative to `dataOffset`) and first frame.
    mutating func rebuildPacketMap() {
        guard let dataOffset else { return }
        // A fragmented file's count is known only at the end (more fragments may come).
        let count: Int64? = movie?.isFragmented == true && !isFinished ? nil : Int64(samples.count)
        if let size = samples.constantSize, size > 0, samples.isContiguous, let fpp = constantFrames() {
            map = PacketMap(bytesPerPacket: Int64(size), framesPerPacket: fpp, packetCount: count)
            return
        }
        var offsets = PositionTable()
        var starts = PositionTable()
        appendSamples(samples.runs[...], dataOffset: dataOffset, from: 0, end: 0, &offsets, &starts)
        map = PacketMap(packetOffsets: offsets, packetFrames: starts, packetCount: count)
    }

    /// Appends the samples of runs `first...` to a table packet map (fragments: linear in the new samples);
    /// an arithmetic map is rebuilt (it stays arithmetic only while every sample is alike and back to back).
    mutating func extendPacketMap(fromRun first: Int) {
        guard let dataOffset, var offsets = map.packetOffsets, var starts = map.packetFrames,
            !offsets.isEmpty, !starts.isEmpty
        else {
            rebuildPacketMap()
            return
        }
        // Keep a copy-free append: take the tables out of the map first.
        map = .unknown
        let frame = starts.removeLast()
        let end = offsets.removeLast()
        appendSamples(samples.runs[first...], dataOffset: dataOffset, from: frame, end: end, &offsets, &starts)
        map = PacketMap(packetOffsets: offsets, packetFrames: starts, packetCount: nil)
    }

    /// Appends one (offset from the data start, first frame) pair per sample of `runs`, then the end pair
    /// (the end of the last sample, the total frames), continuing from frame `frame` and end `end`.
    private func appendSamples(
        _ runs: ArraySlice<MP4SampleRun>, dataOffset: Int64, from frame: Int64, end: Int64,
        _ offsets: inout PositionTable, _ starts: inout PositionTable
    ) {
        let scale = frameScale ?? Self.identityScale
        let sizes = samples.sizes
        var frame = frame
        var end = end
        for run in runs {
            var at = run.offset - dataOffset
            var durations = MP4DurationWalker(samples, run, from: 0)
            for k in 0..<run.count {
                offsets.append(at)
                starts.append(frame)
                switch run.size {
                case .constant(let s): at += Int64(s)
                case .table(let base): at += Int64(sizes[base + k])
                case .timeToSample: break
                }
                frame += scale.frames(durations.next())
            }
            end = at
        }
        offsets.append(end)
        starts.append(frame)
    }

    /// The frames per sample when every sample has the same duration.
    func constantFrames() -> Int64? {
        let scale = frameScale ?? Self.identityScale
        var value: Int64?
        for run in samples.runs {
            switch run.duration {
            case .constant(let d):
                let f = scale.frames(d)
                if value.map({ $0 != f }) ?? false { return nil }
                value = f
            case .table, .timeToSample:
                var durations = MP4DurationWalker(samples, run, from: 0)
                for _ in 0..<run.count {
                    let f = scale.frames(durations.next())
                    if value.map({ $0 != f }) ?? false { return nil }
                    value = f
                }
            }
        }
        return value
    }

    /// Announces the header: format, cookie, layout, counts, bit rate, gapless info, metadata, `dataOffset`
    /// (the first sample's offset; without samples, `mediaStart` or the end of the `moov`).
    mutating func publish(
        _ context: inout ParseContext, mediaStart: Int64?, buildingPacketMap: Bool = true
    ) throws(AudioStreamError) {
        guard var entry, let track, let movie else { return }
        published = true
        // The entry cannot tell the frames per packet (Opus, USAC, FLAC with a variable block size): every
        // sample lasting the same in the tables says it.
        if entry.streamDescription.framesPerPacket == 0, let fpp = constantFrames(), fpp > 0, fpp <= Int64(UInt32.max) {
            entry.streamDescription.framesPerPacket = UInt32(fpp)
            self.entry = entry
        }
        let fallback = mediaStart ?? (movieOffset.map { $0 + Int64(movie.bytes.count) } ?? 0)
        let offset = samples.runs.first?.offset ?? fallback
        dataOffset = offset
        var values: [AudioStreamPropertyValue] = [.dataFormat(entry.streamDescription)]
        if !entry.formatList.isEmpty { values.append(.formatList(entry.formatList)) }
        if let cookie = entry.magicCookie { values.append(.magicCookie(cookie)) }
        if let layout = entry.channelLayout { values.append(.channelLayout(layout)) }
        let (bytes, largest, totalFrames) = sampleTotals()
        if entry.streamDescription.bytesPerPacket == 0 {
            let bound = Self.packetSizeUpperBound(largestSample: movie.isFragmented ? nil : largest, context.limits)
            values.append(.packetSizeUpperBound(bound))
        }
        if !movie.isFragmented {
            values.append(.audioDataByteCount(UInt64(bytes)))
            values.append(.audioDataPacketCount(UInt64(samples.count)))
            if largest > 0 { values.append(.maximumPacketSize(largest)) }
            if samples.count > 0 { values.append(.averageBytesPerPacket(Double(bytes) / Double(samples.count))) }
        }
        let rate = entry.streamDescription.sampleRate
        if let average = entry.averageBitRate, average > 0 {
            values.append(.bitRate(average))
        } else if !movie.isFragmented, totalFrames > 0 {
            let bps = Double(bytes) * 8 * rate / Double(totalFrames)
            if bps.isFinite, bps < 4e9 { values.append(.bitRate(UInt32(bps.rounded()))) }
        }
        // CoreAudio counts what the packets decode to: packets × framesPerPacket when that is constant (ffmpeg
        // shortens the last AAC sample's stts duration), else the stts sum.
        let fpp = Int64(entry.streamDescription.framesPerPacket)
        let decoded = fpp > 0 ? Int64(samples.count) * fpp : totalFrames
        announcedGapless = gaplessInfo(movie: movie, track: track, totalFrames: decoded)
        if let info = announcedGapless {
            values.append(.packetTableInfo(info))
        }
        if !metadata.isEmpty { values.append(.metadata(metadata)) }
        values.append(.restrictsRandomAccess(entry.streamDescription.formatID != .linearPCM))
        context.publishHeader(values, dataOffset: offset)
        if buildingPacketMap { rebuildPacketMap() }
    }

    /// The packet size bound of variable-size samples: the sample table's largest sample when the movie
    /// lists every sample (the container's bound, as a CAF packet table's); for a fragmented movie, whose
    /// sample sizes come with each fragment, the largest sample this parser accepts (`maxPacketBytes`): a
    /// codec's nominal limit (AAC's 6144 bits per channel) is not one a damaged stream cannot exceed, and
    /// no packet is ever delivered above the bound.
    static func packetSizeUpperBound(largestSample: UInt32?, _ limits: ParserLimits) -> UInt32 {
        let accepted = UInt32(clamping: limits.maxPacketBytes)
        guard let largestSample, largestSample > 0 else { return accepted }
        return min(largestSample, accepted)
    }

    /// Priming and remainder from the edit list and iTunSMPB (`MP4Gapless.combine` decides).
    /// The bytes, the largest size and the frames (`stts` durations in the stream's sample rate) of every
    /// sample listed so far (the `moov`'s tables, then every fragment read).
    func sampleTotals() -> (bytes: Int64, largest: UInt32, frames: Int64) {
        var bytes: Int64 = 0
        var largest: UInt32 = 0
        var totalFrames: Int64 = 0
        let scale = frameScale ?? Self.identityScale
        for run in samples.runs {
            if case .constant(let s) = run.size {
                bytes += Int64(s) * Int64(run.count)
                largest = max(largest, s)
            } else {
                for k in 0..<run.count {
                    let s = samples.size(run, k)
                    bytes += Int64(s)
                    largest = max(largest, s)
                }
            }
            if case .constant(let d) = run.duration {
                totalFrames += scale.frames(d) * Int64(run.count)
            } else {
                var durations = MP4DurationWalker(samples, run, from: 0)
                for _ in 0..<run.count { totalFrames += scale.frames(durations.next()) }
            }
        }
        return (bytes, largest, totalFrames)
    }

    func gaplessInfo(movie: MP4Movie, track: MP4Track, totalFrames: Int64) -> PacketTableInfo? {
        guard let entry else { return nil }
        var fromEdits: PacketTableInfo?
        if let elst = track.editList, elst.start >= movie.bytes.startIndex, elst.end <= movie.bytes.endIndex {
            fromEdits = MP4Gapless.fromEditList(
                movie.bytes[elst.start..<elst.end], movieTimescale: movie.timescale, mediaTimescale: track.timescale,
                sampleRate: entry.streamDescription.sampleRate, totalFrames: totalFrames)
        }
        let smpb = metadata.tags.first { $0.key.lowercased().hasSuffix("itunsmpb") }.flatMap {
            MP4Gapless.fromITunSMPB($0.value)
        }
        return MP4Gapless.combine(editList: fromEdits, iTunSMPB: smpb)
    }

    /// A movie fragment: appends the parsed track's samples; publishes the header at the first samples.
    mutating func readFragment(_ context: inout ParseContext, _ bytes: ArraySlice<UInt8>, at offset: Int64)
        throws(AudioStreamError)
    {
        guard let track, let movie else { return }
        var notes: [DiagnosticNote] = []
        defer { for note in notes { context.diagnose(note, at: offset) } }
        let before = samples.runs.count
        do throws(StructureError) {
            try MP4MovieFragment.decode(
                bytes, moofOffset: offset, trackID: track.id, trackExtends: movie.trackExtends[track.id],
                into: &samples, limits: context.limits, notes: &notes)
        } catch {
            throw context.error(error, at: offset)
        }
        guard samples.runs.count > before else { return }
        var p = runPackets.last.map { $0 + Int64(samples.runs[before - 1].count) } ?? 0
        for run in samples.runs[before...] {
            runPackets.append(p)
            p += Int64(run.count)
        }
        if !published {
            if !headerAwaitsFirstSample {
                cursor = SampleCursor(run: 0, k: 0, offset: samples.runs[0].offset, packet: 0)
            }
            if holdsHeaderForFirstSample {
                headerAwaitsFirstSample = true
            } else {
                try publish(&context, mediaStart: nil)
            }
        } else {
            if cursor.run == before { cursor.offset = samples.runs[before].offset }
            extendPacketMap(fromRun: before)
        }
    }
}
