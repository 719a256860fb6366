/// A problem found while decoding a codec header or metadata block held whole in memory (Vorbis
/// identification/setup headers, Vorbis comments, FLAC pictures): the code and the reason a parser
/// throws or diagnoses.
///
/// The reason is prefixed with the codec and header, as every `AudioStreamError` reason is
/// (`"vorbis (setup): codebook 3 has a bad sync pattern"`); a parser turns it into an
/// `AudioStreamError` at the packet's position with `context.error(error.code, error.reason)`.
struct CodecHeaderError: Error, Hashable, Sendable {
    /// Apple's code: `.invalidFile` for malformed bytes, `.unsupportedDataFormat` for a valid but
    /// unsupported version, `.limitExceeded` for a `ParserLimits` cap.
    var code: AudioStreamError.Code
    /// A fixed explanation prefixed with the codec and header.
    var reason: String

    init(_ code: AudioStreamError.Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
