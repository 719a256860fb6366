/// Tags found at a frame boundary of a framed stream (MPEG audio, ADTS): after the last frame, or
/// between frames in concatenated files and streams. ID3v1 (with `TAG+`), APEv2, ID3v2 and
/// Lyrics3v2 are recognised (``kind(in:at:)``) and read (``read(_:_:format:)``) so that they are
/// neither packets nor junk; their bytes are kept (up to `ParserLimits.maxTagBytes`) and read by the
/// metadata readers: all of them when they end the stream (``metadata(limits:)``), the ID3v2 tags
/// among them when a frame follows (``metadata(of:limits:)``: they start the next part).
///
/// Layouts recognised:
///
/// ```
///  ID3v1:      ["TAG+" … 227 bytes] "TAG" title(30) artist(30) album(30) year(4) comment(30) genre(1)
///  APEv2:      [header 32] items … footer 32
///              header/footer: "APETAGEX" version(4 LE) size(4 LE: items + footer)
///                             item count(4 LE) flags(4 LE: bit 31 has header, bit 29 is header)
///                             reserved(8)
///  ID3v2:      see ID3v2Tag.Header (a tag between frames, or appended at the end)
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
        /// The tag's bytes, or empty when it was larger than `maxTagBytes`, only partly held, or
        /// read as it streamed by (`parsed`).
        let bytes: [UInt8]
        /// The metadata of a tag already read as it streamed by (ID3v2 tags, read frame by frame by
        /// ``ID3v2StreamReader``); `nil` when `bytes` are to be read.
        var parsed: AudioMetadata? = nil
    }

    /// The tags since the last audio frame, in stream order.
    private(set) var tags: [Tag] = []

    static let id3v1ByteCount = 128
    /// A `TAG+` block (227 bytes) followed by its ID3v1 tag.
    static let enhancedID3v1ByteCount = 227 + 128
    static let enhancedID3v1Magic: [UInt8] = Array("TAG+".utf8)
    static let apeHeaderByteCount = 32
    static let id3v1Magic: [UInt8] = Array("TAG".utf8)
    static let apeMagic: [UInt8] = Array("APETAGEX".utf8)

    mutating func append(_ tag: Tag) { tags.append(tag) }
    mutating func removeAll() { tags.removeAll() }
    var isEmpty: Bool { tags.isEmpty }

    /// The metadata the tags carry, in stream order (an info key keeps the first value: APEv2
    /// before ID3v1), read by `ID3v1Tag`, `APEv2Tag` and `ID3v2Tag` (artwork and chapters
    /// included); `nil` when none of them has any. Tags held only in part (larger than
    /// `maxTagBytes`, or begun before the bytes kept) are not read.
    ///
    /// - Parameter kinds: only tags of these kinds (all by default).
    func metadata(of kinds: Set<Kind> = [.id3v1, .apev2, .id3v2, .lyrics3], limits: ParserLimits) -> AudioMetadata? {
        var merged = AudioMetadata()
        for tag in tags where kinds.contains(tag.kind) {
            let metadata: AudioMetadata?
            if let parsed = tag.parsed {
                merged = merged.merging(parsed)
                continue
            }
            guard !tag.bytes.isEmpty else { continue }
            switch tag.kind {
            case .id3v1: metadata = ID3v1Tag.parse(tag.bytes)?.metadata
            case .apev2: metadata = APEv2Tag.parse(tag.bytes, limits: limits)?.metadata
            case .id3v2: metadata = ID3v2Tag.parse(tag.bytes, limits: limits)?.metadata
            case .lyrics3: metadata = nil
            }
            if let metadata { merged = merged.merging(metadata) }
        }
        return merged.isEmpty ? nil : merged
    }

    // MARK: Reading at a frame boundary

    /// Reads (or skips) the ID3v1 or APEv2 tag that starts at the position and appends it: its
    /// bytes are kept when it is at most `min(maxTagBytes, maxBufferedBytes)` long, otherwise it is
    /// skipped unbuffered with a diagnostic. A tag cut by the end of the stream is kept short
    /// (unread), except an ID3v1 tag, which needs all 128 bytes. ID3v2 tags are not read here:
    /// the parsers stream them with ``ID3v2StreamReader`` (frame by frame, artwork up to
    /// `maxArtworkBytes`) and append the result with ``appendID3v2(_:at:)``.
    ///
    /// - Parameter structure: the stream's format ("mpeg", "adts"); the diagnostics name the tag kind.
    /// - Returns: the step to take, or `nil` when the bytes are not a usable tag after all (the
    ///   caller then treats them as junk).
    mutating func read(_ kind: Kind, _ context: inout ParseContext, _ structure: Structure) -> ParseStep? {
        let window = context.window
        let length: Int
        switch kind {
        case .id3v1:
            // A `TAG+` block is followed by its ID3v1 tag: both are read as one.
            let plus = Self.enhancedID3v1ByteCount - Self.id3v1ByteCount
            if window.matches(Self.enhancedID3v1Magic, at: 0) {
                if window.readable < plus + 3 && !window.isFinal { return .needMoreData(atLeast: plus + 3) }
                length =
                    window.matches(Self.id3v1Magic, at: plus) ? Self.enhancedID3v1ByteCount : Self.id3v1ByteCount
            } else {
                length = Self.id3v1ByteCount
            }
        case .apev2:
            guard window.readable >= Self.apeHeaderByteCount else {
                return window.isFinal ? nil : .needMoreData(atLeast: Self.apeHeaderByteCount)
            }
            guard let n = Self.apeTagLength(in: window, at: 0) else { return nil }
            length = n
        case .id3v2, .lyrics3:
            return nil
        }
        let offset = window.position
        let limit = min(context.limits.maxTagBytes, context.limits.maxBufferedBytes)
        if length > limit {
            append(.init(kind: kind, offset: offset, byteCount: Int64(length), bytes: []))
            context.diagnose(
                .limitExceeded, structure(kind.rawValue), "\(length)-byte tag exceeds maxTagBytes; skipped")
            return .skip(Int64(length))
        }
        guard let bytes = window.peekBytes(count: length) else {
            if !window.isFinal { return .needMoreData(atLeast: length) }
            if kind == .id3v1 { return nil }
            context.diagnose(.truncated, structure(kind.rawValue), "stream ends inside a \(length)-byte tag")
            append(.init(kind: kind, offset: offset, byteCount: Int64(window.readable), bytes: []))
            context.window.consume(window.readable)
            return .continue
        }
        context.window.consume(length)
        append(.init(kind: kind, offset: offset, byteCount: Int64(length), bytes: bytes))
        return .continue
    }

    /// Appends an ID3v2 tag read by ``ID3v2StreamReader`` that started at absolute offset `offset`.
    mutating func appendID3v2(_ tag: ID3v2Tag, at offset: Int64) {
        append(.init(kind: .id3v2, offset: offset, byteCount: Int64(tag.byteCount), bytes: [], parsed: tag.metadata))
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
            switch ID3v2Tag.Header.recognise(window, at: offset) {
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
        guard let size = window.peekInteger(at: offset + 12, as: UInt32.self, endianness: .little),
            let flags = window.peekInteger(at: offset + 20, as: UInt32.self, endianness: .little)
        else { return nil }
        let isHeader = flags & 0x2000_0000 != 0
        guard size >= UInt64(apeHeaderByteCount) else { return nil }
        return isHeader ? (size > UInt64(Int32.max) ? nil : apeHeaderByteCount + Int(size)) : apeHeaderByteCount
    }
}
