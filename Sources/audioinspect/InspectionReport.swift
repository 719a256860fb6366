import AudioStreamParsing

/// Everything one parse of an input found: the stream's properties, totals, metadata, diagnostics,
/// optionally every packet, and the error that ended it, if any.
///
/// A value type built once the input has ended (or failed), independent of how the input was
/// chunked: feeding the same bytes in any chunk sizes gives an equal report.
struct InspectionReport: Equatable {
    /// How the duration was found: the library's rule (`StreamDuration.Source`).
    typealias DurationSource = StreamDuration.Source
    /// The stream's duration: the library's `AudioStreamParser.estimatedDuration`.
    typealias Duration = StreamDuration

    /// A run of back-to-back packets of the same size and frame count (packets are stored as runs so
    /// that `--packets` on a long PCM stream does not keep one record per frame).
    struct PacketRun: Equatable {
        /// The absolute input offset of the first packet.
        var offset: Int64
        /// Bytes per packet.
        var size: Int64
        /// Frames per packet.
        var frames: Int64
        /// Packets in the run.
        var count: Int64
    }

    /// A failure: a parse error, or an input that could not be opened or read.
    struct Failure: Equatable {
        /// The code of the failure that ^C is (`print` exits with status 130 for it).
        static let interruptedCode = "intr"

        /// The four-character `AudioStreamError` code (`dta?`, `typ?` …), `io` for input errors, or
        /// `intr` when ^C stopped the inspection.
        var code: String
        /// The absolute input offset, or `nil` when there is none (the file could not be opened).
        var offset: Int64?
        /// The reason.
        var message: String

        /// The one-line message printed on standard error.
        var line: String {
            if let offset { return "audioinspect: error \(code) at offset \(offset): \(message)" }
            return "audioinspect: error \(code): \(message)"
        }
    }

    /// The path as given, `-` for standard input.
    var source: String
    var fileType: AudioFileType?
    var dataFormat: StreamDescription?
    var formatList: [FormatListItem]?
    var magicCookie: [UInt8]?
    var channelLayout: ChannelLayout?
    var dataOffset: Int64?
    var audioDataByteCount: UInt64?
    var audioDataPacketCount: UInt64?
    var maximumPacketSize: UInt32?
    var packetSizeUpperBound: UInt32?
    var averageBytesPerPacket: Double?
    var bitRate: UInt32?
    var packetTableInfo: PacketTableInfo?
    var metadata: AudioMetadata?
    var duration: Duration?
    /// Packets, bytes and frames handed to the packets handler.
    var parsedPackets: Int64 = 0
    var parsedBytes: Int64 = 0
    var parsedFrames: Int64 = 0
    /// True when the whole input was parsed and `finish()` succeeded.
    var isComplete = false
    /// Every packet (only when requested), as runs.
    var packets: [PacketRun]?
    /// The first diagnostics (the parser keeps at most 1,000).
    var diagnostics: [ParserDiagnostic] = []
    /// The number of diagnostics in total.
    var diagnosticCount = 0
    /// What ended the parse, if it failed.
    var failure: Failure?
    /// The tracks of a multi-track container (MP4), empty otherwise.
    var tracks: [TrackInfo] = []
    /// The links of a chained stream (Ogg) when it has more than one, empty otherwise.
    var links: [StreamLink] = []
}

/// What to collect, and how to feed the parser.
struct InspectOptions: Equatable {
    /// Keep every packet (`--packets`).
    var collectPackets = false
    /// Feed the parser in chunks of exactly this many bytes (`--chunk-size`); `nil` feeds each read as
    /// it arrives.
    var chunkSize: Int?
    /// The size of each read (the buffer is allocated once and reused).
    var readSize = 1 << 20
    /// Show a progress line on standard error when it is a terminal (see `ProgressLine`).
    var showProgress = false
    /// Read only what needs no walk over the audio (`--quick`; see `Inspector.runQuick`).
    var quick = false
    /// The `Platform.guardMapping` slot of the files this inspection maps (a scan's worker index).
    var guardSlot = 0
}

/// Runs a parser over an input and collects an `InspectionReport`.
final class Inspector {
    /// MP4 files whose `moov` follows the media data: a seekable input (a regular file, also as standard
    /// input, or bytes in memory) is repositioned where the parser asks (`requestedByteOffset`: the `moov`,
    /// then the media), so nothing is held back and the media is read once; a pipe cannot be rewound, so
    /// the media is held back instead (up to the default `maxBufferedBytes`).
    private let parser: AudioStreamParser
    private let options: InspectOptions
    private var packets: [InspectionReport.PacketRun] = []
    /// The offset the parser asked to be fed from next (set by the property listener).
    private var requestedOffset: Int64?
    /// `--quick` jumped over audio (the parse saw the header and the tail only).
    private var skippedAudio = false
    /// The input's size when known (a regular file), for `--quick`'s estimate.
    private var inputSize: Int64?
    /// `--quick` on Ogg: the parser announced the end trimming from the tail's last granule position.
    private var tailTrimmingAnnounced = false

    init(options: InspectOptions, seekable: Bool = false) {
        self.options = options
        parser = AudioStreamParser(
            options: seekable
                ? ParserOptions(allowsByteRangeRequests: true)
                : ParserOptions(bufferUnparsedMediaUpTo: ParserLimits().maxBufferedBytes))
        if options.collectPackets {
            parser.packetsHandler = { [unowned self] batch in record(batch) }
        }
        if seekable {
            parser.propertyListener = { [unowned self] parser, id in
                if id == .requestedByteOffset, let offset = parser.requestedByteOffset { requestedOffset = offset }
                if id == .packetTableInfo, skippedAudio { tailTrimmingAnnounced = true }
            }
        }
    }

    /// Parses everything `input` yields, then finishes, and returns the report. Never throws: a
    /// failure is part of the report.
    static func inspect(_ input: inout some ByteSource, source: String, options: InspectOptions) -> InspectionReport {
        let inspector = Inspector(options: options, seekable: input.isSeekable)
        let failure = inspector.run(&input)
        if failure == nil, inspector.tailToldNothing, (try? input.seek(to: 0)) != nil {
            // `--quick` on an Ogg stream whose tail did not give its length (a chained stream whose last link
            // is another logical stream): read it whole, as without `--quick`.
            var whole = options
            whole.quick = false
            return inspect(&input, source: source, options: whole)
        }
        return inspector.report(source: source, failure: failure)
    }

    /// `--quick` jumped to the tail of an Ogg stream and the parser found no length there: the tail held no
    /// page of the followed logical stream with a granule position, or a new link began in it.
    private var tailToldNothing: Bool {
        skippedAudio && parser.fileFormat == .ogg && !tailTrimmingAnnounced
    }

    /// Opens `path` (`-` for standard input), parses it and returns the report.
    ///
    /// - Parameter rawPath: the path's bytes as given (opened as they are); `nil` opens `path`'s UTF-8.
    static func inspect(path: String, rawPath: [UInt8]? = nil, options: InspectOptions) -> InspectionReport {
        do {
            var input = try FileInput(path: path, rawPath: rawPath)
            input.guardSlot = options.guardSlot
            return inspect(&input, source: path, options: options)
        } catch {
            let inspector = Inspector(options: options)
            return inspector.report(
                source: path,
                failure: InspectionReport.Failure(code: "io", offset: error.offset, message: error.message))
        }
    }

    /// Parses bytes held in memory.
    static func inspect(bytes: [UInt8], source: String, options: InspectOptions) -> InspectionReport {
        var input = MemoryInput(bytes)
        return inspect(&input, source: source, options: options)
    }

    private func run(_ input: inout some ByteSource) -> InspectionReport.Failure? {
        // One read buffer, allocated once (when the input is not mapped) and reused for every read. It is
        // not zero-filled: its pages become resident only as reads fill them (a pipe delivers at most its
        // capacity, 64 KiB on Linux, per read).
        var buffer: UnsafeMutableRawBufferPointer?
        defer { buffer?.deallocate() }
        var chunker = Chunker(size: options.chunkSize)
        let parser = self.parser
        var flags: ParseFlags = []
        let feed: (UnsafeRawBufferPointer) throws -> Void = { [unowned self] chunk in
            // After a request, the rest of this read is not what the parser wants: the input is repositioned.
            guard requestedOffset == nil else { return }
            try parser.parse(chunk, flags: flags)
            flags = []
        }
        var progress = options.showProgress ? ProgressLine.forTerminal(total: input.byteCount) : nil
        var done: Int64 = 0
        defer { progress?.clear() }
        // A regular file is mapped a window at a time instead of read (see `MappedBytes`). Once the format
        // is known, a stream whose parser reads its bytes (frame headers, Ogg pages) gets half-size
        // windows: the whole window becomes resident there, while a container whose payload is never
        // touched (PCM, FLAC frames, MP4 samples) keeps the larger windows and fewer mmap calls.
        var mapping = true
        var windowSize = max(options.readSize, 1 << 16)
        var decided = false
        // `--quick`: small windows until the header is parsed, then (for formats whose walk reads the audio)
        // a jump to the tail; see `quickJump`.
        var quickHead = options.quick && input.isSeekable
        if quickHead { windowSize = Self.quickHeadWindow }
        do {
            while !Platform.interruptRequested {
                var count = 0
                if mapping, let window = input.mapNext(maxCount: windowSize) {
                    defer { window.unmap() }
                    count = window.bytes.count
                    if count == 0 { break }
                    done += Int64(count)
                    progress?.update(done: done)
                    try chunker.feed(window.bytes, feed)
                    try input.checkIntact()
                    if quickHead, requestedOffset == nil, parser.isReadyToProducePackets {
                        quickHead = false
                        windowSize = max(options.readSize, 1 << 16)
                        if let jump = quickJump(size: input.byteCount, position: done) {
                            try input.seek(to: jump)
                            chunker = Chunker(size: options.chunkSize)
                            flags = .discontinuity
                            done = jump
                        }
                    }
                    if !decided, !quickHead, let type = parser.fileFormat {
                        decided = true
                        if Self.readsStreamBytes(type) { windowSize = max(windowSize / 2, 1 << 16) }
                        if Self.touchesBlockHeaders(type) { windowSize = Self.blockHeaderWindow(windowSize) }
                    }
                } else {
                    mapping = false
                    let raw =
                        buffer
                        ?? UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, options.readSize), alignment: 16)
                    buffer = raw
                    count = try input.read(into: raw)
                    if count == 0 { break }
                    done += Int64(count)
                    progress?.update(done: done)
                    try chunker.feed(UnsafeRawBufferPointer(rebasing: raw[0..<count]), feed)
                }
                if let offset = requestedOffset {
                    // Feed from the requested offset, flagged as a discontinuity (`requestedByteOffset`).
                    requestedOffset = nil
                    try input.seek(to: offset)
                    chunker = Chunker(size: options.chunkSize)
                    flags = .discontinuity
                    done = offset
                }
            }
            if Platform.interruptRequested {
                // ^C: what was parsed is reported; the input did not end, so the parse is not finished.
                return InspectionReport.Failure(
                    code: InspectionReport.Failure.interruptedCode, offset: done, message: "interrupted")
            }
            try chunker.flush(feed)
            try parser.finish()
            return nil
        } catch let error as AudioStreamError {
            // Zeros where a shrinking file lost its pages can make the parser fail first: the input error
            // is the cause.
            do throws(InputError) {
                try input.checkIntact()
            } catch {
                return InspectionReport.Failure(code: "io", offset: error.offset, message: error.message)
            }
            return InspectionReport.Failure(
                code: error.code.description, offset: error.byteOffset, message: error.reason)
        } catch let error as InputError {
            return InspectionReport.Failure(code: "io", offset: error.offset, message: error.message)
        } catch {
            return InspectionReport.Failure(code: "wht?", offset: nil, message: "\(error)")
        }
    }

    /// The window size of `--quick` until the header is parsed: small, because a parser reads every byte
    /// of a window it is given (an Ogg parser checks every page's CRC), and most headers are a few KiB.
    static let quickHeadWindow = 16 << 10
    /// How many bytes at the end of a file `--quick` reads: the last frames and the tags that end the
    /// stream (ID3v1, APEv2, Lyrics3, an appended ID3v2; larger trailing tags are read in part); for Ogg
    /// 64 KiB, more than the largest page (65,307 bytes), so the last page is always read whole.
    static func quickTailBytes(_ type: AudioFileType) -> Int64 {
        type == .ogg ? 64 << 10 : 128 << 10
    }

    /// `--quick`, once the header is parsed: where to jump to, or `nil` to read on. Only the formats whose
    /// walk reads the audio frame by frame or page by page (frame headers of MPEG audio, ADTS, AC-3, LOAS and
    /// FLAC; Ogg pages) jump, to the last `quickTailBytes`; the others touch no audio byte anyway (a chunk container's PCM, MP4 samples: mapped,
    /// never paged in), so they are read whole and their values stay exact. After the jump an Ogg parser
    /// announces the length from the last granule position (docs/formats/ogg.md, "Head and tail").
    private func quickJump(size: Int64?, position: Int64) -> Int64? {
        inputSize = size
        guard let size, let type = parser.fileFormat, Self.readsStreamBytes(type) || type == .flac
        else { return nil }
        let tail = size - Self.quickTailBytes(type)
        guard tail > position else { return nil }
        skippedAudio = true
        return tail
    }

    /// File types whose parser reads the bytes of the stream as it goes (MPEG audio and ADTS frame
    /// headers, every byte of an Ogg page for its CRC), so that a mapped window becomes resident whole.
    static func readsStreamBytes(_ type: AudioFileType) -> Bool {
        [.mp3, .mp2, .mp1, .aacADTS, .ogg, .latmInLOAS, .ac3].contains(type)
    }

    /// File types whose parser touches one header per block all through the file (Matroska's
    /// SimpleBlocks), so that every window is mapped whole or nearly (the kernel maps the pages around each
    /// touched one) and the cost of each window itself (`mmap`, `munmap`, the seeks, the check that the
    /// file did not shrink, the mapping of its pages) is what the window size changes. A 60-minute MKA/FLAC
    /// (451 MB) takes 0.022 s with 4 MiB windows against 0.035 s with 1 MiB ones, for ≈ 4 MiB more resident
    /// memory (docs/performance.md, "Session 14").
    static func touchesBlockHeaders(_ type: AudioFileType) -> Bool {
        type == .matroska || type == .webM
    }

    /// The window for `touchesBlockHeaders` types: four times `base`, at most 4 MiB (never smaller).
    static func blockHeaderWindow(_ base: Int) -> Int {
        max(base, min(base * 4, 4 << 20))
    }

    /// Appends a batch's packets, merging back-to-back packets of equal size and frames into runs.
    private func record(_ batch: PacketBatch) {
        let constantFrames = Int64(parser.dataFormat?.framesPerPacket ?? 0)
        for d in batch.descriptions {
            let offset = batch.fileOffset + d.startOffset
            let size = Int64(d.dataByteSize)
            let frames = d.variableFramesInPacket != 0 ? Int64(d.variableFramesInPacket) : constantFrames
            if var last = packets.last, last.size == size, last.frames == frames,
                last.offset + last.count * last.size == offset
            {
                last.count += 1
                packets[packets.count - 1] = last
            } else {
                packets.append(InspectionReport.PacketRun(offset: offset, size: size, frames: frames, count: 1))
            }
        }
    }

    private func report(source: String, failure: InspectionReport.Failure?) -> InspectionReport {
        var r = InspectionReport(source: source)
        r.fileType = parser.fileFormat
        r.dataFormat = parser.dataFormat
        r.formatList = parser.formatList
        r.magicCookie = parser.magicCookie
        r.channelLayout = parser.channelLayout
        r.dataOffset = parser.dataOffset
        r.audioDataByteCount = parser.audioDataByteCount
        r.audioDataPacketCount = parser.audioDataPacketCount
        r.maximumPacketSize = parser.maximumPacketSize
        r.packetSizeUpperBound = parser.packetSizeUpperBound
        r.averageBytesPerPacket = parser.averageBytesPerPacket
        r.bitRate = parser.bitRate
        r.packetTableInfo = parser.packetTableInfo
        r.metadata = parser.metadata
        r.parsedPackets = parser.parsedPacketCount
        r.parsedBytes = parser.parsedByteCount
        r.parsedFrames = parser.parsedFrameCount
        // After a `--quick` jump the parser finished on the tail only: nothing it counted is exact.
        r.isComplete = failure == nil && parser.isComplete && !skippedAudio
        r.packets = options.collectPackets ? packets : nil
        r.diagnostics = parser.diagnostics
        r.diagnosticCount = parser.diagnosticCount
        r.failure = failure
        r.tracks = parser.tracks
        r.duration = parser.estimatedDuration
        if skippedAudio {
            // `--quick` skipped the audio, so every duration is an estimate; when the header declared no byte
            // count, the bit-rate rule uses the file's size from the data offset on.
            var byteCount = r.audioDataByteCount
            if byteCount == nil, let size = inputSize, let offset = r.dataOffset, size > offset {
                byteCount = UInt64(size - offset)
            }
            r.duration = StreamDuration.estimate(
                packetTableInfo: r.packetTableInfo, packetCount: r.audioDataPacketCount, byteCount: byteCount,
                bitRate: r.bitRate, format: r.dataFormat, parsedFrames: nil, isComplete: false)
        }
        let links = parser.links
        if links.count > 1 { r.links = links }
        return r
    }
}
