/// Nero's chapter list box `chpl` (in `moov`/`udta`; no public specification: the layout Nero's and
/// ffmpeg's writers use).
///
/// ```
/// offset  size  field
///      0     1  version (0 or 1)
///      1     3  flags
///    [ 4     4  reserved                 version 1 only ]
///      …     1  chapter count
///      …        count × {
///              8  start                  UInt64, in 100-nanosecond units (10 000 000 per second)
///              1  title length
///              …  title                  UTF-8 }
/// ```
///
/// Chapters come in file order; each ends where the next starts, the last has no end (the container
/// knows the duration).
struct MP4ChapterListBox: Equatable {
    var chapters: [AudioMetadata.Chapter]

    /// Decodes a `chpl` body.
    ///
    /// - Throws: `invalidFile` for a version above 1, a body shorter than its fields, or a chapter
    ///   that runs past the body (the count is bounded by the body, never trusted).
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4ChapterListBox {
        let chpl = Structure.mp4("chpl")
        var r = ByteReader(body)
        guard let version = r.readUInt8(), r.skip(3) else {
            throw chpl.invalid("box shorter than its version and flags")
        }
        guard version <= 1 else { throw chpl.invalid("version \(version) is not 0 or 1") }
        if version == 1 { guard r.skip(4) else { throw chpl.invalid("reserved field cut short") } }
        guard let count = r.readUInt8() else { throw chpl.invalid("chapter count missing") }
        var starts: [(UInt64, String)] = []
        for i in 0..<Int(count) {
            guard let start = r.readInteger(as: UInt64.self, endianness: .big), let length = r.readUInt8(),
                let title = r.readBytes(Int(length))
            else { throw chpl.invalid("chapter \(i + 1) of \(count) runs past the box") }
            starts.append((start, String(decoding: title, as: UTF8.self)))
        }
        var chapters: [AudioMetadata.Chapter] = []
        for (i, (start, title)) in starts.enumerated() {
            let end = i + 1 < starts.count ? Double(starts[i + 1].0) / 10_000_000 : nil
            let chapter = AudioMetadata.Chapter(title: title, startSeconds: Double(start) / 10_000_000, endSeconds: end)
            chapters.append(chapter)
        }
        return MP4ChapterListBox(chapters: chapters)
    }
}
