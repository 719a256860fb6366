/// iTunes-style metadata: `udta`/`meta`/`ilst` (Apple "QuickTime File Format Specification",
/// "Metadata": Metadata Item List Atom, Data Atom, well-known types; the iTunes `----` freeform form).
///
/// ```
///  meta            [version 1, flags 3: ISO full box; QuickTime's moov/meta has none]
///    hdlr          handler 'mdir' (iTunes) or 'mdta' (QuickTime keys)
///    [keys]        QuickTime key table                             MP4MetadataKeysBox
///    ilst
///      <item>      type = the key ('©nam', 'trkn', 'covr', '----') or, with keys, a 1-based key index
///        [mean]    freeform only: version/flags 4, reverse-DNS domain ("com.apple.iTunes")
///        [name]    freeform only: version/flags 4, name ("iTunSMPB")
///        data …    type, locale, value                             MP4DataBox
///    free          padding
/// ```
///
/// Mapping to Apple's info dictionary (docs/formats/mp4.md, "Metadata and chapters"): `©nam` title,
/// `©ART` artist, `©alb` album, `©day` year (first four digits) and recorded date (as written),
/// `trkn` track number (`3/12`, or `3` without a total), `©gen`/`gnre` genre, `©wrt` composer,
/// `©cmt` comments, `tmpo` tempo, `©too` encoding application, `cprt` copyright; the rest (`aART`,
/// `disk`, `cpil`, `©lyr`, freeform items, …) are raw tags only. Every item is a raw tag (source
/// `"ilst"`, key as written with `©` for 0xA9, freeform keys as `----:mean:name`); `covr` pictures go
/// to `artwork` (front cover).
enum MP4ItemList {
    /// The raw tag source name.
    static let source = "ilst"

    /// Info-dictionary keys of the text items.
    static let infoKeys: [String: InfoKey] = [
        "©nam": InfoKey.title, "©ART": InfoKey.artist, "©alb": InfoKey.album, "©gen": InfoKey.genre,
        "©wrt": InfoKey.composer, "©cmt": InfoKey.comments, "©too": InfoKey.encodingApplication,
        "cprt": InfoKey.copyright, "©cpy": InfoKey.copyright, "tmpo": InfoKey.tempo,
        "trkn": InfoKey.trackNumber,
        "©st3": InfoKey.subTitle, "©enc": InfoKey.sourceEncoder,
        // QuickTime metadata keys (hdlr 'mdta' + keys).
        "com.apple.quicktime.title": InfoKey.title, "com.apple.quicktime.artist": InfoKey.artist,
        "com.apple.quicktime.album": InfoKey.album, "com.apple.quicktime.genre": InfoKey.genre,
        "com.apple.quicktime.comment": InfoKey.comments, "com.apple.quicktime.copyright": InfoKey.copyright,
        "com.apple.quicktime.composer": InfoKey.composer,
        "com.apple.quicktime.software": InfoKey.encodingApplication,
    ]

    /// Decodes a `meta` box's item list.
    ///
    /// - Parameters:
    ///   - meta: the whole `meta` box (size, type, body), with or without the full-box header.
    ///   - limits: `maxTagBytes` bounds the box, `maxArtworkBytes` each `covr` picture.
    /// - Returns: the metadata (info keys, raw tags with source `"ilst"`, artwork) and notes for what
    ///   was skipped. Malformed boxes end the list where they start; what came before is kept.
    static func decode(
        meta: ArraySlice<UInt8>, limits: ParserLimits
    ) -> (metadata: AudioMetadata, notes: [DiagnosticNote]) {
        var reader = ItemListReader(limits: limits)
        reader.read(meta: meta)
        return (reader.metadata, reader.notes)
    }
}

/// The state of one `MP4ItemList.decode` call.
private struct ItemListReader {
    let limits: ParserLimits
    var metadata = AudioMetadata()
    var notes: [DiagnosticNote] = []
    /// QuickTime `keys`, 1-based.
    var keys: [String] = []

    init(limits: ParserLimits) { self.limits = limits }

    /// `meta`: a full box in ISO/iTunes files (version and flags first), a plain box in QuickTime's
    /// `moov/meta`; children `hdlr`, optional `keys`, `ilst`.
    mutating func read(meta bytes: ArraySlice<UInt8>) {
        let meta = Structure.mp4("meta")
        guard bytes.count >= 8 else {
            notes.append(DiagnosticNote(.damagedMetadata, meta, "box shorter than its header"))
            return
        }
        guard bytes.count <= limits.maxTagBytes else {
            notes.append(
                DiagnosticNote(.limitExceeded, meta, "\(bytes.count) bytes exceed maxTagBytes; metadata skipped"))
            return
        }
        let bytes = Array(bytes)
        let declared = Int(ByteReader(bytes).peekInteger(as: UInt32.self, endianness: .big) ?? 0)
        var end = bytes.count
        if declared >= 8 && declared < end { end = declared }
        var bodyStart = declared == 1 ? 16 : 8
        // ISO/iTunes: a full box (version and flags first). QuickTime: children follow at once. The
        // children start with a box header whose type is printable; version/flags are 0 0 0 0 (or 0 0 0 x).
        if !MP4SoundDescription.startsWithBox(Array(bytes[0..<end]), at: bodyStart) { bodyStart += 4 }
        guard bodyStart <= end else {
            notes.append(DiagnosticNote(.damagedMetadata, meta, "box shorter than its header"))
            return
        }
        let children: MP4ChildBoxes
        do {
            children = try MP4ChildBoxes(bytes[bodyStart..<end], parent: "meta")
        } catch {
            notes.append(DiagnosticNote(.damagedMetadata, error.reason))
            return
        }
        if let keysBox = children.first(MP4Code.keys) {
            let table = MP4MetadataKeysBox.decode(keysBox.body)
            keys = table.keys
            notes += table.notes
        }
        guard let ilst = children.first(MP4Code.ilst) else {
            notes.append(DiagnosticNote(.damagedMetadata, meta, "no ilst box"))
            return
        }
        readItems(ilst.body)
    }

    /// `ilst`: one box per item, read one by one with their 32-bit sizes, so that a broken item ends
    /// the list without losing the ones before it.
    mutating func readItems(_ body: ArraySlice<UInt8>) {
        let ilst = Structure.mp4("ilst")
        var r = ByteReader(body)
        while r.remaining > 0 {
            guard r.remaining >= 8, let size32 = r.peekInteger(as: UInt32.self, endianness: .big),
                let type = r.peekInteger(at: 4, as: UInt32.self, endianness: .big)
            else {
                notes.append(DiagnosticNote(.junkSkipped, ilst, "\(r.remaining) trailing bytes"))
                return
            }
            let size = Int(size32)
            guard size >= 8, size <= r.remaining, r.skip(8), let item = r.readBytes(size - 8) else {
                notes.append(
                    DiagnosticNote(
                        .damagedMetadata, ilst, "item size \(size) does not fit the list; the rest is skipped"))
                return
            }
            readItem(type: type, body: item)
        }
    }

    /// The key as written: Latin-1 characters (0xA9 is ©), or the QuickTime key for an index.
    func keyName(_ type: UInt32) -> String {
        if !keys.isEmpty, type >= 1, type <= keys.count { return keys[Int(type) - 1] }
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: type >> $0) }
        return TextDecoding.latin1(bytes)
    }

    /// One item: optional `mean` and `name` (freeform `----` items), then one or more `data` boxes.
    mutating func readItem(type: UInt32, body: ArraySlice<UInt8>) {
        let ilst = Structure.mp4("ilst")
        var key = keyName(type)
        let children: MP4ChildBoxes
        do {
            children = try MP4ChildBoxes(body, parent: "ilst \(key)")
        } catch {
            notes.append(DiagnosticNote(.damagedMetadata, error.reason))
            return
        }
        if type == MP4Code.freeform {
            let mean = children.first(MP4Code.mean).map { String(decoding: $0.body.dropFirst(4), as: UTF8.self) }
            let name = children.first(MP4Code.name).map { String(decoding: $0.body.dropFirst(4), as: UTF8.self) }
            key = "----:\(mean ?? ""):\(name ?? "")"
        }
        let data = children.boxes.filter { $0.type == MP4Code.data }
        if data.isEmpty { notes.append(DiagnosticNote(.damagedMetadata, ilst, "item '\(key)' has no data box")) }
        for box in data {
            let value: MP4DataBox
            do {
                value = try MP4DataBox.decode(box.body, key: key)
            } catch {
                notes.append(DiagnosticNote(.damagedMetadata, error.reason))
                continue
            }
            if key == "covr" {
                addArtwork(value.value, wellKnownType: value.wellKnownType)
            } else if let text = value.text(key: key) {
                add(key: key, value: text)
            } else {
                let text = "item '\(key)' has data type \(value.wellKnownType) that is not read"
                notes.append(DiagnosticNote(.unsupportedFeature, ilst, text))
            }
        }
    }

    mutating func add(key: String, value: String) {
        metadata.tags.append(AudioMetadata.Tag(source: MP4ItemList.source, key: key, value: value))
        guard !value.isEmpty else { return }
        if key == "©day" {
            setInfo(InfoKey.recordedDate, value)
            let year = value.prefix(4)
            if year.count == 4, year.allSatisfy(\.isNumber) { setInfo(InfoKey.year, String(year)) }
        } else if key == "gnre" {
            setInfo(InfoKey.genre, value)
        } else if let infoKey = MP4ItemList.infoKeys[key] {
            setInfo(infoKey, value)
        }
    }

    /// First wins (docs/metadata.md).
    mutating func setInfo(_ key: InfoKey, _ value: String) {
        if metadata.info[key] == nil { metadata.info[key] = value }
    }

    mutating func addArtwork(_ value: ArraySlice<UInt8>, wellKnownType: UInt32) {
        guard value.count <= limits.maxArtworkBytes else {
            let text = "covr picture of \(value.count) bytes exceeds maxArtworkBytes; skipped"
            notes.append(DiagnosticNote(.limitExceeded, .mp4("ilst"), text))
            return
        }
        let mime: String
        switch wellKnownType {
        case 13: mime = "image/jpeg"
        case 14: mime = "image/png"
        case 27: mime = "image/bmp"
        default: mime = ID3v2MetadataBuilder.sniffedMIMEType(value)
        }
        metadata.artwork.append(AudioMetadata.Artwork(mimeType: mime, pictureType: 3, data: Array(value)))
    }
}
