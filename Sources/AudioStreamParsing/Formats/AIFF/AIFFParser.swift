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
/// The chunk walk (headers, pad bytes, the FORM end, unknown chunks) is the shared `ChunkWalker` with
/// `AIFFContainer`'s registry and rules; this parser reads the FORM header, decides what each
/// registered chunk means and reads the sound data.
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
struct AIFFParser: FormatParser, ChunkContainerParser {
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

    /// Where the parser is.
    enum State {
        /// Expecting `'FORM'`, its size and the form type.
        case formHeader
        /// Walking the local chunks (`walker`).
        case chunks
        /// Waiting for SSND's `offset` and `blockSize` fields.
        case soundDataFields(ChunkHeader)
        /// Inside the audio.
        case soundData(SoundDataChunk, ConstantPacketData)
    }

    /// `.aiff` or `.aifc`.
    let fileType: AudioFileType
    var state: State = .formHeader
    /// The chunk walk; its container end is the FORM's by its size (`nil` when the size is a pipe
    /// placeholder, 0 or 0xFFFFFFFF).
    var walker = ChunkWalker<AIFFContainer>(layout: .iff, at: 0)
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

    init(fileType: AudioFileType) {
        self.fileType = fileType
    }

    /// Absolute end of the FORM by its size, when known.
    var formEnd: Int64? { walker.containerEnd }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .formHeader:
            return readFormHeader(&context)
        case .chunks:
            return try stepChunks(&context)
        case .soundDataFields(let header):
            return try readSoundDataFields(header, &context)
        case .soundData(let chunk, let data):
            return readSoundData(chunk, data, &context)
        }
    }

    // MARK: FORM and chunk headers

    private mutating func readFormHeader(_ context: inout ParseContext) -> ParseStep {
        let start = context.window.position
        guard let size = context.window.peekInteger(at: 4, as: UInt32.self, endianness: .big) else {
            return .needMoreData(atLeast: Self.formHeaderByteCount)
        }
        var end: Int64?
        if size == 0 || size == 0xFFFF_FFFF {
            context.diagnose(
                .sizeCorrected, AIFFContainer.form,
                "size \(size) (written to a pipe?); chunks are read to the end of the stream")
        } else if size < 4 {
            context.diagnose(.sizeCorrected, AIFFContainer.form, "size \(size) cannot hold the form type; ignored")
        } else {
            end = start + 8 + Int64(size)
        }
        context.window.consume(Self.formHeaderByteCount)
        walker = ChunkWalker(layout: .iff, at: start + Int64(Self.formHeaderByteCount), containerEnd: end)
        state = .chunks
        return .continue
    }

    /// Decides what to do with a registered chunk whose header is at the position.
    mutating func handle(
        _ chunk: ChunkHeader, _ role: AIFFChunkRole, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        let size = chunk.sizeField
        switch role {
        case .common:
            if common != nil {
                context.diagnose(.duplicateStructure, CommonChunk.structure, "a second COMM chunk ignored")
                return walker.skip(chunk, &context)
            }
            if size < UInt64(CommonChunk.aiffByteCount) {
                throw context.error(
                    .invalidFile, CommonChunk.structure,
                    "chunk is \(size) bytes, at least \(CommonChunk.aiffByteCount) needed")
            }
            return try walker.read(chunk, within: .headerChunk, &context)
        case .soundData:
            if sound != nil {
                context.diagnose(.duplicateStructure, SoundDataChunk.structure, "a second SSND chunk ignored")
                return walker.skip(chunk, &context)
            }
            if format == nil {
                throw context.error(
                    .notOptimized, SoundDataChunk.structure,
                    "sound data before the COMM chunk; packets cannot be produced in a stream")
            }
            try SoundDataChunk.validate(chunk, context: &context)
            walker.enter(chunk, &context)
            state = .soundDataFields(chunk)
            return .continue
        case .ignored:
            return walker.skip(chunk, &context)
        case .text, .comments, .id3:
            if chunk.offset <= lastMetadataChunk {
                return walker.skip(chunk, &context)  // read before a seek back
            }
            if size <= UInt64(context.limits.maxTagBytes), metadataBytes + Int(size) > context.limits.maxTagBytes {
                context.diagnose(
                    .limitExceeded, AIFFContainer.structure(chunk.name),
                    "metadata chunks exceed maxTagBytes in total; skipped")
                return walker.skip(chunk, &context)
            }
            return try walker.read(chunk, within: .tag, &context)
        }
    }

    // MARK: Buffered chunks

    /// Interprets a whole chunk body (the window is at its start).
    mutating func interpret(
        _ header: ChunkHeader, _ role: AIFFChunkRole, _ body: [UInt8], _ context: inout ParseContext
    ) throws(AudioStreamError) {
        switch role {
        case .common:
            do throws(StructureError) {
                var notes: [DiagnosticNote] = []
                let chunk = try CommonChunk.decode(body, isAIFC: fileType == .aifc, notes: &notes)
                for note in notes { context.diagnose(note, at: header.offset) }
                format = try chunk.audioFormat(limits: context.limits)
                common = chunk
            } catch {
                throw context.error(error, at: header.offset)
            }
        case .text(let text):
            AIFFText.readTextChunk(body, id: header.id.code, infoKey: text.infoKey, into: &metadata)
        case .comments:
            if !AIFFText.readCommentsChunk(body, into: &metadata) {
                context.diagnose(
                    .damagedMetadata, at: header.offset, AIFFText.comments,
                    "chunk ends inside a comment; the rest ignored")
            }
        case .id3:
            if let tag = ID3v2Tag.parse(body, limits: context.limits) {
                metadata = metadata.merging(tag.metadata)
                for note in tag.notes { context.diagnose(note, at: header.offset) }
            } else {
                context.diagnose(
                    .damagedMetadata, at: header.offset, AIFFContainer.structure(header.name),
                    "not a readable ID3v2 tag; ignored")
            }
        case .soundData, .ignored:
            break
        }
        if role != .common {
            lastMetadataChunk = header.offset
            metadataBytes += body.count
            // Metadata found after the audio data is announced again (before, it goes with the header).
            if sound != nil && !metadata.isEmpty { context.announce(.metadata(metadata)) }
        }
    }
}
