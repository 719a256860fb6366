/// Tags found after the audio frames of an MPEG stream (or between frames, in concatenated files):
/// ID3v1, APEv2, ID3v2 and Lyrics3v2. They are recognised so that they are neither packets nor junk;
/// their bytes are kept (up to `ParserLimits.maxTagBytes`) for the metadata readers, which plug in at
/// ``metadata()``.
///
/// Layouts recognised:
///
/// ```
///  ID3v1:      "TAG" title(30) artist(30) album(30) year(4) comment(30) genre(1)   = 128 bytes
///  APEv2:      [header 32] items … footer 32
///              header/footer: "APETAGEX" version(4 LE) size(4 LE: items + footer)
///                             item count(4 LE) flags(4 LE: bit 31 has header, bit 29 is header)
///                             reserved(8)
///  ID3v2:      see ID3v2TagHeader (a tag between frames, or appended at the end)
///  Lyrics3v2:  "LYRICSBEGIN" … size(6 ASCII digits) "LYRICS200", just before ID3v1
/// ```
///
/// References: ID3v1 (id3.org "ID3v1"), APEv2 (wiki.hydrogenaud.io "APEv2 specification"),
/// Lyrics3 v2.00 (id3.org "Lyrics3v2").
struct TrailingTags {
    /// The kinds of tag recognised.
    enum Kind: String, Hashable, Sendable {
        case id3v1 = "ID3v1"
        case apev2 = "APEv2"
        case id3v2 = "ID3v2"
        case lyrics3 = "Lyrics3v2"
    }

    /// One tag: where it was and, when it was small enough, its bytes.
    struct Tag: Hashable, Sendable {
        let kind: Kind
        /// Absolute offset of its first byte.
        let offset: Int64
        let byteCount: Int64
        /// The tag's bytes, or empty when it was larger than `maxTagBytes` or only partly held.
        let bytes: [UInt8]
    }

    /// The tags since the last audio frame, in stream order.
    private(set) var tags: [Tag] = []

    static let id3v1ByteCount = 128
    static let apeHeaderByteCount = 32
    static let id3v1Magic: [UInt8] = Array("TAG".utf8)
    static let apeMagic: [UInt8] = Array("APETAGEX".utf8)
    static let lyrics3EndMagic: [UInt8] = Array("LYRICS200".utf8)

    mutating func append(_ tag: Tag) { tags.append(tag) }
    mutating func removeAll() { tags.removeAll() }
    var isEmpty: Bool { tags.isEmpty }

    /// The metadata the tags carry: the hook where ID3v1, APEv2 and trailing ID3v2 readers plug in.
    /// Until they exist it returns `nil` (the tags are recognised and skipped, not read).
    func metadata() -> AudioMetadata? {
        nil
    }

    // MARK: Recognition at a frame boundary

    /// What starts at a frame boundary.
    enum Recognition: Equatable {
        case tag(Kind)
        /// The readable bytes are a prefix of a tag magic; this many readable bytes decide.
        case undecided(atLeast: Int)
        case none
    }

    /// Recognises a tag magic `offset` bytes after the window's position (`TAG`, `APETAGEX`, or a
    /// valid ID3v2 header).
    static func kind(in window: InputWindow, at offset: Int) -> Recognition {
        guard let first = window.peekUInt8(at: offset) else { return .none }
        switch first {
        case 0x54:  // T
            if window.matches(id3v1Magic, at: offset) { return .tag(.id3v1) }
            if window.couldMatch(id3v1Magic, at: offset) { return .undecided(atLeast: offset + id3v1Magic.count) }
        case 0x41:  // A
            if window.matches(apeMagic, at: offset) { return .tag(.apev2) }
            if window.couldMatch(apeMagic, at: offset) { return .undecided(atLeast: offset + apeMagic.count) }
        case 0x49:  // I
            switch ID3v2TagHeader.recognise(window, at: offset) {
            case .header: return .tag(.id3v2)
            case .needMoreData(let n): return .undecided(atLeast: n)
            case .notATag: break
            }
        default:
            break
        }
        return .none
    }

    /// The length of the APEv2 tag whose header or footer starts `offset` bytes after the position
    /// (32 bytes must be readable): a header gives the whole tag (`32 + size`); a footer met first
    /// (its items were already passed) gives 32. `nil` for a size below the footer's 32 bytes.
    static func apeTagLength(in window: InputWindow, at offset: Int) -> Int? {
        guard let size = window.peekUInt(at: offset + 12, byteCount: 4, bigEndian: false),
            let flags = window.peekUInt(at: offset + 20, byteCount: 4, bigEndian: false)
        else { return nil }
        let isHeader = flags & 0x2000_0000 != 0
        guard size >= UInt64(apeHeaderByteCount) else { return nil }
        return isHeader ? (size > UInt64(Int32.max) ? nil : apeHeaderByteCount + Int(size)) : apeHeaderByteCount
    }

    // MARK: Recognition at the end of the stream

    /// The tags that end `tail` (the last bytes of the stream, which ended right after them), from
    /// the last one backwards: ID3v1, then Lyrics3v2 and/or APEv2 before it. Lengths may exceed
    /// `tail.count` (an APEv2 or Lyrics3 tag whose start was already passed).
    static func endingTags(_ tail: [UInt8]) -> [(kind: Kind, byteCount: Int)] {
        var found: [(Kind, Int)] = []
        var end = tail.count
        if end >= id3v1ByteCount, tail[(end - id3v1ByteCount)..<(end - id3v1ByteCount + 3)].elementsEqual(id3v1Magic) {
            found.append((.id3v1, id3v1ByteCount))
            end -= id3v1ByteCount
        }
        // Lyrics3v2: size (6 digits) + "LYRICS200" right before ID3v1.
        if end >= 15, tail[(end - 9)..<end].elementsEqual(lyrics3EndMagic) {
            let digits = tail[(end - 15)..<(end - 9)]
            if digits.allSatisfy({ (0x30...0x39).contains($0) }) {
                let size = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                found.append((.lyrics3, size + 15))
                end -= min(end, size + 15)
            }
        }
        // APEv2 footer.
        if end >= apeHeaderByteCount, tail[(end - apeHeaderByteCount)..<(end - 24)].elementsEqual(apeMagic) {
            let f = end - apeHeaderByteCount
            let size = Int(tail[f + 12]) | Int(tail[f + 13]) << 8 | Int(tail[f + 14]) << 16 | Int(tail[f + 15]) << 24
            let flags = UInt32(tail[f + 23]) << 24
            let hasHeader = flags & 0x8000_0000 != 0
            if size >= apeHeaderByteCount {
                found.append((.apev2, size + (hasHeader ? apeHeaderByteCount : 0)))
            }
        }
        return found
    }
}
