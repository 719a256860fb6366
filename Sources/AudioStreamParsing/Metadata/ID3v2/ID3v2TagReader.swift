/// The original entry point for ID3v2 tags held in memory (WAVE/AIFF `id3 ` chunks): the text and
/// comment frames of a tag as entries. A thin wrapper over ``ID3v2Tag/parse(_:limits:)-(ArraySlice<UInt8>,_)``,
/// which also gives artwork, chapters, `TXXX`, `PRIV` and diagnostics; new code should use that.
enum ID3v2TagReader {
    /// The raw-tag source name.
    static let source = ID3v2MetadataBuilder.source
    /// The tag header's length.
    static let headerByteCount = ID3v2Tag.Header.byteCount

    /// One text frame and its info-dictionary key.
    struct Entry: Equatable, Sendable {
        /// The frame as a raw tag: source `"id3v2"`, key = frame ID (`COMM:description` for a
        /// comment with a description), value = its text.
        var tag: AudioMetadata.Tag
        /// The info-dictionary key the frame maps to, if any.
        var infoKey: InfoKey?
        /// The info-dictionary value when it differs from the tag's value (`TDRC` "2024-05-06" gives
        /// the year "2024", `TCON` "(13)" the genre "Pop"); `nil` means the tag's value.
        var infoValue: String? = nil
    }

    /// Parses `bytes` (starting with `ID3`) with the default limits.
    ///
    /// - Returns: the text frames (`T…` except `TXXX`) and comments (`COMM`/`COM`) in tag order, or
    ///   `nil` when `bytes` do not start with a version 2.2–2.4 ID3v2 header.
    static func read(_ bytes: [UInt8]) -> [Entry]? {
        ID3v2Tag.parse(bytes)?.textEntries
    }

    /// Adds entries to `metadata`: every entry as a raw tag, and its info-dictionary value when that
    /// key is not set yet.
    static func merge(_ entries: [Entry], into metadata: inout AudioMetadata) {
        for entry in entries {
            metadata.tags.append(entry.tag)
            let value = entry.infoValue ?? entry.tag.value
            if let key = entry.infoKey, metadata.info[key] == nil, !value.isEmpty { metadata.info[key] = value }
        }
    }

    /// A 28-bit syncsafe integer (the top bit of each byte is ignored).
    static func syncsafe(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) -> Int {
        ID3v2Tag.syncsafe(b0, b1, b2, b3)
    }

    /// Reverses unsynchronisation: every 0xFF 0x00 becomes 0xFF (2.4 §6.1).
    static func removeUnsynchronisation(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        ID3v2Tag.removeUnsynchronisation(bytes)
    }
}
