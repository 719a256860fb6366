/// An ID3v1 or ID3v1.1 tag: the last 128 bytes of a stream, optionally preceded by a 227-byte
/// "enhanced" `TAG+` block.
///
/// ```
///  ID3v1 (128 bytes)                        TAG+ (227 bytes, just before "TAG")
///  offset  size  field                      offset  size  field
///  0       3     "TAG"                      0       4     "TAG+"
///  3       30    title                      4       60    title (continues the ID3v1 title)
///  33      30    artist                     64      60    artist (continues)
///  63      30    album                      124     60    album (continues)
///  93      4     year                       184     1     speed (0 unset, 1 slow … 4 hardcore)
///  97      30    comment                    185     30    genre (free text)
///                 v1.1: 28 bytes, then      215     6     start time "mmm:ss"
///                 125 = 0, 126 = track      221     6     end time "mmm:ss"
///  127     1     genre (ID3v1Genre; 255 = none)
/// ```
///
/// References: "ID3v1" and "ID3v1.1" (id3.org, Nilsson 1996/1997); the `TAG+` extended tag as
/// described with ID3v1 at id3.org and in TagLib/mutagen. Text is ISO-8859-1; each field ends at its
/// first NUL and trailing spaces are trimmed.
///
/// Raw tags: source `"id3v1"`, keys `title`, `artist`, `album`, `year`, `comment`, `track`, `genre`
/// (and `speed`, `enhancedGenre`, `startTime`, `endTime` from `TAG+`); the info dictionary gets
/// title, artist, album, year, comments, track number and genre (the `TAG+` free-text genre wins
/// over the genre byte).
struct ID3v1Tag: Equatable, Sendable {
    /// The raw-tag source name.
    static let source = "id3v1"
    /// The length of an ID3v1 tag.
    static let byteCount = 128
    /// The length of a `TAG+` block.
    static let enhancedByteCount = 227

    var title: String
    var artist: String
    var album: String
    var year: String
    var comment: String
    /// The ID3v1.1 track number (byte 126 when byte 125 is 0), or `nil` in a 1.0 tag.
    var track: UInt8?
    /// The genre byte.
    var genre: UInt8
    /// The `TAG+` block, when present.
    var enhanced: Enhanced?

    /// The fields of a `TAG+` block that do not continue ID3v1 fields.
    struct Enhanced: Equatable, Sendable {
        var speed: UInt8
        var genre: String
        var startTime: String
        var endTime: String
    }

    /// True when `bytes` start with "TAG".
    static func isTag<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        bytes.starts(with: [0x54, 0x41, 0x47])
    }

    /// Parses a tag from the end of `bytes`: the last 128 bytes must start with "TAG"; a `TAG+` block
    /// in the 227 bytes before them is read too.
    ///
    /// - Returns: the tag, or `nil` when `bytes` do not end with an ID3v1 tag.
    static func parse(_ bytes: ArraySlice<UInt8>) -> ID3v1Tag? {
        guard bytes.count >= byteCount else { return nil }
        let t = Array(bytes.suffix(byteCount))
        guard isTag(t) else { return nil }
        let isVersion11 = t[125] == 0 && t[126] != 0
        var tag = ID3v1Tag(
            title: field(t[3..<33]), artist: field(t[33..<63]), album: field(t[63..<93]), year: field(t[93..<97]),
            comment: field(t[97..<(isVersion11 ? 125 : 127)]), track: isVersion11 ? t[126] : nil, genre: t[127],
            enhanced: nil)
        let plusStart = bytes.count - byteCount - enhancedByteCount
        if plusStart >= 0 {
            let e = Array(bytes.dropFirst(plusStart).prefix(enhancedByteCount))
            if e.starts(with: [0x54, 0x41, 0x47, 0x2B]) {
                // The TAG+ title, artist and album continue the 30-byte ID3v1 fields.
                tag.title = field(untrimmed(t[3..<33]) + untrimmed(e[4..<64]))
                tag.artist = field(untrimmed(t[33..<63]) + untrimmed(e[64..<124]))
                tag.album = field(untrimmed(t[63..<93]) + untrimmed(e[124..<184]))
                tag.enhanced = Enhanced(
                    speed: e[184], genre: field(e[185..<215]), startTime: field(e[215..<221]),
                    endTime: field(e[221..<227]))
            }
        }
        return tag
    }

    /// Parses a tag from the end of `bytes`; see ``parse(_:)-(ArraySlice<UInt8>)``.
    static func parse(_ bytes: [UInt8]) -> ID3v1Tag? { parse(bytes[...]) }

    /// The genre's name: the `TAG+` free-text genre, else the genre byte's name; `nil` for 255 or a
    /// byte outside the table.
    var genreName: String? {
        if let text = enhanced?.genre, !text.isEmpty { return text }
        return ID3v1Genre.name(Int(genre))
    }

    /// The tag as metadata.
    var metadata: AudioMetadata {
        var metadata = AudioMetadata()
        func add(_ key: String, _ value: String, _ infoKey: InfoKey?) {
            guard !value.isEmpty else { return }
            metadata.add(AudioMetadata.Tag(source: Self.source, key: key, value: value), infoKey: infoKey)
        }
        add("title", title, InfoKey.title)
        add("artist", artist, InfoKey.artist)
        add("album", album, InfoKey.album)
        add("year", year, InfoKey.year)
        add("comment", comment, InfoKey.comments)
        if let track { add("track", String(track), InfoKey.trackNumber) }
        if let enhanced {
            add("enhancedGenre", enhanced.genre, InfoKey.genre)
            if enhanced.speed != 0 { add("speed", String(enhanced.speed), nil) }
            add("startTime", enhanced.startTime, nil)
            add("endTime", enhanced.endTime, nil)
        }
        if genre != 255 {
            // An unknown genre byte stays a raw tag (its number) without an info value.
            let name = ID3v1Genre.name(Int(genre))
            add("genre", name ?? String(genre), name == nil ? nil : InfoKey.genre)
        }
        return metadata
    }

    /// ISO-8859-1 up to the first NUL, trailing spaces trimmed.
    private static func field<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var s = ID3v2Text.latin1(bytes.prefix { $0 != 0 })
        while s.last == " " { s.removeLast() }
        return s
    }

    /// The bytes up to the first NUL, spaces kept (for joining with a `TAG+` continuation).
    private static func untrimmed(_ bytes: ArraySlice<UInt8>) -> [UInt8] { Array(bytes.prefix { $0 != 0 }) }
}
