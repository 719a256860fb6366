/// Frame bodies: text frames, comments, text encodings, and the frame-to-info-key table.
extension ID3v2TagReader {
    /// Frame IDs (2.3/2.4, then 2.2) and the info-dictionary key each maps to.
    static let infoKeys: [String: String] = [
        "TIT2": InfoKey.title, "TPE1": InfoKey.artist, "TALB": InfoKey.album, "TCON": InfoKey.genre,
        "TRCK": InfoKey.trackNumber, "TYER": InfoKey.year, "TDRC": InfoKey.year, "TCOM": InfoKey.composer,
        "TEXT": InfoKey.lyricist, "TCOP": InfoKey.copyright, "TSRC": InfoKey.isrc,
        "TSSE": InfoKey.encodingApplication, "TENC": InfoKey.sourceEncoder, "COMM": InfoKey.comments,
        "TBPM": InfoKey.tempo, "TIT3": InfoKey.subTitle,
        "TT2": InfoKey.title, "TP1": InfoKey.artist, "TAL": InfoKey.album, "TCO": InfoKey.genre,
        "TRK": InfoKey.trackNumber, "TYE": InfoKey.year, "TCM": InfoKey.composer, "TXT": InfoKey.lyricist,
        "TCR": InfoKey.copyright, "TRC": InfoKey.isrc, "TSS": InfoKey.encodingApplication,
        "TEN": InfoKey.sourceEncoder, "COM": InfoKey.comments, "TBP": InfoKey.tempo, "TT3": InfoKey.subTitle,
    ]

    /// The entry for one frame, or `nil` when the frame is not a text or comment frame or cannot be
    /// decoded.
    static func entry(id: String, _ content: ArraySlice<UInt8>) -> Entry? {
        let value: String
        var infoKey = infoKeys[id]
        var infoValue: String?
        if id == "COMM" || id == "COM" {
            guard let comment = comment(content) else { return nil }
            value = comment.text
            // iTunes keeps private data in comments ("iTunNORM", "iTunSMPB"): raw tags only.
            if comment.description.hasPrefix("iTun") { infoKey = nil }
        } else if id.hasPrefix("T") && id != "TXXX" && id != "TXX" {
            guard let values = text(content) else { return nil }
            value = values.joined(separator: "; ")
            // 2.4 §4.2.5: TDRC is a timestamp ("2024-05-06"); the year is its first four digits.
            if id == "TDRC", value.count > 4, let year = RIFFInfoList.leadingYear(value) { infoValue = year }
        } else {
            return nil
        }
        return Entry(
            tag: AudioMetadata.Tag(source: source, key: id, value: value), infoKey: infoKey, infoValue: infoValue)
    }

    /// A text frame (2.4 native frames §4.2): encoding byte, then one or more strings separated by
    /// the encoding's NUL. Empty strings are dropped.
    static func text(_ content: ArraySlice<UInt8>) -> [String]? {
        guard let encoding = content.first, let strings = decodeStrings(content.dropFirst(), encoding: encoding) else {
            return nil
        }
        return strings.filter { !$0.isEmpty }
    }

    /// A comment frame (2.4 native frames §4.10): encoding, language (3), short description
    /// (terminated), text.
    static func comment(_ content: ArraySlice<UInt8>) -> (description: String, text: String)? {
        guard let encoding = content.first, content.count >= 4 else { return nil }
        let rest = content.dropFirst(4)
        let unitSize = encoding == 1 || encoding == 2 ? 2 : 1
        let split = terminatorIndex(rest, unitSize: unitSize)
        let descriptionBytes = rest[rest.startIndex..<split]
        let textBytes = rest[min(split + unitSize, rest.endIndex)...]
        guard let description = decodeStrings(descriptionBytes, encoding: encoding),
            let text = decodeStrings(textBytes, encoding: encoding)
        else { return nil }
        return (description.joined(), text.filter { !$0.isEmpty }.joined(separator: "; "))
    }

    /// Decodes NUL-separated strings in an ID3v2 text encoding: 0 ISO 8859-1, 1 UTF-16 with byte
    /// order mark, 2 UTF-16BE, 3 UTF-8 (2.4 structure §4). `nil` for an unknown encoding.
    static func decodeStrings(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> [String]? {
        switch encoding {
        case 0:
            return bytes.split(separator: 0, omittingEmptySubsequences: false).map { TextDecoding.latin1($0) }
        case 3:
            return bytes.split(separator: 0, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
        case 1, 2:
            return decodeUTF16(bytes, bigEndianDefault: encoding == 2, honoursBOM: encoding == 1)
        default:
            return nil
        }
    }

    /// UTF-16 strings separated by U+0000, in `bigEndianDefault` order. With `honoursBOM` (encoding
    /// 1), each string may start with a byte order mark that sets the order for it and the strings
    /// after it; encoding 1 without any BOM (a writer error) is read little-endian, as the Windows
    /// writers that omit it produce it.
    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndianDefault: Bool, honoursBOM: Bool) -> [String] {
        var strings: [String] = []
        var units: [UInt16] = []
        var bigEndian = bigEndianDefault
        var atStart = true
        var i = bytes.startIndex
        while i < bytes.endIndex - 1 {
            let b0 = bytes[i]
            let b1 = bytes[i + 1]
            i += 2
            if atStart && honoursBOM {
                atStart = false
                if b0 == 0xFE && b1 == 0xFF {
                    bigEndian = true
                    continue
                }
                if b0 == 0xFF && b1 == 0xFE {
                    bigEndian = false
                    continue
                }
            }
            atStart = false
            let unit = bigEndian ? UInt16(b0) << 8 | UInt16(b1) : UInt16(b1) << 8 | UInt16(b0)
            if unit == 0 {
                strings.append(String(decoding: units, as: UTF16.self))
                units.removeAll()
                atStart = true
            } else {
                units.append(unit)
            }
        }
        strings.append(String(decoding: units, as: UTF16.self))
        return strings
    }

    /// The index of the first NUL terminator (one byte, or two aligned bytes for UTF-16), or the end.
    private static func terminatorIndex(_ bytes: ArraySlice<UInt8>, unitSize: Int) -> Int {
        var i = bytes.startIndex
        while i <= bytes.endIndex - unitSize {
            if unitSize == 1 ? bytes[i] == 0 : bytes[i] == 0 && bytes[i + 1] == 0 { return i }
            i += unitSize
        }
        return bytes.endIndex
    }
}
