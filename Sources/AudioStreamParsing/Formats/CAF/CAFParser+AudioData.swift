/// The `data` chunk: publishing the header, emitting packets, and the end of the stream.
///
/// ```
/// data chunk body (Apple "Core Audio Format Specification", "Required Chunks", "Audio Data Chunk")
/// offset  size  field
///      0     4  mEditCount   UInt32 (changes whenever the audio is edited; metadata refers to it)
///      4     …  mData        the packets, back to back; dataOffset = chunk offset + 12 + 4
/// ```
extension CAFParser {
    /// The `data` chunk, for messages.
    static let data = Structure("caf", "data")

    mutating func startAudioData(
        _ context: inout ParseContext, _ header: ChunkHeader
    ) throws(AudioStreamError) -> ParseStep {
        let chunkStart = header.offset
        let runsToEndOfStream = header.declaredSize == nil
        if audioData != nil {
            context.diagnose(.duplicateStructure, at: chunkStart, Self.data, "a second 'data' chunk is ignored")
            guard runsToEndOfStream else { return walker.skip(header, &context) }
            walker.enter(header, &context)
            walker.ignoreRest(from: context.window.position, .afterAudio)
            return .continue
        }
        guard let description else { return .continue }  // unreachable: 'desc' is always first
        if !runsToEndOfStream && header.signedSizeField < 4 {
            throw context.error(
                .invalidFile, Self.data, "chunk is \(header.signedSizeField) bytes; its edit count needs 4")
        }
        if !description.hasConstantPackets && table == nil {
            if audioBeforeTableChunk != nil {
                context.diagnose(.duplicateStructure, at: chunkStart, Self.data, "a second 'data' chunk is ignored")
                return walker.skip(header, &context)
            }
            if let step = try audioBeforeTable(&context, header) { return step }
        }
        let headerBytes = header.headerByteCount + 4
        guard context.window.readable >= headerBytes else { return .needMoreData(atLeast: headerBytes) }
        let data = AudioData(
            chunkStart: chunkStart, start: chunkStart + Int64(headerBytes),
            byteCount: runsToEndOfStream ? nil : header.signedSizeField - 4)
        audioData = data
        walker.enter(header, &context)
        context.window.consume(4)  // mEditCount
        let values = headerValues(&context, data)
        context.publishHeader(values, dataOffset: data.start)
        if description.hasConstantPackets {
            let reader = ConstantPacketData(
                packetSize: Int(description.bytesPerPacket),
                framesPerPacket: description.framesPerPacket, dataStart: data.start, declaredByteCount: data.byteCount)
            constantData = reader
            state = .constantData(reader)
        } else {
            state = .tableData(TableDataCursor(next: 0))
        }
        return .continue
    }

    /// The properties that describe the stream (format, cookie, layout, metadata).
    func describingValues() -> [AudioStreamPropertyValue] {
        var values: [AudioStreamPropertyValue] = []
        if let streamDescription { values.append(.dataFormat(streamDescription)) }
        if let magicCookie { values.append(.magicCookie(magicCookie)) }
        if let channelLayout { values.append(.channelLayout(channelLayout)) }
        if !metadata.isEmpty { values.append(.metadata(metadata)) }
        return values
    }

    /// Every property known when the audio data is reached.
    private func headerValues(_ context: inout ParseContext, _ data: AudioData) -> [AudioStreamPropertyValue] {
        guard let description else { return [] }
        var values = describingValues()
        let rate = description.sampleRate
        if description.hasConstantPackets {
            let size = Int64(description.bytesPerPacket)
            let frames = Int64(description.framesPerPacket)
            if let bytes = data.byteCount {
                values.append(.audioDataByteCount(UInt64(bytes)))
                values.append(.audioDataPacketCount(UInt64(bytes / size)))
            }
            values.append(.maximumPacketSize(description.bytesPerPacket))
            values.append(.packetSizeUpperBound(description.bytesPerPacket))
            values.append(.averageBytesPerPacket(Double(size)))
            if let bitRate = Self.bitRate(bytes: size, frames: frames, sampleRate: rate) {
                values.append(.bitRate(bitRate))
            }
            values.append(.restrictsRandomAccess(false))
            if let pakt = packetTableHeader,
                let info = constantPacketTableInfo(&context, pakt, at: packetTableOffset)
            {
                values.append(.packetTableInfo(info))
            }
        } else if let table {
            if let bytes = data.byteCount, bytes != table.totalBytes {
                context.diagnose(
                    .inconsistentValues, at: data.chunkStart, Self.data,
                    "the packet table describes \(table.totalBytes) bytes but the chunk holds \(bytes)")
            }
            values.append(.audioDataByteCount(UInt64(data.byteCount ?? table.totalBytes)))
            values.append(.audioDataPacketCount(UInt64(table.count)))
            let largest = UInt32(clamping: table.maximumSize)
            values.append(.maximumPacketSize(largest))
            values.append(.packetSizeUpperBound(largest))
            if table.count > 0 {
                values.append(.averageBytesPerPacket(Double(table.totalBytes) / Double(table.count)))
            }
            if let bitRate = Self.bitRate(bytes: table.totalBytes, frames: table.totalFrames, sampleRate: rate) {
                values.append(.bitRate(bitRate))
            }
            if let pakt = packetTableHeader,
                let info = checkedPacketTableInfo(&context, pakt, totalFrames: table.totalFrames, at: packetTableOffset)
            {
                values.append(.packetTableInfo(info))
            }
        }
        return values
    }

    /// `bytes × 8 × sampleRate / frames`, rounded, when it is a meaningful `UInt32`.
    static func bitRate(bytes: Int64, frames: Int64, sampleRate: Double) -> UInt32? {
        guard bytes > 0, frames > 0 else { return nil }
        let value = (Double(bytes) * 8 * sampleRate / Double(frames)).rounded()
        guard value.isFinite, value >= 1, value <= Double(UInt32.max) else { return nil }
        return UInt32(value)
    }

    // MARK: Packets

    mutating func stepConstantData(_ context: inout ParseContext, _ data: ConstantPacketData) -> ParseStep {
        if let target = resumeAt {
            resumeAt = nil
            let gap = target - context.window.position
            if gap > 0 { return .skip(gap) }
        }
        if let step = data.step(&context, CAFContainer.structure) { return step }
        endAudioData(&context)
        return .continue
    }

    /// The walk goes on after the audio data (CAF chunks are not padded).
    private mutating func endAudioData(_ context: inout ParseContext) {
        walker.endChunk(at: context.window.position, declaredSize: 0)
        state = .chunks
    }

    /// Emits every readable packet described by the packet table.
    mutating func stepTableData(_ context: inout ParseContext, _ cursor: TableDataCursor) -> ParseStep {
        guard let data = audioData, let table else { return .continue }  // unreachable: set before this state
        if let target = resumeAt {
            resumeAt = nil
            let gap = target - context.window.position
            if gap > 0 { return .skip(gap) }
        }
        var cursor = cursor
        defer { if case .tableData = state { state = .tableData(cursor) } }
        while true {
            let position = context.window.position
            if let end = data.end, position >= end {
                endAudioData(&context)
                return .continue
            }
            guard cursor.next < table.count else {
                // Audio that no table entry describes.
                if let end = data.end {
                    context.diagnose(
                        .junkSkipped, at: position, Self.data,
                        "\(end - position) bytes after the table's last packet skipped")
                    walker.endChunk(at: end, declaredSize: 0)
                    state = .chunks
                    return .skip(end - position)
                }
                guard context.window.readable > 0 else { return .needMoreData(atLeast: 1) }
                context.diagnose(
                    .junkSkipped, at: position, Self.data, "bytes after the table's last packet are ignored")
                walker.ignoreRest(from: position, .afterAudio)
                state = .chunks
                return .continue
            }
            let size = table.size(of: cursor.next)
            if let end = data.end, size > end - position {
                context.diagnose(
                    .truncated, at: position, Self.data,
                    "packet \(cursor.next) runs past the end of the data chunk; \(end - position) bytes skipped")
                walker.endChunk(at: end, declaredSize: 0)
                state = .chunks
                return .skip(end - position)
            }
            // Safe: size ≤ maxPacketBytes (checked when the entry was read), an Int.
            guard Int64(context.window.readable) >= size else { return .needMoreData(atLeast: Int(size)) }
            let frames = table.frames(of: cursor.next)
            context.emitPacket(
                size: Int(size), variableFrames: table.hasVariableFrames ? UInt32(frames) : 0, frames: frames)
            cursor.next += 1
        }
    }

    // MARK: End of stream

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        let caf = CAFContainer.structure
        switch state {
        case .fileHeader:
            throw context.error(.invalidFile, caf, "stream ends inside the file header")
        case .chunks, .packetTable:
            if let data = audioBeforeTableChunk { throw streamEndsBeforeTable(&context, data) }
            let incomplete: ChunkHeader?
            if case .chunks = state {
                switch walker.state {
                case .lost: throw context.error(.discontinuityCantRecover, CAFContainer.chunkBoundariesLost)
                case .ignoringRest: return
                default: incomplete = walker.incompleteChunk
                }
            } else {
                incomplete = nil
            }
            // A chunk read whole that the stream cut: its header is consumed, but counts from its start.
            let start = incomplete?.offset ?? context.window.position
            guard audioData != nil else {
                throw context.error(.invalidFile, at: start, caf, "stream ends before the audio data ('data' chunk)")
            }
            let leftover = context.window.readable
            let unread = Int64(leftover) + context.window.position - start
            if unread > 0 {
                context.diagnose(
                    .truncated, at: start, caf,
                    "stream ends inside a chunk after the audio data; \(unread) bytes ignored")
                context.window.consume(leftover)
            } else if case .packetTable = state {
                context.diagnose(
                    .truncated, PacketTableChunk.structure, "stream ends inside the chunk after the audio data")
            }
        case .constantData(let data):
            let packets = data.finish(&context, CAFContainer.structure)
            finishedPacketCount = packets
            let end = data.dataEnd.map { min($0, context.window.position) } ?? context.window.position
            context.announce(.audioDataByteCount(UInt64(max(0, end - data.dataStart))))
            context.announce(.audioDataPacketCount(UInt64(packets)))
        case .tableData(let cursor):
            finishTableData(&context, cursor)
        }
    }

    private mutating func finishTableData(_ context: inout ParseContext, _ cursor: TableDataCursor) {
        guard let data = audioData, let table else { return }
        let leftover = context.window.readable
        if leftover > 0 {
            context.diagnose(
                .truncated, Self.data, "stream ends inside packet \(cursor.next); \(leftover) bytes dropped")
            context.window.consume(leftover)
        }
        guard cursor.next < table.count else { return }
        let bytes = table.offset(of: cursor.next)
        context.diagnose(
            .truncated, at: data.start + bytes, Self.data,
            "stream ends after \(cursor.next) of \(table.count) packets (\(bytes) bytes of audio)")
        context.announce(.audioDataByteCount(UInt64(bytes)))
        context.announce(.audioDataPacketCount(UInt64(cursor.next)))
    }
}
