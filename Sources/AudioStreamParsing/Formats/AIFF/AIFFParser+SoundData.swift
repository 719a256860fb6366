/// The audio data (`SSND`), end of stream, discontinuities and seeking.
extension AIFFParser {
    // MARK: SSND

    /// Reads SSND's `offset` and `blockSize`, publishes the header and enters the audio.
    mutating func readSoundDataFields(
        _ header: ChunkHeader, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        guard let chunk = SoundDataChunk(header: header, window: context.window) else {
            return .needMoreData(atLeast: SoundDataChunk.fieldsByteCount)
        }
        guard let format else {
            throw context.error(
                .notOptimized, at: header.offset, SoundDataChunk.structure, "sound data before the COMM chunk")
        }
        let declaredBytes = try chunk.declaredDataByteCount(context: &context)
        let data = ConstantPacketData(
            packetSize: format.packetSize,
            framesPerPacket: format.framesPerPacket, dataStart: chunk.dataStart, declaredByteCount: declaredBytes)

        if declaredBytes == nil {
            context.diagnose(
                .sizeCorrected, at: header.offset, SoundDataChunk.structure,
                "size \(header.sizeField) (written to a pipe?); the audio runs to the end of the stream")
        } else if let formEnd, header.bodyEnd > formEnd {
            context.diagnose(
                .inconsistentValues, at: header.offset, SoundDataChunk.structure,
                "chunk ends \(header.bodyEnd - formEnd) bytes after the end of the FORM; SSND's size is used")
        }
        if let packets = data.declaredPacketCount, let common, Int64(common.numSampleFrames) != packets {
            let unit = format.framesPerPacket == 1 ? "frames" : "packets"
            context.diagnose(
                .inconsistentValues, at: header.offset, CommonChunk.structure,
                "numSampleFrames \(common.numSampleFrames) disagrees with SSND, which holds "
                    + "\(packets) \(unit); SSND's size is used")
        }

        var values: [AudioStreamPropertyValue] = [
            .dataFormat(format.streamDescription),
            .maximumPacketSize(UInt32(format.packetSize)),
            .packetSizeUpperBound(UInt32(format.packetSize)),
            .averageBytesPerPacket(Double(format.packetSize)),
            .restrictsRandomAccess(false),
        ]
        if let layout = format.channelLayout { values.append(.channelLayout(layout)) }
        if let declaredBytes, let packets = data.declaredPacketCount {
            values.append(.audioDataByteCount(UInt64(declaredBytes)))
            values.append(.audioDataPacketCount(UInt64(packets)))
        }
        if let bitRate = format.bitRate { values.append(.bitRate(bitRate)) }
        if !metadata.isEmpty { values.append(.metadata(metadata)) }
        context.publishHeader(values, dataOffset: chunk.dataStart)

        context.window.consume(SoundDataChunk.fieldsByteCount)
        sound = (chunk, data)
        state = .soundData(chunk, data)
        return .continue
    }

    /// Emits the whole packets that are readable; skips SSND's `offset` bytes first, and realigns to a
    /// packet boundary after a discontinuity.
    mutating func readSoundData(
        _ chunk: SoundDataChunk, _ data: ConstantPacketData, _ context: inout ParseContext
    ) -> ParseStep {
        let position = context.window.position
        let relative = position - data.dataStart
        if relative < 0 { return .skip(-relative) }
        let misalignment = relative % Int64(data.packetSize)
        if misalignment != 0, data.dataEnd.map({ position < $0 }) ?? true {
            let toBoundary = Int64(data.packetSize) - misalignment
            return .skip(data.dataEnd.map { min(toBoundary, $0 - position) } ?? toBoundary)
        }
        if let step = data.step(&context, AIFFContainer.structure) { return step }
        exactCounts = (data.declaredPacketCount ?? 0, data.declaredByteCount ?? 0)
        walker.endChunk(chunk.header)
        state = .chunks
        return .continue
    }

    // MARK: End of stream

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        var endedInsideAudio = false
        switch state {
        case .formHeader:
            throw context.error(.invalidFile, AIFFContainer.form, "stream ends inside the FORM header")
        case .chunks:
            switch walker.state {
            case .header, .pad, .handedOff:
                try requireSoundData(context)
                let left = context.window.readable
                if left > 0 {
                    context.diagnose(
                        .truncated, AIFFContainer.structure,
                        "stream ends with \(left) bytes that are not a whole chunk; ignored")
                    context.window.consume(left)
                }
            case .body(let header):
                let name = AIFFContainer.structure(header.name)
                if sound == nil {
                    throw context.error(
                        .invalidFile, at: header.offset, name,
                        "stream ends inside the chunk (\(context.window.readable) of \(header.sizeField) bytes)")
                }
                context.diagnose(.truncated, at: header.offset, name, "stream ends inside the chunk; ignored")
                context.window.consume(context.window.readable)
            case .ignoringRest:
                break
            case .lost:
                throw context.error(.discontinuityCantRecover, AIFFContainer.chunkBoundariesLost)
            }
        case .soundDataFields(let header):
            throw context.error(
                .invalidFile, at: header.offset, SoundDataChunk.structure,
                "stream ends inside its offset and blockSize fields")
        case .soundData(_, let data):
            endedInsideAudio = true
            let packets = data.finish(&context, AIFFContainer.structure)
            // The data bytes that arrived (a partial last packet included), up to the declared end.
            let end = data.dataEnd.map { min($0, context.window.position) } ?? context.window.position
            exactCounts = (packets, max(0, end - data.dataStart))
        }
        // A missing final pad byte is tolerated, so the FORM may end one byte after the stream. (A stream
        // that ends inside the audio was reported by ConstantPacketData already.)
        if !endedInsideAudio, let formEnd, context.window.position < formEnd - 1 {
            context.diagnose(
                .truncated, AIFFContainer.form,
                "stream ends \(formEnd - context.window.position) bytes before the end of the FORM")
        }
        announceExactCounts(&context)
    }

    /// Throws `invalidFile` when the stream ended before the audio data.
    private func requireSoundData(_ context: borrowing ParseContext) throws(AudioStreamError) {
        guard sound == nil else { return }
        if common == nil {
            throw context.error(.invalidFile, AIFFContainer.structure, "stream ends without COMM and SSND chunks")
        }
        throw context.error(.invalidFile, AIFFContainer.structure, "stream ends without an SSND chunk")
    }

    /// Announces the byte and packet counts the data really held (no-ops when they equal the declared ones).
    private func announceExactCounts(_ context: inout ParseContext) {
        guard let exactCounts else { return }
        context.announce(.audioDataByteCount(UInt64(exactCounts.bytes)))
        context.announce(.audioDataPacketCount(UInt64(exactCounts.packets)))
    }

    // MARK: Discontinuities and seeking

    /// Drops partial state. Inside the audio, the next packet index is the first whole packet at or after
    /// the new position (the step skips to it). Elsewhere, a metadata chunk whose bytes were lost is
    /// skipped; any other lost structure loses the chunk boundaries (see `loseChunkStructure`).
    mutating func discontinuity(_ context: inout ParseContext) {
        let position = context.window.position
        switch state {
        case .soundData(_, let data):
            let relative = position - data.dataStart
            let size = Int64(data.packetSize)
            context.nextPacketIndex = relative <= 0 ? 0 : (relative + size - 1) / size
        case .chunks:
            switch walker.state {
            case .header(let offset), .pad(let offset, _):
                if position > offset { loseChunkStructure(&context) }
            case .body(let header):
                guard position > header.bodyStart else { break }
                if header.id == CommonChunk.id || position > header.bodyEnd {
                    loseChunkStructure(&context)
                } else {
                    context.diagnose(
                        .discontinuity, at: header.offset, AIFFContainer.structure(header.name),
                        "chunk cut by a discontinuity; skipped")
                    walker.endChunk(header)
                }
            case .handedOff, .ignoringRest, .lost:
                break
            }
        case .soundDataFields(let header):
            if position > header.bodyStart { loseChunkStructure(&context) }
        case .formHeader:
            break
        }
    }

    /// The chunk boundaries are unknown after a discontinuity: before the audio the stream cannot go on
    /// (the next step throws `dsc!`); after it, the rest of the stream is ignored.
    private mutating func loseChunkStructure(_ context: inout ParseContext) {
        state = .chunks
        if sound == nil {
            walker.lose()
        } else {
            context.diagnose(
                .discontinuity, AIFFContainer.structure,
                "chunk boundaries lost in a discontinuity after the audio data; the rest is ignored")
            walker.ignoreRest(from: context.window.position, .afterDiscontinuity)
        }
    }

    /// Continues inside the audio at `byteOffset` after the data offset (possible once SSND was reached).
    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard let sound else { return false }
        state = .soundData(sound.chunk, sound.data)
        return true
    }

    /// Constant packets: byte, frame and packet positions are arithmetic. The packet count is SSND's
    /// declared one, or the exact one once the stream ended.
    var packetMap: PacketMap {
        if let sound {
            var map = sound.data.packetMap
            if let exactCounts { map.packetCount = exactCounts.packets }
            return map
        }
        if let format {
            return PacketMap(bytesPerPacket: Int64(format.packetSize), framesPerPacket: Int64(format.framesPerPacket))
        }
        return .unknown
    }
}
