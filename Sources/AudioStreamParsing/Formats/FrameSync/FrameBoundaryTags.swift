/// Tags at the frame boundaries of a frame-sync stream: ID3v2, APEv2 and ID3v1 tags between frames
/// (concatenated files, HLS timed metadata) and at the end of the stream.
///
/// A tag is neither a packet nor junk. An ID3v2 tag is read as it streams by, frame by frame
/// (``ID3v2StreamReader``: text up to `maxTagBytes`, pictures up to `maxArtworkBytes`, larger frames
/// skipped unbuffered); APEv2 and ID3v1 tags are read whole up to `maxTagBytes`
/// (``TrailingTags/read(_:_:format:)``). The tags met since the last frame are kept in ``trailing``:
/// when a frame follows them, ``announceBetweenFrames(_:_:)`` reports the APEv2/ID3v1 tags (they ended
/// the previous part) and announces the ID3v2 tags' metadata as the stream's from that packet on; when
/// the stream ends, the parser announces all of them.
struct FrameBoundaryTags {
    /// The tags met since the last frame, in stream order.
    var trailing = TrailingTags()
    /// The ID3v2 tag being read.
    private var reader: ID3v2StreamReader?

    /// True when no tag was met since the last frame (the fast paths only run then).
    var isEmpty: Bool { trailing.isEmpty }

    /// True while an ID3v2 tag is being read.
    var isReadingID3v2: Bool { reader != nil }

    /// Starts reading an ID3v2 tag at the window's position.
    mutating func beginID3v2(_ limits: ParserLimits) {
        reader = ID3v2StreamReader(limits: limits)
    }

    /// What reading an ID3v2 tag gave.
    enum ID3v2Progress {
        /// The step to return (more bytes needed, or a frame of the tag to skip).
        case step(ParseStep)
        /// The tag is read.
        case done(ID3v2Tag)
        /// No tag is being read, or the bytes were not a tag after all.
        case notATag
    }

    /// Reads on in the ID3v2 tag begun with ``beginID3v2(_:)``.
    mutating func stepID3v2(_ context: inout ParseContext) -> ID3v2Progress {
        guard reader != nil else { return .notATag }
        // Safe to force unwrap: checked just above; the call mutates the stored reader in place.
        switch reader!.step(&context) {
        case .needMoreData(let n):
            return .step(.needMoreData(atLeast: n))
        case .skip(let n):
            return .step(.skip(n))
        case .done(let tag):
            reader = nil
            return .done(tag)
        case .notATag:
            reader = nil
            return .notATag
        }
    }

    /// The stream ends inside the ID3v2 tag being read: the reader reports it and gives what it read.
    mutating func finishID3v2(_ context: inout ParseContext) -> ID3v2Tag? {
        let tag = reader?.finish(&context)
        reader = nil
        return tag
    }

    /// Forgets every tag met and the tag being read (a seek or discontinuity).
    mutating func removeAll() {
        trailing.removeAll()
        reader = nil
    }

    /// Where an ID3v2 tag header is among junk.
    enum HeaderSearch: Equatable {
        /// A valid ID3v2 header starts this many bytes after the window's position.
        case header(at: Int)
        /// One may start at `at`: `atLeast` readable bytes decide.
        case undecided(at: Int, atLeast: Int)
        /// None starts in the bytes searched.
        case none
    }

    /// Looks for a valid ID3v2 tag header starting at an offset in `start..<end` after the window's
    /// position (a tag between frames that junk precedes, e.g. a concatenated file with padding); each
    /// `I` found with `memchr` is checked.
    static func findID3v2Header(_ window: InputWindow, from start: Int, to end: Int) -> HeaderSearch {
        var i = start
        while let k = window.firstIndex(of: 0x49, from: i, to: end) {
            switch ID3v2Tag.Header.recognise(window, at: k) {
            case .header: return .header(at: k)
            case .needMoreData(let n) where !window.isFinal: return .undecided(at: k, atLeast: n)
            case .needMoreData, .notATag: i = k + 1
            }
        }
        return .none
    }

    /// A frame follows the tags met since the last frame: the ID3v2 tags among them start the next
    /// part of the stream (a concatenated file, a stream's title change), so their metadata becomes
    /// the stream's metadata from this packet on (``ParseContext/announceTimedMetadata(_:)``); ID3v1
    /// and APEv2 tags ended the previous part and are reported (`structureSkipped`).
    mutating func announceBetweenFrames(_ structure: Structure, _ context: inout ParseContext) {
        let ended = trailing.tags.filter { $0.kind != .id3v2 }
        if let first = ended.first {
            let kinds = ended.map(\.kind.rawValue).joined(separator: ", ")
            context.diagnose(.structureSkipped, at: first.offset, structure, "tag(s) between frames skipped (\(kinds))")
        }
        if let metadata = trailing.metadata(of: [.id3v2], limits: context.limits) {
            context.announceTimedMetadata(metadata)
        }
        trailing.removeAll()
    }
}

extension TrailingTagLayout {
    /// The tags of the layout located in `tail` (the last bytes of the stream, whose first byte is at
    /// absolute offset `tailStart`), in stream order, as ``TrailingTags/Tag`` values: only what lies at
    /// or after `cutoff` in `tail` counts (a tag beginning before it is cut there); a tag's bytes are
    /// kept when it lies wholly in `tail` and is at most `maxBytes` long (otherwise it is not read).
    func tags(in tail: [UInt8], at tailStart: Int64, from cutoff: Int = Int.min, maxBytes: Int = Int.max)
        -> [TrailingTags.Tag]
    {
        let ranges: [(TrailingTags.Kind, Range<Int>?)] = [
            (.id3v2, id3v2), (.apev2, ape), (.lyrics3, lyrics3), (.id3v1, id3v1),
        ]
        var tags: [TrailingTags.Tag] = []
        for case (let kind, let range?) in ranges where range.upperBound > cutoff {
            let start = max(range.lowerBound, cutoff)
            let keep = range.lowerBound >= 0 && range.count <= maxBytes
            tags.append(
                .init(
                    kind: kind, offset: tailStart + Int64(start), byteCount: Int64(range.upperBound - start),
                    bytes: keep ? Array(tail[range]) : []))
        }
        return tags
    }
}
