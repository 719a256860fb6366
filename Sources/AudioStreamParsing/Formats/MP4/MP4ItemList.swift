/// iTunes-style metadata: `udta`/`meta`/`ilst` (Apple "QuickTime File Format Specification",
/// "Metadata": Metadata Item List Atom, Data Atom, well-known types; the iTunes `----` freeform form).
///
/// ```
///  meta            [version 1, flags 3: ISO full box; QuickTime's moov/meta has none]
///    hdlr          handler 'mdir' (iTunes) or 'mdta' (QuickTime keys)
///    [keys]        QuickTime: entry_count, then (size 4, namespace 4 'mdta', key name) per key
///    ilst
///      <item>      type = the key ('©nam', 'trkn', 'covr', '----') or, with keys, a 1-based key index
///        [mean]    freeform only: version/flags 4, reverse-DNS domain ("com.apple.iTunes")
///        [name]    freeform only: version/flags 4, name ("iTunSMPB")
///        data      type indicator 4 (byte 0 = 0, 24-bit well-known type), locale 4, value
///    free          padding
///  well-known types: 0 implicit (binary), 1 UTF-8, 2 UTF-16BE, 13 JPEG, 14 PNG, 27 BMP,
///  21 signed big-endian integer (1, 2, 3, 4 or 8 bytes), 22 unsigned big-endian integer
///  trkn, disk (implicit): 2 reserved, number 2, total 2 [, 2 reserved]
///  gnre (implicit): 16-bit ID3v1 genre index + 1
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
    /// - Returns: the metadata (info keys, raw tags with source `"ilst"`, artwork) and diagnostics for
    ///   what was skipped. Malformed boxes end the list where they start; what came before is kept.
    static func decode(
        meta: ArraySlice<UInt8>, limits: ParserLimits
    ) -> (metadata: AudioMetadata, diagnostics: [String]) {
        var reader = ItemListReader(limits: limits)
        reader.read(meta: Array(meta))
        return (reader.metadata, reader.diagnostics)
    }
}

/// The state of one `MP4ItemList.decode` call.
private struct ItemListReader {
    let limits: ParserLimits
    var metadata = AudioMetadata()
    var diagnostics: [String] = []
    /// QuickTime `keys`, 1-based.
    var keys: [String] = []

    init(limits: ParserLimits) { self.limits = limits }

    mutating func read(meta bytes: [UInt8]) {
        guard bytes.count >= 8 else {
            diagnostics.append("mp4 (meta): box shorter than its header")
            return
        }
        guard bytes.count <= limits.maxTagBytes else {
            diagnostics.append("mp4 (meta): \(bytes.count) bytes exceed maxTagBytes; metadata skipped")
            return
        }
        let declared = Int(MP4ChildBoxes.uint32(bytes[...], 0))
        var end = bytes.count
        if declared >= 8 && declared < end { end = declared }
        var bodyStart = declared == 1 ? 16 : 8
        // ISO/iTunes: a full box (version and flags first). QuickTime: children follow at once. The
        // children start with a box header whose type is printable; version/flags are 0 0 0 0 (or 0 0 0 x).
        if !MP4SoundDescription.startsWithBox(Array(bytes[0..<end]), at: bodyStart) { bodyStart += 4 }
        guard bodyStart <= end else {
            diagnostics.append("mp4 (meta): box shorter than its header")
            return
        }
        let children: MP4ChildBoxes
        do {
            children = try MP4ChildBoxes(bytes[bodyStart..<end], parent: "meta")
        } catch {
            diagnostics.append(error.reason)
            return
        }
        if let keysBox = children.first(MP4Code.keys) { readKeys(keysBox.body) }
        guard let ilst = children.first(MP4Code.ilst) else {
            diagnostics.append("mp4 (meta): no ilst box")
            return
        }
        readItems(ilst.body)
    }

    /// QuickTime `keys`: version/flags 4, entry_count 4, then per key: size 4, namespace 4, name.
    mutating func readKeys(_ body: ArraySlice<UInt8>) {
        var r = ByteReader(Array(body))
        guard r.skip(4), let count = r.readInteger(as: UInt32.self, endianness: .big) else { return }
        for _ in 0..<count {
            guard let size = r.readInteger(as: UInt32.self, endianness: .big), size >= 8, let _ = r.readFourCC(),
                let name = r.readBytes(Int(size) - 8)
            else {
                diagnostics.append("mp4 (keys): key table cut short")
                return
            }
            keys.append(String(decoding: name, as: UTF8.self))
        }
    }

    mutating func readItems(_ body: ArraySlice<UInt8>) {
        var offset = body.startIndex
        while offset < body.endIndex {
            // Items one by one, so that a broken item ends the list without losing the ones before it.
            let left = body.endIndex - offset
            guard left >= 8 else {
                diagnostics.append("mp4 (ilst): \(left) trailing bytes")
                return
            }
            let size = Int(MP4ChildBoxes.uint32(body, offset))
            guard size >= 8, size <= left else {
                diagnostics.append("mp4 (ilst): item size \(size) does not fit the list; the rest is skipped")
                return
            }
            let type = MP4ChildBoxes.uint32(body, offset + 4)
            readItem(type: type, body: body[(offset + 8)..<(offset + size)])
            offset += size
        }
    }

    /// The key as written: Latin-1 characters (0xA9 is ©), or the QuickTime key for an index.
    func keyName(_ type: UInt32) -> String {
        if !keys.isEmpty, type >= 1, type <= keys.count { return keys[Int(type) - 1] }
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: type >> $0) }
        return TextDecoding.latin1(bytes)
    }

    mutating func readItem(type: UInt32, body: ArraySlice<UInt8>) {
        var key = keyName(type)
        let children: MP4ChildBoxes
        do {
            children = try MP4ChildBoxes(body, parent: "ilst \(key)")
        } catch {
            diagnostics.append(error.reason)
            return
        }
        if type == MP4Code.freeform {
            let mean = children.first(MP4Code.mean).map { String(decoding: $0.body.dropFirst(4), as: UTF8.self) }
            let name = children.first(MP4Code.name).map { String(decoding: $0.body.dropFirst(4), as: UTF8.self) }
            key = "----:\(mean ?? ""):\(name ?? "")"
        }
        let data = children.boxes.filter { $0.type == MP4Code.data }
        if data.isEmpty { diagnostics.append("mp4 (ilst): item '\(key)' has no data box") }
        for box in data {
            guard box.body.count >= 8 else {
                diagnostics.append("mp4 (ilst): data box of '\(key)' shorter than 8 bytes")
                continue
            }
            let indicator = MP4ChildBoxes.uint32(box.body, box.body.startIndex)
            let value = box.body.dropFirst(8)
            if key == "covr" {
                addArtwork(value, wellKnownType: indicator & 0xFF_FFFF)
            } else if let text = text(key: key, type: indicator & 0xFF_FFFF, value) {
                add(key: key, value: text)
            } else {
                let type = indicator & 0xFF_FFFF
                diagnostics.append("mp4 (ilst): item '\(key)' has data type \(type) that is not read")
            }
        }
    }

    /// The value as text, per key and well-known type; `nil` when it cannot be shown as text.
    func text(key: String, type: UInt32, _ value: ArraySlice<UInt8>) -> String? {
        let v = Array(value)
        switch key {
        case "trkn", "disk":
            // 2 reserved bytes, number 16, total 16 (14496-12 has no such item; iTunes' layout).
            guard v.count >= 6 else { return nil }
            let number = Int(v[2]) << 8 | Int(v[3])
            let total = Int(v[4]) << 8 | Int(v[5])
            return total > 0 ? "\(number)/\(total)" : "\(number)"
        case "gnre":
            guard v.count >= 2 else { return nil }
            let index = Int(v[0]) << 8 | Int(v[1])
            return ID3v1Genre.name(index - 1) ?? "\(index)"
        default:
            break
        }
        switch type {
        case 1:
            return String(decoding: v, as: UTF8.self)
        case 2:
            let units = stride(from: 0, to: v.count - 1, by: 2).map { UInt16(v[$0]) << 8 | UInt16(v[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        case 21, 22:
            return Self.integer(v, signed: type == 21)
        case 0 where Self.integerKeys.contains(key):
            return Self.integer(v, signed: false)
        default:
            return nil
        }
    }

    /// A big-endian integer of 1, 2, 3, 4 or 8 bytes as decimal text.
    static func integer(_ v: [UInt8], signed: Bool) -> String? {
        guard [1, 2, 3, 4, 8].contains(v.count) else { return nil }
        let unsigned = v.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard signed else { return String(unsigned) }
        let shift = UInt64(64 - 8 * v.count)
        return String(Int64(bitPattern: unsigned << shift) >> Int64(shift))
    }

    /// Items iTunes writes as integers with the implicit type 0 in old files.
    static let integerKeys: Set<String> = [
        "cpil", "tmpo", "pgap", "rtng", "stik", "hdvd", "tves", "tvsn", "pcst",
    ]

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
            diagnostics.append("mp4 (ilst): covr picture of \(value.count) bytes exceeds maxArtworkBytes; skipped")
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
