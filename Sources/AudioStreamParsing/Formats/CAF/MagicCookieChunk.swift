/// The body of a CAF `kuki` chunk (Apple "Core Audio Format Specification", "Supplementary Data",
/// "Magic Cookie Chunk").
///
/// ```
/// offset  size  field
///      0     n  the codec's magic cookie, exactly as the encoder produced it
/// ```
///
/// The bytes are handed out unchanged as `magicCookie`; what they contain depends on the format:
/// - `aac `: an MPEG-4 `ES_Descriptor` (ISO/IEC 14496-1 §7.2.6.5) whose `DecoderSpecificInfo` is the
///   AudioSpecificConfig.
/// - `alac`: either the 24-byte `ALACSpecificConfig`, or the older layout that wraps it in atoms:
///   a 12-byte `frma` atom naming `alac`, then the 36-byte `alac` atom (size, `alac`, version and
///   flags, the 24-byte config), sometimes followed by a terminator atom. Both are passed through;
///   ALAC decoders accept both.
/// - `opus`, `flac`: the codec header (OpusHead, the FLAC STREAMINFO block) as the writer stored it.
enum MagicCookieChunk {
    /// The cookie in a `kuki` body, or `nil` for an empty chunk (no cookie).
    static func decode(_ body: [UInt8]) -> [UInt8]? { body.isEmpty ? nil : body }
}
