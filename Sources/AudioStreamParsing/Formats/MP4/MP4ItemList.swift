/// iTunes-style metadata: `udta`/`meta`/`ilst` (Apple's QuickTime File Format, "Metadata").
enum MP4ItemList {
    /// Decodes a `meta` box's item list.
    ///
    /// - Parameters:
    ///   - meta: the whole `meta` box (size, type, body), with or without the full-box header.
    ///   - limits: `maxArtworkBytes` bounds `covr` pictures.
    /// - Returns: the metadata (info keys, raw tags with source `"ilst"`, artwork) and diagnostics.
    static func decode(meta: ArraySlice<UInt8>, limits: ParserLimits) -> (metadata: AudioMetadata, diagnostics: [String]) {
        (AudioMetadata(), [])
    }
}
