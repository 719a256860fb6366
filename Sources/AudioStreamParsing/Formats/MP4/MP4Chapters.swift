/// Chapters: Nero `chpl` and QuickTime chapter text tracks.
///
/// Nero `chpl` (moov/udta/chpl; no public specification, the layout Nero's and ffmpeg's writers use):
///
/// ```
///  version 8, flags 24       full box; version 0 or 1
///  [reserved 32]             version 1 only
///  count 8                   chapters (version 0 writers may use 32 bits; see below)
///  per chapter:
///    start 64                in 100-nanosecond units (10 000 000 per second)
///    title length 8
///    title                   UTF-8
/// ```
///
/// A QuickTime chapter track (`tref`/`chap` from the audio track; Apple QuickTime File Format,
/// "Text sample data", and 3GPP TS 26.245 for `tx3g`) stores one title per sample: a 16-bit
/// big-endian length, the text (UTF-8, or UTF-16 with a byte-order mark), then optional atoms
/// (`encd`, `styl`, …) that are ignored here. The container turns sample times into chapter starts.
enum MP4Chapters {
    /// Decodes a whole `chpl` box (size, type, body), version 0 or 1.
    ///
    /// Chapters are returned in file order; each ends where the next starts, the last has no end
    /// (the container knows the duration). A count larger than what the box holds throws.
    ///
    /// - Throws: `invalidFile` when the box is cut or a title runs past its end.
    static func decodeNero(chpl: ArraySlice<UInt8>) throws(MP4BoxError) -> [AudioMetadata.Chapter] {
        func fail(_ why: String) -> MP4BoxError { MP4BoxError(code: .invalidFile, reason: "mp4 (chpl): " + why) }
        var r = ByteReader(Array(chpl))
        guard let size = r.readInteger(as: UInt32.self, endianness: .big), r.skip(4) else {
            throw fail("box header cut short")
        }
        if size == 1 { guard r.skip(8) else { throw fail("box header cut short") } }
        guard let version = r.readUInt8(), r.skip(3) else { throw fail("box shorter than its version and flags") }
        guard version <= 1 else { throw fail("version \(version) is not 0 or 1") }
        if version == 1 { guard r.skip(4) else { throw fail("reserved field cut short") } }
        guard let count = r.readUInt8() else { throw fail("chapter count missing") }
        var starts: [(UInt64, String)] = []
        for i in 0..<Int(count) {
            guard let start = r.readInteger(as: UInt64.self, endianness: .big), let length = r.readUInt8(),
                let title = r.readBytes(Int(length))
            else { throw fail("chapter \(i + 1) of \(count) runs past the box") }
            starts.append((start, String(decoding: title, as: UTF8.self)))
        }
        var chapters: [AudioMetadata.Chapter] = []
        for (i, (start, title)) in starts.enumerated() {
            let end = i + 1 < starts.count ? Double(starts[i + 1].0) / 10_000_000 : nil
            let chapter = AudioMetadata.Chapter(title: title, startSeconds: Double(start) / 10_000_000, endSeconds: end)
            chapters.append(chapter)
        }
        return chapters
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
