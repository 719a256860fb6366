extension AudioMetadata {
    /// This metadata followed by `later` (for example a leading ID3v2 tag followed by the
    /// container's own tags): tags, artwork and chapters in stream order; an info-dictionary key
    /// keeps the value it has here and takes `later`'s only when it is not set yet.
    ///
    /// - Parameter later: metadata found after this one in the stream.
    /// - Returns: the combined metadata.
    func merging(_ later: AudioMetadata) -> AudioMetadata {
        var merged = self
        merged.tags.append(contentsOf: later.tags)
        for (key, value) in later.info where merged.info[key] == nil {
            merged.info[key] = value
        }
        merged.artwork.append(contentsOf: later.artwork)
        merged.chapters.append(contentsOf: later.chapters)
        return merged
    }
}
