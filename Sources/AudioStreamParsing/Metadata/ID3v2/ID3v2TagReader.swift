/// Reads the text frames of an ID3v2 tag held whole in memory (an `id3 `/`ID3 ` chunk of a WAVE or
/// AIFF file).
///
/// Contract: never traps; malformed frames are skipped; returns the tags found (source `"id3v2"`,
/// key = frame ID) with the Apple info-dictionary key each maps to.
enum ID3v2TagReader {
    /// One text frame and its info-dictionary key.
    struct Entry: Equatable {
        var tag: AudioMetadata.Tag
        var infoKey: String?
    }

    /// Parses `bytes` (starting with `ID3`). Returns `nil` when they are not an ID3v2 tag.
    static func read(_ bytes: [UInt8]) -> [Entry]? {
        // Implemented with the WAVE parser (issue 2); extended by the MPEG issue.
        return nil
    }
}
