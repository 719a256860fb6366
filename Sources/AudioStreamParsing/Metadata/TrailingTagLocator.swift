/// Where the tags at the end of a stream are, from its last bytes: for callers that hold the tail of
/// a stream (an MPEG parser at `finish`, a file reader that seeks to the end).
///
/// Order at the end of a stream, each part optional (APEv2 specification; Lyrics3 v2.00; ID3v1):
///
/// ```
///  … audio │ ID3v2 (appended, with "3DI" footer) │ APE tag │ Lyrics3v2 │ TAG+ (227) │ ID3v1 (128) │ end
/// ```
///
/// Ranges index `lastBytes`; a range's lower bound is negative when the tag starts before the bytes
/// held (the caller then has only its end: an APE tag's footer, say, but not its items).
struct TrailingTagLayout: Equatable, Sendable {
    /// The ID3v1 tag, including a `TAG+` block before it.
    var id3v1: Range<Int>?
    /// A Lyrics3 v2.00 block ("LYRICSBEGIN" … size (6 digits) "LYRICS200"); recognised to be skipped.
    var lyrics3: Range<Int>?
    /// The APE tag, header included when its footer declares one.
    var ape: Range<Int>?
    /// An ID3v2.4 tag appended at the end, found through its footer.
    var id3v2: Range<Int>?

    /// Where the first of the tags starts (`lastBytes.count` when there are none): the audio ends
    /// before it.
    var start: Int
}

/// Finds the tags at the end of a stream; see ``TrailingTagLayout``.
enum TrailingTagLocator {
    /// How many bytes at the end of a junk run a framed-stream parser holds back (instead of dropping
    /// them as it scans), so that the tags that end the stream can be recognised at `finish`: an
    /// ID3v1 tag (128), an APEv2 footer (32), a Lyrics3v2 end (15), with room to spare.
    static let junkHoldBack = 256

    /// The tags that end `lastBytes` (the final bytes of a stream).
    static func locate(in lastBytes: [UInt8]) -> TrailingTagLayout {
        let b = lastBytes
        var layout = TrailingTagLayout(start: b.count)
        var end = b.count
        // ID3v1, with an optional TAG+ before it.
        if end >= ID3v1Tag.byteCount, ID3v1Tag.isTag(b[(end - ID3v1Tag.byteCount)...]) {
            var start = end - ID3v1Tag.byteCount
            if start >= ID3v1Tag.enhancedByteCount,
                b[(start - ID3v1Tag.enhancedByteCount)...].starts(with: [0x54, 0x41, 0x47, 0x2B])
            {
                start -= ID3v1Tag.enhancedByteCount
            }
            layout.id3v1 = start..<end
            end = start
        }
        // Lyrics3v2: "LYRICSBEGIN" … size (6 ASCII digits, counting from LYRICSBEGIN to the size) "LYRICS200".
        if end >= 15, b[(end - 9)..<end].elementsEqual("LYRICS200".utf8) {
            let digits = b[(end - 15)..<(end - 9)]
            if digits.allSatisfy({ (0x30...0x39).contains($0) }) {
                let size = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                let start = end - 15 - size
                let begins = start < 0 || b[start...].starts(with: "LYRICSBEGIN".utf8)
                if begins {
                    layout.lyrics3 = start..<end
                    end = start
                }
            }
        }
        // APE tag footer.
        if end >= APEv2Tag.headerByteCount, let footer = APEv2Tag.Header.decode(b[(end - APEv2Tag.headerByteCount)...]),
            !footer.isHeader, footer.size >= UInt32(APEv2Tag.headerByteCount)
        {
            let start = end - footer.totalByteCount
            layout.ape = start..<end
            end = start
        }
        // An appended ID3v2.4 tag with a footer.
        if end >= ID3v2Tag.Header.byteCount, let footer = ID3v2Tag.Header.decodeFooter(b[(end - 10)...]) {
            let start = end - footer.totalByteCount
            layout.id3v2 = start..<end
            end = start
        }
        layout.start = end
        return layout
    }
}
