/// Text in AIFF chunks: the `NAME`, `AUTH`, `(c) ` and `ANNO` text chunks and the `COMT` comments
/// chunk (AIFF 1.3, "Text Chunks" and "Comments Chunk"), decoded into raw tags (source
/// `"aiff-text"`) and info-dictionary entries.
enum AIFFText {
    /// The raw-tag source of AIFF text.
    static let source = "aiff-text"
    /// The Comments Chunk, for messages.
    static let comments = Structure("aiff", "COMT")

    /// The text chunks (AIFF 1.3, "Text Chunks"), and the info-dictionary key each fills.
    enum Chunk: Hashable, Sendable {
        /// `NAME`: the title.
        case name
        /// `AUTH`: the artist.
        case author
        /// `(c) `: the copyright.
        case copyright
        /// `ANNO`: an annotation, a comment.
        case annotation

        /// The info-dictionary key.
        var infoKey: InfoKey {
            switch self {
            case .name: return InfoKey.title
            case .author: return InfoKey.artist
            case .copyright: return InfoKey.copyright
            case .annotation: return InfoKey.comments
            }
        }
    }

    /// Decodes chunk text: UTF-8 when the bytes are valid UTF-8 (plain ASCII, as the spec asks, is), else
    /// ISO-8859-1; stops at the first NUL (FFmpeg pads odd strings with one inside the chunk) and drops
    /// trailing spaces.
    static func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let text = bytes.prefix { $0 != 0 }
        if String(validating: text, as: UTF8.self) != nil {
            return TextDecoding.nulTerminated(text)
        }
        var s = TextDecoding.latin1(text)
        while s.last == " " { s.removeLast() }
        return s
    }

    /// A text chunk (`NAME`, `AUTH`, `(c) `, `ANNO`): the whole body is the text.
    ///
    /// ```
    ///  offset size
    ///   0     n   text   ASCII characters (no count byte, no terminator required)
    /// ```
    static func readTextChunk(
        _ body: [UInt8], id: UInt32, infoKey: InfoKey, into metadata: inout AudioMetadata
    ) {
        let value = decode(body)
        metadata.add(AudioMetadata.Tag(source: source, key: FourCharCode.string(id), value: value), infoKey: infoKey)
    }

    /// The Comments Chunk (`COMT`): timestamped comments, each kept as a raw tag `COMT` (and the first
    /// non-empty one as the info dictionary's comments when no `ANNO` came first).
    ///
    /// ```
    ///  offset size
    ///   0     2   numComments   unsigned short
    ///   then numComments times:
    ///   +0    4   timeStamp     unsigned long   seconds since 1904-01-01 (not reported)
    ///   +4    2   marker        MarkerId        0 = none (not reported)
    ///   +6    2   count         unsigned short  text length
    ///   +8    n   text          count characters, then a pad byte when count is odd
    /// ```
    ///
    /// - Returns: false when the chunk ends inside a comment (the comments before it are kept).
    static func readCommentsChunk(_ body: [UInt8], into metadata: inout AudioMetadata) -> Bool {
        var reader = ByteReader(body)
        guard let numComments = reader.readInteger(as: UInt16.self, endianness: .big) else { return body.isEmpty }
        for _ in 0..<numComments {
            guard reader.skip(6), let count = reader.readInteger(as: UInt16.self, endianness: .big),
                let text = reader.readBytes(Int(count))
            else { return false }
            if count & 1 == 1 { _ = reader.skip(1) }
            metadata.add(AudioMetadata.Tag(source: source, key: "COMT", value: decode(text)), infoKey: InfoKey.comments)
        }
        return true
    }
}
