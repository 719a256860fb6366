/// A variable-size format whose packet table (`pakt`) follows its audio data: ffmpeg's CAF muxer writes
/// every VBR CAF that way (ALAC, AAC, Opus, MP3, MP2), since it knows the table only at the end.
///
/// ```
/// caff | desc | kuki … | data (edit count, packets) | pakt (header, entries)
///                        ^ needed first ------------> ^ but it is here
/// ```
///
/// Three behaviours, as for an MP4 `moov` after its `mdat` (docs/formats/caf.md, "pakt after data"):
/// 1. `ParserOptions.bufferUnparsedMediaUpTo` > 0: the `data` chunk is left in the input window (not
///    consumed) while the chunk headers after it are looked at; once the `pakt` is readable whole it is
///    decoded, and the audio is read from the window. Everything from the `data` chunk to the end of the
///    `pakt` must fit in `bufferUnparsedMediaUpTo` and in `limits.maxBufferedBytes`.
/// 2. Otherwise, or beyond that bound, with `ParserOptions.allowsByteRangeRequests`: the parser requests
///    the offset after the `data` chunk (`requestedByteOffset`, `ParseStep.request`; a caller that feeds on
///    reaches it by skipping), reads the chunks up to the end of the `pakt`, then requests the `data`
///    chunk's offset and produces every packet from there. Chunks read ahead are not read again.
/// 3. Neither: `notOptimized` (`optm`) as Apple's parser, the error's offset being where the table is
///    needed (the end of the `data` chunk).
///
/// A `data` chunk of unknown size (-1) runs to the end of the stream, so no table can follow it:
/// `invalidFile` in every mode. A stream that ends before the table: `invalidFile` at the `data` chunk.
extension CAFParser {
    /// What the look-ahead found.
    enum TableSearch {
        /// The table was decoded.
        case found
        /// More bytes are needed (a count from the position).
        case needMoreData(Int)
        /// The table is not within the bound (or cannot be located by looking ahead).
        case notWithin
    }

    /// Decides what to do at a `data` chunk of a variable-size format whose table is not known; `nil` when
    /// the look-ahead decoded the table (the audio data is then read as usual).
    ///
    /// - Throws: `notOptimized` when neither option allows reading the table, `invalidFile` for a data
    ///   chunk of unknown size or a stream that ends before the table.
    mutating func audioBeforeTable(
        _ context: inout ParseContext, _ header: ChunkHeader
    ) throws(AudioStreamError) -> ParseStep? {
        let needed = header.bodyEnd
        if header.declaredSize != nil && bufferUnparsedMediaUpTo > 0 {
            switch try lookAheadForTable(&context, header) {
            case .found: return nil
            case .needMoreData(let count): return .needMoreData(atLeast: count)
            case .notWithin:
                if !allowsByteRangeRequests {
                    throw tableNotOptimized(
                        &context, header,
                        "the packet table ('pakt') follows more audio than bufferUnparsedMediaUpTo "
                            + "(\(bufferUnparsedMediaUpTo) bytes) allows; it is needed from byte \(needed)")
                }
            }
        }
        if header.declaredSize != nil && allowsByteRangeRequests {
            audioBeforeTableChunk = header
            _ = walker.skip(header, &context)  // the walk goes on after the data chunk
            context.announce(.requestedByteOffset(needed))
            return .request(needed)
        }
        if header.declaredSize == nil {
            throw tableNotOptimized(
                &context, header, "variable-size packets need a 'pakt' chunk before a data chunk of unknown size",
                code: .invalidFile, at: header.offset)
        }
        throw tableNotOptimized(
            &context, header,
            "the packet table ('pakt') is not before the audio data; packets cannot be delimited in a stream "
                + "(it is needed from byte \(needed); see ParserOptions.allowsByteRangeRequests and "
                + "bufferUnparsedMediaUpTo)")
    }

    /// Announces what the stream is, then returns the error (Apple's parser has announced the format by
    /// the time it reports `optm`).
    private func tableNotOptimized(
        _ context: inout ParseContext, _ header: ChunkHeader, _ text: String,
        code: AudioStreamError.Code = .notOptimized, at offset: Int64? = nil
    ) -> AudioStreamError {
        for value in describingValues().sorted(by: { $0.announcementOrder < $1.announcementOrder }) {
            context.announce(value)
        }
        return context.error(code, at: offset ?? header.bodyEnd, Self.data, text)
    }

    /// After a `pakt` read ahead of the audio data it describes (behaviour 2): the chunks up to here are
    /// not read again, and the parser asks for the `data` chunk.
    mutating func requestAudioBeforeTable(_ context: inout ParseContext) -> ParseStep {
        guard let data = audioBeforeTableChunk else { return .continue }
        audioBeforeTableChunk = nil
        chunksReadAhead = data.bodyEnd..<context.window.position
        walker.restart(at: data.offset)
        context.announce(.requestedByteOffset(data.offset))
        return .request(data.offset)
    }

    /// Walks the chunk headers after the `data` chunk at the position without consuming anything, and
    /// decodes the `pakt` when it is readable whole within the bound (behaviour 1).
    private mutating func lookAheadForTable(
        _ context: inout ParseContext, _ data: ChunkHeader
    ) throws(AudioStreamError) -> TableSearch {
        let layout = ChunkLayout.caf
        let bound = Int64(min(bufferUnparsedMediaUpTo, context.limits.maxBufferedBytes))
        let position = context.window.position
        var at = data.bodyEnd - position  // `bodyEnd` is at most Int64.max
        while true {
            let headerEnd = at.addingReportingOverflow(Int64(layout.headerByteCount))
            guard !headerEnd.overflow, headerEnd.partialValue <= bound else { return .notWithin }
            // Safe: at most `bound`, an `Int`.
            guard let chunk = ChunkHeader.peek(context.window, at: Int(at), layout) else {
                if context.window.isFinal { throw streamEndsBeforeTable(&context, data) }
                return .needMoreData(Int(headerEnd.partialValue))
            }
            // A chunk of unknown or negative size: nothing can be located after it.
            guard chunk.signedSizeField >= 0, chunk.declaredSize != nil else { return .notWithin }
            let end = chunk.bodyEnd - position
            guard chunk.bodyEnd != Int64.max, end <= bound else { return .notWithin }
            guard chunk.id == CAFChunkType.packetTable.id else {
                at = end
                continue
            }
            // Safe: at most `bound`, an `Int`.
            guard Int64(context.window.readable) >= end else {
                if context.window.isFinal { throw streamEndsBeforeTable(&context, data) }
                return .needMoreData(Int(end))
            }
            try readTableAhead(&context, chunk, at: Int(at))
            chunksReadAhead = chunk.offset..<chunk.bodyEnd
            return .found
        }
    }

    /// Decodes a `pakt` chunk readable whole `ahead` bytes after the position, without consuming it; the
    /// same checks and diagnostics as when it is read in stream order.
    private mutating func readTableAhead(
        _ context: inout ParseContext, _ chunk: ChunkHeader, at ahead: Int
    ) throws(AudioStreamError) {
        guard let description else { return }  // unreachable: 'desc' is always first
        // The chunk is readable whole, so its header is.
        guard let tableHeader = try Self.tableHeader(&context, chunk, ahead: ahead) else { return }
        packetTableHeader = tableHeader
        packetTableOffset = chunk.offset
        table = CAFPacketTable(bytesPerPacket: description.bytesPerPacket, framesPerPacket: description.framesPerPacket)
        var progress = PacketTableProgress(
            chunkStart: chunk.offset, bytesLeft: chunk.signedSizeField - Int64(PacketTableChunk.headerByteCount),
            entriesLeft: tableHeader.numberPackets, keepsEntries: true)
        let entriesStart = ahead + chunk.headerByteCount + PacketTableChunk.headerByteCount
        let decoded = try decodeEntries(&context, at: entriesStart, &progress)
        if progress.entriesLeft > 0 {
            diagnoseMissingEntries(&context, progress)
            return
        }
        progress.tailByteCount = progress.bytesLeft
        // Safe: the tail is readable, so its count is an `Int`.
        var nonZero = false
        context.window.withContiguousSegments(at: entriesStart + decoded, count: Int(progress.bytesLeft)) { piece in
            if !nonZero { nonZero = piece.contains { $0 != 0 } }
        }
        if nonZero { diagnoseTail(&context, progress) }
    }

    /// The stream ended while the table that the audio data needs was looked for.
    func streamEndsBeforeTable(_ context: inout ParseContext, _ data: ChunkHeader) -> AudioStreamError {
        context.error(
            .invalidFile, at: data.offset, Self.data,
            "the stream ends before the packet table ('pakt') that the audio data needs")
    }
}
