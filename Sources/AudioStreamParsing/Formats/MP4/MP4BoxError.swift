/// An error found while decoding one MP4 box's contents (a sample entry, `chpl`, …).
///
/// The container parser turns it into an `AudioStreamError` at the box's position with
/// `context.error(error.code, error.reason)`. `reason` is prefixed with the format and box, e.g.
/// `"mp4 (esds): DecoderConfigDescriptor missing"`.
struct MP4BoxError: Error {
    /// Apple's error code (`.invalidFile`, `.unsupportedDataFormat`, `.limitExceeded`).
    var code: AudioStreamError.Code
    /// A fixed explanation prefixed with the format and box.
    var reason: String
}
