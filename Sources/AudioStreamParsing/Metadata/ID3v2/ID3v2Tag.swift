/// One ID3v2 tag (2.2, 2.3 or 2.4) read whole from memory: its header, metadata and notes.
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
/// with a diagnostic and keep what was read before them. The diagnostics are ``notes`` for the
/// caller to report at the tag: `.damagedMetadata` for malformed bytes, `.limitExceeded` for a frame
/// or picture over a limit, `.unsupportedFeature` for what is valid but not decoded (a compressed
/// 2.2 tag, encrypted or compressed frames, a picture link).
struct ID3v2Tag: Equatable, Sendable {
    /// The tag header.
    let header: Header
    /// What the frames held.
    var metadata: AudioMetadata
    /// Oddities, in tag order ("id3v2 (APIC): picture of … bytes exceeds maxArtworkBytes …").
    var notes: [DiagnosticNote]
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
            builder.diagnose(
                DiagnosticNote(
                    .damagedMetadata, Note.structure,
                    "tag declares \(header.size) bytes after its header but only \(present) are present"))
        }
        let bodyStart = bytes.startIndex + Header.byteCount
        var body = Array(bytes[bodyStart..<(bodyStart + min(header.size, present))])
        var byteCount = header.totalByteCount
        if header.isCompressedVersion22 {
            builder.diagnose(Note.compressed(header))
        } else {
            if header.unsynchronisesWholeTag { body = removeUnsynchronisation(body[...]) }
            var position = 0
            if header.hasExtendedHeader {
                if let length = extendedHeaderLength(Array(body.prefix(4)), version: header.majorVersion),
                    length <= body.count
                {
                    position = length
                } else {
                    builder.diagnose(Note.invalidExtendedHeader)
                    position = body.count
                }
            }
            walkFrames(body, from: position, header: header, &builder)
            if header.hasFooter {
                let footerStart = bodyStart + header.size
                if bytes.count - (footerStart - bytes.startIndex) >= Header.byteCount,
                    Header.decodeFooter(bytes[footerStart...]) == nil
                {
                    builder.diagnose(Note.missingFooter)
                    byteCount -= Header.byteCount
                }
            }
        }
        return ID3v2Tag(
            header: header, metadata: builder.metadata(), notes: builder.takeNotes(), byteCount: byteCount,
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
                builder.diagnose(Note.invalidFrame(reason, at: frameStart))
                return
            case .needBytes:
                // Cannot happen: everything is available. Stop rather than loop.
                return
            case .frame(let frame):
                guard frame.size <= remaining - headerSize else {
                    builder.diagnose(Note.overrun(frame, left: remaining - headerSize))
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

extension ID3v2Tag {
    /// The notes about the tag's own structure (header, extended header, frame boundaries, footer),
    /// worded once for both readers, `parse` and `ID3v2StreamReader`, so that both give the same kinds
    /// and texts. Notes about a frame's content come from ``ID3v2MetadataBuilder``.
    enum Note {
        /// `id3v2`, or `id3v2 (APIC)` for a frame.
        static let structure = Structure("id3v2")

        /// A 2.2 tag with the compression flag: 2.2 §3.1 defines no scheme and says to ignore the tag.
        static func compressed(_ header: Header) -> DiagnosticNote {
            DiagnosticNote(
                .unsupportedFeature, structure,
                "\(header.versionName) tag is compressed (no scheme was defined); ignored")
        }

        /// An extended header whose size does not fit the tag.
        static let invalidExtendedHeader = DiagnosticNote(
            .damagedMetadata, structure, "invalid extended header; frames not read")

        /// A 2.4 tag whose flags announce a footer that is not there.
        static let missingFooter = DiagnosticNote(
            .damagedMetadata, structure, "footer flag set but no '3DI' footer follows the tag")

        /// Bytes at a frame boundary that are neither a frame nor padding, `offset` bytes into the body.
        static func invalidFrame(_ reason: String, at offset: Int) -> DiagnosticNote {
            DiagnosticNote(
                .damagedMetadata, structure, "\(reason) at offset \(offset) of the tag body; the rest is ignored")
        }

        /// A frame whose size runs past the tag, with `left` bytes of the body after its header.
        static func overrun(_ frame: ID3v2FrameHeader, left: Int) -> DiagnosticNote {
            DiagnosticNote(
                .damagedMetadata, structure(frame.id),
                "frame of \(frame.size) bytes overruns the tag (\(left) left); the rest of the tag is ignored")
        }
    }
}
