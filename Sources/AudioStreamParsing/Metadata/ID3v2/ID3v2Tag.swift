/// One ID3v2 tag (2.2, 2.3 or 2.4) read whole from memory: its header, metadata and diagnostics.
///
/// References: ID3 tag version 2 (informal standard, 1998; "2.2"), ID3 tag version 2.3.0 (1999),
/// ID3 tag version 2.4.0 – Main Structure and – Native Frames (2000), ID3v2 Chapter Frame
/// Addendum 1.0 (2005), all at id3.org.
///
/// Layout:
///
/// ```
///  header (10)  [extended header]  frames …  [padding: zero bytes]  [footer (10), 2.4]
///               └──────────── header.size bytes ─────────────────┘
/// ```
///
/// What is read: tag-level unsynchronisation (2.2/2.3, reversed over the whole tag before the
/// frames are walked) and frame-level unsynchronisation (2.4); the extended header (skipped: 2.3
/// size excludes itself, 2.4 syncsafe size includes itself); the 2.4 footer (checked); 2.4 frames
/// written with plain 32-bit sizes (iTunes; see
/// ``ID3v2FrameHeader/resolve(version:available:remaining:mode:limits:peek:)``);
/// every frame through ``ID3v2MetadataBuilder`` (text frames → Apple info keys, `TXXX`, `COMM`,
/// `USLT`, `APIC`/`PIC` → artwork, `CHAP`/`CTOC` → chapters, `PRIV`/`UFID` and unknown frames raw,
/// compressed and encrypted frames raw with a diagnostic).
///
/// Limits: a frame body larger than ``ID3v2FrameHeader/maxBufferedBodySize(id:limits:)`` is skipped
/// with a diagnostic (the streaming reader never buffers it; this parser skips it too so that both
/// agree); pictures above `maxArtworkBytes` are dropped with a diagnostic.
///
/// Contract: never traps, work proportional to the input; malformed structures end the frame walk
/// with a diagnostic and keep what was read before them.
struct ID3v2Tag: Equatable, Sendable {
    /// The tag header.
    let header: Header
    /// What the frames held.
    var metadata: AudioMetadata
    /// Oddities, in tag order ("id3v2 (APIC): picture of … bytes exceeds maxArtworkBytes …").
    var diagnostics: [String]
    /// Bytes the tag occupies in its stream: header, body, and the footer when one is there. A
    /// caller reading consecutive tags finds the next one this many bytes after this one's start.
    var byteCount: Int
    /// The text and comment frames, as the legacy ``ID3v2TagReader/read(_:)`` returns them.
    var textEntries: [ID3v2TagReader.Entry]

    /// Parses the tag at the start of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: the tag; bytes after it are ignored, and a tag declared longer than `bytes` is read
    ///     as far as it goes (with a diagnostic).
    ///   - limits: `maxTagBytes`, `maxArtworkBytes` and `maxBufferedBytes` bound what is decoded.
    /// - Returns: the tag, or `nil` when `bytes` do not start with an ID3v2.2–2.4 header.
    static func parse(_ bytes: ArraySlice<UInt8>, limits: ParserLimits = ParserLimits()) -> ID3v2Tag? {
        guard let header = Header.decode(bytes) else { return nil }
        var builder = ID3v2MetadataBuilder(version: header.majorVersion, limits: limits)
        let present = bytes.count - Header.byteCount
        if header.size > present {
            builder.diagnose("tag declares \(header.size) bytes after its header but only \(present) are present")
        }
        let bodyStart = bytes.startIndex + Header.byteCount
        var body = Array(bytes[bodyStart..<(bodyStart + min(header.size, present))])
        var byteCount = header.totalByteCount
        if header.isCompressedVersion22 {
            builder.diagnose("\(header.versionName) tag is compressed (no scheme was defined); ignored")
        } else {
            if header.unsynchronisesWholeTag { body = removeUnsynchronisation(body[...]) }
            var position = 0
            if header.hasExtendedHeader {
                if let length = extendedHeaderLength(Array(body.prefix(4)), version: header.majorVersion),
                    length <= body.count
                {
                    position = length
                } else {
                    builder.diagnose("invalid extended header; frames not read")
                    position = body.count
                }
            }
            walkFrames(body, from: position, header: header, &builder)
            if header.hasFooter {
                let footerStart = bodyStart + header.size
                if bytes.count - (footerStart - bytes.startIndex) >= Header.byteCount,
                    Header.decodeFooter(bytes[footerStart...]) == nil
                {
                    builder.diagnose("footer flag set but no '3DI' footer follows the tag")
                    byteCount -= Header.byteCount
                }
            }
        }
        return ID3v2Tag(
            header: header, metadata: builder.metadata(), diagnostics: builder.takeDiagnostics(), byteCount: byteCount,
            textEntries: builder.textEntries)
    }

    /// Parses the tag at the start of `bytes`; see ``parse(_:limits:)-(ArraySlice<UInt8>,_)``.
    static func parse(_ bytes: [UInt8], limits: ParserLimits = ParserLimits()) -> ID3v2Tag? {
        parse(bytes[...], limits: limits)
    }

    /// Parses consecutive tags from the start of `bytes` (each one `byteCount` after the previous),
    /// stopping at the first position that does not hold an ID3v2 header.
    static func parseConsecutive(_ bytes: [UInt8], limits: ParserLimits = ParserLimits()) -> [ID3v2Tag] {
        var tags: [ID3v2Tag] = []
        var offset = 0
        while offset < bytes.count, let tag = parse(bytes[offset...], limits: limits) {
            tags.append(tag)
            offset += tag.byteCount
        }
        return tags
    }

    /// The length of the tag whose header starts `bytes` (header, body and declared footer), or `nil`
    /// when the first 10 bytes are not an ID3v2 header.
    static func declaredByteCount<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        Header.decode(bytes)?.totalByteCount
    }

    /// Walks the frames of a body held in memory (unsynchronisation already reversed for 2.2/2.3).
    static func walkFrames(_ body: [UInt8], from start: Int, header: Header, _ builder: inout ID3v2MetadataBuilder) {
        var position = start
        var mode = ID3v2FrameHeader.SizeMode.undecided
        let headerSize = header.frameHeaderByteCount
        while position < body.count {
            let remaining = body.count - position
            let frameStart = position
            let resolution = ID3v2FrameHeader.resolve(
                version: header.majorVersion, available: remaining, remaining: remaining, mode: &mode,
                limits: builder.limits
            ) { i in frameStart + i < body.count ? body[frameStart + i] : nil }
            switch resolution {
            case .padding:
                return
            case .invalid(let reason):
                builder.diagnose("\(reason) at offset \(frameStart) of the tag body; the rest is ignored")
                return
            case .needBytes:
                // Cannot happen: everything is available. Stop rather than loop.
                return
            case .frame(let frame):
                guard frame.size <= remaining - headerSize else {
                    builder.diagnose(
                        frame.id,
                        "frame of \(frame.size) bytes overruns the tag (\(remaining - headerSize) left); "
                            + "the rest of the tag is ignored")
                    return
                }
                let dataStart = frameStart + headerSize
                if frame.size > ID3v2FrameHeader.maxBufferedBodySize(id: frame.id, limits: builder.limits) {
                    builder.skipped(frame)
                } else {
                    builder.add(
                        frame, data: body[dataStart..<(dataStart + frame.size)],
                        tagUnsynchronised: header.isUnsynchronised)
                }
                position = dataStart + frame.size
            }
        }
    }
}
