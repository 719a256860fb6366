/// Reads an HLS playlist (RFC 8216 section 4) from its bytes.
///
/// Contract:
/// - The first line must be `#EXTM3U` (a UTF-8 byte order mark before it is skipped); otherwise
///   ``HLSError/notAPlaylist(url:)``.
/// - A playlist with `EXT-X-STREAM-INF` or `EXT-X-MEDIA` is a Master Playlist, one with `EXTINF` or
///   `EXT-X-TARGETDURATION` a Media Playlist; one with both, or a Media Playlist without
///   `EXT-X-TARGETDURATION`, or a URI line with no `EXTINF` (media) / `EXT-X-STREAM-INF` (master) before it,
///   is ``HLSError/invalidPlaylist(url:line:reason:)`` with the line number.
/// - Unknown tags and comments are ignored (section 6.3.1: clients ignore unrecognized tags).
/// - Bounded by ``HLSLimits``: the playlist's bytes, each line's length, the number of entries; checked
///   before anything is kept, so the memory held is proportional to what was accepted.
/// - Never traps: numbers that do not parse, or overflow, are errors (or absent, for optional attributes).
public enum HLSPlaylistParser {
    /// Parses `bytes`, the playlist fetched from `url` (named in errors only).
    public static func parse(_ bytes: [UInt8], url: String, limits: HLSLimits = HLSLimits()) throws(HLSError)
        -> HLSPlaylist
    {
        guard bytes.count <= limits.maxPlaylistBytes else {
            throw .playlistTooLarge(
                url: url, reason: "playlist of \(bytes.count) bytes (limit \(limits.maxPlaylistBytes))")
        }
        var reader = LineReader(bytes: bytes)
        guard let first = reader.next(), first.text.trimmedOfBlanks() == "#EXTM3U" else {
            throw .notAPlaylist(url: url)
        }
        var state = ParseState(url: url, limits: limits)
        while let line = reader.next() {
            guard line.byteCount <= limits.maxLineBytes else {
                throw .playlistTooLarge(
                    url: url, reason: "line \(line.number) has \(line.byteCount) bytes (limit \(limits.maxLineBytes))")
            }
            try state.consume(line.text.trimmedOfBlanks(), line: line.number)
        }
        return try state.finish()
    }
}

/// The lines of a playlist: LF or CRLF terminated (section 4.1), decoded as UTF-8 (invalid bytes replaced).
private struct LineReader {
    let bytes: [UInt8]
    var position = 0
    var number = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    mutating func next() -> (text: String, number: Int, byteCount: Int)? {
        guard position < bytes.count else { return nil }
        let start = position
        while position < bytes.count, bytes[position] != 0x0A { position += 1 }
        var end = position
        if position < bytes.count { position += 1 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        number += 1
        // A line longer than the limit is reported by the caller without being decoded.
        let text = end - start > 64 * 1024 ? "" : String(decoding: bytes[start..<end], as: UTF8.self)
        return (text, number, end - start)
    }
}

/// What the lines read so far say.
private struct ParseState {
    let url: String
    let limits: HLSLimits
    var master = HLSMasterPlaylist()
    var media = HLSMediaPlaylist()
    var sawMasterTag = false
    var sawMediaTag = false
    var version: Int?
    /// `EXTINF` waiting for its URI.
    var pendingInfo: (duration: Double, title: String?)?
    var pendingRange: HLSByteRange?
    var pendingDiscontinuity = false
    var pendingDateTime: String?
    var key: HLSKey?
    var map: HLSMap?
    /// The end of the previous sub-range and its URI (an `EXT-X-BYTERANGE` without offset follows it).
    var previousRange: (uri: String, end: Int64)?
    /// `EXT-X-STREAM-INF` waiting for its URI.
    var pendingVariant: HLSVariant?
    var sawTargetDuration = false

    init(url: String, limits: HLSLimits) {
        self.url = url
        self.limits = limits
    }

    func invalid(_ line: Int, _ reason: String) -> HLSError { .invalidPlaylist(url: url, line: line, reason: reason) }

    mutating func consume(_ text: String, line: Int) throws(HLSError) {
        if text.isEmpty { return }
        guard text.hasPrefix("#") else { return try uri(text, line: line) }
        guard text.hasPrefix("#EXT") else { return }  // a comment
        let colon = text.firstIndex(of: ":")
        let name = colon.map { text[..<$0] } ?? text[...]
        let value = colon.map { text[text.index(after: $0)...] } ?? ""
        switch name {
        case "#EXT-X-VERSION": version = Int(value)
        case "#EXTINF":
            sawMediaTag = true
            let comma = value.firstIndex(of: ",")
            let durationText = comma.map { value[..<$0] } ?? value
            guard let duration = Double(durationText.trimmedOfBlanks()), duration.isFinite, duration >= 0 else {
                throw invalid(line, "EXTINF duration '\(durationText)' is not a number")
            }
            let title = comma.map { String(value[value.index(after: $0)...]).trimmedOfBlanks() }
            pendingInfo = (duration, title?.isEmpty == false ? title : nil)
        case "#EXT-X-TARGETDURATION":
            sawMediaTag = true
            guard let seconds = Int(value.trimmedOfBlanks()), seconds >= 0 else {
                throw invalid(line, "EXT-X-TARGETDURATION '\(value)' is not a decimal-integer")
            }
            media.targetDuration = seconds
            sawTargetDuration = true
        case "#EXT-X-MEDIA-SEQUENCE":
            sawMediaTag = true
            guard let number = Int64(value.trimmedOfBlanks()), number >= 0 else {
                throw invalid(line, "EXT-X-MEDIA-SEQUENCE '\(value)' is not a decimal-integer")
            }
            media.mediaSequence = number
        case "#EXT-X-DISCONTINUITY-SEQUENCE":
            media.discontinuitySequence = Int64(value.trimmedOfBlanks()) ?? 0
        case "#EXT-X-ENDLIST": media.hasEndList = true
        case "#EXT-X-PLAYLIST-TYPE": media.playlistType = value.trimmedOfBlanks()
        case "#EXT-X-DISCONTINUITY": pendingDiscontinuity = true
        case "#EXT-X-PROGRAM-DATE-TIME": pendingDateTime = value.trimmedOfBlanks()
        case "#EXT-X-BYTERANGE":
            guard let range = Self.byteRange(value, previousEnd: nil) else {
                throw invalid(line, "EXT-X-BYTERANGE '\(value)' is not n[@o]")
            }
            pendingRange = range
        case "#EXT-X-KEY":
            let attributes = AttributeList(value)
            guard let method = attributes["METHOD"] else { throw invalid(line, "EXT-X-KEY without METHOD") }
            if method == "NONE" {
                key = nil
                return
            }
            var iv: [UInt8]?
            if attributes["IV"] != nil {
                guard let bytes = attributes.hexadecimal("IV"), bytes.count <= 16 else {
                    throw invalid(line, "EXT-X-KEY IV is not a 128-bit hexadecimal-sequence")
                }
                iv = [UInt8](repeating: 0, count: 16 - bytes.count) + bytes
            }
            guard method != "AES-128" || attributes["URI"] != nil else { throw invalid(line, "EXT-X-KEY without URI") }
            key = HLSKey(method: method, uri: attributes["URI"], iv: iv, keyFormat: attributes["KEYFORMAT"])
        case "#EXT-X-MAP":
            let attributes = AttributeList(value)
            guard let uri = attributes["URI"] else { throw invalid(line, "EXT-X-MAP without URI") }
            var range: HLSByteRange?
            if let text = attributes["BYTERANGE"] {
                guard let parsed = Self.byteRange(text[...], previousEnd: 0) else {
                    throw invalid(line, "EXT-X-MAP BYTERANGE '\(text)' is not n[@o]")
                }
                range = parsed
            }
            map = HLSMap(uri: uri, byteRange: range)
        case "#EXT-X-STREAM-INF":
            sawMasterTag = true
            let attributes = AttributeList(value)
            pendingVariant = HLSVariant(
                uri: "", bandwidth: attributes.integer("BANDWIDTH") ?? 0,
                averageBandwidth: attributes.integer("AVERAGE-BANDWIDTH"),
                codecs: attributes["CODECS"].map { $0.split(separator: ",").map { $0.trimmedOfBlanks() } } ?? [],
                audioGroup: attributes["AUDIO"], resolution: attributes["RESOLUTION"])
        case "#EXT-X-MEDIA":
            sawMasterTag = true
            let attributes = AttributeList(value)
            guard let type = attributes["TYPE"], let group = attributes["GROUP-ID"], let name = attributes["NAME"]
            else {
                throw invalid(line, "EXT-X-MEDIA without TYPE, GROUP-ID or NAME")
            }
            try count(line)
            master.renditions.append(
                HLSRendition(
                    type: type, groupID: group, name: name, language: attributes["LANGUAGE"], uri: attributes["URI"],
                    isDefault: attributes.flag("DEFAULT"), autoselect: attributes.flag("AUTOSELECT"),
                    channels: attributes["CHANNELS"]))
        case "#EXT-X-I-FRAME-STREAM-INF": sawMasterTag = true
        default: break
        }
        if sawMasterTag && sawMediaTag { throw invalid(line, "both Master and Media Playlist tags") }
    }

    /// Counts one more entry against the limit.
    func count(_ line: Int) throws(HLSError) {
        guard master.variants.count + master.renditions.count + media.segments.count < limits.maxEntries else {
            throw .playlistTooLarge(url: url, reason: "more than \(limits.maxEntries) entries (line \(line))")
        }
    }

    mutating func uri(_ text: String, line: Int) throws(HLSError) {
        try count(line)
        if var variant = pendingVariant {
            variant.uri = text
            master.variants.append(variant)
            pendingVariant = nil
            return
        }
        guard let info = pendingInfo else { throw invalid(line, "URI '\(text)' without EXTINF or EXT-X-STREAM-INF") }
        var range = pendingRange
        if let r = range, r.offset < 0 {
            // No offset: the sub-range follows the previous one of the same resource (section 4.3.2.2).
            guard let previous = previousRange, previous.uri == text else {
                throw invalid(line, "EXT-X-BYTERANGE without offset does not follow a range of the same URI")
            }
            range = HLSByteRange(length: r.length, offset: previous.end)
        }
        if let r = range {
            let (end, overflow) = r.offset.addingReportingOverflow(r.length)
            guard !overflow else { throw invalid(line, "EXT-X-BYTERANGE overflows") }
            previousRange = (text, end)
        } else {
            previousRange = nil
        }
        media.segments.append(
            HLSMediaSegment(
                uri: text, duration: info.duration, title: info.title, sequenceNumber: 0, byteRange: range,
                isDiscontinuity: pendingDiscontinuity, key: key, map: map, programDateTime: pendingDateTime))
        pendingInfo = nil
        pendingRange = nil
        pendingDiscontinuity = false
        pendingDateTime = nil
    }

    /// `n[@o]`; a missing offset is `previousEnd`, or -1 (resolved at the URI) when that is `nil`.
    static func byteRange(_ text: Substring, previousEnd: Int64?) -> HLSByteRange? {
        let parts = text.trimmedOfBlanks().split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let length = Int64(parts[0]), length >= 0 else { return nil }
        if parts.count == 2 {
            guard let offset = Int64(parts[1]), offset >= 0 else { return nil }
            return HLSByteRange(length: length, offset: offset)
        }
        return HLSByteRange(length: length, offset: previousEnd ?? -1)
    }

    mutating func finish() throws(HLSError) -> HLSPlaylist {
        if sawMasterTag {
            master.version = version
            return .master(master)
        }
        guard sawTargetDuration else { throw invalid(0, "Media Playlist without EXT-X-TARGETDURATION") }
        media.version = version
        for index in media.segments.indices {
            media.segments[index].sequenceNumber = media.mediaSequence &+ Int64(index)
        }
        return .media(media)
    }
}
