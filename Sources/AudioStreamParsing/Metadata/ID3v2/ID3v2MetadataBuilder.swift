/// Turns the frames of one ID3v2 tag, as they are read, into `AudioMetadata`: raw tags, Apple
/// info-dictionary values, artwork and chapters, with a diagnostic for every frame it cannot use.
///
/// Used by `ID3v2Tag.parse` (whole tag in memory) and `ID3v2StreamReader` (frame by frame), so both
/// give the same metadata. Frame decoding is in `ID3v2MetadataBuilder+Frames.swift`.
///
/// Raw tags have source `"id3v2"` and, as key, the frame ID, or `ID:description` for frames that
/// carry a description or owner (`TXXX:MusicBrainz Album Id`, `COMM:iTunNORM`, `PRIV:com.apple…`,
/// `USLT:…`, `WXXX:…`, `UFID:…`); binary values are lower-case hex (``HexText``).
struct ID3v2MetadataBuilder {
    /// The raw-tag source name.
    static let source = "id3v2"

    /// One raw tag and the info-dictionary values it gives.
    struct Item: Equatable {
        /// The raw tag, with its primary info key and value (the legacy `ID3v2TagReader.Entry`).
        var entry: ID3v2TagReader.Entry
        /// A text frame (`T…` except `TXXX`/`TXX`) or a comment (`COMM`/`COM`).
        var isTextOrComment: Bool
    }

    /// A `CHAP` frame (ID3v2 Chapter Frame Addendum 1.0 §3.1).
    struct ChapterFrame: Equatable {
        var elementID: String
        var startMilliseconds: UInt32
        var endMilliseconds: UInt32
        /// The embedded `TIT2`, if any.
        var title: String?
        /// Index among the tag's `CHAP` frames (for a stable order).
        var index: Int
    }

    /// A `CTOC` frame (addendum §3.2).
    struct TableOfContents: Equatable {
        var elementID: String
        var isTopLevel: Bool
        var isOrdered: Bool
        var childElementIDs: [String]
    }

    /// The tag's major version (frame layouts differ).
    let version: UInt8
    let limits: ParserLimits
    private(set) var items: [Item] = []
    /// Secondary info values (`TDRC` also gives `recorded date`), applied after the items.
    private(set) var extraInfo: [(key: InfoKey, value: String)] = []
    private(set) var artwork: [AudioMetadata.Artwork] = []
    private(set) var chapterFrames: [ChapterFrame] = []
    private(set) var tables: [TableOfContents] = []
    /// Notes not yet taken by ``takeNotes()``.
    private(set) var pendingNotes: [DiagnosticNote] = []
    /// `TYER`/`TDAT` of a 2.3 tag, combined into a recorded date at the end.
    var yearText: String?
    var dateText: String?

    init(version: UInt8, limits: ParserLimits) {
        self.version = version
        self.limits = limits
    }

    // MARK: Input

    /// Adds one frame: `data` is its bytes after the frame header (`header.size` of them).
    mutating func add(_ header: ID3v2FrameHeader, data: ArraySlice<UInt8>, tagUnsynchronised: Bool) {
        switch header.content(data, version: version, tagUnsynchronised: tagUnsynchronised) {
        case .decoded(let content):
            decode(id: header.id, content[...])
        case .undecodable(let reason):
            addRaw(key: header.id, value: HexText.string(data))
            // Encrypted or compressed: valid ID3v2 that this reader does not decode.
            diagnose(
                .unsupportedFeature, header.id, "\(reason) frame of \(data.count) bytes kept raw (hex), not decoded")
        case .malformed(let reason):
            diagnose(.damagedMetadata, header.id, "\(reason) but the frame has \(data.count) bytes; ignored")
        }
    }

    /// Records a frame that was skipped without being read.
    mutating func skipped(_ header: ID3v2FrameHeader) {
        let limit = ID3v2FrameHeader.isPicture(header.id) ? "maxArtworkBytes" : "maxTagBytes"
        diagnose(.limitExceeded, header.id, "frame of \(header.size) bytes exceeds \(limit); skipped unread")
    }

    /// Adds a note (about the tag as a whole: ``ID3v2Tag/Note``).
    mutating func diagnose(_ note: DiagnosticNote) {
        pendingNotes.append(note)
    }

    /// Adds a note of `kind` about frame `id` (`"id3v2 (APIC): …"`).
    mutating func diagnose(_ kind: ParserDiagnostic.Kind, _ id: String, _ text: String) {
        pendingNotes.append(DiagnosticNote(kind, ID3v2Tag.Note.structure(id), text))
    }

    /// Returns and clears the notes added since the last call.
    mutating func takeNotes() -> [DiagnosticNote] {
        defer { pendingNotes.removeAll() }
        return pendingNotes
    }

    mutating func append(_ item: Item) { items.append(item) }
    mutating func appendInfo(_ key: InfoKey, _ value: String) { extraInfo.append((key, value)) }
    mutating func appendArtwork(_ picture: AudioMetadata.Artwork) { artwork.append(picture) }
    mutating func appendChapter(_ chapter: ChapterFrame) { chapterFrames.append(chapter) }
    mutating func appendTable(_ table: TableOfContents) { tables.append(table) }

    /// A raw tag with no info-dictionary key.
    mutating func addRaw(key: String, value: String) {
        let tag = AudioMetadata.Tag(source: Self.source, key: key, value: value)
        items.append(Item(entry: ID3v2TagReader.Entry(tag: tag, infoKey: nil), isTextOrComment: false))
    }

    // MARK: Output

    /// The metadata of every frame added so far.
    ///
    /// Info-dictionary values: the first frame that gives a key wins. Chapters are sorted by start
    /// time; equal starts keep the order of the top-level table of contents, then the tag order.
    func metadata() -> AudioMetadata {
        var metadata = AudioMetadata()
        for item in items {
            let entry = item.entry
            metadata.tags.append(entry.tag)
            let value = entry.infoValue ?? entry.tag.value
            if let key = entry.infoKey, metadata.info[key] == nil, !value.isEmpty { metadata.info[key] = value }
        }
        for (key, value) in extraInfo where metadata.info[key] == nil && !value.isEmpty {
            metadata.info[key] = value
        }
        // 2.3 §4.2.1: TYER "YYYY" and TDAT "DDMM" together give the recording date.
        if metadata.info[InfoKey.recordedDate] == nil, let year = yearText, let date = dateText,
            year.utf8.count == 4, date.utf8.count == 4, (year + date).utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        {
            let d = Array(date.utf8)
            metadata.info[InfoKey.recordedDate] =
                year + "-" + String(decoding: d[2..<4], as: UTF8.self) + "-" + String(decoding: d[0..<2], as: UTF8.self)
        }
        metadata.artwork = artwork
        metadata.chapters = chapters()
        return metadata
    }

    /// The legacy entries: text and comment frames only.
    var textEntries: [ID3v2TagReader.Entry] { items.filter(\.isTextOrComment).map(\.entry) }

    /// `CHAP` frames as chapters, sorted by start time (ties: top-level `CTOC` order, then tag order).
    private func chapters() -> [AudioMetadata.Chapter] {
        let order = tables.first(where: \.isTopLevel)?.childElementIDs ?? tables.first?.childElementIDs ?? []
        var rank: [String: Int] = [:]
        for (i, id) in order.enumerated() where rank[id] == nil { rank[id] = i }
        let sorted = chapterFrames.sorted {
            if $0.startMilliseconds != $1.startMilliseconds { return $0.startMilliseconds < $1.startMilliseconds }
            let r0 = rank[$0.elementID] ?? Int.max
            let r1 = rank[$1.elementID] ?? Int.max
            return r0 != r1 ? r0 < r1 : $0.index < $1.index
        }
        return sorted.map { chapter in
            let end: Double? =
                chapter.endMilliseconds >= chapter.startMilliseconds ? Double(chapter.endMilliseconds) / 1000 : nil
            return AudioMetadata.Chapter(
                title: chapter.title ?? chapter.elementID, startSeconds: Double(chapter.startMilliseconds) / 1000,
                endSeconds: end)
        }
    }
}
