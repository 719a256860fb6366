/// `Chapters` (RFC 9559 §5.1.7) → `AudioMetadata.Chapter`s.
///
/// ```
///  Chapters
///  └─ EditionEntry              (the first edition is read)
///     └─ ChapterAtom            (repeated; nested atoms are not read)
///        ├─ ChapterTimeStart    uint  nanoseconds (not scaled)
///        ├─ ChapterTimeEnd      uint  nanoseconds
///        ├─ ChapterFlagHidden   uint  1: not listed
///        └─ ChapterDisplay
///           └─ ChapString       utf-8 (the first display's)
/// ```
enum MatroskaChapters {
    static func decode(_ chapters: EBMLMaster, depth: Int, limits: ParserLimits, notes: inout [DiagnosticNote])
        -> [AudioMetadata.Chapter]
    {
        guard let edition = chapters.first(MatroskaElementID.editionEntry),
            let e = try? chapters.master(edition, depth: depth + 1, limits: limits)
        else { return [] }
        var out: [AudioMetadata.Chapter] = []
        for atom in e.children where atom.id == MatroskaElementID.chapterAtom {
            guard let a = try? e.master(atom, depth: depth + 2, limits: limits) else {
                notes.append(DiagnosticNote(.damagedMetadata, .mkv("ChapterAtom"), "does not decode; skipped"))
                continue
            }
            if a.unsigned(MatroskaElementID.chapterFlagHidden) == 1 { continue }
            let start = Double(a.unsigned(MatroskaElementID.chapterTimeStart) ?? 0) / 1e9
            let end = a.unsigned(MatroskaElementID.chapterTimeEnd).map { Double($0) / 1e9 }
            var title = ""
            if let display = a.first(MatroskaElementID.chapterDisplay),
                let d = try? a.master(display, depth: depth + 3, limits: limits)
            {
                title = d.string(MatroskaElementID.chapString) ?? ""
            }
            out.append(AudioMetadata.Chapter(title: title, startSeconds: start, endSeconds: end))
        }
        return out.sorted { $0.startSeconds < $1.startSeconds }
    }
}
