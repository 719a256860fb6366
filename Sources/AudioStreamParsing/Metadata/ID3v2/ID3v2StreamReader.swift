/// Reads one ID3v2 tag from a stream, frame by frame, without ever holding a large tag whole: a
/// reusable step helper for format parsers (the leading-ID3v2 prefix, ADTS timed metadata, tags
/// between MPEG frames), in the style of `ConstantPacketData`.
///
/// Contract:
/// - Create it when `context.window`'s position is at the first byte of the tag (`ID3`), and call
///   ``step(_:)`` from the format parser's `step`. Each call consumes what it can (header, whole
///   frames, padding) and returns:
///   - `.needMoreData(atLeast: n)`: return `.needMoreData(atLeast: n)` to the driver (n is counted
///     from the current position and is larger than what is readable), then call again;
///   - `.skip(n)`: return `.skip(n)` to the driver (a frame or padding too large to buffer, or a
///     tag that cannot be read), then call again;
///   - `.done(tag)`: the tag is over and consumed (footer included); the position is right after it;
///   - `.notATag`: the bytes at the position are not an ID3v2 header; nothing was consumed.
/// - Diagnostics are reported with `context.diagnose` at the offset they concern, as they occur,
///   with the kinds of ``ID3v2Tag``'s notes (`.truncated` when the stream ends inside the tag,
///   `.limitExceeded` for an unsynchronised tag too large to buffer); the final tag's `notes`
///   repeats them.
/// - At end of stream while `step` still wants data, call ``finish(_:)``: it reports that the stream
///   ended inside the tag and returns what was read (nil before the header).
/// - After a discontinuity, drop the reader.
///
/// Buffering bound (bytes the driver must hold at once for this reader):
/// - 10 (tag header), 4 (extended-header size), 10 (footer);
/// - per frame: its header plus its body when the body is at most
///   ``ID3v2FrameHeader/maxBufferedBodySize(id:limits:)`` (pictures `maxArtworkBytes` + 4 KiB,
///   other frames `maxTagBytes`, both at most `maxBufferedBytes` − 16), plus 4 bytes of look-ahead
///   to check a 2.4 frame size; a larger frame is skipped unread;
/// - tags with tag-level unsynchronisation (2.2/2.3 flag 0x80), whose frame boundaries are only
///   known after reversing it: the whole tag when it is at most `min(maxTagBytes, maxBufferedBytes)`
///   bytes, else the tag is skipped unread with a diagnostic;
/// - a compressed 2.2 tag is skipped unread.
///
/// So the bound is `max(min(maxTagBytes, maxBufferedBytes), min(maxArtworkBytes + 4096 + 14,
/// maxBufferedBytes))`: a tag larger than the limits never delays the stream beyond its own bytes.
struct ID3v2StreamReader {
    /// What ``step(_:)`` asks of its caller.
    enum Progress: Equatable {
        case needMoreData(atLeast: Int)
        case skip(Int64)
        case done(ID3v2Tag)
        case notATag
    }

    /// Where the reader is.
    private enum State {
        /// Before the 10-byte header.
        case header
        /// Before the extended header.
        case extendedHeader(ID3v2Tag.Header)
        /// Reading frames; `remaining` bytes of the body are left (frames and padding).
        case frames(ID3v2Tag.Header, remaining: Int)
        /// Buffering the whole tag, header included (tag-level unsynchronisation).
        case wholeTag(ID3v2Tag.Header)
        /// Before the 10-byte footer.
        case footer(ID3v2Tag.Header)
        /// The tag's bytes are all consumed or skipped.
        case end(ID3v2Tag.Header)
        /// Finished.
        case done(ID3v2Tag)
    }

    let limits: ParserLimits
    private var state = State.header
    private var builder: ID3v2MetadataBuilder?
    private var sizeMode = ID3v2FrameHeader.SizeMode.undecided
    /// Absolute offset of the tag's first byte.
    private var tagStart: Int64 = 0
    /// Bytes of the tag consumed or skipped so far.
    private var taken = 0
    private var notes: [DiagnosticNote] = []

    init(limits: ParserLimits) {
        self.limits = limits
    }

    /// Reads as far as the readable bytes allow; see the type's contract.
    mutating func step(_ context: inout ParseContext) -> Progress {
        while true {
            switch state {
            case .header:
                let window = context.window
                switch ID3v2Tag.Header.recognise(window, at: 0) {
                case .notATag:
                    return .notATag
                case .needMoreData(let n):
                    return .needMoreData(atLeast: n)
                case .header(let header):
                    tagStart = window.position
                    builder = ID3v2MetadataBuilder(version: header.majorVersion, limits: limits)
                    if let progress = begin(header, &context) { return progress }
                }

            case .extendedHeader(let header):
                guard let sizeBytes = context.window.peekBytes(count: 4) else { return .needMoreData(atLeast: 4) }
                guard let length = ID3v2Tag.extendedHeaderLength(sizeBytes, version: header.majorVersion),
                    length <= header.size
                else {
                    report(ID3v2Tag.Note.invalidExtendedHeader, &context)
                    if let progress = skipBody(header.size, header, &context) { return progress }
                    continue
                }
                if let progress = skip(length, then: .frames(header, remaining: header.size - length), &context) {
                    return progress
                }

            case .frames(let header, let remaining):
                if remaining == 0 {
                    state = header.hasFooter ? .footer(header) : .end(header)
                    continue
                }
                if let progress = stepFrame(header, remaining: remaining, &context) { return progress }

            case .wholeTag(let header):
                let total = header.totalByteCount
                guard let bytes = context.window.peekBytes(count: total) else { return .needMoreData(atLeast: total) }
                take(total, &context)
                // Safe: the bytes start with the header that was recognised.
                guard let tag = ID3v2Tag.parse(bytes, limits: limits) else {
                    state = .end(header)
                    continue
                }
                for note in tag.notes {
                    notes.append(note)
                    context.diagnose(note, at: tagStart)
                }
                state = .done(tag)

            case .footer(let header):
                guard let bytes = context.window.peekBytes(count: ID3v2Tag.Header.byteCount) else {
                    return .needMoreData(atLeast: ID3v2Tag.Header.byteCount)
                }
                if ID3v2Tag.Header.decodeFooter(bytes) != nil {
                    take(ID3v2Tag.Header.byteCount, &context)
                } else {
                    report(ID3v2Tag.Note.missingFooter, &context)
                }
                state = .end(header)

            case .end(let header):
                let tag = result(header)
                state = .done(tag)
                return .done(tag)

            case .done(let tag):
                return .done(tag)
            }
        }
    }

    /// The stream ended while ``step(_:)`` wanted more bytes: reports it and returns what was read
    /// (`nil` when the header was not complete). The reader is finished afterwards.
    mutating func finish(_ context: inout ParseContext) -> ID3v2Tag? {
        switch state {
        case .header:
            return nil
        case .done(let tag):
            return tag
        case .end(let header):
            let tag = result(header)
            state = .done(tag)
            return tag
        case .extendedHeader(let header), .frames(let header, _), .wholeTag(let header), .footer(let header):
            report(
                DiagnosticNote(
                    .truncated, ID3v2Tag.Note.structure,
                    "stream ends \(taken) bytes into a tag of \(header.totalByteCount) bytes"), &context)
            let tag = result(header)
            state = .done(tag)
            return tag
        }
    }

    // MARK: Steps

    /// At the header (not consumed yet): the path the tag takes. Returns a progress to hand back, or
    /// `nil` to go on.
    private mutating func begin(_ header: ID3v2Tag.Header, _ context: inout ParseContext) -> Progress? {
        if header.unsynchronisesWholeTag && !header.isCompressedVersion22 {
            let bound = min(limits.maxTagBytes, limits.maxBufferedBytes)
            if header.totalByteCount <= bound {
                // Frame boundaries are only known after reversing unsynchronisation: buffer it all.
                state = .wholeTag(header)
                return nil
            }
        }
        take(ID3v2Tag.Header.byteCount, &context)
        if header.isCompressedVersion22 {
            report(ID3v2Tag.Note.compressed(header), &context)
            return skipBody(header.size, header, &context)
        }
        if header.unsynchronisesWholeTag {
            report(
                DiagnosticNote(
                    .limitExceeded, ID3v2Tag.Note.structure,
                    "unsynchronised \(header.versionName) tag of \(header.totalByteCount) bytes exceeds "
                        + "maxTagBytes; skipped unread"), &context)
            return skipBody(header.size, header, &context)
        }
        state = header.hasExtendedHeader ? .extendedHeader(header) : .frames(header, remaining: header.size)
        return nil
    }

    /// One frame (or the padding) at a frame boundary with `remaining` body bytes left.
    private mutating func stepFrame(
        _ header: ID3v2Tag.Header, remaining: Int, _ context: inout ParseContext
    ) -> Progress? {
        let window = context.window
        let readable = window.readable
        let resolution = ID3v2FrameHeader.resolve(
            version: header.majorVersion, available: min(readable, remaining), remaining: remaining,
            mode: &sizeMode, limits: limits
        ) { i in i < remaining ? window.peekUInt8(at: i) : nil }
        let afterBody: State = header.hasFooter ? .footer(header) : .end(header)
        switch resolution {
        case .needBytes(let n):
            return .needMoreData(atLeast: n)
        case .padding:
            return skip(remaining, then: afterBody, &context)
        case .invalid(let reason):
            report(ID3v2Tag.Note.invalidFrame(reason, at: header.size - remaining), &context)
            return skip(remaining, then: afterBody, &context)
        case .frame(let frame):
            let headerSize = header.frameHeaderByteCount
            guard frame.size <= remaining - headerSize else {
                report(ID3v2Tag.Note.overrun(frame, left: remaining - headerSize), &context)
                return skip(remaining, then: afterBody, &context)
            }
            let total = headerSize + frame.size
            let next = State.frames(header, remaining: remaining - total)
            if frame.size > ID3v2FrameHeader.maxBufferedBodySize(id: frame.id, limits: limits) {
                builder?.skipped(frame)
                forwardNotes(&context)
                return skip(total, then: next, &context)
            }
            guard let data = window.peekBytes(at: headerSize, count: frame.size) else {
                return .needMoreData(atLeast: total)
            }
            builder?.add(frame, data: data[...], tagUnsynchronised: header.isUnsynchronised)
            forwardNotes(&context)
            take(total, &context)
            state = next
            return nil
        }
    }

    // MARK: Helpers

    /// Consumes `count` readable bytes of the tag.
    private mutating func take(_ count: Int, _ context: inout ParseContext) {
        context.window.consume(count)
        taken += count
    }

    /// Moves past `count` bytes of the tag into `next`: consumed when readable, else handed to the
    /// driver as a skip.
    private mutating func skip(_ count: Int, then next: State, _ context: inout ParseContext) -> Progress? {
        state = next
        if count <= context.window.readable {
            take(count, &context)
            return nil
        }
        taken += count
        return .skip(Int64(count))
    }

    /// Skips the rest of the body (and the footer, when declared) and finishes.
    private mutating func skipBody(_ count: Int, _ header: ID3v2Tag.Header, _ context: inout ParseContext) -> Progress?
    {
        let footer = header.hasFooter ? ID3v2Tag.Header.byteCount : 0
        return skip(count + footer, then: .end(header), &context)
    }

    /// The tag as read so far.
    private func result(_ header: ID3v2Tag.Header) -> ID3v2Tag {
        let builder = builder ?? ID3v2MetadataBuilder(version: header.majorVersion, limits: limits)
        return ID3v2Tag(
            header: header, metadata: builder.metadata(), notes: notes, byteCount: taken,
            textEntries: builder.textEntries)
    }

    /// Keeps `note` for the tag and reports it at the current position.
    private mutating func report(_ note: DiagnosticNote, _ context: inout ParseContext) {
        notes.append(note)
        context.diagnose(note, at: context.window.position)
    }

    /// Reports the notes the builder added for the last frame.
    private mutating func forwardNotes(_ context: inout ParseContext) {
        guard var b = builder else { return }
        let frameNotes = b.takeNotes()
        builder = b
        for note in frameNotes { report(note, &context) }
    }
}
