/// Flags for `AudioStreamParser.parse(_:flags:)` (CoreAudio `AudioFileStreamParseFlags`).
public struct ParseFlags: OptionSet, Hashable, Sendable {
    /// The raw flag bits.
    public var rawValue: UInt32
    /// Wraps raw flag bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `kAudioFileStreamParseFlag_Discontinuity`: these bytes do not follow the previous ones (the caller
    /// seeked or lost data). Any partial packet held from earlier input is discarded, and the parser
    /// resynchronises. After `seek(toPacket:)` the bytes must start at the returned offset.
    public static let discontinuity = ParseFlags(rawValue: 1)
}
