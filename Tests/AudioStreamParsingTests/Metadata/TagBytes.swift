import AudioStreamTestSupport

@testable import AudioStreamParsing

/// Builders for hand-made tags, each following the byte layout of its specification (ID3v2.2,
/// 2.3, 2.4 and the Chapter Frame Addendum at id3.org; ID3v1; the APEv2 specification).
enum TagBytes {
    // MARK: Integers and text

    /// A 28-bit syncsafe integer (ID3v2.4 §6.2).
    static func syncsafe(_ n: Int) -> [UInt8] {
        [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)]
    }
    static func be32(_ n: Int) -> [UInt8] {
        [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
    }
    static func le32(_ n: Int) -> [UInt8] {
        [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)]
    }
    static func latin1(_ s: String) -> [UInt8] { s.unicodeScalars.map { UInt8($0.value) } }
    static func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }
    static func utf16LE(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
    static func utf16BE(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

    // MARK: ID3v2

    /// "ID3", version, revision 0, flags, syncsafe size of `body`, body (footer not added).
    static func tag(_ version: UInt8, flags: UInt8 = 0, _ body: [UInt8]) -> [UInt8] {
        Array("ID3".utf8) + [version, 0, flags] + syncsafe(body.count) + body
    }
    /// A 2.4 tag with the footer flag and a "3DI" footer.
    static func tagWithFooter(_ body: [UInt8], flags: UInt8 = 0) -> [UInt8] {
        let f = flags | 0x10
        return tag(4, flags: f, body) + Array("3DI".utf8) + [4, 0, f] + syncsafe(body.count)
    }
    static func frame22(_ id: String, _ content: [UInt8]) -> [UInt8] {
        Array(id.utf8) + Array(be32(content.count).suffix(3)) + content
    }
    static func frame23(_ id: String, _ content: [UInt8], format: UInt8 = 0, size: Int? = nil) -> [UInt8] {
        Array(id.utf8) + be32(size ?? content.count) + [0, format] + content
    }
    static func frame24(_ id: String, _ content: [UInt8], format: UInt8 = 0, plainSize: Bool = false) -> [UInt8] {
        Array(id.utf8) + (plainSize ? be32(content.count) : syncsafe(content.count)) + [0, format] + content
    }
    /// A frame in the layout of `version`.
    static func frame(_ version: UInt8, _ id: String, _ content: [UInt8]) -> [UInt8] {
        switch version {
        case 2: frame22(id, content)
        case 3: frame23(id, content)
        default: frame24(id, content)
        }
    }
    /// A text frame body: encoding byte, then the bytes.
    static func text(_ encoding: UInt8, _ bytes: [UInt8]) -> [UInt8] { [encoding] + bytes }
    static func latin1Text(_ s: String) -> [UInt8] { text(0, latin1(s)) }
    /// COMM/USLT body: encoding, language, description (terminated), text.
    static func comment(_ description: String, _ text: String, language: String = "eng") -> [UInt8] {
        [0] + latin1(language) + latin1(description) + [0] + latin1(text)
    }
    /// APIC body (2.3/2.4).
    static func apic(mime: String, type: UInt8, description: String = "", _ data: [UInt8]) -> [UInt8] {
        [0] + latin1(mime) + [0, type] + latin1(description) + [0] + data
    }
    /// PIC body (2.2).
    static func pic(format: String, type: UInt8, _ data: [UInt8]) -> [UInt8] {
        [0] + latin1(format) + [type] + [0] + data
    }
    /// CHAP body: element ID, times, offsets (unused), sub-frames.
    static func chap(_ id: String, start: Int, end: Int, _ subFrames: [UInt8]) -> [UInt8] {
        latin1(id) + [0] + be32(start) + be32(end) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + subFrames
    }
    /// CTOC body.
    static func ctoc(_ id: String, flags: UInt8, _ children: [String], _ subFrames: [UInt8] = []) -> [UInt8] {
        latin1(id) + [0, flags, UInt8(children.count)] + children.flatMap { latin1($0) + [0] } + subFrames
    }

    /// Fake JPEG bytes of `count` length, containing FF bytes (which unsynchronisation changes).
    static func jpeg(_ count: Int) -> [UInt8] {
        let head: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        return Array(
            (head + (0..<max(0, count - 4)).map { UInt8(truncatingIfNeeded: $0 * 7 + ($0 % 5 == 0 ? 0xF8 : 1)) })
                .prefix(count))
    }

    /// Unsynchronisation (ID3v2.4 §6.1): FF followed by 00 or ≥ E0 gets a 00 inserted; a final FF too.
    static func unsynchronise(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (i, b) in bytes.enumerated() {
            out.append(b)
            if b == 0xFF && (i + 1 == bytes.count || bytes[i + 1] == 0 || bytes[i + 1] >= 0xE0) { out.append(0) }
        }
        return out
    }

    // MARK: ID3v1

    /// An ID3v1 tag; v1.1 when `track` is given.
    static func id3v1(
        title: String, artist: String = "", album: String = "", year: String = "", comment: String = "",
        track: UInt8? = nil, genre: UInt8 = 255, pad: UInt8 = 0
    ) -> [UInt8] {
        func field(_ s: String, _ n: Int) -> [UInt8] {
            Array((latin1(s) + [UInt8](repeating: pad, count: n)).prefix(n))
        }
        var commentField = field(comment, 30)
        if let track {
            commentField = Array(commentField.prefix(28)) + [0, track]
        }
        return Array("TAG".utf8) + field(title, 30) + field(artist, 30) + field(album, 30) + field(year, 4)
            + commentField + [genre]
    }

    // MARK: APE

    /// One APE item.
    static func apeItem(_ key: String, _ value: [UInt8], kind: UInt32 = 0) -> [UInt8] {
        le32(value.count) + le32(Int(kind << 1)) + utf8(key) + [0] + value
    }
    /// An APE header (isHeader) or footer.
    static func apeHeader(version: Int = 2000, items: [[UInt8]], hasHeader: Bool, isHeader: Bool) -> [UInt8] {
        let size = items.reduce(0) { $0 + $1.count } + 32
        var flags: UInt32 = 0
        if hasHeader { flags |= 0x8000_0000 }
        if isHeader { flags |= 0x2000_0000 }
        return utf8("APETAGEX") + le32(version) + le32(size) + le32(items.count) + le32(Int(flags))
            + [UInt8](repeating: 0, count: 8)
    }
    /// A whole APE tag: [header] items footer.
    static func ape(_ items: [[UInt8]], header: Bool, version: Int = 2000) -> [UInt8] {
        (header ? apeHeader(version: version, items: items, hasHeader: true, isHeader: true) : [])
            + items.flatMap { $0 } + apeHeader(version: version, items: items, hasHeader: header, isHeader: false)
    }
}
