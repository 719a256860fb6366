/// WAVE (RIFF, and RIFX with big-endian fields), RF64 (EBU Tech 3306) and BW64 (ITU-R BS.2088).
///
/// The parser walks the chunks of the RIFF body in stream order:
///
/// ```
///  RIFF|RIFX|RF64|BW64 <size> WAVE
///    [ds64]            RF64/BW64: 64-bit RIFF, data and sample sizes (EBU Tech 3306 §3.4)
///    fmt               required before data (else `optm`)
///    [fact] [LIST INFO] [bext] [id3 ] [anything else: skipped]
///    data              packets: one per PCM/G.711 frame, one per ADPCM block
///    [chunks after data: LIST INFO, bext and id3 are read and the metadata is announced again]
/// ```
///
/// The chunk walk (headers, sizes cut at the RIFF size, pad bytes, unknown chunks) is the shared
/// `ChunkWalker` with `WAVEContainer`'s registry and rules; this parser reads the file header, decides
/// what each registered chunk means and reads the audio.
///
/// What it buffers: the 12-byte file header, each 8-byte chunk header, and the bodies of `fmt `,
/// `ds64` and `fact` (up to `ParserLimits.maxHeaderChunkBytes`, else `limitExceeded`) and of
/// `LIST`/`INFO`, `bext` and `id3 ` (up to `maxTagBytes`, else skipped with a diagnostic). Other
/// chunks and other `LIST` types are skipped without buffering. Audio packets are handed out
/// zero-copy by `ConstantPacketData`; at most one partial packet is held back.
///
/// When it announces `readyToProducePackets`: when the `data` chunk header has been read, after
/// `dataFormat`, `magicCookie` (MS ADPCM), `channelLayout`, the byte and packet counts (when the size
/// is declared), packet sizes, `bitRate`, `packetTableInfo` (ADPCM trimmed by `fact`), `metadata`
/// (tags before the data), `restrictsRandomAccess` (false) and `dataOffset`.
///
/// What `finish` does: drops a partial last packet (diagnostic), announces the exact byte and packet
/// counts when they differ from the declared ones (truncated file, or data that ran to the end of
/// the stream), re-announces `packetTableInfo` for the real length, and reports bytes that could not
/// be used (a partial chunk header, a truncated tag chunk, bytes after the RIFF size) as
/// diagnostics. It throws `invalidFile` when the stream ended before the `data` chunk.
///
/// Leniency (each with a diagnostic): RIFF size 0 or 0xFFFFFFFF (chunks are read to the end of the
/// stream); data size 0 or 0xFFFFFFFF (the data runs to the end of the stream, or to the RIFF end
/// for size 0 when the RIFF size is known and larger); chunks other than `fmt `/`ds64` that overrun
/// the RIFF size are cut at the RIFF end; a data chunk that overruns it keeps its own size; chunks
/// that start after the RIFF end are still read when their ID is printable, other trailing bytes
/// are ignored; a missing pad byte after an odd-sized chunk is tolerated. See `docs/formats/wave.md`.
struct WAVEParser: FormatParser, ChunkContainerParser {
    /// Matches `RIFF`/`RIFX`/`RF64`/`BW64` followed by a size and `WAVE`.
    static let probe = FormatProbe(fileTypes: [.wave, .rf64, .bw64, .wave64]) { window, _ in
        switch RIFFHeader.peek(window) {
        case .header(let header): return .match(header.kind.fileType, WAVEParser())
        case .noMatch: return .noMatch
        case .needMoreData(let count): return .needMoreData(atLeast: count)
        }
    }

    /// Where the parser is in the stream.
    enum State {
        /// Expecting the 12-byte file header.
        case fileHeader
        /// Walking the chunks of the RIFF body (`walker`).
        case chunks
        /// Inside the `data` chunk.
        case audioData(ConstantPacketData)
        /// Inside the `data` chunk of MPEG audio (`framedAudio`).
        case framedData
    }

    var state = State.fileHeader
    /// The chunk walk (the layout is RIFF's until the file header says RIFX).
    var walker = ChunkWalker<WAVEContainer>(layout: .riff(.little), at: 0)
    /// The file header and its offset, once read.
    var fileHeader: RIFFHeader?
    var fileHeaderOffset: Int64 = 0
    /// The `ds64` chunk (RF64/BW64).
    var dataSize64: DataSize64Chunk?
    /// The audio format from the `fmt ` chunk.
    var format: WAVEStreamFormat?
    /// The `fact` chunk's sample length (64-bit in RF64).
    var factSampleLength: UInt64?
    /// Tags from `LIST`/`INFO`, `bext` and `id3 ` chunks, in stream order.
    var metadata = AudioMetadata()
    /// Body offsets of the tag chunks already read, so that walking them again after a seek does not
    /// add their tags twice.
    var tagChunksRead: Set<Int64> = []
    /// The data chunk, once reached (kept after it ends, for seeking and counts).
    var audio: ConstantPacketData?
    /// The data chunk of MPEG audio, whose packets are its frames (instead of `audio`).
    var framedAudio: FramedPacketData<MPEGPacketFraming>?
    /// The real packet count, known at `finish`.
    var exactPacketCount: Int64?
    /// Bytes to skip to realign on a packet boundary after a discontinuity.
    var realignment: Int64 = 0

    /// The byte order of sizes, fields and samples: big-endian in RIFX.
    var endianness: Endianness { fileHeader?.endianness ?? .little }
    /// Absolute offset where the RIFF body ends, when the size is known and trusted.
    var riffEnd: Int64? { walker.containerEnd }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .fileHeader:
            return try stepFileHeader(&context)
        case .chunks:
            if let step = skipListOtherThanInfo(&context) { return step }
            return try stepChunks(&context)
        case .audioData(let data):
            return stepAudioData(data, &context)
        case .framedData:
            return stepFramedData(&context)
        }
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        realignment = 0
        let position = context.window.position
        switch state {
        case .fileHeader:
            break
        case .framedData:
            framedAudio?.loseSync()
        case .audioData(let data):
            // Realign to the next packet boundary counted from the data start.
            let size = Int64(data.packetSize)
            let offset = (position - data.dataStart) % size
            if offset > 0 {
                realignment = size - offset
                if let end = data.dataEnd { realignment = max(0, min(realignment, end - position)) }
            }
        case .chunks:
            switch walker.state {
            case .ignoringRest, .lost:
                break
            case .header, .pad, .body, .handedOff:
                if !hasData {
                    walker.lose()
                } else {
                    walker.ignoreRest(from: position, .afterDiscontinuity)
                }
            }
        }
    }

    /// Whether the data chunk was reached.
    var hasData: Bool { audio != nil || framedAudio != nil }

    var packetMap: PacketMap {
        if let framedAudio, let format {
            var map = PacketMap(framesPerPacket: Int64(format.framesPerPacket), packetCount: exactPacketCount)
            if !framedAudio.offsets.offsets.isEmpty { map.packetOffsets = framedAudio.offsets.offsets }
            // Past the table: the mean frame so far, else the declared bit rate's.
            let rate = format.streamDescription.sampleRate
            map.estimatedBytesPerPacket =
                framedAudio.averagePacketSize
                ?? (rate > 0 ? Double(format.bitRate) / 8 * Double(format.framesPerPacket) / rate : nil)
            return map
        }
        guard let audio else { return .unknown }
        return PacketMap(
            bytesPerPacket: Int64(audio.packetSize), framesPerPacket: Int64(audio.framesPerPacket),
            packetCount: exactPacketCount ?? audio.declaredPacketCount)
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        if framedAudio != nil {
            let isExact = packetMap.packetToByte(packet)?.isEstimated == false
            framedAudio?.prepareForSeek(isExact: isExact)
            state = .framedData
            return true
        }
        guard let audio else { return false }
        state = .audioData(audio)
        realignment = 0
        return true
    }

    // MARK: File header

    /// Reads the 12-byte RIFF/RIFX/RF64/BW64 header and starts the chunk walk.
    private mutating func stepFileHeader(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch RIFFHeader.peek(context.window) {
        case .needMoreData(let count):
            return .needMoreData(atLeast: count)
        case .noMatch:
            throw context.error(.invalidFile, WAVEContainer.structure, "not a RIFF WAVE header")
        case .header(let header):
            let start = context.window.position
            fileHeader = header
            fileHeaderOffset = start
            var end: Int64?
            if header.kind.usesDataSize64 && header.size == 0xFFFF_FFFF {
                end = nil  // Set from ds64.
            } else if header.kind == .wave64 {
                // The size counts the whole file, header included.
                if header.size >= UInt64(header.byteCount) && header.size <= UInt64(Int64.max - start) {
                    end = start + Int64(header.size)
                } else {
                    context.diagnose(
                        .sizeCorrected, WAVEContainer.structure,
                        "Wave64 size \(header.size) is not usable; chunks are read to the end of the stream")
                }
            } else if header.size == 0 || header.size == 0xFFFF_FFFF || header.size < 4 {
                context.diagnose(
                    .sizeCorrected, WAVEContainer.structure,
                    "RIFF size \(header.size) is not usable; chunks are read to the end of the stream")
            } else {
                end = start + 8 + Int64(header.size)
            }
            context.window.consume(header.byteCount)
            walker = ChunkWalker(
                layout: header.kind.chunkLayout, at: start + Int64(header.byteCount), containerEnd: end)
            state = .chunks
            return .continue
        }
    }

    // MARK: Audio data

    private mutating func stepFramedData(_ context: inout ParseContext) -> ParseStep {
        guard var data = framedAudio else { return .continue }
        let step = data.step(&context, WAVEContainer.structure)
        framedAudio = data
        if let step { return step }
        walker.endChunk(at: context.window.position, declaredSize: UInt64(data.declaredByteCount ?? 0))
        state = .chunks
        return .continue
    }

    private mutating func stepAudioData(_ data: ConstantPacketData, _ context: inout ParseContext) -> ParseStep {
        if realignment > 0 {
            let skip = realignment
            realignment = 0
            return .skip(skip)
        }
        if let step = data.step(&context, WAVEContainer.structure) { return step }
        walker.endChunk(at: context.window.position, declaredSize: UInt64(data.declaredByteCount ?? 0))
        state = .chunks
        return .continue
    }
}
