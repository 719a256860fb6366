/// `Attachments` (RFC 9559 §5.1.6) → artwork: every `AttachedFile` whose FileMediaType is an image.
///
/// ```
///  Attachments
///  └─ AttachedFile
///     ├─ FileDescription  utf-8
///     ├─ FileName         utf-8   ("cover.jpg": front cover, by the Matroska attachment convention)
///     ├─ FileMediaType    string  ("image/jpeg", "image/png")
///     └─ FileData         binary
/// ```
///
/// A picture larger than `maxArtworkBytes` is skipped with a `limitExceeded` note; other attachments
/// (fonts) are ignored.
enum MatroskaAttachments {
    static func decode(_ attachments: EBMLMaster, depth: Int, limits: ParserLimits, notes: inout [DiagnosticNote])
        -> [AudioMetadata.Artwork]
    {
        var out: [AudioMetadata.Artwork] = []
        for file in attachments.children where file.id == MatroskaElementID.attachedFile {
            guard let f = try? attachments.master(file, depth: depth + 1, limits: limits) else {
                notes.append(DiagnosticNote(.damagedMetadata, .mkv("AttachedFile"), "does not decode; skipped"))
                continue
            }
            let mime = f.string(MatroskaElementID.fileMediaType) ?? ""
            guard mime.hasPrefix("image/"), let data = f.body(MatroskaElementID.fileData) else { continue }
            guard data.count <= limits.maxArtworkBytes else {
                notes.append(
                    DiagnosticNote(
                        .limitExceeded, .mkv("AttachedFile"),
                        "picture of \(data.count) bytes exceeds maxArtworkBytes; skipped"))
                continue
            }
            let name = (f.string(MatroskaElementID.fileName) ?? "").lowercased()
            let front: UInt32 = name.hasPrefix("cover") && !name.hasPrefix("cover_land") ? 3 : 0
            out.append(AudioMetadata.Artwork(mimeType: mime, pictureType: front, data: Array(data)))
        }
        return out
    }
}
