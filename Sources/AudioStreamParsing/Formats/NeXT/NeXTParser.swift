/// NeXT/Sun audio files (`.au`, `.snd`; CoreAudio `kAudioFileNextType`).
///
/// Layout: a 24-byte big-endian header (``NeXTHeader``), an annotation up to the data offset
/// (``NeXTAnnotation``), then interleaved audio frames to the declared data size or, when the size is
/// 0xFFFFFFFF, to the end of the stream. See `docs/formats/next.md`.
///
/// - Buffers: the 24-byte header, then the whole annotation when it is at most
///   `ParserLimits.maxTagBytes` (a larger one is skipped unbuffered with a diagnostic). Audio is
///   never buffered beyond one partial frame.
/// - Announces: at the data offset, `publishHeader` with dataFormat (plus the default one-item
///   formatList the core derives from it), the byte and packet counts (when
///   the size is declared), maximumPacketSize, packetSizeUpperBound, averageBytesPerPacket, bitRate,
///   metadata (when the annotation carries any), restrictsRandomAccess (false), then dataOffset and
///   readyToProducePackets. One packet per frame, emitted arithmetically (`ConstantPacketData`).
/// - `finish`: drops a partial last frame with a diagnostic, announces the real byte and packet
///   counts (always for an unknown size; for a declared size when the stream was shorter), and
///   throws `invalidFile` when the stream ended before the data offset.
struct NeXTParser: FormatParser {
    /// Recognises the `.snd` magic at the start of the stream.
    static let probe = FormatProbe(fileTypes: [.next]) { window, _ in
        let magic: [UInt8] = [0x2E, 0x73, 0x6E, 0x64]
        for (i, byte) in magic.enumerated() {
            guard let b = window.peekUInt8(at: i) else { return .needMoreData(atLeast: magic.count) }
            if b != byte { return .noMatch }
        }
        return .match(.next, NeXTParser())
    }

    /// The container, for messages.
    static let au = Structure("au")

    /// Where the parser is; each case carries what was parsed so far.
    enum State {
        /// Waiting for the 24-byte header.
        case header
        /// The header is parsed; waiting for the whole annotation.
        case annotation(NeXTHeader)
        /// The annotation is being skipped (too large); the data follows the skip.
        case awaitingData(NeXTHeader)
        /// Inside the audio data.
        case data(ConstantPacketData)
        /// The declared data ended; anything further is trailing junk.
        case ended(ConstantPacketData, reportedTrailing: Bool)
        /// A discontinuity arrived before the audio data: the position in the file is lost.
        case lost
    }

    private var state = State.header
    /// Bytes to skip before the next packet, to realign after a discontinuity inside the data.
    private var realign: Int64 = 0
    /// The packet count known at `finish` (for translations and seeking after the end).
    private var finalPacketCount: Int64?

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .header:
            guard let bytes = context.window.peekBytes(count: NeXTHeader.size) else {
                return .needMoreData(atLeast: NeXTHeader.size)
            }
            let header = try NeXTHeader.decode(bytes, context)
            context.window.consume(NeXTHeader.size)
            let length = header.annotationLength
            if length == 0 {
                enterData(header, metadata: nil, &context)
            } else if length > min(context.limits.maxTagBytes, context.limits.maxBufferedBytes) {
                context.diagnose(
                    .limitExceeded, NeXTAnnotation.structure, "\(length) bytes exceed maxTagBytes; skipped")
                state = .awaitingData(header)
                return .skip(Int64(length))
            } else {
                state = .annotation(header)
            }
            return .continue

        case .annotation(let header):
            let length = header.annotationLength
            guard let bytes = context.window.peekBytes(count: length) else { return .needMoreData(atLeast: length) }
            context.window.consume(length)
            enterData(header, metadata: NeXTAnnotation.metadata(bytes), &context)
            return .continue

        case .awaitingData(let header):
            enterData(header, metadata: nil, &context)
            return .continue

        case .data(let data):
            if realign > 0 {
                defer { realign = 0 }
                return .skip(realign)
            }
            if let step = data.step(&context, Self.au) { return step }
            state = .ended(data, reportedTrailing: false)
            return .continue

        case .ended(let data, let reported):
            let n = context.window.readable
            if n == 0 { return .needMoreData(atLeast: 1) }
            if !reported {
                context.diagnose(.junkSkipped, Self.au, "bytes after the declared audio data ignored")
                state = .ended(data, reportedTrailing: true)
            }
            context.window.consume(n)
            return .continue

        case .lost:
            throw context.error(
                .discontinuityCantRecover, Self.au, "discontinuity before the audio data; the position is unknown")
        }
    }

    /// Announces the stream's properties at the data offset and starts the data.
    private mutating func enterData(_ header: NeXTHeader, metadata: AudioMetadata?, _ context: inout ParseContext) {
        let format = header.streamDescription
        let frameBytes = header.packetSize
        let data = ConstantPacketData(
            packetSize: frameBytes, framesPerPacket: header.framesPerPacket, dataStart: context.window.position,
            declaredByteCount: header.dataSize.map { Int64($0) })
        var values: [AudioStreamPropertyValue] = [
            .dataFormat(format),
            .maximumPacketSize(UInt32(frameBytes)),
            .packetSizeUpperBound(UInt32(frameBytes)),
            .averageBytesPerPacket(Double(frameBytes)),
            .restrictsRandomAccess(false),
        ]
        if let size = header.dataSize, let packets = data.declaredPacketCount {
            values.append(.audioDataByteCount(UInt64(size)))
            values.append(.audioDataPacketCount(UInt64(packets)))
        }
        // bits per second = rate × bytes per packet × 8 / frames per packet, when it fits.
        let (bits, overflow) = UInt64(header.sampleRate).multipliedReportingOverflow(by: UInt64(frameBytes) * 8)
        let rate = bits / UInt64(max(header.framesPerPacket, 1))
        if !overflow, rate <= UInt64(UInt32.max) { values.append(.bitRate(UInt32(rate))) }
        if let metadata { values.append(.metadata(metadata)) }
        context.publishHeader(values, dataOffset: context.window.position)
        state = .data(data)
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        switch state {
        case .header:
            throw context.error(.invalidFile, NeXTHeader.structure, "stream ends inside the 24-byte header")
        case .annotation(let header), .awaitingData(let header):
            throw context.error(
                .invalidFile, NeXTAnnotation.structure, "stream ends before the data offset \(header.dataOffset)")
        case .lost:
            throw context.error(
                .discontinuityCantRecover, Self.au, "discontinuity before the audio data; the position is unknown")
        case .data(let data), .ended(let data, _):
            let packets = data.finish(&context, Self.au)
            let end = data.dataEnd.map { min($0, context.window.position) } ?? context.window.position
            let bytes = max(0, end - data.dataStart)
            context.announce(.audioDataByteCount(UInt64(bytes)))
            context.announce(.audioDataPacketCount(UInt64(packets)))
            finalPacketCount = packets
        }
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        switch state {
        case .data(let data), .ended(let data, _):
            // Resume at the next frame boundary, counted from the data start.
            let into = context.window.position - data.dataStart
            let size = Int64(data.packetSize)
            realign = into > 0 ? (size - into % size) % size : 0
            if let end = data.dataEnd, context.window.position < end {
                state = .data(data)
            }
        case .header, .annotation, .awaitingData, .lost:
            state = .lost
        }
    }

    var packetMap: PacketMap {
        switch state {
        case .data(let data), .ended(let data, _):
            return PacketMap(
                bytesPerPacket: Int64(data.packetSize), framesPerPacket: Int64(data.framesPerPacket),
                packetCount: finalPacketCount ?? data.declaredPacketCount)
        case .header, .annotation, .awaitingData, .lost:
            return .unknown
        }
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        switch state {
        case .data(let data), .ended(let data, _):
            state = .data(data)
            realign = 0
            return true
        case .header, .annotation, .awaitingData, .lost:
            return false
        }
    }
}
