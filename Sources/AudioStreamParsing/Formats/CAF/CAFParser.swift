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
/// Variable-size formats (AAC, ALAC, Opus, FLAC, MP3 in CAF) need the `pakt` chunk before `data`: a
/// `data` chunk of known size reached without it throws `notOptimized` (`optm`), as Apple's parser
/// does (the table may follow the audio, but a stream cannot go back for the packets); a `data` chunk
/// of unknown size (-1) must be the last chunk, so the table can never come: `invalidFile`.
///
/// What `finish` does: throws `invalidFile` when the stream ended before the audio data; otherwise
/// drops a partial last packet with a diagnostic and announces the real byte and packet counts when
/// they differ from the declared ones (or were not declared).
struct CAFParser: FormatParser {
    /// Detects `caff` at the start of the stream (the version is checked by the parser, so a file of
    /// another version gets a clear error instead of `typ?`).
    static let probe = FormatProbe(fileTypes: [.caf]) { window, _ in
        switch FormatProbe.matches(window, "caff") {
        case .some(true): return .match(.caf, CAFParser())
        case .some(false): return .noMatch
        case .none: return .needMoreData(atLeast: 4)
        }
    }

    /// Where the parser is.
    enum State {
        /// Before the 8-byte file header.
        case fileHeader
        /// At a chunk header (before or after the audio data).
        case chunkHeader
        /// Inside a `pakt` chunk's entries.
        case packetTable(PacketTableProgress)
        /// Inside the audio data of a constant-size format.
        case constantData(ConstantPacketData)
        /// Inside the audio data of a format described by the packet table.
        case tableData(TableDataCursor)
        /// Discarding the rest of the stream (audio that no packet describes in a data chunk of unknown
        /// size, or chunks after the audio following a discontinuity).
        case ignoringRest
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
    /// Where to continue after a discontinuity inside the audio data (a packet boundary).
    var resumeAt: Int64?
    /// Set by a discontinuity before the audio data: the chunk structure is lost.
    var lostHeader = false

    init() {}

    // MARK: Stepping

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        if lostHeader {
            throw context.error(
                .discontinuityCantRecover, "caf: discontinuity before the audio data; the chunk structure is lost")
        }
        switch state {
        case .fileHeader: return try stepFileHeader(&context)
        case .chunkHeader: return try stepChunk(&context)
        case .packetTable(let progress): return try stepPacketTable(&context, progress)
        case .constantData(let data): return stepConstantData(&context, data)
        case .tableData(let cursor): return stepTableData(&context, cursor)
        case .ignoringRest:
            context.window.consume(context.window.readable)
            return .needMoreData(atLeast: 1)
        }
    }

    private mutating func stepFileHeader(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        guard context.window.readable >= CAFFileHeader.byteCount else {
            return .needMoreData(atLeast: CAFFileHeader.byteCount)
        }
        guard let header = CAFFileHeader.peek(context.window) else {
            throw context.error(.unsupportedFileType, "caf: file type is not 'caff'")
        }
        guard header.version == CAFFileHeader.supportedVersion else {
            throw context.error(
                .unsupportedFileType,
                "caf: file version \(header.version) is not supported (only version 1 is defined)")
        }
        // mFileFlags: "ignore any value of this field you don't understand" (CAF File Header).
        context.window.consume(CAFFileHeader.byteCount)
        state = .chunkHeader
        return .continue
    }

    /// Reads a chunk header and dispatches on the chunk type.
    private mutating func stepChunk(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        guard let header = CAFChunkHeader.peek(context.window) else {
            return .needMoreData(atLeast: CAFChunkHeader.byteCount)
        }
        let chunkStart = context.window.position
        let name = header.type.description
        if description == nil && header.type != .audioDescription {
            throw context.error(.invalidFile, "caf: the first chunk is '\(name)'; it must be 'desc'")
        }
        if header.size < 0 && !header.runsToEndOfStream {
            throw context.error(.invalidFile, "caf (\(name)): negative chunk size \(header.size)")
        }
        if header.size >= 0 {
            let bodyStart = chunkStart + Int64(CAFChunkHeader.byteCount)
            if bodyStart.addingReportingOverflow(header.size).overflow {
                throw context.error(.invalidFile, "caf (\(name)): chunk size runs past the largest stream offset")
            }
        }
        switch header.type.role {
        case .audioDescription:
            return try readAudioDescription(&context, header)
        case .audioData:
            return try startAudioData(&context, header)
        case .packetTable:
            return try startPacketTable(&context, header)
        case .magicCookie:
            guard let body = try wholeBody(&context, header, limit: context.limits.maxHeaderChunkBytes) else {
                return .needMoreData(atLeast: CAFChunkHeader.byteCount + Int(header.size))
            }
            magicCookie = MagicCookieChunk.decode(body)
            if audioData != nil, let magicCookie { context.announce(.magicCookie(magicCookie)) }
            return .continue
        case .channelLayout:
            guard let body = try wholeBody(&context, header, limit: context.limits.maxHeaderChunkBytes) else {
                return .needMoreData(atLeast: CAFChunkHeader.byteCount + Int(header.size))
            }
            guard let layout = ChannelLayoutChunk.decode(body) else {
                throw context.error(
                    .invalidFile, at: chunkStart, "caf (chan): the layout or its channel descriptions do not fit")
            }
            channelLayout = layout
            if audioData != nil { context.announce(.channelLayout(layout)) }
            return .continue
        case .information:
            if header.size > Int64(context.limits.maxTagBytes) {
                context.diagnose(
                    at: chunkStart, "caf (info): chunk of \(header.size) bytes is larger than maxTagBytes; skipped")
                return skipChunk(&context, header)
            }
            guard let body = try wholeBody(&context, header, limit: context.limits.maxTagBytes) else {
                return .needMoreData(atLeast: CAFChunkHeader.byteCount + Int(header.size))
            }
            readInformation(&context, body, at: chunkStart)
            return .continue
        case .skipped:
            return skipChunk(&context, header)
        case nil:
            context.diagnose(at: chunkStart, "caf: unknown chunk '\(name)' (\(header.size) bytes) skipped")
            return skipChunk(&context, header)
        }
    }

    /// Consumes the chunk header and skips the body without buffering it.
    private func skipChunk(_ context: inout ParseContext, _ header: CAFChunkHeader) -> ParseStep {
        context.window.consume(CAFChunkHeader.byteCount)
        return header.size > 0 ? .skip(header.size) : .continue
    }

    /// The whole body of a chunk read in one piece, consuming the chunk, or `nil` when it is not all
    /// readable yet (then nothing is consumed).
    ///
    /// - Throws: `limitExceeded` when the body is larger than `limit`; `invalidFile` for a size of -1.
    private func wholeBody(
        _ context: inout ParseContext, _ header: CAFChunkHeader, limit: Int
    ) throws(AudioStreamError) -> [UInt8]? {
        guard header.size >= 0 else {
            throw context.error(.invalidFile, "caf (\(header.type)): size -1 is only allowed for 'data'")
        }
        guard header.size <= Int64(limit) else {
            throw context.error(
                .limitExceeded, "caf (\(header.type)): chunk of \(header.size) bytes exceeds the header chunk limit")
        }
        let size = Int(header.size)
        guard let body = context.window.peekBytes(at: CAFChunkHeader.byteCount, count: size) else { return nil }
        context.window.consume(CAFChunkHeader.byteCount + size)
        return body
    }

    private mutating func readAudioDescription(
        _ context: inout ParseContext, _ header: CAFChunkHeader
    ) throws(AudioStreamError) -> ParseStep {
        let chunkStart = context.window.position
        if description != nil {
            context.diagnose(at: chunkStart, "caf (desc): a second 'desc' chunk is ignored")
            return skipChunk(&context, header)
        }
        guard header.size >= Int64(AudioDescriptionChunk.byteCount) else {
            throw context.error(
                .invalidFile, "caf (desc): chunk is \(header.size) bytes; the description needs 32")
        }
        let total = CAFChunkHeader.byteCount + AudioDescriptionChunk.byteCount
        guard let body = context.window.peekBytes(at: CAFChunkHeader.byteCount, count: AudioDescriptionChunk.byteCount),
            let desc = AudioDescriptionChunk.decode(body)
        else { return .needMoreData(atLeast: total) }
        let asbd = try desc.streamDescription(context, at: chunkStart)
        if Int64(desc.bytesPerPacket) > Int64(context.limits.maxPacketBytes) {
            throw context.error(
                .limitExceeded, "caf (desc): bytes per packet \(desc.bytesPerPacket) exceeds maxPacketBytes")
        }
        description = desc
        streamDescription = asbd
        context.window.consume(total)
        let extra = header.size - Int64(AudioDescriptionChunk.byteCount)
        if extra > 0 {
            context.diagnose(at: chunkStart, "caf (desc): \(extra) bytes after the 32-byte description skipped")
            return .skip(extra)
        }
        return .continue
    }

    private mutating func readInformation(_ context: inout ParseContext, _ body: [UInt8], at chunkStart: Int64) {
        guard let contents = InformationChunk.decode(body) else {
            context.diagnose(at: chunkStart, "caf (info): chunk is shorter than its entry count; ignored")
            return
        }
        if contents.pairs.count < Int(contents.declaredCount) {
            context.diagnose(
                at: chunkStart,
                "caf (info): \(contents.declaredCount) entries declared, \(contents.pairs.count) found")
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
        case .fileHeader, .chunkHeader, .packetTable:
            if audioData == nil {
                lostHeader = true
            } else {
                context.diagnose("caf: discontinuity after the audio data; the rest of the stream is ignored")
                state = .ignoringRest
            }
        case .ignoringRest:
            break
        }
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard audioData != nil, let description else { return false }
        resumeAt = nil
        lostHeader = false
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
                packetCount: constantData?.declaredPacketCount)
        }
        return table?.packetMap ?? .unknown
    }
}
