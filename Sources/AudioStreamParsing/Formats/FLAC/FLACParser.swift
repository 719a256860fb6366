/// Native FLAC streams (`.flac`; CoreAudio `kAudioFileFLACType`, RFC 9639): the `fLaC` marker,
/// metadata blocks, then frames. See `docs/formats/flac.md`.
///
/// - Metadata (§8): STREAMINFO (required first: the data format, magic cookie, total samples),
///   SEEKTABLE (seeking), VORBIS_COMMENT and PICTURE (metadata), CUESHEET (chapters) are read whole
///   within `ParserLimits`; PADDING, APPLICATION and unknown blocks are skipped unbuffered. The block
///   with the last-metadata-block flag ends the header: `dataOffset` is where it ends.
/// - Frames (§9): one packet per frame. A frame starts with a header whose sync code, CRC-8 and fields
///   agree with STREAMINFO; it ends where the next such header starts and the CRC-16 over the bytes
///   before it (footer included) is 0, or at the end of the stream with the same CRC check. The CRC-16
///   runs incrementally over the bytes as they arrive and the scan resumes where it stopped, so 1-byte
///   feeding stays linear. A frame whose CRC-16 never comes out 0 before a later frame header (past
///   STREAMINFO's maximum frame size) or within `frameBound` is not a packet: the search resumes one
///   byte after its sync code, so a false sync inside audio data is never a packet and a good frame
///   after damaged bytes is still found. The search for a frame header (after junk, a seek or a
///   discontinuity) is the frame-sync engine's (``FrameSyncSearch`` with ``FLACFrameSync``); while the
///   header chain holds, whole frames of the caller's chunk are walked in one step (the engine's fast
///   path, ``walkFrames(_:_:)``).
/// - Buffers: one metadata block (STREAMINFO, SEEKTABLE, CUESHEET up to `maxHeaderChunkBytes`,
///   VORBIS_COMMENT up to `maxTagBytes`, PICTURE up to `maxArtworkBytes`), then one frame plus the next
///   header (at most `frameBound`).
/// - Announces when the last metadata block has been read: dataFormat, formatList, magicCookie (dfLa layout), channelLayout,
///   audioDataPacketCount (fixed block size and known total samples), maximumPacketSize (STREAMINFO's
///   maximum frame size when known), packetSizeUpperBound, packetTableInfo (total samples; remainder of
///   a fixed-blocksize stream's short last frame), metadata, dataOffset, readyToProducePackets.
///   After a seek or discontinuity, a fixed-blocksize frame's number resets the packet index.
/// - `finish`: delivers the last frame when its CRC-16 checks (before tags that end the stream, which
///   are read and announced as metadata; before zero bytes, reported), drops a truncated one with a
///   diagnostic, announces exact audioDataByteCount, audioDataPacketCount, maximumPacketSize,
///   averageBytesPerPacket and bitRate. Throws `invalidFile` when the stream ends inside the metadata.
struct FLACParser: FrameSyncParser {
    /// The prefix of the parser's errors and diagnostics.
    static let structure = Structure("flac")
    /// The metadata blocks, and the STREAMINFO block.
    static let metadataBlocks = structure("metadata")
    static let streamInfoBlock = structure("STREAMINFO")

    /// Recognises `fLaC` at the start.
    static let probe = FormatProbe(fileTypes: [.flac]) { window, options in
        switch FormatProbe.matches(window, "fLaC") {
        case true?:
            let engine = FrameSyncEngine(usesFastPath: options.usesFrameSyncFastPath)
            return .match(.flac, FLACParser(verifiesFrameCRC: options.verifiesFLACFrameCRC, engine: engine))
        case false?: return .noMatch
        case nil: return .needMoreData(atLeast: 4)
        }
    }

    /// Where the parser is.
    enum State {
        /// Before the `fLaC` marker.
        case marker
        /// A metadata block header is expected at the position.
        case blockHeader
        /// The body of this metadata block starts at the position.
        case blockBody(FLACMetadataBlockHeader)
        /// Looking for a frame header (after junk, a discontinuity or a seek).
        case searching(Search)
        /// A frame whose header is at the position; looking for its end.
        case frame(FrameScan)
    }

    /// A frame search in progress.
    struct Search {
        /// The bytes skipped.
        var junk = JunkRun()
        /// Why it searches (for the diagnostic).
        var cause: String
    }

    /// The end-of-frame scan of the frame at the position.
    struct FrameScan {
        var header: FLACFrameHeader
        /// True for a header found by searching whose frame number was not the expected one (its frame
        /// is always checked by its CRC-16).
        var tentative: Bool
        /// The frame's end is found by its CRC-16 (`stepFrame`); false: by the next header in the chain
        /// (`stepFrameByHeaders`), which hands over to the CRC-16 when the chain breaks.
        var checksCRC: Bool
        /// Bytes after the position the CRC-16 covers (by headers: the bytes ruled out as a next header).
        var scanned = 0
        /// CRC-16 over the first `scanned` bytes.
        var crc: UInt16 = 0
        /// The first later header with a larger number whose CRC-16 check failed (a damaged or cut frame).
        var suspect: Int?
    }

    /// Totals over the frames parsed in order from the first one.
    struct Totals {
        var packets: Int64 = 0
        var frames: Int64 = 0
        var bytes: Int64 = 0
        var maximumPacketSize = 0
        /// Absolute end of the last frame.
        var end: Int64 = 0
    }

    var state = State.marker
    /// `ParserOptions.verifiesFLACFrameCRC`: every frame's end is found by its CRC-16.
    var verifiesFrameCRC = false
    var streamInfo: FLACStreamInfo?
    var seekTable: FLACSeekTable?
    var metadata = AudioMetadata()
    /// Blocks read so far.
    var blockIndex = 0
    /// Absolute offset of the first frame (the end of the metadata).
    var dataOffset: Int64 = 0
    /// The stream's blocking strategy, from its first frame.
    var isVariable: Bool?
    /// The number the next frame should carry, when known.
    var expectedNumber: UInt64?
    var totals = Totals()
    /// The start frames of every packet parsed in order, plus the end (their offsets, relative to
    /// `dataOffset`, are in `engine.offsets`); bounded by `maxPacketTableEntries`.
    var packetFrames: PositionTable = []
    /// The offset table and the fast-path switch (FLAC has no tags between frames).
    var engine: FrameSyncEngine
    /// False once packet indices no longer count from the first frame (discontinuity, estimated seek).
    var indicesExact = true
    /// Set by a seek or discontinuity: the next frame emitted resets the packet index from its number.
    var resyncIndex = false
    /// After an estimated seek aimed at a frame (`aimSeekLanding(atFrame:)`): the frames that end at or
    /// before it are skipped, so the first frame delivered holds it.
    var aimFrame: Int64?
    /// The packet count known at `finish`.
    var finalPacketCount: Int64?
    /// The packet count announced in the header (fixed block size and known total samples).
    var declaredPacketCount: Int64?

    init(verifiesFrameCRC: Bool = false, engine: FrameSyncEngine = FrameSyncEngine()) {
        self.verifiesFrameCRC = verifiesFrameCRC
        self.engine = engine
    }

    /// `mFramesPerPacket` of the announced format (0 when block sizes vary).

    var framesPerPacket: Int { streamInfo.map { $0.hasFixedBlockSize ? Int($0.maximumBlockSize) : 0 } ?? 0 }

    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        switch state {
        case .marker:
            guard let marker = context.window.peekInteger(at: 0, as: UInt32.self, endianness: .big) else {
                return .needMoreData(atLeast: 4)
            }
            guard marker == 0x664C_6143 else { throw context.error(.invalidFile, Self.structure, "no fLaC marker") }
            context.window.consume(4)
            state = .blockHeader
            return .continue
        case .blockHeader:
            return try stepBlockHeader(&context)
        case .blockBody(let header):
            return try stepBlockBody(header, &context)
        case .searching(var search):
            let step = stepSearch(&search, &context)
            if case .searching(let s) = state {
                try s.junk.checkLimit(Self.structure, context, wording: "bytes skipped")
            }
            return step
        case .frame(var scan):
            if stepFast(&context) { return .continue }
            return try stepFrame(&scan, &context)
        }
    }

    mutating func discontinuity(_ context: inout ParseContext) {
        switch state {
        case .searching, .frame:
            state = .searching(Search(cause: "after a discontinuity"))
            expectedNumber = nil
            indicesExact = false
            resyncIndex = true
            aimFrame = nil
        case .marker, .blockHeader, .blockBody:
            // Inside the header a gap cannot be bridged; the bytes that follow are read as they come.
            break
        }
    }

    var packetMap: PacketMap { streamInfo == nil || isHeaderState ? .unknown : makePacketMap() }

    private var isHeaderState: Bool {
        switch state {
        case .marker, .blockHeader, .blockBody: true
        case .searching, .frame: false
        }
    }

    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool {
        guard streamInfo != nil, !isHeaderState else { return false }
        let recorded = Int64(engine.offsets.packetCount)
        indicesExact = packet <= recorded && recorded == totals.packets
        if framesPerPacket > 0 {
            // Fixed blocking: packet n is frame number n.
            expectedNumber = UInt64(packet)
        } else if packet < Int64(packetFrames.count) {
            expectedNumber = UInt64(packetFrames[Int(packet)])
        } else {
            expectedNumber = nil
        }
        state = .searching(Search(cause: "after a seek"))
        resyncIndex = true
        aimFrame = nil
        return true
    }

    /// `FormatParser.aimSeekLanding(atFrame:)`: after an estimated seek the frames found before the one
    /// holding `frame` are skipped (their first sample is in their headers: frame number × block size, or
    /// the sample number of a variable-blocksize frame, RFC 9639 §9.1.5).
    mutating func aimSeekLanding(atFrame frame: Int64) {
        guard resyncIndex, !indicesExact else { return }
        aimFrame = frame
    }
}
