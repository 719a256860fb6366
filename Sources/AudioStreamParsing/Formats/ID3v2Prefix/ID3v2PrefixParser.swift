/// One or more ID3v2 tags in front of a container (MP3, ADTS, FLAC, or anything else registered):
/// reads the tags, detects the container after them, then delegates every call to its parser.
///
/// The tags are not a container, so the probe answers `.prefix`: the file type is announced only
/// once the container after the tags is recognised (`FormatDetector` on the bytes that follow, with
/// the parser's hint). The tags' metadata goes to `ParseContext.leadingMetadata`, which the
/// container's `publishHeader` announces with its header and which is merged in front of any
/// metadata the container announces later.
///
/// - Buffers: what `ID3v2StreamReader` holds, frame by frame: a frame's body up to `maxTagBytes`
///   (pictures up to `maxArtworkBytes`), larger frames skipped unbuffered with a diagnostic, so a
///   large tag never delays readiness beyond its own bytes (see the reader's buffering bound). A
///   sync word inside a tag is never seen by the container parser.
/// - `dataOffset` is the container's (for MPEG audio, its first audio frame).
/// - `finish`: delegates; throws `typ?` when the stream ends before a container was recognised, and
///   `dta?` when it ends inside a tag.
struct ID3v2PrefixParser: FormatParser {
    /// The prefix of the parser's errors and diagnostics.
    static let structure = Structure("id3v2")

    /// Recognises a valid ID3v2 header at the start of the stream.
    static let probe = FormatProbe(fileTypes: []) { window, options in
        switch ID3v2Tag.Header.recognise(window, at: 0) {
        case .header: return .prefix(ID3v2PrefixParser(options: options))
        case .needMoreData(let n): return .needMoreData(atLeast: n)
        case .notATag: return .noMatch
        }
    }

    /// Where the parser is.
    enum State {
        /// Before a tag header or the container.
        case betweenTags
        /// Reading a tag with `reader`.
        case tag
        /// Detecting the container.
        case detecting
        /// Delegating to `container`.
        case delegating
    }

    let options: ParserOptions
    private var state = State.betweenTags
    /// The tag being read (kept outside `state`, like `container`, so it is mutated in place).
    private var reader: ID3v2StreamReader?
    /// The container's parser, once detected.
    private var container: (any FormatParser)?
    private var metadata = AudioMetadata()

    init(options: ParserOptions) {
        self.options = options
    }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .betweenTags:
            switch ID3v2Tag.Header.recognise(context.window, at: 0) {
            case .header:
                reader = ID3v2StreamReader(limits: context.limits)
                state = .tag
            case .needMoreData(let n):
                if !context.window.isFinal { return .needMoreData(atLeast: n) }
                state = .detecting
            case .notATag:
                state = .detecting
            }
            return .continue

        case .tag:
            guard reader != nil else { throw context.error(.unspecifiedError, Self.structure, "no tag reader") }
            // Safe to force unwrap: checked just above; the call mutates the stored reader in place.
            switch reader!.step(&context) {
            case .needMoreData(let n):
                return .needMoreData(atLeast: n)
            case .skip(let n):
                return .skip(n)
            case .done(let tag):
                metadata = metadata.merging(tag.metadata)
            case .notATag:
                break
            }
            reader = nil
            state = .betweenTags
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
                        .unsupportedFileType, Self.structure, "stream too short to identify the container after the tag"
                    )
                }
                return .needMoreData(atLeast: n)
            case .unsupported:
                throw context.error(.unsupportedFileType, Self.structure, "no supported container after the ID3v2 tag")
            }
            state = .delegating
            return .continue

        case .delegating:
            guard container != nil else {
                throw context.error(.unspecifiedError, Self.structure, "no container parser")
            }
            // Safe to force unwrap: checked just above; the call mutates the stored parser in place.
            return try container!.step(&context)
        }
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        switch state {
        case .delegating:
            try container?.finish(&context)
        case .tag:
            _ = reader?.finish(&context)
            throw context.error(.invalidFile, Self.structure, "stream ends inside a tag, before any audio")
        case .betweenTags, .detecting:
            throw context.error(.unsupportedFileType, Self.structure, "no audio container after the ID3v2 tag")
        }
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        switch state {
        case .delegating:
            container?.discontinuity(&context)
        case .tag:
            // The rest of the tag is lost: look for the container in what follows.
            context.diagnose(.discontinuity, Self.structure, "discontinuity inside the tag; its metadata is dropped")
            reader = nil
            state = .detecting
        case .betweenTags, .detecting:
            state = .detecting
        }
    }

    var packetMap: PacketMap { container?.packetMap ?? .unknown }

    var tracks: [TrackInfo] { container?.tracks ?? [] }

    func packetHolding(frame: Int64) -> Translation<PacketPosition>? { container?.packetHolding(frame: frame) }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        container?.prepareForSeek(toPacket: packet, byteOffset: byteOffset) ?? false
    }

    mutating func aimSeekLanding(atFrame frame: Int64) { container?.aimSeekLanding(atFrame: frame) }

}
