/// Frame bodies (ID3v2.4.0 native frames; ID3v2.3.0 §4; ID3v2 2.2 §4; ID3v2 Chapter Frame
/// Addendum 1.0).
extension ID3v2MetadataBuilder {
    /// Text frames (2.3/2.4 IDs, then 2.2 IDs) and the info-dictionary key each maps to.
    static let infoKeys: [String: InfoKey] = [
        "TIT2": InfoKey.title, "TPE1": InfoKey.artist, "TALB": InfoKey.album, "TCON": InfoKey.genre,
        "TRCK": InfoKey.trackNumber, "TYER": InfoKey.year, "TDRC": InfoKey.year, "TCOM": InfoKey.composer,
        "TEXT": InfoKey.lyricist, "TCOP": InfoKey.copyright, "TSRC": InfoKey.isrc,
        "TSSE": InfoKey.encodingApplication, "TENC": InfoKey.sourceEncoder, "TBPM": InfoKey.tempo,
        "TIT3": InfoKey.subTitle, "TKEY": InfoKey.keySignature,
        "TT2": InfoKey.title, "TP1": InfoKey.artist, "TAL": InfoKey.album, "TCO": InfoKey.genre,
        "TRK": InfoKey.trackNumber, "TYE": InfoKey.year, "TCM": InfoKey.composer, "TXT": InfoKey.lyricist,
        "TCR": InfoKey.copyright, "TRC": InfoKey.isrc, "TSS": InfoKey.encodingApplication,
        "TEN": InfoKey.sourceEncoder, "TBP": InfoKey.tempo, "TT3": InfoKey.subTitle, "TKE": InfoKey.keySignature,
    ]

    /// Decodes one frame's content (format flags already applied).
    mutating func decode(id: String, _ content: ArraySlice<UInt8>) {
        switch id {
        case "TXXX", "TXX": userText(id, content)
        case "COMM", "COM": comment(id, content)
        case "USLT", "ULT": lyrics(id, content)
        case "APIC": picture(id, content, version22: false)
        case "PIC": picture(id, content, version22: true)
        case "CHAP": chapter(content)
        case "CTOC": tableOfContents(content)
        case "PRIV": ownerData(id, content, textIfPrintable: false)
        case "UFID", "UFI": ownerData(id, content, textIfPrintable: true)
        case "WXXX", "WXX": userURL(id, content)
        case _ where id.hasPrefix("T"): text(id, content)
        case _ where id.hasPrefix("W"): addRaw(key: id, value: ID3v2Text.latin1(content.prefix { $0 != 0 }))
        default: addRaw(key: id, value: HexText.string(content))
        }
    }

    // MARK: Text

    /// A text frame (2.4 native frames §4.2): encoding byte, then one or more strings separated by
    /// the encoding's NUL (2.4; 2.3 writers use "/" or nothing). Empty strings are dropped; several
    /// values are joined with "; ".
    private mutating func text(_ id: String, _ content: ArraySlice<UInt8>) {
        guard let values = textValues(id, content) else { return }
        let value = values.joined(separator: "; ")
        var infoValue: String?
        switch id {
        case "TCON", "TCO":
            // Numeric references → ID3v1 genre names.
            let genres = values.flatMap(ID3v1Genre.resolve)
            let resolved = genres.joined(separator: "; ")
            if resolved != value { infoValue = resolved }
        case "TDRC":
            // 2.4 §4.2.5: a timestamp "yyyy-MM-ddTHH:mm:ss" (any prefix): year = its first four digits.
            if value.utf8.count > 4, let year = RIFFInfoList.leadingYear(value) { infoValue = year }
            appendInfo(InfoKey.recordedDate, value)
        case "TYER", "TYE":
            yearText = value
        case "TDAT", "TDA":
            dateText = value
        default:
            break
        }
        let tag = AudioMetadata.Tag(source: Self.source, key: id, value: value)
        append(
            Item(
                entry: ID3v2TagReader.Entry(tag: tag, infoKey: Self.infoKeys[id], infoValue: infoValue),
                isTextOrComment: true))
    }

    /// The values of a text field; `nil` (with a diagnostic) for an unknown encoding.
    private mutating func textValues(_ id: String, _ content: ArraySlice<UInt8>) -> [String]? {
        guard let encoding = content.first else { return [] }
        guard let values = ID3v2Text.values(content.dropFirst(), encoding: encoding) else {
            diagnose(.damagedMetadata, id, "unknown text encoding \(encoding); frame ignored")
            return nil
        }
        return values
    }

    /// `TXXX` (2.4 native frames §4.2.6): encoding, description (terminated), value(s).
    private mutating func userText(_ id: String, _ content: ArraySlice<UInt8>) {
        guard let encoding = content.first,
            case (let description, let rest)? = decodeTerminated(id, content.dropFirst(), encoding: encoding),
            let values = ID3v2Text.values(rest, encoding: encoding)
        else { return }
        addRaw(key: "\(id):\(description)", value: values.joined(separator: "; "))
    }

    /// `COMM` (2.4 native frames §4.10): encoding, language (3), short description (terminated),
    /// text. Comments whose description starts with "iTun" (iTunes' private `iTunNORM`, `iTunSMPB`, …)
    /// are raw tags only.
    private mutating func comment(_ id: String, _ content: ArraySlice<UInt8>) {
        guard case (let description, let text)? = languageText(id, content) else { return }
        let key = description.isEmpty ? id : "\(id):\(description)"
        let infoKey = description.hasPrefix("iTun") ? nil : InfoKey.comments
        let tag = AudioMetadata.Tag(source: Self.source, key: key, value: text)
        append(Item(entry: ID3v2TagReader.Entry(tag: tag, infoKey: infoKey), isTextOrComment: true))
    }

    /// `USLT` (2.4 native frames §4.8): encoding, language (3), content descriptor, lyrics. Raw tag
    /// only (Apple's info dictionary has no lyrics key).
    private mutating func lyrics(_ id: String, _ content: ArraySlice<UInt8>) {
        guard case (let description, let text)? = languageText(id, content) else { return }
        addRaw(key: description.isEmpty ? id : "\(id):\(description)", value: text)
    }

    /// Encoding, language, terminated description, text: (description, text).
    private mutating func languageText(_ id: String, _ content: ArraySlice<UInt8>) -> (String, String)? {
        guard let encoding = content.first else { return nil }
        guard content.count >= 4 else {
            diagnose(.damagedMetadata, id, "frame of \(content.count) bytes is shorter than its 4-byte header; ignored")
            return nil
        }
        guard case (let description, let rest)? = decodeTerminated(id, content.dropFirst(4), encoding: encoding),
            let values = ID3v2Text.values(rest, encoding: encoding)
        else { return nil }
        return (description, values.joined(separator: "; "))
    }

    /// `WXXX` (2.4 native frames §4.3.2): encoding, description (terminated), URL (ISO-8859-1).
    private mutating func userURL(_ id: String, _ content: ArraySlice<UInt8>) {
        guard let encoding = content.first,
            case (let description, let rest)? = decodeTerminated(id, content.dropFirst(), encoding: encoding)
        else { return }
        addRaw(key: "\(id):\(description)", value: ID3v2Text.latin1(rest.prefix { $0 != 0 }))
    }

    /// `PRIV` (§4.27) and `UFID` (§4.1): owner identifier (ISO-8859-1, terminated), then binary
    /// data (hex; `UFID` identifiers that are printable ASCII, such as MusicBrainz IDs, as text).
    private mutating func ownerData(_ id: String, _ content: ArraySlice<UInt8>, textIfPrintable: Bool) {
        let (owner, data) = ID3v2Text.splitTerminated(content, encoding: 0)
        let printable = textIfPrintable && !data.isEmpty && data.allSatisfy { (0x20...0x7E).contains($0) }
        addRaw(
            key: "\(id):\(ID3v2Text.latin1(owner))",
            value: printable ? String(decoding: data, as: UTF8.self) : HexText.string(data))
    }

    private mutating func decodeTerminated(
        _ id: String, _ bytes: ArraySlice<UInt8>, encoding: UInt8
    ) -> (String, rest: ArraySlice<UInt8>)? {
        guard let result = ID3v2Text.terminatedString(bytes, encoding: encoding) else {
            diagnose(.damagedMetadata, id, "unknown text encoding \(encoding); frame ignored")
            return nil
        }
        return result
    }

    // MARK: Pictures

    /// `APIC` (2.3/2.4 §4.14): encoding, MIME type (ISO-8859-1, terminated), picture type (1),
    /// description (terminated in the encoding), data. `PIC` (2.2 §4.15): encoding, image format
    /// (3 characters, "JPG"/"PNG"), picture type, description, data. Pictures larger than
    /// `maxArtworkBytes` are dropped with a diagnostic; a "-->" MIME type (a link) is a raw tag.
    private mutating func picture(_ id: String, _ content: ArraySlice<UInt8>, version22: Bool) {
        guard let encoding = content.first else { return diagnose(.damagedMetadata, id, "empty frame; ignored") }
        var rest = content.dropFirst()
        var mime: String
        if version22 {
            guard rest.count >= 3 else {
                return diagnose(.damagedMetadata, id, "frame ends inside the image format; ignored")
            }
            mime = Self.mimeType(forImageFormat: ID3v2Text.latin1(rest.prefix(3)))
            rest = rest.dropFirst(3)
        } else {
            let (mimeBytes, after) = ID3v2Text.splitTerminated(rest, encoding: 0)
            mime = ID3v2Text.latin1(mimeBytes)
            rest = after
        }
        guard let pictureType = rest.first else {
            return diagnose(.damagedMetadata, id, "frame ends before the picture type; ignored")
        }
        guard case (_, let data)? = decodeTerminated(id, rest.dropFirst(), encoding: encoding) else { return }
        if mime == "-->" {
            addRaw(key: id, value: "--> " + ID3v2Text.latin1(data.prefix { $0 != 0 }))
            return diagnose(.unsupportedFeature, id, "picture is a link, not an image; kept as a raw tag")
        }
        guard data.count <= limits.maxArtworkBytes else {
            return diagnose(
                .limitExceeded, id,
                "picture of \(data.count) bytes exceeds maxArtworkBytes (\(limits.maxArtworkBytes)); skipped")
        }
        mime = Self.normalisedMIMEType(mime, data)
        appendArtwork(AudioMetadata.Artwork(mimeType: mime, pictureType: UInt32(pictureType), data: Array(data)))
    }

    /// A 2.2 image format ("JPG", "PNG", …) as a MIME type.
    static func mimeType(forImageFormat format: String) -> String {
        switch format.uppercased() {
        case "JPG", "JPE", "JPEG": return "image/jpeg"
        case "PNG": return "image/png"
        case "GIF": return "image/gif"
        case "BMP": return "image/bmp"
        case "TIF", "TIFF": return "image/tiff"
        default: return format.isEmpty ? "" : "image/" + format.lowercased()
        }
    }

    /// A MIME type as written, completed: empty → sniffed from the data (2.3 §4.15 "image/" is
    /// implied), "jpg"/"PNG" without a slash → "image/…", "image/jpg" → "image/jpeg".
    static func normalisedMIMEType(_ mime: String, _ data: ArraySlice<UInt8>) -> String {
        let lower = mime.lowercased()
        if lower.isEmpty || lower == "image/" { return sniffedMIMEType(data) }
        if lower == "image/jpg" { return "image/jpeg" }
        if !lower.contains("/") { return mimeType(forImageFormat: mime) }
        return mime
    }

    /// The MIME type the data's signature shows (JPEG, PNG, GIF, BMP), else
    /// `application/octet-stream`.
    static func sniffedMIMEType(_ data: ArraySlice<UInt8>) -> String {
        let p = Array(data.prefix(4))
        if p.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if p.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if p.starts(with: [0x47, 0x49, 0x46, 0x38]) { return "image/gif" }
        if p.starts(with: [0x42, 0x4D]) { return "image/bmp" }
        return "application/octet-stream"
    }

    // MARK: Chapters

    /// `CHAP` (Chapter Frame Addendum 1.0 §3.1):
    ///
    /// ```
    ///  element ID      ISO-8859-1, terminated
    ///  start time      4 bytes, milliseconds
    ///  end time        4 bytes, milliseconds
    ///  start offset    4 bytes, byte offset or FF FF FF FF (not used)
    ///  end offset      4 bytes
    ///  sub-frames      frames with this tag's header layout (TIT2 = chapter title)
    /// ```
    private mutating func chapter(_ content: ArraySlice<UInt8>) {
        let (elementID, rest) = ID3v2Text.splitTerminated(content, encoding: 0)
        guard rest.count >= 16 else {
            return diagnose(.damagedMetadata, "CHAP", "frame ends inside its times; ignored")
        }
        let b = Array(rest.prefix(16))
        func u32(_ i: Int) -> UInt32 {
            UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
        }
        let title = subFrameTitle(rest.dropFirst(16))
        appendChapter(
            ChapterFrame(
                elementID: ID3v2Text.latin1(elementID), startMilliseconds: u32(0), endMilliseconds: u32(4),
                title: title, index: chapterFrames.count))
    }

    /// `CTOC` (addendum §3.2): element ID (terminated), flags (0x02 top-level, 0x01 ordered),
    /// entry count (1), child element IDs (each terminated), sub-frames.
    private mutating func tableOfContents(_ content: ArraySlice<UInt8>) {
        let (elementID, afterID) = ID3v2Text.splitTerminated(content, encoding: 0)
        guard afterID.count >= 2 else {
            return diagnose(.damagedMetadata, "CTOC", "frame ends before its entry count; ignored")
        }
        let flags = afterID[afterID.startIndex]
        let count = Int(afterID[afterID.startIndex + 1])
        var rest = afterID.dropFirst(2)
        var children: [String] = []
        for _ in 0..<count {
            guard !rest.isEmpty else {
                diagnose(.damagedMetadata, "CTOC", "frame ends after \(children.count) of \(count) entries")
                break
            }
            let (child, after) = ID3v2Text.splitTerminated(rest, encoding: 0)
            children.append(ID3v2Text.latin1(child))
            rest = after
        }
        appendTable(
            TableOfContents(
                elementID: ID3v2Text.latin1(elementID), isTopLevel: flags & 0x02 != 0, isOrdered: flags & 0x01 != 0,
                childElementIDs: children))
    }

    /// The text of the first `TIT2`/`TT2` among embedded sub-frames, if any.
    private mutating func subFrameTitle(_ bytes: ArraySlice<UInt8>) -> String? {
        let body = Array(bytes)
        var position = 0
        var mode = ID3v2FrameHeader.SizeMode.undecided
        let headerSize = version == 2 ? 6 : 10
        while position < body.count {
            let remaining = body.count - position
            let start = position
            let resolution = ID3v2FrameHeader.resolve(
                version: version, available: remaining, remaining: remaining, mode: &mode, limits: limits
            ) { i in start + i < body.count ? body[start + i] : nil }
            guard case .frame(let header) = resolution, header.size <= remaining - headerSize else { return nil }
            let data = body[(start + headerSize)..<(start + headerSize + header.size)]
            position = start + headerSize + header.size
            guard header.id == "TIT2" || header.id == "TT2" else { continue }
            guard case .decoded(let content) = header.content(data, version: version, tagUnsynchronised: false),
                let encoding = content.first, let values = ID3v2Text.values(content.dropFirst(), encoding: encoding)
            else { return nil }
            return values.joined(separator: "; ")
        }
        return nil
    }
}
