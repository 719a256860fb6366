/// Chapters: Nero `chpl` and QuickTime chapter text tracks.
enum MP4Chapters {
    /// Decodes a whole `chpl` box (size, type, body), version 0 or 1.
    static func decodeNero(chpl: ArraySlice<UInt8>) throws(MP4BoxError) -> [AudioMetadata.Chapter] {
        []
    }

    /// One sample of a QuickTime chapter text track (`text`/`tx3g`): the title, or nil.
    static func decodeTextSample(_ sample: ArraySlice<UInt8>) -> String? {
        nil
    }
}
