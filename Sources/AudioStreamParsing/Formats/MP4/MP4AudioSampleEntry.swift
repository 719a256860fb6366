/// An audio sample entry from an `stsd` box (ISO/IEC 14496-12 §12.2.3; Apple QuickTime File Format,
/// "Sound sample descriptions"), decoded into the values the parser announces.
///
/// Supported entry types and what they give (docs/formats/mp4.md, "Sample entries"):
///
/// | entry | configuration | dataFormat | magicCookie |
/// | ----- | ------------- | ---------- | ----------- |
/// | `mp4a` | `esds` (or `wave`/`esds`) | from objectTypeIndication + AudioSpecificConfig | the ES_Descriptor |
/// | `.mp3`, `ms\0U` | none | `.mp3` | none |
/// | `alac` | `alac` full box | `alac`, flags = bit depth code | the 24-byte ALACSpecificConfig |
/// | `Opus` | `dOps` | `opus`, 48000 Hz | the OpusHead built from `dOps` |
/// | `fLaC` | `dfLa` | `flac` from STREAMINFO | the `dfLa` body (version, flags, blocks) |
/// | `ac-3`, `ec-3` | `dac3`, `dec3` | `ac-3`, `ec-3`, 1536 frames | none |
/// | `lpcm` `twos` `sowt` `NONE` `raw ` `in24` `in32` `fl32` `fl64` | the entry (+ `wave`/`enda`) | `lpcm` | none |
/// | `ulaw`, `alaw` | the entry | `ulaw`, `alaw` | none |
struct MP4AudioSampleEntry {
    /// The sample entry type as found (`mp4a`, `alac`, `Opus`, `fLaC`, `lpcm`, `sowt`, …).
    var format: UInt32
    /// The data format (CoreAudio ASBD). `framesPerPacket` is 0 where the entry cannot tell (Opus,
    /// USAC, FLAC with a variable block size): the container may fill it from `stts`.
    var streamDescription: StreamDescription
    /// The magic cookie, when the format has one (see the table above and docs/coreaudio-mapping.md).
    var magicCookie: [UInt8]?
    /// The format list for layered formats (HE-AAC, HE-AACv2: highest layer first, the first item equals
    /// `streamDescription`); empty means the core's default one-item list.
    var formatList: [FormatListItem]
    /// The channel layout: from `chan`, else from the codec configuration, else mono/stereo by count.
    var channelLayout: ChannelLayout?
    /// Whether ``channelLayout`` comes from a `chan` box (the file's own word, kept over the codec's).
    var hasChannelLayoutBox = false
    /// From `esds` (avgBitrate) or `btrt`, when present and non-zero.
    var averageBitRate: UInt32?
    /// From `esds` (maxBitrate) or `btrt`, when present and non-zero.
    var maximumBitRate: UInt32?
    /// The AudioSpecificConfig of an AAC (MPEG-4 audio) entry, as announced (object type from the
    /// objectTypeIndication, channel count from the entry when the configuration has none); `nil` for
    /// other codecs. Implicit SBR is looked for from it (`MP4Parser+ImplicitSBR.swift`).
    var audioSpecificConfig: AudioSpecificConfig?
    /// What the codec configuration's decoder noted (an AudioSpecificConfig cut short); the container
    /// reports them at the `moov`.
    var notes: [DiagnosticNote] = []

    /// Decodes one sample entry.
    ///
    /// - Parameters:
    ///   - entry: one whole sample entry box from `stsd` (size, type, body).
    ///   - isQuickTime: the file is QuickTime (`ftyp` major brand `qt  ` or no `ftyp`), so sound
    ///     description versions 1 and 2 and the `wave` box apply.
    ///   - limits: `maxPacketBytes` bounds PCM frame sizes.
    /// - Throws: `StructureError`: `invalidFile` when the entry or a configuration box is malformed,
    ///   `unsupportedDataFormat` when its format is not supported, `limitExceeded` for a PCM frame
    ///   above `limits.maxPacketBytes`.
    static func decode(
        _ entry: ArraySlice<UInt8>, isQuickTime: Bool, limits: ParserLimits
    ) throws(StructureError) -> MP4AudioSampleEntry {
        var bytes = Array(entry)
        if bytes.count >= 8, let size32 = ByteReader(bytes).peekInteger(as: UInt32.self, endianness: .big) {
            let size = Int(size32)
            if size > bytes.count {
                throw Structure.mp4("stsd").invalid("sample entry size runs past the entry")
            }
            if size >= 8 { bytes = Array(bytes[0..<size]) }
        }
        let description = try MP4SoundDescription(bytes, isQuickTime: isQuickTime)
        let children = try MP4ChildBoxes(description.children, parent: FourCharCode.string(description.format))
        // QuickTime `wave` (siDecompressionParam): frma names the real format; esds, enda, alac live inside.
        var wave: MP4ChildBoxes?
        if let box = children.first(MP4Code.wave) { wave = try MP4ChildBoxes(box.body, parent: "wave") }
        var decoder = EntryDecoder(description: description, children: children, wave: wave, limits: limits)
        var result = try decoder.decode()
        if let chan = decoder.child(MP4Code.chan), chan.body.count >= 4,
            let layout = ChannelLayoutChunk.decode(Array(chan.body.dropFirst(4)))
        {
            result.channelLayout = layout
            result.hasChannelLayoutBox = true
        }
        // btrt (ISO/IEC 14496-12 §8.5.2.2): bufferSizeDB, maxBitrate, avgBitrate (UInt32 each).
        let btrt = decoder.child(MP4Code.btrt).map { ByteReader($0.body) }
        if let btrt, let maximum = btrt.peekInteger(at: 4, as: UInt32.self, endianness: .big),
            let average = btrt.peekInteger(at: 8, as: UInt32.self, endianness: .big)
        {
            if result.maximumBitRate == nil, maximum > 0 { result.maximumBitRate = maximum }
            if result.averageBitRate == nil, average > 0 { result.averageBitRate = average }
        }
        if result.channelLayout == nil {
            switch result.streamDescription.channelsPerFrame {
            case 1: result.channelLayout = ChannelLayout(tag: ChannelLayout.Tag.mono)
            case 2: result.channelLayout = ChannelLayout(tag: ChannelLayout.Tag.stereo)
            default: break
            }
        }
        return result
    }
}
