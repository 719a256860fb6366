/// The audio data (`SSND`), end of stream, discontinuities and seeking.
extension AIFFParser {
    // MARK: SSND

    /// Reads SSND's `offset` and `blockSize`, publishes the header and enters the audio.
    mutating func readSoundDataFields(
        _ header: AIFFChunkHeader, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        guard let chunk = SoundDataChunk(header: header, window: context.window) else {
            return .needMoreData(atLeast: SoundDataChunk.fieldsByteCount)
        }
        guard let format else {
            throw context.error(.notOptimized, at: header.offset, "aiff (SSND): sound data before the COMM chunk")
        }
        let declaredBytes = try chunk.declaredDataByteCount(context: &context)
        let data = ConstantPacketData(
            packetSize: format.packetSize, framesPerPacket: format.framesPerPacket, dataStart: chunk.dataStart,
            declaredByteCount: declaredBytes)

        if declaredBytes == nil {
            context.diagnose(
                at: header.offset,
                "aiff (SSND): size \(header.size) (written to a pipe?); the audio runs to the end of the stream")
        } else if let formEnd, header.bodyEnd > formEnd {
            context.diagnose(
                at: header.offset,
                "aiff (SSND): chunk ends \(header.bodyEnd - formEnd) bytes after the end of the FORM; "
                    + "SSND's size is used")
        }
        if let packets = data.declaredPacketCount, let common, Int64(common.numSampleFrames) != packets {
            let unit = format.framesPerPacket == 1 ? "frames" : "packets"
            context.diagnose(
                at: header.offset,
                "aiff (COMM): numSampleFrames \(common.numSampleFrames) disagrees with SSND, which holds "
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
        switch data.step(&context) {
        case .needMoreData(let count):
            return .needMoreData(atLeast: count)
        case .progressed:
            return .continue
        case .ended:
            exactCounts = (data.declaredPacketCount ?? 0, data.declaredByteCount ?? 0)
            state = Self.next(after: chunk.header)
            return .continue
        }
    }

    // MARK: End of stream

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        var endedInsideAudio = false
        switch state {
        case .formHeader:
            throw context.error(.invalidFile, "aiff (FORM): stream ends inside the FORM header")
        case .chunkHeader, .padByte:
            try requireSoundData(context)
            let left = context.window.readable
            if left > 0 {
                context.diagnose("aiff: stream ends with \(left) bytes that are not a whole chunk; ignored")
                context.window.consume(left)
            }
        case .chunkBody(let header, _):
            if sound == nil {
                throw context.error(
                    .invalidFile, at: header.offset,
                    "aiff (\(header.name)): stream ends inside the chunk "
                        + "(\(context.window.readable) of \(header.size) bytes)")
            }
            context.diagnose(at: header.offset, "aiff (\(header.name)): stream ends inside the chunk; ignored")
            context.window.consume(context.window.readable)
        case .soundDataFields(let header):
            throw context.error(
                .invalidFile, at: header.offset, "aiff (SSND): stream ends inside its offset and blockSize fields")
        case .soundData(_, let data):
            endedInsideAudio = true
            let packets = data.finish(&context)
            // The data bytes that arrived (a partial last packet included), up to the declared end.
            let end = data.dataEnd.map { min($0, context.window.position) } ?? context.window.position
            exactCounts = (packets, max(0, end - data.dataStart))
        case .trailing:
            break
        case .lost:
            throw context.error(
                .discontinuityCantRecover, "aiff: a discontinuity before the audio data lost the chunk structure")
        }
        // A missing final pad byte is tolerated, so the FORM may end one byte after the stream. (A stream
        // that ends inside the audio was reported by ConstantPacketData already.)
        if !endedInsideAudio, let formEnd, context.window.position < formEnd - 1 {
            context.diagnose(
                "aiff (FORM): stream ends \(formEnd - context.window.position) bytes before the end of the FORM")
        }
        announceExactCounts(&context)
    }

    /// Throws `invalidFile` when the stream ended before the audio data.
    private func requireSoundData(_ context: ParseContext) throws(AudioStreamError) {
        guard sound == nil else { return }
        if common == nil {
            throw context.error(.invalidFile, "aiff: stream ends without COMM and SSND chunks")
        }
        throw context.error(.invalidFile, "aiff: stream ends without an SSND chunk")
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
        case .chunkHeader(let offset), .padByte(let offset):
            if position > offset { loseChunkStructure(&context) }
        case .chunkBody(let header, let kind):
            guard position > header.bodyStart else { break }
            if kind == .common || position > header.bodyEnd {
                loseChunkStructure(&context)
            } else {
                context.diagnose(at: header.offset, "aiff (\(header.name)): chunk cut by a discontinuity; skipped")
                state = Self.next(after: header)
            }
        case .soundDataFields(let header):
            if position > header.bodyStart { loseChunkStructure(&context) }
        case .formHeader, .trailing, .lost:
            break
        }
    }

    /// The chunk boundaries are unknown after a discontinuity: before the audio the stream cannot go on
    /// (the next step throws `dsc!`); after it, the rest of the stream is ignored.
    private mutating func loseChunkStructure(_ context: inout ParseContext) {
        if sound == nil {
            state = .lost
        } else {
            context.diagnose("aiff: chunk boundaries lost in a discontinuity after the audio data; the rest is ignored")
            state = .trailing
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
