/// The `data` chunk: its size rules, the header announcement, and the end of the stream.
extension WAVEParser {
    /// The `data` chunk, for messages.
    static let data = Structure("wave", "data")

    /// Reads the `data` chunk header (at the window's position), announces the header properties and
    /// enters the audio data.
    ///
    /// - Throws: `notOptimized` when no `fmt ` chunk came before (packets cannot be described).
    mutating func startData(
        _ chunk: ChunkHeader, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        let position = chunk.offset
        if hasData {
            // A second data chunk: its audio cannot be told apart from the first's packet indices.
            context.diagnose(
                .duplicateStructure, at: position, WAVEContainer.structure,
                "second data chunk (\(chunk.declaredSize ?? 0) bytes) skipped")
            return walker.skip(chunk, &context)
        }
        guard let format else {
            throw context.error(.notOptimized, Self.data, "the data chunk comes before the fmt chunk")
        }
        walker.enter(chunk, &context)
        let dataStart = chunk.bodyStart
        let declared = dataByteCount(chunk, dataStart: dataStart, &context)
        if let framing = format.framing {
            startFramedData(format, framing, dataStart: dataStart, declared: declared, &context)
            return .continue
        }
        let data = ConstantPacketData(
            packetSize: format.packetSize,
            framesPerPacket: format.framesPerPacket, dataStart: dataStart, declaredByteCount: declared)
        audio = data
        state = .audioData(data)

        let packetSize = UInt32(format.packetSize)
        var values: [AudioStreamPropertyValue] = [.dataFormat(format.streamDescription)]
        if let cookie = format.magicCookie { values.append(.magicCookie(cookie)) }
        if let layout = format.channelLayout { values.append(.channelLayout(layout)) }
        if let declared, let packets = data.declaredPacketCount {
            values.append(.audioDataByteCount(UInt64(declared)))
            values.append(.audioDataPacketCount(UInt64(packets)))
            if let info = packetTableInfo(packetCount: packets) { values.append(.packetTableInfo(info)) }
        }
        values += [
            .maximumPacketSize(packetSize), .packetSizeUpperBound(packetSize),
            .averageBytesPerPacket(Double(packetSize)), .bitRate(format.bitRate), .restrictsRandomAccess(false),
        ]
        if !metadata.isEmpty { values.append(.metadata(metadata)) }
        context.publishHeader(values, dataOffset: dataStart)
        return .continue
    }

    /// Enters the data of MPEG audio: frames of their own lengths, counted as they pass.
    private mutating func startFramedData(
        _ format: WAVEStreamFormat, _ framing: MPEGPacketFraming, dataStart: Int64, declared: Int64?,
        _ context: inout ParseContext
    ) {
        framedAudio = FramedPacketData(framing: framing, dataStart: dataStart, declaredByteCount: declared)
        state = .framedData
        let bound = UInt32(format.packetSize)
        var values: [AudioStreamPropertyValue] = [.dataFormat(format.streamDescription)]
        if let layout = format.channelLayout { values.append(.channelLayout(layout)) }
        if let declared { values.append(.audioDataByteCount(UInt64(declared))) }
        values += [.packetSizeUpperBound(bound), .maximumPacketSize(bound)]
        if format.bitRate > 0 { values.append(.bitRate(format.bitRate)) }
        values.append(.restrictsRandomAccess(false))
        if !metadata.isEmpty { values.append(.metadata(metadata)) }
        context.publishHeader(values, dataOffset: dataStart)
    }

    /// The data size in bytes, or `nil` when the data runs to the end of the stream.
    ///
    /// - RF64/BW64: the `ds64` dataSize when not 0; else a 32-bit 0xFFFFFFFF runs to the end of the
    ///   stream.
    /// - 0xFFFFFFFF (FFmpeg writing to a pipe): to the end of the stream.
    /// - 0 (a writer that never patched the header): to the RIFF end when the RIFF size is known and
    ///   reaches past the data chunk header, else to the end of the stream.
    /// - Wave64: the 64-bit size less the chunk header (no special values).
    /// - Otherwise the declared size, even past the RIFF size (a RIFF size that forgot the data
    ///   chunk's header is a known writer bug; other readers play such files whole).
    private func dataByteCount(
        _ chunk: ChunkHeader, dataStart: Int64, _ context: inout ParseContext
    ) -> Int64? {
        let wave = WAVEContainer.structure
        let position = chunk.offset
        let size = UInt32(truncatingIfNeeded: chunk.sizeField)
        let kind = fileHeader?.kind ?? .riff
        if kind == .wave64 {
            // Wave64 sizes are 64-bit and count the chunk header; no special values.
            guard let body = chunk.declaredSize, body <= UInt64(Int64.max - dataStart) else {
                context.diagnose(
                    .sizeCorrected, at: position, wave,
                    "data chunk size \(chunk.sizeField) is not usable; the data runs to the end of the stream")
                return nil
            }
            if let end = riffEnd, dataStart + Int64(body) > end {
                context.diagnose(
                    .inconsistentValues, at: position, wave,
                    "data chunk ends \(dataStart + Int64(body) - end) bytes past the Wave64 size; the data size is used"
                )
            }
            return Int64(body)
        }
        if kind.usesDataSize64 {
            // EBU Tech 3306 §3.4: the ds64 dataSize is the data chunk's size; FFmpeg also prefers it
            // to a 32-bit size that is not 0xFFFFFFFF.
            if let ds64 = dataSize64, ds64.dataSize > 0 {
                guard ds64.dataSize <= UInt64(Int64.max - dataStart) else {
                    context.diagnose(
                        .sizeCorrected, at: position, DataSize64Chunk.structure,
                        "data size \(ds64.dataSize); the data runs to the end of the stream")
                    return nil
                }
                if size != 0xFFFF_FFFF && UInt64(size) != ds64.dataSize {
                    context.diagnose(
                        .inconsistentValues, at: position, wave,
                        "data chunk size \(size) differs from the ds64 data size \(ds64.dataSize); ds64 is used")
                }
                return Int64(ds64.dataSize)
            }
            if size == 0xFFFF_FFFF {
                context.diagnose(
                    .sizeCorrected, at: position,
                    dataSize64 == nil
                        ? wave.message("RF64 data size without a ds64 chunk; the data runs to the end of the stream")
                        : DataSize64Chunk.structure.message("data size 0; the data runs to the end of the stream"))
                return nil
            }
        }
        switch size {
        case 0xFFFF_FFFF:
            context.diagnose(
                .sizeCorrected, at: position, wave, "data size 0xFFFFFFFF; the data runs to the end of the stream")
            return nil
        case 0:
            if let end = riffEnd, end > dataStart {
                context.diagnose(.sizeCorrected, at: position, wave, "data size 0; the data runs to the RIFF end")
                return end - dataStart
            }
            context.diagnose(.sizeCorrected, at: position, wave, "data size 0; the data runs to the end of the stream")
            return nil
        default:
            let size = Int64(size)
            if let end = riffEnd, dataStart + size > end {
                context.diagnose(
                    .inconsistentValues, at: position, wave,
                    "data chunk ends \(dataStart + size - end) bytes past the RIFF size; the data size is used")
            }
            return size
        }
    }

    /// The gapless information `fact` gives ADPCM: valid frames = the fact length, remainder = the
    /// padding of the last block; `nil` when it does not apply (not ADPCM, no fact, or a fact length
    /// that is not within the last block).
    func packetTableInfo(packetCount: Int64) -> PacketTableInfo? {
        guard let format, format.isBlockCompressed, let length = factSampleLength, length > 0 else { return nil }
        let (total, overflow) = packetCount.multipliedReportingOverflow(by: Int64(format.framesPerPacket))
        guard !overflow, length < UInt64(total) else { return nil }
        let remainder = UInt64(total) - length
        guard remainder < UInt64(format.framesPerPacket) else { return nil }
        return PacketTableInfo(numberValidFrames: Int64(length), primingFrames: 0, remainderFrames: Int32(remainder))
    }

    // MARK: End of stream

    /// Reports what the chunk walk leaves unused at the end of the stream (a partial chunk header, a
    /// truncated chunk, bytes after the RIFF size or after a discontinuity).
    func finishChunkWalk(_ context: inout ParseContext) {
        let wave = WAVEContainer.structure
        let leftover = context.window.readable
        switch walker.state {
        case .header where leftover > 0:
            if let end = riffEnd, context.window.position >= end {
                context.diagnose(
                    .junkSkipped, wave, "\(leftover) bytes after the RIFF size are not a chunk; ignored")
            } else {
                context.diagnose(
                    .truncated, wave,
                    "\(leftover) bytes at the end of the stream are not a whole chunk header; ignored")
            }
        case .body(let chunk):
            let missing = Int(chunk.size ?? 0) - leftover
            context.diagnose(
                .truncated, at: chunk.bodyStart, wave(chunk.name),
                "stream ends \(missing) bytes before the end of the chunk; ignored")
        case .ignoringRest(let ignored):
            let count = ignored.count + Int64(leftover)
            switch ignored.reason {
            case .pastContainerEnd, .afterAudio:
                context.diagnose(
                    .junkSkipped, at: ignored.start, wave,
                    "\(count) bytes after the RIFF size are not a chunk; ignored")
            case .afterDiscontinuity:
                context.diagnose(
                    .discontinuity, at: ignored.start, wave,
                    "\(count) bytes after a discontinuity past the data ignored")
            }
        default:
            break
        }
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        let wave = WAVEContainer.structure
        if framedAudio != nil {
            try finishFramed(&context)
            return
        }
        let wasInData: Bool
        if case .audioData = state { wasInData = true } else { wasInData = false }
        guard let audio else {
            throw context.error(.invalidFile, wave, "stream ends before the data chunk")
        }
        switch state {
        case .audioData(let data):
            _ = data.finish(&context, WAVEContainer.structure)
        case .chunks:
            finishChunkWalk(&context)
        case .fileHeader, .framedData:
            break
        }
        context.window.consume(context.window.readable)

        // The exact counts: what the data really held.
        let byteCount: Int64
        if wasInData {
            let end = audio.dataEnd.map { min($0, context.window.position) } ?? context.window.position
            byteCount = max(0, end - audio.dataStart)
        } else {
            byteCount = audio.declaredByteCount ?? 0
        }
        let packets = byteCount / Int64(audio.packetSize)
        exactPacketCount = packets
        context.announce(.audioDataByteCount(UInt64(byteCount)))
        context.announce(.audioDataPacketCount(UInt64(packets)))
        if let info = packetTableInfo(packetCount: packets) {
            context.announce(.packetTableInfo(info))
        } else if context.announced.packetTableInfo != nil {
            // The data turned out shorter than the fact length: every frame is valid.
            let frames = packets * Int64(audio.framesPerPacket)
            context.announce(
                .packetTableInfo(PacketTableInfo(numberValidFrames: frames, primingFrames: 0, remainderFrames: 0)))
        }
    }
}

extension WAVEParser {
    /// `finish` for MPEG audio: the frames' real count, bytes and sizes.
    private mutating func finishFramed(_ context: inout ParseContext) throws(AudioStreamError) {
        guard var data = framedAudio, let format else { return }
        if case .framedData = state {
            data.finish(&context, WAVEContainer.structure)
            framedAudio = data
        } else {
            finishChunkWalk(&context)
        }
        context.window.consume(context.window.readable)
        exactPacketCount = data.announceTotals(&context, sampleRate: format.streamDescription.sampleRate)
        framedAudio = data
    }
}
