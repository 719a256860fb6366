/// A `LIST` chunk of type `INFO`: RIFF text tags.
///
/// ```
///  offset  size  field
///  0       4     listType   'INFO'
///  4       …     sub-chunks: ckID (4), ckSize (4, little-endian; big-endian in RIFX), text
///                (usually NUL-terminated), pad byte when ckSize is odd
/// ```
///
/// Reference: Microsoft "Multimedia Programming Interface and Data Specifications 1.0" §2 (`INFO`
/// list chunk and its registered IDs). The text encoding is not declared: UTF-8 is used when the
/// bytes are valid UTF-8 (FFmpeg and libsndfile write UTF-8), ISO 8859-1 otherwise.
///
/// Every sub-chunk becomes a raw tag (source `"riff-info"`, key = the ID); the IDs below also fill
/// Apple's info dictionary. `ICRD` also gives the year when it starts with four digits.
enum RIFFInfoList {
    /// The raw-tag source name.
    static let source = "riff-info"
    /// The chunk, for messages.
    static let structure = Structure("wave", "LIST")

    /// INFO IDs and the info-dictionary key each maps to.
    static let infoKeys: [String: InfoKey] = [
        "INAM": InfoKey.title, "IART": InfoKey.artist, "IPRD": InfoKey.album, "ICMT": InfoKey.comments,
        "ICRD": InfoKey.recordedDate, "IGNR": InfoKey.genre, "ICOP": InfoKey.copyright,
        "ISFT": InfoKey.encodingApplication, "ITRK": InfoKey.trackNumber, "IPRT": InfoKey.trackNumber,
    ]

    /// Adds the tags of an `INFO` list body (starting with the list type) to `metadata`.
    ///
    /// Never traps: sub-chunks that overrun the list are cut at its end.
    ///
    /// - Returns: oddities worked around, for diagnostics.
    static func read(_ body: [UInt8], endianness: Endianness, into metadata: inout AudioMetadata) -> [DiagnosticNote] {
        var notes: [DiagnosticNote] = []
        var reader = ByteReader(body)
        guard reader.skip(4) else { return notes }
        while reader.remaining >= 8 {
            // Safe to force unwrap: at least 8 bytes remain.
            let id = reader.readFourCC()!
            let size = reader.readInteger(as: UInt32.self, endianness: endianness)!
            let key = FourCharCode.string(id)
            var count = Int(size)
            if count > reader.remaining {
                notes.append(
                    DiagnosticNote(
                        .damagedMetadata,
                        structure.message("INFO item '\(key)' overruns the list; cut to \(reader.remaining) bytes")))
                count = reader.remaining
            }
            // Safe to force unwrap: `count <= reader.remaining`.
            let text = RIFFText.decode(reader.readBytes(count)!)
            if count % 2 == 1 { _ = reader.skip(1) }
            guard !text.isEmpty else { continue }
            metadata.add(AudioMetadata.Tag(source: source, key: key, value: text), infoKey: infoKeys[key])
            if key == "ICRD", metadata.info[InfoKey.year] == nil, let year = leadingYear(text) {
                metadata.info[InfoKey.year] = year
            }
        }
        return notes
    }

    /// The first four characters when they are digits ("2024-05-06" → "2024").
    static func leadingYear(_ text: String) -> String? {
        let prefix = text.unicodeScalars.prefix(4)
        guard prefix.count == 4, prefix.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        return String(String.UnicodeScalarView(prefix))
    }
}

/// Text of RIFF tags (INFO, bext): no encoding is declared.
enum RIFFText {
    /// Decodes bytes up to the first NUL as UTF-8 when valid, else ISO 8859-1, and trims trailing
    /// spaces, tabs, carriage returns and line feeds.
    static func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let upToNul = bytes.prefix { $0 != 0 }
        var text = isValidUTF8(upToNul) ? String(decoding: upToNul, as: UTF8.self) : TextDecoding.latin1(upToNul)
        while let last = text.last, last == " " || last == "\t" || last == "\r\n" || last == "\n" || last == "\r" {
            text.removeLast()
        }
        return text
    }

    /// Whether `bytes` are well-formed UTF-8.
    static func isValidUTF8<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
