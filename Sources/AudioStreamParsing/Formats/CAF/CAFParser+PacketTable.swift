/// Reading the `pakt` chunk incrementally.
///
/// The 24-byte header is read whole; the entries are decoded as their bytes arrive and appended to
/// `table`, so a table of millions of entries is never buffered and `mNumberPackets` never drives an
/// allocation. Decisions:
/// - `mNumberPackets` bounds the entries read. If the chunk ends first, the entries present are used
///   and a diagnostic says how many were declared; bytes left after the last declared entry are
///   skipped with a diagnostic.
/// - A variable-length integer longer than 10 bytes, not fitting 64 bits, or running past the end of
///   the chunk throws `invalidFile` at the entry's offset; a packet larger than `maxPacketBytes`, or
///   more entries than `maxPacketTableEntries`, throws `limitExceeded`.
/// - Zero bytes after the last entry are padding (libsndfile writes some); other bytes there are
///   ignored with one diagnostic.
/// - For constant-size formats only the header counts (their entries have no fields); a second `pakt`
///   is skipped with a diagnostic.
extension CAFParser {
    mutating func startPacketTable(
        _ context: inout ParseContext, _ header: ChunkHeader
    ) throws(AudioStreamError) -> ParseStep {
        let chunkStart = header.offset
        let pakt = PacketTableChunk.structure
        guard let description else { return .continue }  // unreachable: 'desc' is always first
        if packetTableHeader != nil {
            context.diagnose(.duplicateStructure, at: chunkStart, pakt, "a second 'pakt' chunk is ignored")
            return walker.skip(header, &context)
        }
        let size = header.signedSizeField
        guard let tableHeader = try Self.tableHeader(&context, header, ahead: 0) else {
            return .needMoreData(atLeast: header.headerByteCount + PacketTableChunk.headerByteCount)
        }
        walker.enter(header, &context)
        context.window.consume(PacketTableChunk.headerByteCount)
        packetTableHeader = tableHeader
        packetTableOffset = chunkStart
        let keepsEntries = audioData == nil && !description.hasConstantPackets
        if keepsEntries {
            table = CAFPacketTable(
                bytesPerPacket: description.bytesPerPacket, framesPerPacket: description.framesPerPacket)
        } else if audioData != nil, description.hasConstantPackets {
            // A table after the audio of a constant-size format only adds gapless information.
            if let info = constantPacketTableInfo(&context, tableHeader, at: chunkStart) {
                context.announce(.packetTableInfo(info))
            }
        }
        state = .packetTable(
            PacketTableProgress(
                chunkStart: chunkStart, bytesLeft: size - Int64(PacketTableChunk.headerByteCount),
                entriesLeft: tableHeader.numberPackets, keepsEntries: keepsEntries))
        return .continue
    }

    /// The checked 24-byte header of the `pakt` chunk whose chunk header is `ahead` bytes after the
    /// position, or `nil` while it is not readable.
    ///
    /// - Throws: `invalidFile` at the chunk for a chunk too small for the header or a negative packet count.
    static func tableHeader(
        _ context: inout ParseContext, _ chunk: ChunkHeader, ahead: Int
    ) throws(AudioStreamError) -> PacketTableChunk? {
        let pakt = PacketTableChunk.structure
        let size = chunk.signedSizeField
        guard size >= Int64(PacketTableChunk.headerByteCount) else {
            throw context.error(.invalidFile, at: chunk.offset, pakt, "chunk is \(size) bytes; the header needs 24")
        }
        let start = ahead + chunk.headerByteCount
        guard let bytes = context.window.peekBytes(at: start, count: PacketTableChunk.headerByteCount),
            let tableHeader = PacketTableChunk.decodeHeader(bytes)
        else { return nil }
        guard tableHeader.numberPackets >= 0 else {
            throw context.error(
                .invalidFile, at: chunk.offset, pakt, "negative packet count \(tableHeader.numberPackets)")
        }
        return tableHeader
    }

    /// Decodes every entry that is readable, then consumes the tail; see the extension's discussion.
    mutating func stepPacketTable(
        _ context: inout ParseContext, _ progress: PacketTableProgress
    ) throws(AudioStreamError) -> ParseStep {
        var progress = progress
        guard progress.keepsEntries, table != nil else {
            // Constant-size formats: entries have no fields, so every byte after the header is tail.
            return stepPacketTableTail(&context, progress)
        }
        let decoded = try decodeEntries(&context, at: 0, &progress)
        context.window.consume(decoded)
        if progress.entriesLeft > 0 {
            if progress.bytesLeft > 0 {
                state = .packetTable(progress)
                return decoded > 0 ? .continue : .needMoreData(atLeast: context.window.readable + 1)
            }
            diagnoseMissingEntries(&context, progress)
            return endPacketTable(&context)
        }
        return stepPacketTableTail(&context, progress)
    }

    /// Decodes the entries readable from `base` bytes after the position (without consuming them) and
    /// appends them to `table`, counting them off `progress`; returns the bytes they take.
    ///
    /// - Throws: `invalidFile` for an entry that cannot be decoded or totals that overflow,
    ///   `limitExceeded` beyond `maxPacketTableEntries` or `maxPacketBytes`.
    mutating func decodeEntries(
        _ context: inout ParseContext, at base: Int, _ progress: inout PacketTableProgress
    ) throws(AudioStreamError) -> Int {
        guard let reader = table.map({ EntryReader(table: $0) }) else { return 0 }
        var offset = 0
        while progress.entriesLeft > 0 && progress.bytesLeft - Int64(offset) > 0 {
            let entryStart = context.window.position + Int64(base + offset)
            let chunkBytes = progress.bytesLeft - Int64(offset)
            guard
                let entry = try reader.peekEntry(
                    &context, at: base + offset, chunkBytes: chunkBytes, entryStart: entryStart)
            else { break }
            guard table?.count ?? 0 < context.limits.maxPacketTableEntries else {
                throw context.error(
                    .limitExceeded, at: entryStart, PacketTableChunk.structure,
                    "more than maxPacketTableEntries packets")
            }
            guard table?.append(size: entry.size, frames: entry.frames) == true else {
                throw context.error(
                    .invalidFile, at: entryStart, PacketTableChunk.structure, "packet table totals overflow")
            }
            offset += entry.byteCount
            progress.entriesLeft -= 1
        }
        progress.bytesLeft -= Int64(offset)
        return offset
    }

    /// The chunk ended before `mNumberPackets` entries.
    func diagnoseMissingEntries(_ context: inout ParseContext, _ progress: PacketTableProgress) {
        let found = table?.count ?? 0
        context.diagnose(
            .inconsistentValues, at: progress.chunkStart, PacketTableChunk.structure,
            "mNumberPackets is \(Int64(found) + progress.entriesLeft) but the chunk holds \(found) entries")
    }

    /// Non-zero bytes after the last entry (reported once the tail is consumed or looked at).
    func diagnoseTail(_ context: inout ParseContext, _ progress: PacketTableProgress) {
        context.diagnose(
            .junkSkipped, at: progress.chunkStart, PacketTableChunk.structure,
            "\(progress.tailByteCount ?? 0) bytes after the last entry ignored")
    }

    /// The bytes after the last declared entry: zero bytes are padding (libsndfile leaves some); any
    /// other byte earns one diagnostic once the tail is consumed. Consumed as it arrives, never buffered.
    private mutating func stepPacketTableTail(
        _ context: inout ParseContext, _ progress: PacketTableProgress
    ) -> ParseStep {
        var progress = progress
        if progress.tailByteCount == nil { progress.tailByteCount = progress.bytesLeft }
        let n = Int(min(Int64(context.window.readable), progress.bytesLeft))
        if n > 0 {
            var nonZero = progress.tailHasData
            context.window.withContiguousSegments(at: 0, count: n) { piece in
                if !nonZero { nonZero = piece.contains { $0 != 0 } }
            }
            progress.tailHasData = nonZero
            context.window.consume(n)
            progress.bytesLeft -= Int64(n)
        }
        if progress.bytesLeft > 0 {
            state = .packetTable(progress)
            return n > 0 ? .continue : .needMoreData(atLeast: 1)
        }
        if progress.tailHasData { diagnoseTail(&context, progress) }
        return endPacketTable(&context)
    }

    /// The walk goes on after the `pakt` chunk (CAF chunks are not padded), or, when the audio data came
    /// before the table and was passed over, goes back for it (`requestAudioBeforeTable`).
    private mutating func endPacketTable(_ context: inout ParseContext) -> ParseStep {
        walker.endChunk(at: context.window.position, declaredSize: 0)
        state = .chunks
        return requestAudioBeforeTable(&context)
    }

    /// The packet table info of a constant-size format (its nominal frames are `mNumberPackets` ×
    /// `mFramesPerPacket`), or `nil` with a diagnostic when the header is inconsistent.
    func constantPacketTableInfo(
        _ context: inout ParseContext, _ pakt: PacketTableChunk, at chunkStart: Int64
    ) -> PacketTableInfo? {
        let fpp = Int64(description?.framesPerPacket ?? 0)
        let (frames, overflow) = pakt.numberPackets.multipliedReportingOverflow(by: fpp)
        return checkedPacketTableInfo(&context, pakt, totalFrames: overflow ? -1 : frames, at: chunkStart)
    }

    /// `pakt.packetTableInfo(totalFrames:)`, with a diagnostic when it is inconsistent.
    func checkedPacketTableInfo(
        _ context: inout ParseContext, _ pakt: PacketTableChunk, totalFrames: Int64, at chunkStart: Int64
    ) -> PacketTableInfo? {
        if let info = pakt.packetTableInfo(totalFrames: totalFrames) { return info }
        context.diagnose(
            .inconsistentValues, at: chunkStart, PacketTableChunk.structure,
            "valid \(pakt.numberValidFrames) + priming \(pakt.primingFrames) + remainder "
                + "\(pakt.remainderFrames) frames do not add up to the packets' \(totalFrames) frames; not announced")
        return nil
    }
}

/// Decodes one `pakt` entry (a size and/or a frame count) from the window.
struct EntryReader {
    let hasVariableSizes: Bool
    let hasVariableFrames: Bool
    let constantSize: Int64
    let constantFrames: Int64

    init(table: CAFPacketTable) {
        hasVariableSizes = table.hasVariableSizes
        hasVariableFrames = table.hasVariableFrames
        constantSize = table.constantSize
        constantFrames = table.constantFrames
    }

    struct Entry {
        var size: Int64
        var frames: Int64
        var byteCount: Int
    }

    /// The entry at `offset`, or `nil` when its bytes are not all readable yet.
    func peekEntry(
        _ context: inout ParseContext, at offset: Int, chunkBytes: Int64, entryStart: Int64
    ) throws(AudioStreamError) -> Entry? {
        var entry = Entry(size: constantSize, frames: constantFrames, byteCount: 0)
        if hasVariableSizes {
            guard let value = try varint(&context, at: offset, chunkBytes: chunkBytes, entryStart: entryStart, &entry)
            else { return nil }
            guard value <= UInt64(context.limits.maxPacketBytes) else {
                throw context.error(
                    .limitExceeded, at: entryStart, PacketTableChunk.structure,
                    "packet of \(value) bytes exceeds maxPacketBytes")
            }
            entry.size = Int64(value)
        }
        if hasVariableFrames {
            guard
                let value = try varint(
                    &context, at: offset + entry.byteCount, chunkBytes: chunkBytes - Int64(entry.byteCount),
                    entryStart: entryStart, &entry)
            else { return nil }
            guard value <= UInt64(UInt32.max) else {
                throw context.error(
                    .invalidFile, at: entryStart, PacketTableChunk.structure, "packet of \(value) frames")
            }
            entry.frames = Int64(value)
        }
        return entry
    }

    private func varint(
        _ context: inout ParseContext, at offset: Int, chunkBytes: Int64, entryStart: Int64, _ entry: inout Entry
    ) throws(AudioStreamError) -> UInt64? {
        switch CAFVarint.peek(context.window, at: offset, chunkBytes: chunkBytes) {
        case .value(let value, let byteCount):
            entry.byteCount += byteCount
            return value
        case .needMoreData:
            return nil
        case .pastChunkEnd:
            throw context.error(
                .invalidFile, at: entryStart, PacketTableChunk.structure,
                "a variable-length integer runs past the end of the chunk")
        case .tooLong:
            throw context.error(
                .invalidFile, at: entryStart, PacketTableChunk.structure,
                "a variable-length integer is longer than 64 bits")
        }
    }
}
