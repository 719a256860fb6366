/// Gapless playback information: priming and remainder frames from an edit list or `iTunSMPB`
/// (docs/formats/mp4.md, "Gapless").
///
/// The edit list (`MP4EditListBox`, ISO/IEC 14496-12 §8.6.6) and the `iTunSMPB` tag say the same thing.
///
/// An encoder's priming frames are skipped by the first edit's `media_time`; the padding after the
/// last valid frame is cut by its `segment_duration`. iTunes' `iTunSMPB` tag (freeform
/// `----:com.apple.iTunes:iTunSMPB`) says the same in hex:
/// ` 00000000 PPPPPPPP RRRRRRRR VVVVVVVVVVVVVVVV …` (reserved, priming, remainder, 64-bit valid frame
/// count, then zeros).
enum MP4Gapless {
    /// The packet table info an edit list stands for.
    ///
    /// Leading empty edits (`media_time` −1, a presentation delay) are ignored. The non-empty edits
    /// must play at rate 1 and follow one another in media time (a single window); otherwise the edit
    /// list cannot be expressed as priming + remainder and the result is `nil`.
    ///
    /// - Parameters:
    ///   - elst: the whole `elst` box (size, type, body).
    ///   - movieTimescale: `mvhd` timescale (units of `segment_duration`).
    ///   - mediaTimescale: `mdhd` timescale (units of `media_time`).
    ///   - sampleRate: frames per second of the data format.
    ///   - totalFrames: the frames all packets decode to, as CoreAudio counts them: packet count ×
    ///     framesPerPacket for codecs whose every packet decodes to a full frame count (AAC, MP3, AC-3:
    ///     ffmpeg trims the LAST sample's `stts` duration to the valid end, e.g. 68 instead of 1024, so
    ///     the `stts` sum would hide the remainder); the sum of `stts` where the last packet really is
    ///     shorter (ALAC, FLAC, PCM) or durations vary (Opus).
    /// - Returns: `nil` when the box is malformed, a timescale is 0, or the window does not fit
    ///   `totalFrames`. `segment_duration` is rounded to the movie timescale by writers (ffmpeg: ms), so
    ///   the valid frame count is exact only to ±sampleRate / (2 × movieTimescale).
    static func fromEditList(
        _ elst: ArraySlice<UInt8>, movieTimescale: UInt32, mediaTimescale: UInt32, sampleRate: Double,
        totalFrames: Int64
    ) -> PacketTableInfo? {
        guard movieTimescale > 0, mediaTimescale > 0, sampleRate > 0, sampleRate.isFinite, totalFrames >= 0,
            totalFrames < 1 << 62
        else {
            return nil
        }
        guard let header = MP4BoxSyntax.headerLength(ofWholeBox: elst),
            let box = try? MP4EditListBox.decode(elst.dropFirst(header))
        else { return nil }
        var start: Int64?
        var duration: Double = 0  // seconds
        var nextMediaTime: Int64?
        for index in 0..<box.count {
            let edit = box[index]
            let mediaTime = edit.mediaTime
            if mediaTime == -1 {
                // An empty edit: before the first real edit it only delays the presentation.
                if start == nil { continue }
                return nil
            }
            guard mediaTime >= 0, edit.rateInteger == 1 else { return nil }
            if let expected = nextMediaTime, expected != mediaTime { return nil }
            if start == nil { start = mediaTime }
            let seconds = Double(edit.segmentDuration) / Double(movieTimescale)
            duration += seconds
            // Safe: a media time beyond 2^62 units is rejected before it could overflow.
            let length = (seconds * Double(mediaTimescale)).rounded()
            guard length < 0x1p62, mediaTime < 1 << 62 else { return nil }
            nextMediaTime = mediaTime + Int64(length)
        }
        guard let start else { return nil }
        let priming = (Double(start) * sampleRate / Double(mediaTimescale)).rounded()
        guard priming <= Double(totalFrames), priming <= Double(Int32.max) else { return nil }
        let primingFrames = Int64(priming)
        let valid = Int64(min((duration * sampleRate).rounded(), Double(totalFrames - primingFrames)))
        let remainder = totalFrames - primingFrames - valid
        guard remainder <= Int64(Int32.max) else { return nil }
        return PacketTableInfo(
            numberValidFrames: valid, primingFrames: Int32(primingFrames), remainderFrames: Int32(remainder))
    }

    /// The packet table info of a track without an edit list or `iTunSMPB` whose sample durations end
    /// short of its packets' full frame count: writers trim the LAST sample's duration to the valid end
    /// (ffmpeg's fragmented MP4: a `trun` duration of 68 instead of 1024), so the frames after it are a
    /// remainder. `nil` when the durations fill every packet, or fall short by a packet or more (not a
    /// trimmed last sample).
    ///
    /// - Parameters:
    ///   - sampleFrames: the frames of the sample durations (`stts` or `trun`).
    ///   - totalFrames: packet count × framesPerPacket.
    ///   - framesPerPacket: the codec's frames per packet.
    static func fromTrimmedLastSample(sampleFrames: Int64, totalFrames: Int64, framesPerPacket: Int64)
        -> PacketTableInfo?
    {
        let remainder = totalFrames - sampleFrames
        guard sampleFrames > 0, framesPerPacket > 0, remainder > 0, remainder < framesPerPacket else { return nil }
        return PacketTableInfo(numberValidFrames: sampleFrames, primingFrames: 0, remainderFrames: Int32(remainder))
    }

    /// The packet table info of an iTunes `iTunSMPB` value (fields separated by spaces, hexadecimal:
    /// reserved, priming, remainder, valid frame count, …).
    ///
    /// - Returns: `nil` when fewer than four fields are present, one is not hexadecimal, or a value
    ///   does not fit (priming and remainder in 32 signed bits, valid frames in 63 bits).
    static func fromITunSMPB(_ value: String) -> PacketTableInfo? {
        let fields = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\0" })
        guard fields.count >= 4, fields[0...3].allSatisfy({ $0.count <= 16 }),
            let priming = UInt64(fields[1], radix: 16), let remainder = UInt64(fields[2], radix: 16),
            let valid = UInt64(fields[3], radix: 16),
            priming <= UInt64(Int32.max), remainder <= UInt64(Int32.max), valid <= UInt64(Int64.max)
        else { return nil }
        return PacketTableInfo(
            numberValidFrames: Int64(valid), primingFrames: Int32(priming), remainderFrames: Int32(remainder))
    }

    /// Which wins when both exist:
    ///
    /// 1. Only one present: that one.
    /// 2. An identity edit list (priming 0, remainder 0: many muxers write one edit spanning the whole
    ///    track) carries no gapless information: `iTunSMPB` wins.
    /// 3. Both describe the same priming and the same total frame count: `iTunSMPB`, whose valid frame
    ///    count is exact where `segment_duration` is rounded to the movie timescale.
    /// 4. Otherwise the edit list: it is the normative ISO mechanism, tied to the track's own timescales,
    ///    and what ffmpeg and current Apple players apply; `iTunSMPB` is a tag that tools copy unchanged
    ///    when they re-mux or trim, so a disagreeing one is more likely stale.
    static func combine(editList: PacketTableInfo?, iTunSMPB: PacketTableInfo?) -> PacketTableInfo? {
        guard let editList else { return iTunSMPB }
        guard let iTunSMPB else { return editList }
        if editList.primingFrames == 0 && editList.remainderFrames == 0 { return iTunSMPB }
        func total(_ p: PacketTableInfo) -> Int64 {
            p.numberValidFrames &+ Int64(p.primingFrames) &+ Int64(p.remainderFrames)
        }
        if editList.primingFrames == iTunSMPB.primingFrames && total(editList) == total(iTunSMPB) {
            return iTunSMPB
        }
        return editList
    }
}
