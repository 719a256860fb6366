/// Frame counts of Vorbis audio packets, from the mode each packet names (Vorbis I §4.3.1,
/// §4.3.8, §1.3.2).
///
/// An audio packet starts with (LSB-first bits):
///
/// ```
///  1                    packet type: 0 (audio); 1 marks a header packet
///  ilog(modeCount − 1)  mode number (no bits when there is one mode)
///  [long block only]    1 previous window flag, 1 next window flag
/// ```
///
/// The block size is `blocksize_1` when the mode's blockflag is set, else `blocksize_0`.
/// Overlap-add of consecutive blocks returns `previous/4 + current/4` frames per packet
/// (§1.3.2: "data is returned from the center of the previous window to the center of the current
/// window"), and the first packet after the headers returns none.
///
/// `frames` follows FFmpeg (`av_vorbis_parse_frame`, what ffprobe reports as packet `duration`):
/// the "previous" size of a long block is the one its previous-window flag names, of a short block
/// the previous packet's size, and the first packet after a reset counts a short block before
/// it, so it reports `blocksize_0/4 + current/4` frames where a decoder returns none
/// (`decodedFrames`). The stream's first pts is then negative by that much (ffprobe shows
/// `pts: -128` for 256-sample short blocks), which a parser reports as priming. In a valid stream
/// both rules agree on every later packet.
///
/// A zero-length packet is a valid, empty audio packet (§4.3.1): 0 frames, state unchanged.
struct VorbisPacketDuration: Sendable {
    /// One packet's geometry.
    struct Packet: Hashable, Sendable {
        /// The mode number.
        var mode: Int
        /// The packet's block size in samples.
        var blockSize: Int
        /// The packet's duration as FFmpeg counts it (see the type's documentation).
        var frames: Int
        /// The frames a decoder returns for the packet: 0 for the first packet after a reset.
        var decodedFrames: Int
    }

    /// The short and long block sizes.
    let blocksize0: Int
    let blocksize1: Int
    /// Each mode's blockflag (long blocks when set).
    let modeBlockFlags: [Bool]
    /// The width of the mode number.
    let modeBits: Int
    /// The previous audio packet's block size, or `nil` before the first audio packet.
    private(set) var previousBlockSize: Int?

    /// Where errors point.
    static let structure = Structure("vorbis", "audio")

    /// Creates a counter from the identification and setup headers.
    init(identification: VorbisIdentificationHeader, setup: VorbisSetupHeader) {
        blocksize0 = identification.blocksize0
        blocksize1 = identification.blocksize1
        modeBlockFlags = setup.modes.map(\.blockFlag)
        modeBits = VorbisSetupHeader.ilog(setup.modes.count - 1)
    }

    /// Forgets the previous packet: call at the start of a stream and after a discontinuity or
    /// seek (the next packet then counts as a first packet).
    mutating func reset() { previousBlockSize = nil }

    /// Measures the next audio packet and remembers its block size for the one after.
    ///
    /// - Returns: the packet's geometry; `nil` for an empty packet (0 frames, nothing changes).
    /// - Throws: `.invalidFile` when the packet-type bit is set (a header packet where audio is
    ///   expected) or the mode number is not in the mode table.
    mutating func measure(_ packet: ArraySlice<UInt8>) throws(StructureError) -> Packet? {
        try measure(first: packet.first)
    }

    /// `measure` from the packet's first byte alone (`nil` for an empty packet): the type bit, the mode
    /// number (at most 6 bits: a setup header has at most 64 modes) and the previous-window flag all lie
    /// in it.
    mutating func measure(first: UInt8?) throws(StructureError) -> Packet? {
        guard let first else { return nil }
        guard first & 1 == 0 else {
            throw Self.structure.invalid("packet type bit is set in an audio packet")
        }
        let byte = Int(first)
        let mode = modeBits < 8 ? byte >> 1 & (1 << modeBits - 1) : 0
        guard mode < modeBlockFlags.count else {
            throw Self.structure.invalid("packet uses mode \(mode) of \(modeBlockFlags.count)")
        }
        let isLong = modeBlockFlags[mode]
        let blockSize = isLong ? blocksize1 : blocksize0
        let ffmpegPrevious: Int
        if isLong {
            ffmpegPrevious = 1 + modeBits < 8 && byte >> (1 + modeBits) & 1 == 1 ? blocksize1 : blocksize0
        } else {
            ffmpegPrevious = previousBlockSize ?? blocksize0
        }
        let decoded = previousBlockSize.map { $0 / 4 + blockSize / 4 } ?? 0
        previousBlockSize = blockSize
        return Packet(
            mode: mode, blockSize: blockSize, frames: ffmpegPrevious / 4 + blockSize / 4, decodedFrames: decoded)
    }
}
