/// An audio sample entry from an `stsd` box (ISO/IEC 14496-12 §12.2.3, Apple QuickTime File Format
/// "Sound sample descriptions"), decoded into what the parser announces.
struct MP4AudioSampleEntry {
    /// The sample entry type as found (`mp4a`, `alac`, `Opus`, `fLaC`, `lpcm`, `sowt`, …).
    var format: UInt32
    /// The data format (CoreAudio ASBD).
    var streamDescription: StreamDescription
    /// The magic cookie, when the format has one (see docs/coreaudio-mapping.md).
    var magicCookie: [UInt8]?
    /// The format list for layered formats (HE-AAC, HE-AACv2: highest layer first); empty means the
    /// core's default one-item list.
    var formatList: [FormatListItem]
    /// The channel layout, from `chan`, the codec configuration, or the channel count.
    var channelLayout: ChannelLayout?
    /// From `esds` (avgBitrate) or `btrt`, when present and non-zero.
    var averageBitRate: UInt32?
    /// From `esds` (maxBitrate) or `btrt`, when present and non-zero.
    var maximumBitRate: UInt32?

    /// Decodes one sample entry.
    ///
    /// - Parameters:
    ///   - entry: one whole sample entry box from `stsd` (size, type, body).
    ///   - isQuickTime: the file is QuickTime (`ftyp` major brand `qt  ` or no `ftyp`), so sound
    ///     description versions 1 and 2 and the `wave` box apply.
    ///   - limits: the parser's limits.
    /// - Throws: `MP4BoxError` when the entry is malformed or its format is not supported.
    static func decode(
        _ entry: ArraySlice<UInt8>, isQuickTime: Bool, limits: ParserLimits
    ) throws(MP4BoxError) -> MP4AudioSampleEntry {
        throw MP4BoxError(code: .unsupportedDataFormat, reason: "mp4 (stsd): sample entries not decoded yet")
    }
}
