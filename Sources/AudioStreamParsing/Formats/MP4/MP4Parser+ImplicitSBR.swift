/// Implicitly signalled HE-AAC (ISO/IEC 14496-3 §1.6.5): an `esds` whose AudioSpecificConfig says AAC-LC at
/// the core rate, while the samples carry SBR data in fill elements. Only the first sample tells.
///
/// The header is **held until the first sample's bytes are at hand** (docs/formats/mp4.md, "Implicit
/// HE-AAC"): when the track's configuration allows implicit SBR
/// (``AudioSpecificConfig/allowsImplicitSBR``: object type 1–4, no explicit SBR), `readMovie` and
/// `readFragment` do not publish; the parser walks on (boxes after the `moov`, the `mdat` header, other
/// tracks' bytes, chapter samples) and publishes when the first audio sample to emit is readable whole,
/// reading its raw data block (`AudioSpecificConfig.reportedWithProblem(firstRawDataBlock:)`, shared with
/// ADTS and LOAS). With SBR the entry becomes the HE-AAC top layer (2 × core rate, 2048 frames per
/// packet) before anything counts frames, so the packet map, the packet frame counts, the duration, the
/// gapless information and the seeks all follow the output rate; `stts` durations are converted from the
/// media timescale (the core rate or the output rate, as writers choose) exactly.
///
/// The point of publication is a fixed place in the stream (the first sample, whole), never a chunk
/// boundary, so every chunking gives the same events; a stream that ends first is published with the
/// core at `finish`.
extension MP4Parser {
    /// Whether the parsed track's header waits for its first sample (see the type's notes).
    var holdsHeaderForFirstSample: Bool {
        guard let config = entry?.audioSpecificConfig else { return false }
        return config.allowsImplicitSBR && samples.count > 0
    }

    /// Publishes the held header with the first sample (at the window's position, `size` bytes readable)
    /// read for implicit SBR.
    mutating func publishWithFirstSample(_ context: inout ParseContext, size: Int) throws(AudioStreamError) {
        if let block = context.window.peekBytes(at: 0, count: size), let config = entry?.audioSpecificConfig {
            let report = config.reportedWithProblem(firstRawDataBlock: block[...])
            if let problem = report.problem { context.diagnose(.inconsistentValues, .mp4("mdat"), problem) }
            if report.config.extensionAudioObjectType != nil { entry?.announceImplicitSBR(report.config) }
        }
        try publishHeldHeader(&context)
    }

    /// Publishes the held header as the sample entry stands (also at `finish` before any sample) and
    /// builds the packet map (releasing the `moov` bytes when nothing more is read from them).
    mutating func publishHeldHeader(_ context: inout ParseContext) throws(AudioStreamError) {
        headerAwaitsFirstSample = false
        let isFragmented = movie?.isFragmented ?? false
        try publish(&context, mediaStart: nil, buildingPacketMap: isFragmented)
        releaseMovieBytes()
    }
}

extension MP4AudioSampleEntry {
    /// Takes the HE-AAC layers of `config` (the entry's configuration with implicit SBR): data format,
    /// format list and the channel layout, except a `chan` box's layout for as many channels as the top
    /// layer has (a mono `chan` does not describe the stereo output PS gives). The cookie stays the `esds`.
    mutating func announceImplicitSBR(_ config: AudioSpecificConfig) {
        guard let format = AACStreamFormat(config) else { return }
        streamDescription = format.streamDescription
        formatList = format.layeredFormatList
        let keepsBox =
            hasChannelLayoutBox && channelLayout?.numberOfChannels == Int(format.streamDescription.channelsPerFrame)
        if !keepsBox, let layout = format.channelLayout { channelLayout = layout }
    }
}
