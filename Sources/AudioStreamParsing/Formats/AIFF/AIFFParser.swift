/// The AIFF and AIFF-C parser (`FORM` + `AIFF` / `AIFC`, big-endian; Apple "Audio Interchange File
/// Format" 1.3, 1989, and the AIFF-C draft of 1991-08-26). File types `.aiff` / `.aifc`.
///
/// ```
///  offset size
///   0     4   'FORM'
///   4     4   ckSize    bytes after this field (the whole file − 8)
///   8     4   formType  'AIFF' or 'AIFC'
///  12     …   local chunks: FVER (AIFF-C), COMM, SSND, NAME, AUTH, (c) , ANNO, COMT, ID3 , MARK, …
/// ```
///
/// Contract:
/// - Buffers: one 8-byte chunk header at a time; the whole `COMM` (at most
///   `ParserLimits.maxHeaderChunkBytes`); the whole text, `COMT` and `ID3 ` chunks (at most
///   `ParserLimits.maxTagBytes` each, larger ones are skipped with a diagnostic); SSND's 8 bytes of
///   fields; at most one partial packet of audio. Every other chunk is skipped without buffering.
/// - `readyToProducePackets` is announced when SSND's fields have been read, with the data format,
///   channel layout (mono/stereo), byte and packet counts (when SSND declares its size), packet sizes,
///   bit rate, metadata found so far and `dataOffset` (SSND body + 8 + SSND `offset`). `COMM` must come
///   before `SSND`, otherwise the parser throws `notOptimized` (`optm`).
/// - Packets: one per frame for PCM, µ-law and A-law; one per 64 frames (34 bytes × channels) for IMA4.
/// - Text chunks and `ID3 ` after `SSND` are read too, and the grown metadata is announced again.
/// - `finish()` delivers the exact byte and packet counts (re-announced when the stream held fewer
///   bytes than declared, or when the size was unknown), drops a partial last packet with a diagnostic,
///   and throws `invalidFile` when the stream ended before the audio data was reached.
struct AIFFParser: FormatParser {
    /// Recognises `FORM` + `AIFF` / `AIFC` in the first 12 bytes.
    static let probe = FormatProbe(fileTypes: [.aiff, .aifc]) { window, _ in
        let magic = FourCharCode.value("FORM")
        for i in 0..<min(4, window.readable) {
            let expected = UInt8(truncatingIfNeeded: magic >> (8 * UInt32(3 - i)))
            if window.peekUInt8(at: i) != expected { return .noMatch }
        }
        guard let formType = window.peekInteger(at: 8, as: UInt32.self, endianness: .big) else {
            return .needMoreData(atLeast: formHeaderByteCount)
        }
        switch UInt32(truncatingIfNeeded: formType) {
        case AudioFileType.aiff.rawValue: return .match(.aiff, AIFFParser(fileType: .aiff))
        case AudioFileType.aifc.rawValue: return .match(.aifc, AIFFParser(fileType: .aifc))
        default: return .noMatch
        }
    }

    /// The size of `'FORM'`, its size and the form type.
    static let formHeaderByteCount = 12

    /// Where the parser is. Every case that expects a structure at a known place carries its absolute
    /// offset, so bytes still to be skipped (after `.skip` or a discontinuity) are skipped first.
    enum State {
        /// Expecting `'FORM'`, its size and the form type.
        case formHeader
        /// Expecting a chunk header at this offset.
        case chunkHeader(at: Int64)
        /// Expecting the pad byte that follows an odd-sized chunk at this offset.
        case padByte(at: Int64)
        /// Waiting for the whole body of a chunk that is parsed in one piece.
        case chunkBody(AIFFChunkHeader, AIFFChunkKind)
        /// Waiting for SSND's `offset` and `blockSize` fields.
        case soundDataFields(AIFFChunkHeader)
        /// Inside the audio.
        case soundData(SoundDataChunk, ConstantPacketData)
        /// After the FORM: bytes that are not chunks, consumed and ignored.
        case trailing
        /// A discontinuity inside the header lost the chunk structure; the next step throws.
        case lost
    }

    /// `.aiff` or `.aifc`.
    let fileType: AudioFileType
    var state: State = .formHeader
    /// Absolute end of the FORM by its size, or `nil` when the size is a pipe placeholder (0, 0xFFFFFFFF).
    var formEnd: Int64?
    /// The `COMM` chunk, once read.
    var common: CommonChunk?
    /// The format `COMM` defines.
    var format: AIFFAudioFormat?
    /// Metadata from text, `COMT` and `ID3 ` chunks.
    var metadata = AudioMetadata()
    /// Bytes of metadata chunks read so far (capped at `ParserLimits.maxTagBytes`).
    var metadataBytes = 0
    /// Offset of the last metadata chunk read, so that chunks read again after a seek are not added twice.
    var lastMetadataChunk: Int64 = -1
    /// The sound data, once its fields were read.
    var sound: (chunk: SoundDataChunk, data: ConstantPacketData)?
    /// The whole packets and the bytes the data really holds, once known (its end was reached, or the
    /// stream ended).
    var exactCounts: (packets: Int64, bytes: Int64)?
    /// Whether "chunk after the FORM end" was reported.
    var reportedChunkAfterForm = false

    init(fileType: AudioFileType) {
        self.fileType = fileType
    }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .formHeader:
            return readFormHeader(&context)
        case .chunkHeader(let offset):
            if let skip = skip(to: offset, context) { return skip }
            return try readChunkHeader(&context)
        case .padByte(let offset):
            if let skip = skip(to: offset, context) { return skip }
            return readPadByte(at: offset, &context)
        case .chunkBody(let header, let kind):
            return try readChunkBody(header, kind, &context)
        case .soundDataFields(let header):
            return try readSoundDataFields(header, &context)
        case .soundData(let chunk, let data):
            return readSoundData(chunk, data, &context)
        case .trailing:
            context.window.consume(context.window.readable)
            return .needMoreData(atLeast: 1)
        case .lost:
            throw context.error(
                .discontinuityCantRecover, "aiff: a discontinuity before the audio data lost the chunk structure")
        }
    }

    /// `.skip` to `offset` when the position is before it.
    private func skip(to offset: Int64, _ context: ParseContext) -> ParseStep? {
        let position = context.window.position
        return position < offset ? .skip(offset - position) : nil
    }

    /// The state after `header`'s body: its pad byte, or the next chunk.
    static func next(after header: AIFFChunkHeader) -> State {
        header.isPadded ? .padByte(at: header.bodyEnd) : .chunkHeader(at: header.bodyEnd)
    }

    // MARK: FORM and chunk headers

    private mutating func readFormHeader(_ context: inout ParseContext) -> ParseStep {
        let start = context.window.position
        guard let size = context.window.peekInteger(at: 4, as: UInt32.self, endianness: .big) else {
            return .needMoreData(atLeast: Self.formHeaderByteCount)
        }
        if size == 0 || size == 0xFFFF_FFFF {
            context.diagnose(
                "aiff (FORM): size \(size) (written to a pipe?); chunks are read to the end of the stream")
        } else if size < 4 {
            context.diagnose("aiff (FORM): size \(size) cannot hold the form type; ignored")
        } else {
            formEnd = start + 8 + Int64(size)
        }
        context.window.consume(Self.formHeaderByteCount)
        state = .chunkHeader(at: start + Int64(Self.formHeaderByteCount))
        return .continue
    }

    private mutating func readChunkHeader(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        let window = context.window
        guard let id = window.peekInteger(at: 0, as: UInt32.self, endianness: .big),
            let size = window.peekInteger(at: 4, as: UInt32.self, endianness: .big)
        else { return .needMoreData(atLeast: AIFFChunkHeader.byteCount) }
        let header = AIFFChunkHeader(
            id: UInt32(truncatingIfNeeded: id), size: UInt32(truncatingIfNeeded: size), offset: window.position)
        let kind = AIFFChunkRegistry.kind(of: header.id)

        if let formEnd, header.offset >= formEnd {
            // Past the FORM's declared end: a known chunk means the FORM size is too small (read on);
            // anything else is trailing data.
            guard kind != nil else {
                context.diagnose("aiff: data after the end of the FORM (at \(formEnd)) ignored")
                state = .trailing
                return .continue
            }
            if !reportedChunkAfterForm {
                reportedChunkAfterForm = true
                context.diagnose(
                    "aiff (FORM): chunk '\(header.name)' lies after the end of the FORM (at \(formEnd)); read anyway")
            }
        }

        let next: State
        switch kind {
        case .common?:
            if common != nil {
                context.diagnose("aiff (COMM): a second COMM chunk ignored")
                next = Self.next(after: header)
            } else if header.size < CommonChunk.aiffByteCount {
                throw context.error(
                    .invalidFile,
                    "aiff (COMM): chunk is \(header.size) bytes, at least \(CommonChunk.aiffByteCount) needed")
            } else if Int64(header.size) > Int64(context.limits.maxHeaderChunkBytes) {
                throw context.error(.limitExceeded, "aiff (COMM): chunk larger than maxHeaderChunkBytes")
            } else {
                next = .chunkBody(header, .common)
            }
        case .soundData?:
            if sound != nil {
                context.diagnose("aiff (SSND): a second SSND chunk ignored")
                next = Self.next(after: header)
            } else if format == nil {
                throw context.error(
                    .notOptimized,
                    "aiff (SSND): sound data before the COMM chunk; packets cannot be produced in a stream")
            } else {
                try SoundDataChunk.validate(header, context: &context)
                next = .soundDataFields(header)
            }
        case .ignored?:
            next = Self.next(after: header)
        case let metadataKind?:
            if header.offset <= lastMetadataChunk {
                next = Self.next(after: header)  // read before a seek back
            } else if Int64(header.size) > Int64(context.limits.maxTagBytes) {
                context.diagnose("aiff (\(header.name)): chunk larger than maxTagBytes skipped")
                next = Self.next(after: header)
            } else if metadataBytes + Int(header.size) > context.limits.maxTagBytes {
                context.diagnose("aiff (\(header.name)): metadata chunks exceed maxTagBytes in total; skipped")
                next = Self.next(after: header)
            } else {
                next = .chunkBody(header, metadataKind)
            }
        case nil:
            context.diagnose("aiff: unknown chunk '\(header.name)' (\(header.size) bytes) skipped")
            next = Self.next(after: header)
        }
        context.window.consume(AIFFChunkHeader.byteCount)
        state = next
        return .continue
    }

    /// The pad byte after an odd-sized chunk: consumed when it is 0. A missing pad (the next bytes
    /// already look like a chunk ID) is tolerated with a diagnostic; a non-zero byte that does not start
    /// a chunk ID is taken as the pad.
    private mutating func readPadByte(at offset: Int64, _ context: inout ParseContext) -> ParseStep {
        guard let byte = context.window.peekUInt8(at: 0) else { return .needMoreData(atLeast: 1) }
        if byte != 0 {
            guard let id = context.window.peekInteger(at: 0, as: UInt32.self, endianness: .big) else {
                return .needMoreData(atLeast: 4)
            }
            if AIFFChunkRegistry.isPlausibleID(UInt32(truncatingIfNeeded: id)) {
                context.diagnose("aiff: the pad byte after an odd-sized chunk is missing")
                state = .chunkHeader(at: offset)
                return .continue
            }
        }
        context.window.consume(1)
        state = .chunkHeader(at: offset + 1)
        return .continue
    }

    // MARK: Buffered chunks

    private mutating func readChunkBody(
        _ header: AIFFChunkHeader, _ kind: AIFFChunkKind, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        let count = Int(header.size)
        guard let body = context.window.peekBytes(count: count) else { return .needMoreData(atLeast: count) }
        switch kind {
        case .common:
            let chunk = try CommonChunk.decode(body, isAIFC: fileType == .aifc, at: header.offset, context: &context)
            format = try chunk.audioFormat(at: header.offset, context: &context)
            common = chunk
        case .text(let infoKey):
            AIFFText.readTextChunk(body, id: header.id, infoKey: infoKey, into: &metadata)
        case .comments:
            if !AIFFText.readCommentsChunk(body, into: &metadata) {
                context.diagnose(at: header.offset, "aiff (COMT): chunk ends inside a comment; the rest ignored")
            }
        case .id3:
            if let tag = ID3v2Tag.parse(body, limits: context.limits) {
                metadata = metadata.merging(tag.metadata)
                for message in tag.diagnostics { context.diagnose(at: header.offset, message) }
            } else {
                context.diagnose(at: header.offset, "aiff (\(header.name)): not a readable ID3v2 tag; ignored")
            }
        case .soundData, .ignored:
            break
        }
        if kind != .common {
            lastMetadataChunk = header.offset
            metadataBytes += count
            // Metadata found after the audio data is announced again (before, it goes with the header).
            if sound != nil && !metadata.isEmpty { context.announce(.metadata(metadata)) }
        }
        context.window.consume(count)
        state = Self.next(after: header)
        return .continue
    }
}
