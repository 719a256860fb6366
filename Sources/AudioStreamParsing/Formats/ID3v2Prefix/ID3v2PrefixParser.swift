/// One or more ID3v2 tags in front of a container (MP3, ADTS, FLAC, or anything else registered):
/// reads the tags, detects the container after them, then delegates every call to its parser.
///
/// The tags are not a container, so the probe answers `.prefix`: the file type is announced only
/// once the container after the tags is recognised (`FormatDetector` on the bytes that follow, with
/// the parser's hint). The tags' metadata goes to `ParseContext.leadingMetadata`, which the
/// container's `publishHeader` announces with its header and which is merged in front of any
/// metadata the container announces later.
///
/// - Buffers: each tag up to `min(ParserLimits.maxTagBytes, maxBufferedBytes)` bytes; the rest of a
///   larger tag (typically artwork) is skipped unbuffered with a diagnostic, so it never delays
///   readiness beyond its own bytes. A sync word inside a tag is never seen by the container parser.
/// - `dataOffset` is the container's (for MPEG audio, its first audio frame).
/// - `finish`: delegates; throws `typ?` when the stream ends before a container was recognised, and
///   `dta?` when it ends inside a tag.
struct ID3v2PrefixParser: FormatParser {
    /// Recognises a valid ID3v2 header at the start of the stream.
    static let probe = FormatProbe(fileTypes: []) { window, options in
        switch ID3v2TagHeader.recognise(window, at: 0) {
        case .header: return .prefix(ID3v2PrefixParser(options: options))
        case .needMoreData(let n): return .needMoreData(atLeast: n)
        case .notATag: return .noMatch
        }
    }

    /// Where the parser is.
    enum State {
        /// Before a tag header or the container.
        case betweenTags
        /// Reading `readCount` bytes of a tag (all of it, or the first part of a larger one).
        case tag(ID3v2TagHeader, readCount: Int)
        /// Detecting the container.
        case detecting
        /// Delegating to `container`.
        case delegating
    }

    let options: ParserOptions
    private var state = State.betweenTags
    /// The container's parser, once detected (kept outside `state` so it is mutated in place).
    private var container: (any FormatParser)?
    private var metadata = AudioMetadata()

    init(options: ParserOptions) {
        self.options = options
    }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .betweenTags:
            switch ID3v2TagHeader.recognise(context.window, at: 0) {
            case .header(let header):
                let limit = min(context.limits.maxTagBytes, context.limits.maxBufferedBytes)
                state = .tag(header, readCount: min(header.totalByteCount, limit))
            case .needMoreData(let n):
                if !context.window.isFinal { return .needMoreData(atLeast: n) }
                state = .detecting
            case .notATag:
                state = .detecting
            }
            return .continue

        case .tag(let header, let readCount):
            guard let bytes = context.window.peekBytes(count: readCount) else {
                if context.window.isFinal {
                    throw context.error(
                        .invalidFile, "id3v2: stream ends inside a tag of \(header.totalByteCount) bytes")
                }
                return .needMoreData(atLeast: readCount)
            }
            context.window.consume(readCount)
            if let tagMetadata = Self.metadata(fromTag: bytes) { metadata = metadata.merging(tagMetadata) }
            state = .betweenTags
            let rest = header.totalByteCount - readCount
            if rest > 0 {
                context.diagnose(
                    "id3v2: \(header.totalByteCount)-byte tag exceeds maxTagBytes; first \(readCount) bytes read, "
                        + "\(rest) skipped")
                return .skip(Int64(rest))
            }
            return .continue

        case .detecting:
            if !metadata.isEmpty { context.leadingMetadata = metadata }
            switch FormatDetector.detect(context.window, hint: context.fileTypeHint, options: options) {
            case .found(let type, let parser):
                context.fileType = type
                context.announce(.fileFormat(type))
                container = parser
            case .prefix(let parser):
                container = parser
            case .needMoreData(let n):
                if context.window.isFinal {
                    throw context.error(
                        .unsupportedFileType, "id3v2: stream too short to identify the container after the tag")
                }
                return .needMoreData(atLeast: n)
            case .unsupported:
                throw context.error(.unsupportedFileType, "id3v2: no supported container after the ID3v2 tag")
            }
            state = .delegating
            return .continue

        case .delegating:
            guard container != nil else { throw context.error(.unspecifiedError, "id3v2: no container parser") }
            // Safe to force unwrap: checked just above; the call mutates the stored parser in place.
            return try container!.step(&context)
        }
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        switch state {
        case .delegating:
            try container?.finish(&context)
        case .tag(let header, _):
            throw context.error(.invalidFile, "id3v2: stream ends inside a tag of \(header.totalByteCount) bytes")
        case .betweenTags, .detecting:
            throw context.error(.unsupportedFileType, "id3v2: no audio container after the ID3v2 tag")
        }
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        switch state {
        case .delegating:
            container?.discontinuity(&context)
        case .tag:
            // The rest of the tag is lost: look for the container in what follows.
            context.diagnose("id3v2: discontinuity inside the tag; its metadata is dropped")
            state = .detecting
        case .betweenTags, .detecting:
            state = .detecting
        }
    }

    var packetMap: PacketMap { container?.packetMap ?? .unknown }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        container?.prepareForSeek(toPacket: packet, byteOffset: byteOffset) ?? false
    }

    /// The metadata of one tag's bytes (the whole tag, or its first part), via `ID3v2TagReader`.
    static func metadata(fromTag bytes: [UInt8]) -> AudioMetadata? {
        guard let entries = ID3v2TagReader.read(bytes), !entries.isEmpty else { return nil }
        var metadata = AudioMetadata()
        ID3v2TagReader.merge(entries, into: &metadata)
        return metadata
    }
}
