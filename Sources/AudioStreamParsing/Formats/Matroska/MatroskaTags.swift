/// `Tags` (RFC 9559 §5.1.8) → the library's tag model.
///
/// ```
///  Tags
///  └─ Tag                    (one per target)
///     ├─ Targets
///     │  ├─ TargetTypeValue  uint  70 collection, 60 edition, 50 album (default), 40 part, 30 track, 20, 10
///     │  ├─ TargetType       string ("ALBUM", "TRACK", …)
///     │  └─ TagTrackUID      uint  (a tag about one track; 0 or absent: every track)
///     └─ SimpleTag           (repeated; may nest)
///        ├─ TagName          utf-8  upper case: TITLE, ARTIST, DATE_RELEASED, PART_NUMBER, …
///        └─ TagString        utf-8  (TagBinary values are not read)
/// ```
///
/// Every SimpleTag becomes an `AudioMetadata.Tag` (source `matroska`, key `TagName` prefixed with the
/// TargetTypeValue when it is not 50: `30/TITLE`). The info dictionary: when the file has track-level
/// tags (TargetTypeValue 30), they give the title, artist, … and album-level TITLE/ARTIST give
/// `album`/`artist`'s fallback; otherwise (a single-track file tagged at the default level 50, as
/// ffmpeg and mkvmerge write it) the level-50 tags give title, artist, …. Tags aimed at another track
/// (TagTrackUID not the parsed track's) are kept as tags but give no info entry.
enum MatroskaTags {
    struct SimpleTag: Equatable {
        var level: UInt64
        var trackUID: UInt64?
        var name: String
        var value: String
    }

    /// Info keys by TagName (Matroska "Tagging" names → Apple's `kAFInfoDictionary_*`).
    static let infoKeys: [String: InfoKey] = [
        "TITLE": .title, "ARTIST": .artist, "GENRE": .genre, "COMMENT": .comments, "DESCRIPTION": .comments,
        "COPYRIGHT": .copyright, "COMPOSER": .composer, "LYRICIST": .lyricist, "PART_NUMBER": .trackNumber,
        "TRACKNUMBER": .trackNumber, "DATE_RELEASED": .year, "DATE_RECORDED": .recordedDate, "ISRC": .isrc,
        "ENCODER": .encodingApplication, "ENCODED_BY": .encodingApplication, "SUBTITLE": .subTitle, "BPM": .tempo,
        "ALBUM": .album,
    ]

    /// The SimpleTags of `tags`, in order (nested SimpleTags too, up to the depth limit).
    static func decode(_ tags: EBMLMaster, depth: Int, limits: ParserLimits, notes: inout [DiagnosticNote])
        -> [SimpleTag]
    {
        var out: [SimpleTag] = []
        for tag in tags.children where tag.id == MatroskaElementID.tag {
            guard let t = try? tags.master(tag, depth: depth + 1, limits: limits) else {
                notes.append(DiagnosticNote(.damagedMetadata, .mkv("Tag"), "a Tag element does not decode; skipped"))
                continue
            }
            var level: UInt64 = 50
            var uid: UInt64?
            if let targets = t.first(MatroskaElementID.targets),
                let m = try? t.master(targets, depth: depth + 2, limits: limits)
            {
                level = m.unsigned(MatroskaElementID.targetTypeValue) ?? 50
                uid = m.unsigned(MatroskaElementID.tagTrackUID).flatMap { $0 == 0 ? nil : $0 }
            }
            collect(t, depth: depth + 2, level: level, uid: uid, limits: limits, into: &out)
        }
        return out
    }

    private static func collect(
        _ parent: EBMLMaster, depth: Int, level: UInt64, uid: UInt64?, limits: ParserLimits, into out: inout [SimpleTag]
    ) {
        for child in parent.children where child.id == MatroskaElementID.simpleTag {
            guard let s = try? parent.master(child, depth: depth, limits: limits) else { continue }
            if let name = s.string(MatroskaElementID.tagName), let value = s.string(MatroskaElementID.tagString) {
                out.append(SimpleTag(level: level, trackUID: uid, name: name, value: value))
            }
            collect(s, depth: depth + 1, level: level, uid: uid, limits: limits, into: &out)
        }
    }

    /// Adds `tags` to `metadata` (see the type's documentation for the info keys): the tags in stream
    /// order, then the info keys from the most specific level first (track before album), so that a
    /// track-level value wins and an album-level one fills what it leaves.
    static func add(_ tags: [SimpleTag], trackUID: UInt64?, to metadata: inout AudioMetadata) {
        let hasTrackLevel = tags.contains { $0.level == 30 && $0.trackUID.map { $0 == trackUID } ?? true }
        for tag in tags {
            let key = tag.level == 50 ? tag.name : "\(tag.level)/\(tag.name)"
            metadata.tags.append(AudioMetadata.Tag(source: "matroska", key: key, value: tag.value))
        }
        for tag in tags.sorted(by: { $0.level < $1.level }) where !tag.value.isEmpty && tag.level >= 30 {
            guard tag.trackUID.map({ $0 == trackUID }) ?? true else { continue }
            let name = tag.name.uppercased()
            var infoKey = infoKeys[name]
            // Album-level tags beside track-level ones: their TITLE is the album's.
            if hasTrackLevel && tag.level > 30 && name == "TITLE" { infoKey = .album }
            if let infoKey, metadata.info[infoKey] == nil { metadata.info[infoKey] = tag.value }
        }
    }
}
