/// An APE tag (APEv1 or APEv2): a footer (and, in APEv2, optionally a header) around a list of
/// key/value items, usually at the end of a stream before an ID3v1 tag.
///
/// Header and footer (32 bytes, little-endian):
///
/// ```
///  offset  size  field
///  0       8     "APETAGEX"
///  8       4     version: 1000 (APEv1) or 2000 (APEv2)
///  12      4     tag size: items + footer, header excluded
///  16      4     item count
///  20      4     flags: bit 31 the tag has a header, bit 30 it has no footer, bit 29 this is the
///                header (else the footer); bits 0–2 as for items
///  24      8     reserved, zero
/// ```
///
/// Item:
///
/// ```
///  size  field
///  4     value size (little-endian)
///  4     item flags: bit 0 read-only; bits 1–2: 0 UTF-8 text, 1 binary, 2 external locator (a
///        UTF-8 link), 3 reserved
///  n     key: ASCII 0x20–0x7E, 2 to 255 characters, then a NUL
///  v     value (text: UTF-8, several values separated by NUL)
/// ```
///
/// Reference: "APEv2 specification" and "APE key" (wiki.hydrogenaud.io, the format's home since
/// Monkey's Audio); APEv1 values are always text.
///
/// Raw tags: source `"ape"`, key as written, text values (several joined with "; "), external
/// locators as text, other binary values as hex (``HexText``). Keys (case-insensitive) `Title`,
/// `Subtitle`, `Artist`, `Album`, `Year`, `Record Date`, `Track`, `Genre`, `Comment`, `Composer`,
/// `Lyricist`, `Copyright`, `ISRC`, `Encoder` fill the info dictionary. Binary `Cover Art (…)`
/// items (file name, NUL, image bytes) become artwork with the picture type their parenthesis
/// names (`Front` = 3, `Back` = 4, … as in ID3v2 `APIC`).
///
/// Bounds: the tag size and item count are checked against the bytes there are (a tag over
/// `maxTagBytes` is not read); every item must fit in the tag; a malformed item ends the walk
/// with a diagnostic, keeping the items before it. Never traps.
///
/// Diagnostics are ``notes``: `.damagedMetadata` for sizes, counts, keys and items that do not fit,
/// `.limitExceeded` for a tag or cover over a limit, `.unsupportedFeature` for an unknown version.
struct APEv2Tag: Equatable, Sendable {
    /// The raw-tag source name.
    static let source = "ape"
    /// The length of the header and of the footer.
    static let headerByteCount = 32
    /// "APETAGEX".
    static let magic: [UInt8] = Array("APETAGEX".utf8)

    /// The header or footer fields.
    struct Header: Equatable, Sendable {
        var version: UInt32
        /// Items + footer, header excluded.
        var size: UInt32
        var itemCount: UInt32
        var flags: UInt32

        var hasHeader: Bool { flags & 0x8000_0000 != 0 }
        var hasNoFooter: Bool { flags & 0x4000_0000 != 0 }
        var isHeader: Bool { flags & 0x2000_0000 != 0 }
        /// The whole tag's length: `size`, plus the header when there is one.
        var totalByteCount: Int { Int(size) + (hasHeader ? APEv2Tag.headerByteCount : 0) }

        /// Decodes 32 bytes starting with "APETAGEX"; `nil` otherwise.
        static func decode<C: Collection>(_ bytes: C) -> Header? where C.Element == UInt8 {
            let b = Array(bytes.prefix(APEv2Tag.headerByteCount))
            guard b.count == APEv2Tag.headerByteCount, b.starts(with: APEv2Tag.magic) else { return nil }
            func u32(_ i: Int) -> UInt32 {
                UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
            }
            return Header(version: u32(8), size: u32(12), itemCount: u32(16), flags: u32(20))
        }
    }

    /// One item.
    struct Item: Equatable, Sendable {
        /// 0 text, 1 binary, 2 external locator, 3 reserved.
        enum Kind: UInt32, Sendable {
            case text = 0
            case binary, locator, reserved
        }
        var key: String
        var kind: Kind
        var value: [UInt8]
    }

    /// The footer (or, for a header-only tag, the header).
    var header: Header
    var items: [Item]
    var metadata: AudioMetadata
    /// Oddities, in tag order (`"ape: tag ends after 2 of 3 items"`).
    var notes: [DiagnosticNote]

    /// `ape`, or `ape (Cover Art (Front))` for an item.
    static let structure = Structure("ape")

    /// Item keys (lower-cased) and the info-dictionary key each fills.
    static let infoKeys: [String: InfoKey] = [
        "title": InfoKey.title, "subtitle": InfoKey.subTitle, "artist": InfoKey.artist, "album": InfoKey.album,
        "year": InfoKey.year, "record date": InfoKey.recordedDate, "track": InfoKey.trackNumber,
        "genre": InfoKey.genre, "comment": InfoKey.comments, "composer": InfoKey.composer,
        "lyricist": InfoKey.lyricist, "copyright": InfoKey.copyright, "isrc": InfoKey.isrc,
        "encoder": InfoKey.encodingApplication,
    ]

    /// `Cover Art (…)` names and their ID3v2 picture types (ID3v2.4 native frames §4.14).
    static let pictureTypes: [String: UInt32] = [
        "other": 0, "icon": 1, "other icon": 2, "front": 3, "back": 4, "leaflet": 5, "media": 6,
        "lead artist": 7, "artist": 8, "conductor": 9, "band": 10, "composer": 11, "lyricist": 12,
        "recording location": 13, "during recording": 14, "during performance": 15, "video capture": 16,
        "fish": 17, "illustration": 18, "band logotype": 19, "publisher logotype": 20,
    ]

    /// Parses a whole APE tag held in `bytes`: either ending with its footer (a header before the
    /// items is optional and, when `bytes` hold it, skipped), or starting with its header.
    ///
    /// - Returns: the tag, or `nil` when `bytes` neither end with an APE footer nor start with an APE
    ///   header.
    static func parse(_ bytes: ArraySlice<UInt8>, limits: ParserLimits = ParserLimits()) -> APEv2Tag? {
        let b = Array(bytes)
        var notes: [DiagnosticNote] = []
        let header: Header
        let itemsStart: Int
        let itemsEnd: Int
        if b.count >= headerByteCount, let footer = Header.decode(b[(b.count - headerByteCount)...]), !footer.isHeader {
            header = footer
            itemsEnd = b.count - headerByteCount
            let itemBytes = Int(footer.size) - headerByteCount
            if footer.size < UInt32(headerByteCount) || itemBytes > itemsEnd {
                notes.append(
                    DiagnosticNote(
                        .damagedMetadata, structure,
                        "tag size \(footer.size) does not fit the \(b.count) bytes given; items not read"))
                return APEv2Tag(header: footer, items: [], metadata: AudioMetadata(), notes: notes)
            }
            itemsStart = itemsEnd - itemBytes
        } else if let first = Header.decode(b), first.isHeader {
            header = first
            itemsStart = headerByteCount
            let declared = Int(first.size) - (first.hasNoFooter ? 0 : headerByteCount)
            if first.size < UInt32(headerByteCount) && !first.hasNoFooter || declared > b.count - itemsStart {
                notes.append(
                    DiagnosticNote(
                        .damagedMetadata, structure,
                        "tag size \(first.size) does not fit the \(b.count) bytes given; items read as far as they go"))
            }
            itemsEnd = itemsStart + max(0, min(declared, b.count - itemsStart))
        } else {
            return nil
        }
        var tag = APEv2Tag(header: header, items: [], metadata: AudioMetadata(), notes: notes)
        if header.version != 1000 && header.version != 2000 {
            tag.notes.append(
                DiagnosticNote(.unsupportedFeature, structure, "unknown version \(header.version); read as APEv2"))
        }
        guard header.size <= UInt32(clamping: limits.maxTagBytes) else {
            tag.notes.append(
                DiagnosticNote(
                    .limitExceeded, structure, "tag of \(header.size) bytes exceeds maxTagBytes; items not read"))
            return tag
        }
        tag.readItems(b[itemsStart..<itemsEnd], limits: limits)
        return tag
    }

    /// Parses a whole APE tag; see ``parse(_:limits:)-(ArraySlice<UInt8>,_)``.
    static func parse(_ bytes: [UInt8], limits: ParserLimits = ParserLimits()) -> APEv2Tag? {
        parse(bytes[...], limits: limits)
    }

    /// Reads up to `header.itemCount` items from `region`.
    private mutating func readItems(_ region: ArraySlice<UInt8>, limits: ParserLimits) {
        // Each item takes at least 4 + 4 + 1 (key) + 1 (NUL) bytes.
        if Int(header.itemCount) > region.count / 10 {
            damaged("\(header.itemCount) items cannot fit in \(region.count) bytes; reading what fits")
        }
        var i = region.startIndex
        var read: UInt32 = 0
        while read < header.itemCount {
            guard region.endIndex - i >= 8 else {
                if i != region.endIndex || read < header.itemCount {
                    damaged("tag ends after \(read) of \(header.itemCount) items")
                }
                break
            }
            let size = Int(le32(region, i))
            let flags = le32(region, i + 4)
            let keyStart = i + 8
            guard let nul = region[keyStart..<min(region.endIndex, keyStart + 256)].firstIndex(of: 0) else {
                damaged("item \(read + 1) has no terminated key; the rest is ignored")
                break
            }
            let keyBytes = region[keyStart..<nul]
            guard !keyBytes.isEmpty, keyBytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                damaged("item \(read + 1) has an invalid key; the rest is ignored")
                break
            }
            let valueStart = nul + 1
            guard size <= region.endIndex - valueStart else {
                damaged(
                    "item '\(String(decoding: keyBytes, as: UTF8.self))' of \(size) bytes overruns the tag; "
                        + "the rest is ignored")
                break
            }
            let kind = header.version == 1000 ? Item.Kind.text : Item.Kind(rawValue: flags >> 1 & 3) ?? .reserved
            let item = Item(
                key: String(decoding: keyBytes, as: UTF8.self), kind: kind,
                value: Array(region[valueStart..<(valueStart + size)]))
            add(item, limits: limits)
            i = valueStart + size
            read += 1
        }
    }

    /// Notes a malformed size, count, key or item.
    private mutating func damaged(_ text: String) {
        notes.append(DiagnosticNote(.damagedMetadata, Self.structure, text))
    }

    private mutating func add(_ item: Item, limits: ParserLimits) {
        let lower = item.key.lowercased()
        func raw(_ value: String, infoKey: InfoKey?) {
            metadata.add(AudioMetadata.Tag(source: Self.source, key: item.key, value: value), infoKey: infoKey)
        }
        switch item.kind {
        case .text:
            let values = item.value.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            raw(values.joined(separator: "; "), infoKey: Self.infoKeys[lower])
        case .locator:
            raw(String(decoding: item.value.prefix { $0 != 0 }, as: UTF8.self), infoKey: nil)
        case .binary where lower.hasPrefix("cover art (") && lower.hasSuffix(")"):
            let name = String(lower.dropFirst("cover art (".count).dropLast())
            let (fileName, data) = ID3v2Text.splitTerminated(item.value[...], encoding: 0)
            guard data.count <= limits.maxArtworkBytes else {
                notes.append(
                    DiagnosticNote(
                        .limitExceeded, Self.structure(item.key),
                        "picture of \(data.count) bytes exceeds maxArtworkBytes (\(limits.maxArtworkBytes)); skipped"))
                return
            }
            let mime = Self.mimeType(fileName: String(decoding: fileName, as: UTF8.self).lowercased(), data)
            metadata.artwork.append(
                AudioMetadata.Artwork(mimeType: mime, pictureType: Self.pictureTypes[name] ?? 0, data: Array(data)))
        case .binary, .reserved:
            raw(HexText.string(item.value), infoKey: nil)
        }
    }

    /// The MIME type of a cover: from the file name's extension, else from the data's signature.
    private static func mimeType(fileName: String, _ data: ArraySlice<UInt8>) -> String {
        if fileName.hasSuffix(".jpg") || fileName.hasSuffix(".jpeg") { return "image/jpeg" }
        if fileName.hasSuffix(".png") { return "image/png" }
        if fileName.hasSuffix(".gif") { return "image/gif" }
        if fileName.hasSuffix(".bmp") { return "image/bmp" }
        return ID3v2MetadataBuilder.sniffedMIMEType(data)
    }

    private func le32(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}
