/// Core Audio Format (CAF) parser (Apple "Core Audio Format Specification" 1.0; `CAFFile.h`).
///
/// A CAF stream is an 8-byte file header (`caff`, version 1) followed by chunks, each a 12-byte header
/// (four-character type, big-endian `SInt64` size) and an unpadded body. `desc` comes first; `data`
/// holds a 4-byte edit count and the packets; for variable-size or variable-duration formats the
/// `pakt` chunk lists every packet.
///
/// What it buffers:
/// - `desc` (32 bytes), `kuki` and `chan` are read whole, up to `limits.maxHeaderChunkBytes` (larger:
///   `limitExceeded`); `info` up to `limits.maxTagBytes` (larger: skipped with a diagnostic).
/// - `pakt` is never held whole: its entries are decoded as their bytes arrive and appended to a
///   table that grows only as entries are read (`limits.maxPacketTableEntries` at most).
/// - Every other chunk is skipped without buffering (unknown types with a diagnostic).
/// - In the audio data: one packet at most (constant-size packets are emitted in runs).
///
/// When it announces `readyToProducePackets`: when the `data` chunk header and its edit count are
/// readable, after `dataFormat`, `magicCookie`, `channelLayout`, the counts and sizes,
/// `packetTableInfo` and `metadata` known from the chunks before it.
///
/// Variable-size formats (AAC, ALAC, Opus, FLAC, MP3 in CAF) need the `pakt` chunk to delimit their
/// packets. When it follows the audio data (ffmpeg's layout), the parser looks ahead for it within
/// `ParserOptions.bufferUnparsedMediaUpTo`, or asks for it with a byte range request
/// (`ParserOptions.allowsByteRangeRequests`), or else throws `notOptimized` (`optm`) as Apple's parser
/// does (`CAFParser+TableAfterData.swift`); a `data` chunk of unknown size (-1) must be the last chunk,
/// so the table can never come: `invalidFile`.
///
/// What `finish` does: throws `invalidFile` when the stream ended before the audio data; otherwise
/// drops a partial last packet with a diagnostic and announces the real byte and packet counts when
/// they differ from the declared ones (or were not declared).
struct CAFParser: FormatParser, ChunkContainerParser {
    /// Detects `caff` at the start of the stream (the version is checked by the parser, so a file of
    /// another version gets a clear error instead of `typ?`).
    static let probe = FormatProbe(fileTypes: [.caf]) { window, options in
        switch FormatProbe.matches(window, "caff") {
        case .some(true): return .match(.caf, CAFParser(options: options))
        case .some(false): return .noMatch
        case .none: return .needMoreData(atLeast: 4)
        }
    }

    /// Where the parser is.
    enum State {
        /// Before the 8-byte file header.
        case fileHeader
        /// Walking the chunks (`walker`), before or after the audio data.
        case chunks
        /// Inside a `pakt` chunk's entries.
        case packetTable(PacketTableProgress)
        /// Inside the audio data of a constant-size format.
        case constantData(ConstantPacketData)
        /// Inside the audio data of a format described by the packet table.
        case tableData(TableDataCursor)
    }

    /// A `pakt` chunk being read.
    struct PacketTableProgress {
        /// The chunk header's offset.
        let chunkStart: Int64
        /// Body bytes not yet consumed.
        var bytesLeft: Int64
        /// Entries still expected (`mNumberPackets` minus those read).
        var entriesLeft: Int64
        /// The entries are stored (variable packets, table before the data); otherwise skipped.
        let keepsEntries: Bool
        /// The bytes after the last declared entry, once the entries are read.
        var tailByteCount: Int64? = nil
        /// Whether a non-zero byte was seen after the last entry.
        var tailHasData = false
    }

    /// The next packet of the audio data, for formats described by the packet table.
    struct TableDataCursor {
        /// The index of the next packet to emit.
        var next: Int
    }

    /// Where the audio data is.
    struct AudioData {
        /// The `data` chunk header's offset.
        let chunkStart: Int64
        /// The first audio byte (after the edit count): `dataOffset`.
        let start: Int64
        /// The declared audio bytes, or `nil` for a chunk of unknown size (-1).
        let byteCount: Int64?
        /// The offset after the last audio byte, when declared.
        var end: Int64? { byteCount.map { start + $0 } }
    }

    var state: State = .fileHeader
    /// The chunk walk. It also discards the rest of the stream where nothing can be read (audio that no
    /// packet describes in a data chunk of unknown size, chunks after the audio following a
    /// discontinuity), and holds the lost state after a discontinuity before the audio data.
    var walker = ChunkWalker<CAFContainer>(layout: .caf, at: 0)
    /// The `desc` chunk and the stream description made from it.
    var description: AudioDescriptionChunk?
    var streamDescription: StreamDescription?
    var magicCookie: [UInt8]?
    var channelLayout: ChannelLayout?
    var metadata = AudioMetadata()
    /// The first `pakt` header, and its chunk's offset.
    var packetTableHeader: PacketTableChunk?
    var packetTableOffset: Int64 = 0
    /// The packet table (formats without constant packets, from a `pakt` before the data).
    var table: CAFPacketTable?
    /// Set once the `data` chunk was reached.
    var audioData: AudioData?
    /// The data reader, for constant-size formats, once the data was reached.
    var constantData: ConstantPacketData?
    /// The number of constant-size packets the data really held, known at `finish` (for seeking
    /// after the end of a stream whose data size was not declared).
    var finishedPacketCount: Int64?
    /// Where to continue after a discontinuity inside the audio data (a packet boundary).
    var resumeAt: Int64?
    /// `ParserOptions.bufferUnparsedMediaUpTo` and `allowsByteRangeRequests`: how a packet table after
    /// the audio data is reached (`CAFParser+TableAfterData.swift`).
    let bufferUnparsedMediaUpTo: Int
    let allowsByteRangeRequests: Bool
    /// The `data` chunk passed over (by a byte range request) to read the packet table after it.
    var audioBeforeTableChunk: ChunkHeader?
    /// Chunks read ahead of the audio data (the packet table after it): not read again when the walk
    /// reaches them.
    var chunksReadAhead: Range<Int64>?

    init(options: ParserOptions = ParserOptions()) {
        bufferUnparsedMediaUpTo = options.bufferUnparsedMediaUpTo
        allowsByteRangeRequests = options.allowsByteRangeRequests
    }

    // MARK: Stepping

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .fileHeader: return try stepFileHeader(&context)
        case .chunks: return try stepChunks(&context)
        case .packetTable(let progress): return try stepPacketTable(&context, progress)
        case .constantData(let data): return stepConstantData(&context, data)
        case .tableData(let cursor): return stepTableData(&context, cursor)
        }
    }

    private mutating func stepFileHeader(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        guard context.window.readable >= CAFFileHeader.byteCount else {
            return .needMoreData(atLeast: CAFFileHeader.byteCount)
        }
        guard let header = CAFFileHeader.peek(context.window) else {
            throw context.error(.unsupportedFileType, CAFContainer.structure, "file type is not 'caff'")
        }
        guard header.version == CAFFileHeader.supportedVersion else {
            throw context.error(
                .unsupportedFileType, CAFContainer.structure,
                "file version \(header.version) is not supported (only version 1 is defined)")
        }
        // mFileFlags: "ignore any value of this field you don't understand" (CAF File Header).
        let start = context.window.position
        context.window.consume(CAFFileHeader.byteCount)
        walker = ChunkWalker(layout: .caf, at: start + Int64(CAFFileHeader.byteCount))
        state = .chunks
        return .continue
    }

    /// Decides what to do with a registered chunk whose header is at the position.
    mutating func handle(
        _ chunk: ChunkHeader, _ role: CAFChunkType.Role, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        if let ahead = chunksReadAhead, ahead.contains(chunk.offset) { return walker.skip(chunk, &context) }
        switch role {
        case .audioDescription:
            return try readAudioDescription(&context, chunk)
        case .audioData:
            return try startAudioData(&context, chunk)
        case .packetTable:
            return try startPacketTable(&context, chunk)
        case .magicCookie, .channelLayout:
            return try walker.read(chunk, within: .headerChunk, &context)
        case .information:
            return try walker.read(chunk, within: .tag, &context)
        case .skipped:
            return walker.skip(chunk, &context)
        }
    }

    /// Interprets a chunk body read whole (the window is at the chunk, whose header waits for the body).
    mutating func interpret(
        _ chunk: ChunkHeader, _ role: CAFChunkType.Role, _ body: [UInt8], _ context: inout ParseContext
    ) throws(AudioStreamError) {
        switch role {
        case .magicCookie:
            magicCookie = MagicCookieChunk.decode(body)
            if audioData != nil, let magicCookie { context.announce(.magicCookie(magicCookie)) }
        case .channelLayout:
            guard let layout = ChannelLayoutChunk.decode(body) else {
                throw context.error(
                    .invalidFile, at: chunk.offset, ChannelLayoutChunk.structure,
                    "the layout or its channel descriptions do not fit")
            }
            channelLayout = layout
            if audioData != nil { context.announce(.channelLayout(layout)) }
        case .information:
            readInformation(&context, body, at: chunk.offset)
        case .audioDescription, .audioData, .packetTable, .skipped:
            break
        }
    }

    /// Reads the 32-byte `desc` chunk, header and body at once.
    private mutating func readAudioDescription(
        _ context: inout ParseContext, _ chunk: ChunkHeader
    ) throws(AudioStreamError) -> ParseStep {
        let chunkStart = chunk.offset
        let desc = AudioDescriptionChunk.structure
        if description != nil {
            context.diagnose(.duplicateStructure, at: chunkStart, desc, "a second 'desc' chunk is ignored")
            return walker.skip(chunk, &context)
        }
        // Apple's CAF specification fixes the Audio Description chunk at 32 bytes.
        guard chunk.signedSizeField == Int64(AudioDescriptionChunk.byteCount) else {
            throw context.error(
                .invalidFile, desc, "chunk is \(chunk.signedSizeField) bytes; the description is exactly 32")
        }
        let total = chunk.headerByteCount + AudioDescriptionChunk.byteCount
        guard let body = context.window.peekBytes(at: chunk.headerByteCount, count: AudioDescriptionChunk.byteCount),
            let decoded = AudioDescriptionChunk.decode(body)
        else { return .needMoreData(atLeast: total) }
        let asbd: StreamDescription
        do throws(StructureError) {
            asbd = try decoded.streamDescription()
        } catch {
            throw context.error(error, at: chunkStart)
        }
        if Int64(decoded.bytesPerPacket) > Int64(context.limits.maxPacketBytes) {
            throw context.error(
                .limitExceeded, desc, "bytes per packet \(decoded.bytesPerPacket) exceeds maxPacketBytes")
        }
        description = decoded
        streamDescription = asbd
        walker.enter(chunk, &context)
        context.window.consume(AudioDescriptionChunk.byteCount)
        walker.endChunk(chunk)
        return .continue
    }

    private mutating func readInformation(_ context: inout ParseContext, _ body: [UInt8], at chunkStart: Int64) {
        let info = InformationChunk.structure
        guard let contents = InformationChunk.decode(body) else {
            context.diagnose(.damagedMetadata, at: chunkStart, info, "chunk is shorter than its entry count; ignored")
            return
        }
        if contents.pairs.count < Int(contents.declaredCount) {
            context.diagnose(
                .damagedMetadata, at: chunkStart, info,
                "\(contents.declaredCount) entries declared, \(contents.pairs.count) found")
        }
        InformationChunk.add(contents, to: &metadata)
        if audioData != nil && !metadata.isEmpty { context.announce(.metadata(metadata)) }
    }

    // MARK: Discontinuity, seeking, geometry

    mutating func discontinuity(_ context: inout ParseContext) {
        let position = context.window.position
        switch state {
        case .constantData(let data):
            let size = Int64(data.packetSize)
            let index = max(0, position - data.dataStart + size - 1) / size
            resumeAt = data.dataStart + index * size
            context.nextPacketIndex = index
        case .tableData(var cursor):
            guard let audioData, let table else { return }
            cursor.next = table.firstPacket(atOrAfter: position - audioData.start)
            resumeAt = audioData.start + table.offset(of: cursor.next)
            context.nextPacketIndex = Int64(cursor.next)
            state = .tableData(cursor)
        case .fileHeader, .chunks, .packetTable:
            if case .chunks = state, case .ignoringRest = walker.state { return }
            state = .chunks
            if audioData == nil {
                walker.lose()
            } else {
                context.diagnose(
                    .discontinuity, CAFContainer.structure,
                    "discontinuity after the audio data; the rest of the stream is ignored")
                walker.ignoreRest(from: position, .afterDiscontinuity)
            }
        }
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard audioData != nil, let description else { return false }
        resumeAt = nil
        if description.hasConstantPackets {
            guard let constantData else { return false }
            state = .constantData(constantData)
        } else {
            guard let table, packet >= 0, packet <= Int64(table.count) else { return false }
            state = .tableData(TableDataCursor(next: Int(packet)))
        }
        return true
    }

    var packetMap: PacketMap {
        guard let description else { return .unknown }
        if description.hasConstantPackets {
            return PacketMap(
                bytesPerPacket: Int64(description.bytesPerPacket), framesPerPacket: Int64(description.framesPerPacket),
                packetCount: finishedPacketCount ?? constantData?.declaredPacketCount)
        }
        return table?.packetMap ?? .unknown
    }
}
