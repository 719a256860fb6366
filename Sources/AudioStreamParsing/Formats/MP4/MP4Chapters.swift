/// Chapters: Nero `chpl` (`MP4ChapterListBox`) and QuickTime chapter text tracks.
///
/// A QuickTime chapter track (`tref`/`chap` from the audio track; Apple QuickTime File Format,
/// "Text sample data", and 3GPP TS 26.245 for `tx3g`) stores one title per sample:
///
/// ```
/// offset  size  field
///      0     2  text length   UInt16, big-endian
///      2     …  text          UTF-8, or UTF-16 after a byte-order mark (FE FF or FF FE)
///      …     …  atoms         encd, styl, … (ignored)
/// ```
///
/// The container turns sample times into chapter starts.
enum MP4Chapters {
    /// Decodes a whole `chpl` box (size, type, body), version 0 or 1 (`MP4ChapterListBox`).
    ///
    /// - Throws: `invalidFile` when the box is cut or a title runs past its end.
    static func decodeNero(chpl: ArraySlice<UInt8>) throws(StructureError) -> [AudioMetadata.Chapter] {
        guard let header = MP4BoxSyntax.headerLength(ofWholeBox: chpl) else {
            throw Structure.mp4("chpl").invalid("box header cut short")
        }
        return try MP4ChapterListBox.decode(chpl.dropFirst(header)).chapters
    }

    /// One sample of a QuickTime chapter text track (`text`/`tx3g`): the title, or nil when the
    /// sample is shorter than its length field says or empty.
    static func decodeTextSample(_ sample: ArraySlice<UInt8>) -> String? {
        let b = Array(sample)
        guard b.count >= 2 else { return nil }
        let length = Int(b[0]) << 8 | Int(b[1])
        guard length > 0, 2 + length <= b.count else { return nil }
        let text = b[2..<(2 + length)]
        if text.starts(with: [0xFE, 0xFF]) || text.starts(with: [0xFF, 0xFE]) {
            let bigEndian = text.first == 0xFE
            let body = Array(text.dropFirst(2))
            var units: [UInt16] = []
            for i in stride(from: 0, to: body.count - 1, by: 2) {
                let (high, low) = bigEndian ? (body[i], body[i + 1]) : (body[i + 1], body[i])
                units.append(UInt16(high) << 8 | UInt16(low))
            }
            return String(decoding: units, as: UTF16.self)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
