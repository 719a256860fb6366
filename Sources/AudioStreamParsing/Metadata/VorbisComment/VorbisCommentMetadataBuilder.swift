/// Turns Vorbis comment fields into ``AudioMetadata``.
///
/// | field (case-insensitive) | info key | note |
/// | --- | --- | --- |
/// | `TITLE` | title | |
/// | `VERSION`, `SUBTITLE` | subtitle | |
/// | `ARTIST` | artist | |
/// | `ALBUM` | album | |
/// | `TRACKNUMBER` | track number | with `TRACKTOTAL`/`TOTALTRACKS` as `n/total` when the number has no `/` |
/// | `DATE` | year, recorded date | year = the first four characters if digits; date as written (as `TDRC`) |
/// | `YEAR` | year | |
/// | `GENRE` | genre | |
/// | `COMMENT`, `DESCRIPTION` | comments | |
/// | `COMPOSER` | composer | |
/// | `LYRICIST` | lyricist | |
/// | `COPYRIGHT` | copyright | |
/// | `ISRC` | ISRC | |
/// | `BPM` | tempo | |
/// | `ENCODER` | encoding application | else the vendor string |
/// | `ENCODED-BY`, `ENCODEDBY` | source encoder | |
/// | `METADATA_BLOCK_PICTURE` | – | base64 FLAC PICTURE block → artwork (no raw tag) |
/// | `COVERART` (+ `COVERARTMIME`) | – | legacy base64 image → artwork, type 0, MIME given or sniffed |
/// | `CHAPTERnnn`, `CHAPTERnnnNAME` | – | chapters (also raw tags): start `HH:MM:SS[.fff]`, title, end = next start |
///
/// Every text field is also a raw tag (source `"vorbis"`, the key as written, the value); the
/// first value of a key fills the info key, repeated keys stay raw tags.
struct VorbisCommentMetadataBuilder {
    /// What the notes are about.
    let structure: Structure
    let limits: ParserLimits
    private(set) var metadata = AudioMetadata()
    /// Oddities, in field order.
    private(set) var notes: [DiagnosticNote] = []
    /// Text bytes kept so far (against `maxTagBytes`).
    private var textBytes = 0
    private var trackTotal: String?
    private var coverArt: [UInt8]?
    private var coverArtMIME: String?
    /// Chapter number → (start, title).
    private var chapterStarts: [Int: Double] = [:]
    private var chapterNames: [Int: String] = [:]

    init(structure: Structure, limits: ParserLimits) {
        self.structure = structure
        self.limits = limits
    }

    /// Field names (upper-cased) and the info key each fills.
    static let infoKeys: [String: InfoKey] = [
        "TITLE": InfoKey.title, "VERSION": InfoKey.subTitle, "SUBTITLE": InfoKey.subTitle,
        "ARTIST": InfoKey.artist, "ALBUM": InfoKey.album, "TRACKNUMBER": InfoKey.trackNumber,
        "DATE": InfoKey.recordedDate, "YEAR": InfoKey.year, "GENRE": InfoKey.genre,
        "COMMENT": InfoKey.comments, "DESCRIPTION": InfoKey.comments, "COMPOSER": InfoKey.composer,
        "LYRICIST": InfoKey.lyricist, "COPYRIGHT": InfoKey.copyright, "ISRC": InfoKey.isrc, "BPM": InfoKey.tempo,
        "ENCODER": InfoKey.encodingApplication, "ENCODED-BY": InfoKey.sourceEncoder,
        "ENCODEDBY": InfoKey.sourceEncoder,
    ]

    /// Adds one `KEY=value` field (the bytes of one comment); `number` counts from 1.
    mutating func add(_ field: ArraySlice<UInt8>, number: Int) {
        guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else {
            note(.damagedMetadata, "comment \(number) has no '='; skipped")
            return
        }
        let key = String(decoding: field[field.startIndex..<equals], as: UTF8.self)
        let valueBytes = field[(equals + 1)...]
        let upper = key.uppercased()
        switch upper {
        case "METADATA_BLOCK_PICTURE":
            addPicture(valueBytes, number: number)
            return
        case "COVERART":
            coverArt = decodeBase64(valueBytes, what: "COVERART")
            return
        default:
            break
        }
        guard valueBytes.count <= limits.maxTagBytes, textBytes <= limits.maxTagBytes - valueBytes.count else {
            note(
                .limitExceeded,
                "comment \(number) (\(key)) of \(valueBytes.count) bytes is past maxTagBytes "
                    + "(\(limits.maxTagBytes)); skipped")
            return
        }
        textBytes += valueBytes.count
        let value = String(decoding: valueBytes, as: UTF8.self)
        metadata.add(
            AudioMetadata.Tag(source: VorbisComment.source, key: key, value: value), infoKey: Self.infoKeys[upper])
        switch upper {
        case "DATE":
            if metadata.info[InfoKey.year] == nil, let year = RIFFInfoList.leadingYear(value) {
                metadata.info[InfoKey.year] = year
            }
        case "TRACKTOTAL", "TOTALTRACKS":
            if trackTotal == nil { trackTotal = value }
        case "COVERARTMIME":
            if coverArtMIME == nil { coverArtMIME = value }
        default:
            addChapterField(upper, value)
        }
    }

    /// Completes the info keys that depend on several fields, the legacy cover and the chapters.
    mutating func finish(vendor: String) {
        if let total = trackTotal, !total.isEmpty, let number = metadata.info[InfoKey.trackNumber],
            !number.contains("/")
        {
            metadata.info[InfoKey.trackNumber] = number + "/" + total
        }
        if metadata.info[InfoKey.encodingApplication] == nil, !vendor.isEmpty {
            metadata.info[InfoKey.encodingApplication] = vendor
        }
        if let coverArt {
            let mime = coverArtMIME.flatMap { $0.isEmpty ? nil : $0 } ?? ""
            metadata.artwork.append(
                AudioMetadata.Artwork(
                    mimeType: ID3v2MetadataBuilder.normalisedMIMEType(mime, coverArt[...]), pictureType: 0,
                    data: coverArt))
        }
        let numbers = chapterStarts.keys.sorted()
        for (i, n) in numbers.enumerated() {
            // Safe: every key of `numbers` is in `chapterStarts`.
            let start = chapterStarts[n] ?? 0
            let end = i + 1 < numbers.count ? chapterStarts[numbers[i + 1]] : nil
            let title = chapterNames[n] ?? "Chapter \(n)"
            metadata.chapters.append(AudioMetadata.Chapter(title: title, startSeconds: start, endSeconds: end))
        }
        metadata.chapters.sort { $0.startSeconds < $1.startSeconds }
    }

    /// Adds a note of `kind` about the comment block.
    private mutating func note(_ kind: ParserDiagnostic.Kind, _ text: String) {
        notes.append(DiagnosticNote(kind, structure, text))
    }

    // MARK: Pictures

    /// The most bytes a picture field may decode to: the picture plus its PICTURE block fields
    /// (MIME type, description: text, so bounded by `maxTagBytes`).
    private var maxPictureFieldBytes: Int {
        let (sum, overflow) = limits.maxArtworkBytes.addingReportingOverflow(limits.maxTagBytes)
        return overflow ? Int.max : sum
    }

    private mutating func decodeBase64(_ text: ArraySlice<UInt8>, what: String) -> [UInt8]? {
        guard text.count / 4 * 3 <= maxPictureFieldBytes else {
            note(
                .limitExceeded,
                "\(what) of \(text.count) base64 characters exceeds maxArtworkBytes "
                    + "(\(limits.maxArtworkBytes)); skipped")
            return nil
        }
        guard let bytes = Base64.decode(text, maxDecodedBytes: maxPictureFieldBytes) else {
            note(.damagedMetadata, "\(what) is not valid base64; skipped")
            return nil
        }
        return bytes
    }

    private mutating func addPicture(_ text: ArraySlice<UInt8>, number: Int) {
        guard let block = decodeBase64(text, what: "METADATA_BLOCK_PICTURE") else { return }
        switch FLACPicture.artwork(fromBlock: block[...], limits: limits) {
        case .success(let artwork): metadata.artwork.append(artwork)
        case .failure(let error):
            let kind = DiagnosticNote.kind(of: error, whenInvalid: .damagedMetadata)
            note(kind, "METADATA_BLOCK_PICTURE (comment \(number)): \(error.reason)")
        }
    }

    // MARK: Chapters

    /// `CHAPTERnnn=HH:MM:SS.fff` and `CHAPTERnnnNAME=title` (the Ogg chapter extension, as
    /// written by FFmpeg and read by VLC/mkvtoolnix); other `CHAPTERnnn…` fields stay raw tags.
    private mutating func addChapterField(_ upper: String, _ value: String) {
        guard upper.hasPrefix("CHAPTER") else { return }
        let rest = upper.dropFirst("CHAPTER".count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let number = Int(digits) else { return }
        let suffix = rest.dropFirst(digits.count)
        if suffix.isEmpty {
            guard let seconds = Self.chapterTime(value) else {
                note(.damagedMetadata, "CHAPTER\(digits) time '\(value.prefix(40))' is not HH:MM:SS.fff; skipped")
                return
            }
            if chapterStarts[number] == nil { chapterStarts[number] = seconds }
        } else if suffix == "NAME" {
            if chapterNames[number] == nil { chapterNames[number] = value }
        }
    }

    /// Seconds of `HH:MM:SS` with an optional `.fraction` (hours of any length, minutes and
    /// seconds 0–59); `nil` otherwise.
    static func chapterTime(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let secondsParts = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        func digitsValue(_ s: Substring, maxCount: Int) -> Int? {
            guard !s.isEmpty, s.count <= maxCount, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(s)
        }
        guard let hours = digitsValue(parts[0], maxCount: 9), let minutes = digitsValue(parts[1], maxCount: 2),
            let seconds = digitsValue(secondsParts[0], maxCount: 2), minutes < 60, seconds < 60
        else { return nil }
        var total = Double(hours * 3600 + minutes * 60 + seconds)
        if secondsParts.count == 2 {
            guard let fraction = digitsValue(secondsParts[1], maxCount: 9) else { return nil }
            var scale = 1.0
            for _ in 0..<secondsParts[1].count { scale *= 10 }
            total += Double(fraction) / scale
        }
        return total
    }
}
