/// The `data` chunk: publishing the header, emitting packets, and the end of the stream.
///
/// ```
/// data chunk body (Apple "Core Audio Format Specification", "Required Chunks", "Audio Data Chunk")
/// offset  size  field
///      0     4  mEditCount   UInt32 (changes whenever the audio is edited; metadata refers to it)
///      4     …  mData        the packets, back to back; dataOffset = chunk offset + 12 + 4
/// ```
extension CAFParser {
    mutating func startAudioData(
        _ context: inout ParseContext, _ header: CAFChunkHeader
    ) throws(AudioStreamError) -> ParseStep {
        let chunkStart = context.window.position
        if audioData != nil {
            context.diagnose(at: chunkStart, "caf (data): a second 'data' chunk is ignored")
            context.window.consume(CAFChunkHeader.byteCount)
            if header.runsToEndOfStream {
                state = .ignoringRest
                return .continue
            }
            return header.size > 0 ? .skip(header.size) : .continue
        }
        guard let description else { return .continue }  // unreachable: 'desc' is always first
        if header.size >= 0 && header.size < 4 {
            throw context.error(.invalidFile, "caf (data): chunk is \(header.size) bytes; its edit count needs 4")
        }
        if !description.hasConstantPackets && table == nil {
            // Tell the listener what the stream is before failing (Apple's parser has announced the
            // format by the time it reports optm).
            for value in describingValues().sorted(by: { $0.announcementOrder < $1.announcementOrder }) {
                context.announce(value)
            }
            if header.runsToEndOfStream {
                throw context.error(
                    .invalidFile,
                    "caf (data): variable-size packets need a 'pakt' chunk before a data chunk of unknown size")
            }
            throw context.error(
                .notOptimized,
                "caf (data): the packet table ('pakt') is not before the audio data; packets cannot be delimited")
        }
        let headerBytes = CAFChunkHeader.byteCount + 4
        guard context.window.readable >= headerBytes else { return .needMoreData(atLeast: headerBytes) }
        let data = AudioData(
            chunkStart: chunkStart, start: chunkStart + Int64(headerBytes),
            byteCount: header.runsToEndOfStream ? nil : header.size - 4)
        audioData = data
        context.window.consume(headerBytes)
        let values = headerValues(&context, data)
        context.publishHeader(values, dataOffset: data.start)
        if description.hasConstantPackets {
            let reader = ConstantPacketData(
                packetSize: Int(description.bytesPerPacket), framesPerPacket: description.framesPerPacket,
                dataStart: data.start, declaredByteCount: data.byteCount)
            constantData = reader
            state = .constantData(reader)
        } else {
            state = .tableData(TableDataCursor(next: 0))
        }
        return .continue
    }

    /// The properties that describe the stream (format, cookie, layout, metadata).
    private func describingValues() -> [AudioStreamPropertyValue] {
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
                    at: data.chunkStart,
                    "caf (data): the packet table describes \(table.totalBytes) bytes but the chunk holds \(bytes)")
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
        switch data.step(&context) {
        case .needMoreData(let n): return .needMoreData(atLeast: n)
        case .progressed: return .continue
        case .ended:
            state = .chunkHeader
            return .continue
        }
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
                state = .chunkHeader
                return .continue
            }
            guard cursor.next < table.count else {
                // Audio that no table entry describes.
                if let end = data.end {
                    context.diagnose(
                        at: position, "caf (data): \(end - position) bytes after the table's last packet skipped")
                    state = .chunkHeader
                    return .skip(end - position)
                }
                guard context.window.readable > 0 else { return .needMoreData(atLeast: 1) }
                context.diagnose(at: position, "caf (data): bytes after the table's last packet are ignored")
                state = .ignoringRest
                return .continue
            }
            let size = table.size(of: cursor.next)
            if let end = data.end, size > end - position {
                context.diagnose(
                    at: position,
                    "caf (data): packet \(cursor.next) runs past the end of the data chunk; "
                        + "\(end - position) bytes skipped")
                state = .chunkHeader
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
        if lostHeader {
            throw context.error(
                .discontinuityCantRecover, "caf: discontinuity before the audio data; the chunk structure is lost")
        }
        switch state {
        case .fileHeader:
            throw context.error(.invalidFile, "caf: stream ends inside the file header")
        case .chunkHeader, .packetTable:
            guard audioData != nil else {
                throw context.error(.invalidFile, "caf: stream ends before the audio data ('data' chunk)")
            }
            let leftover = context.window.readable
            if leftover > 0 {
                context.diagnose("caf: stream ends inside a chunk after the audio data; \(leftover) bytes ignored")
                context.window.consume(leftover)
            } else if case .packetTable = state {
                context.diagnose("caf (pakt): stream ends inside the chunk after the audio data")
            }
        case .constantData(let data):
            let packets = data.finish(&context)
            let end = data.dataEnd.map { min($0, context.window.position) } ?? context.window.position
            context.announce(.audioDataByteCount(UInt64(max(0, end - data.dataStart))))
            context.announce(.audioDataPacketCount(UInt64(packets)))
        case .tableData(let cursor):
            finishTableData(&context, cursor)
        case .ignoringRest:
            break
        }
    }

    private mutating func finishTableData(_ context: inout ParseContext, _ cursor: TableDataCursor) {
        guard let data = audioData, let table else { return }
        let leftover = context.window.readable
        if leftover > 0 {
            context.diagnose("caf (data): stream ends inside packet \(cursor.next); \(leftover) bytes dropped")
            context.window.consume(leftover)
        }
        guard cursor.next < table.count else { return }
        let bytes = table.offset(of: cursor.next)
        context.diagnose(
            at: data.start + bytes,
            "caf (data): stream ends after \(cursor.next) of \(table.count) packets (\(bytes) bytes of audio)")
        context.announce(.audioDataByteCount(UInt64(bytes)))
        context.announce(.audioDataPacketCount(UInt64(cursor.next)))
    }
}
