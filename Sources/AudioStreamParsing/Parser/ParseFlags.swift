/// Flags for `AudioStreamParser.parse(_:flags:)` (CoreAudio `AudioFileStreamParseFlags`).
public struct ParseFlags: OptionSet, Hashable, Sendable {
    /// The raw flag bits.
    public var rawValue: UInt32
    /// Wraps raw flag bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kAudioFileStreamParseFlag_Discontinuity`: these bytes do not follow the previous ones (the caller
    /// seeked or lost data). Any partial packet held from earlier input is discarded, and the parser
    /// resynchronises. After `seek(toPacket:)` the bytes must start at the returned offset.
    ///
    /// Honoured only when packets were produced since the position was last established (the stream's
    /// start, a seek, a followed byte request, the previous honoured discontinuity): before that it is
    /// ignored and nothing is dropped, so the AudioToolbox habit of flagging every call until the first
    /// packet arrives loses nothing. On a zero-byte `parse` it applies to the next bytes.
    public static let discontinuity = ParseFlags(rawValue: 1)
}
