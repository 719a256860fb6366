/// AMR and AMR-WB speech in the storage format of RFC 4867 §5 (`.amr`, `.awb`; CoreAudio
/// `kAudioFileAMRType`, `amrf`): the magic (``AMRStorageHeader``), then frames back to back, each a
/// one-byte header and the frame's bits (``AMRFrameType``). See `docs/formats/amr.md`.
///
/// - Packets: one per frame (20 ms: 160 frames at 8 kHz, 320 at 16 kHz), exactly its stored bytes,
///   header included; NO_DATA and SPEECH_LOST frames are one-byte packets (a decoder conceals them).
///   Format IDs `samr` and `sawb` (`kAudioFormatAMR`, `kAudioFormatAMR_WB`), mono, no cookie.
/// - Sync: the frames are walked by ``FramedPacketData``: a header byte with padding bits set or a frame
///   type that does not occur in files is junk, skipped with one diagnostic per run until a header
///   whose frame is followed by another header (or ends the stream).
/// - Announces at the first frame: dataFormat, packetSizeUpperBound and maximumPacketSize (the largest
///   frame of the variant), restrictsRandomAccess (false), dataOffset (the magic's length).
/// - `finish`: drops a partial last frame with a diagnostic and announces the real counts, largest and
///   mean frame and the bit rate. It throws `invalidFile` when the stream ends inside the magic.
/// - Seeking: exact over the frames parsed (their offsets are recorded), estimated beyond them.
struct AMRParser: FormatParser {
    /// Recognises `#!AMR\n` and `#!AMR-WB\n` (and the multi-channel magics, to reject them clearly).
    static let probe = FormatProbe(fileTypes: [.amr]) { window, _ in
        switch AMRStorageHeader.peek(window) {
        case .header: return .match(.amr, AMRParser())
        case .noMatch: return .noMatch
        case .needMoreData(let n): return .needMoreData(atLeast: n)
        }
    }

    /// The format, for messages.
    static let structure = Structure("amr")

    /// Where the parser is.
    enum State {
        /// Before the magic.
        case magic
        /// In the frames.
        case frames
    }

    private var state = State.magic
    private var header: AMRStorageHeader?
    private var frames: FramedPacketData<AMRPacketFraming>?

    /// The sample rate of the variant.
    private var sampleRate: Double { header?.isWideband == true ? 16_000 : 8_000 }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .magic:
            switch AMRStorageHeader.peek(context.window) {
            case .needMoreData(let n): return .needMoreData(atLeast: n)
            case .noMatch: throw context.error(.invalidFile, Self.structure, "not an AMR storage-format magic")
            case .header(let magic):
                guard !magic.isMultichannel else {
                    throw context.error(
                        .unsupportedDataFormat, Self.structure, "multi-channel AMR storage format is not supported")
                }
                context.window.consume(magic.byteCount)
                header = magic
                start(magic, &context)
                return .continue
            }
        case .frames:
            guard var data = frames else { return .needMoreData(atLeast: 1) }
            let step = data.step(&context, Self.structure)
            frames = data
            // The frames run to the end of the stream: `step` returns nil only for a declared end.
            return step ?? .needMoreData(atLeast: 1)
        }
    }

    /// Announces the stream's properties and enters the frames.
    private mutating func start(_ magic: AMRStorageHeader, _ context: inout ParseContext) {
        let framing = AMRPacketFraming(isWideband: magic.isWideband)
        frames = FramedPacketData(framing: framing, dataStart: context.window.position, declaredByteCount: nil)
        state = .frames
        let table = magic.isWideband ? AMRFrameType.widebandBits : AMRFrameType.narrowbandBits
        let largest = UInt32(1 + ((table.compactMap { $0 }.max() ?? 0) + 7) / 8)
        let format = StreamDescription(
            sampleRate: sampleRate, formatID: magic.isWideband ? .amrWB : .amr, formatFlags: 0, bytesPerPacket: 0,
            framesPerPacket: magic.isWideband ? 320 : 160, bytesPerFrame: 0, channelsPerFrame: 1, bitsPerChannel: 0)
        let values: [AudioStreamPropertyValue] = [
            .dataFormat(format), .channelLayout(ChannelLayout(tag: ChannelLayout.Tag.mono)),
            .packetSizeUpperBound(largest), .maximumPacketSize(largest), .restrictsRandomAccess(false),
        ]
        context.publishHeader(values, dataOffset: context.window.position)
    }

    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {
        guard var data = frames else {
            throw context.error(.invalidFile, Self.structure, "stream ends inside the magic number")
        }
        data.finish(&context, Self.structure)
        finalPacketCount = data.announceTotals(&context, sampleRate: sampleRate)
        frames = data
    }

    /// The frame count known at `finish`.
    private var finalPacketCount: Int64?

    mutating func discontinuity(_ context: inout ParseContext) {
        frames?.loseSync()
    }

    var packetMap: PacketMap {
        guard let frames, let header else { return .unknown }
        var map = PacketMap(framesPerPacket: header.isWideband ? 320 : 160, packetCount: finalPacketCount)
        if !frames.offsets.offsets.isEmpty { map.packetOffsets = frames.offsets.offsets }
        map.estimatedBytesPerPacket = frames.averagePacketSize ?? Double(header.isWideband ? 61 : 32)
        return map
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard frames != nil else { return false }
        let isExact = packetMap.packetToByte(packet)?.isEstimated == false
        frames?.prepareForSeek(isExact: isExact)
        return true
    }
}
