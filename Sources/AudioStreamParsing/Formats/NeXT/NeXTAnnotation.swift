/// The annotation of a NeXT/Sun audio file: the bytes between the 24-byte header and the data offset.
///
/// `audio_filehdr(4)` only says the annotation is "a string" of arbitrary length (at least 4 bytes in
/// Sun's own writer, NUL-terminated and NUL-padded). Two conventions are seen in practice:
///
/// - **key=value lines** (FFmpeg's `au` muxer, `libavformat/au.c`): `Title=…\nArtist=…\0`. Each line is
///   a raw tag (source `"au-annotation"`, key as written); known keys, compared case-insensitively,
///   also fill Apple's info dictionary (see ``infoKeys``).
/// - **free text** (SoX, e.g. `Processed by SoX`): one raw tag with key `annotation`, also stored as
///   the info dictionary's `comments`.
///
/// Text is decoded as UTF-8 (invalid sequences replaced) up to the first NUL; an annotation that is
/// empty or only NULs and whitespace gives no metadata.
enum NeXTAnnotation {
    /// The annotation, for messages.
    static let structure = Structure("au", "annotation")
    /// The raw tag source of annotation tags.
    static let source = "au-annotation"
    /// The raw tag key of a free-text annotation.
    static let freeTextKey = "annotation"

    /// Lower-cased annotation keys and the Apple info-dictionary key each fills.
    static let infoKeys: [String: InfoKey] = [
        "title": InfoKey.title,
        "name": InfoKey.title,
        "artist": InfoKey.artist,
        "author": InfoKey.artist,
        "album": InfoKey.album,
        "subtitle": InfoKey.subTitle,
        "comment": InfoKey.comments,
        "comments": InfoKey.comments,
        "description": InfoKey.comments,
        "genre": InfoKey.genre,
        "date": InfoKey.recordedDate,
        "year": InfoKey.year,
        "track": InfoKey.trackNumber,
        "tracknumber": InfoKey.trackNumber,
        "composer": InfoKey.composer,
        "lyricist": InfoKey.lyricist,
        "copyright": InfoKey.copyright,
        "isrc": InfoKey.isrc,
        "encoder": InfoKey.encodingApplication,
        "encoded_by": InfoKey.encodingApplication,
        "tempo": InfoKey.tempo,
        "bpm": InfoKey.tempo,
    ]

    /// The metadata an annotation carries, or `nil` when it carries none.
    ///
    /// - Parameter bytes: the whole annotation.
    /// - Returns: metadata with raw tags in annotation order and the info-dictionary entries they map to
    ///   (the first occurrence of a key wins).
    static func metadata(_ bytes: [UInt8]) -> AudioMetadata? {
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .map(String.init)
            .filter { !isBlank($0) }
        if lines.isEmpty { return nil }
        var metadata = AudioMetadata()
        if let pairs = keyValuePairs(lines) {
            for (key, value) in pairs {
                metadata.add(
                    AudioMetadata.Tag(source: source, key: key, value: value), infoKey: infoKeys[key.lowercased()])
            }
        } else {
            var value = text
            while let last = value.unicodeScalars.last, isSpace(last) { value.unicodeScalars.removeLast() }
            metadata.add(AudioMetadata.Tag(source: source, key: freeTextKey, value: value), infoKey: InfoKey.comments)
        }
        return metadata
    }

    /// The lines as (key, value) pairs when every line is `key=value` with a plausible key (1 to 64
    /// letters, digits, `_`, `-` or spaces, starting with a letter); otherwise `nil` (free text).
    private static func keyValuePairs(_ lines: [String]) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for line in lines {
            guard let eq = line.firstIndex(of: "=") else { return nil }
            let key = String(line[..<eq])
            let scalars = key.unicodeScalars
            guard let first = scalars.first, scalars.count <= 64, isLetter(first),
                scalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == " " })
            else { return nil }
            pairs.append((key, String(line[line.index(after: eq)...])))
        }
        return pairs
    }

    private static func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
    private static func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" || s == "\n" || s == "\r" }
    private static func isBlank(_ line: String) -> Bool { line.unicodeScalars.allSatisfy(isSpace) }
}
