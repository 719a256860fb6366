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
    /// What each possible first byte of an audio packet says, precomputed from the mode table (the type
    /// bit, the mode number and the previous-window flag all lie in that byte): the block size in the low
    /// 16 bits, 0 when the byte does not start an audio packet of this stream (type bit set, or a mode
    /// beyond the table); for a long block, the size its previous-window flag names in the high 16 bits
    /// (0 for a short block, whose previous size is the previous packet's). Block sizes are at most 8192
    /// (§4.2.2), so both fit. 256 entries: indexed by a byte, never out of bounds.
    private let geometryByFirstByte: [UInt32]
    /// The previous audio packet's block size, or `nil` before the first audio packet.
    private(set) var previousBlockSize: Int?

    /// Where errors point.
    static let structure = Structure("vorbis", "audio")

    /// Creates a counter from the identification and setup headers.
    init(identification: VorbisIdentificationHeader, setup: VorbisSetupHeader) {
        blocksize0 = identification.blocksize0
        blocksize1 = identification.blocksize1
        let flags = setup.modes.map(\.blockFlag)
        let bits = VorbisSetupHeader.ilog(setup.modes.count - 1)
        modeBlockFlags = flags
        modeBits = bits
        geometryByFirstByte = (0..<256).map { byte -> UInt32 in
            let mode = Self.mode(ofFirstByte: byte, modeBits: bits)
            guard byte & 1 == 0, mode < flags.count else { return 0 }
            guard flags[mode] else { return UInt32(truncatingIfNeeded: identification.blocksize0) }
            let previousIsLong = 1 + bits < 8 && byte >> (1 + bits) & 1 == 1
            let previous = previousIsLong ? identification.blocksize1 : identification.blocksize0
            return UInt32(truncatingIfNeeded: identification.blocksize1) | UInt32(truncatingIfNeeded: previous) << 16
        }
    }

    /// The mode number in an audio packet's first byte (at most 6 bits: a setup header has at most 64
    /// modes).
    private static func mode(ofFirstByte byte: Int, modeBits: Int) -> Int {
        modeBits < 8 ? byte >> 1 & (1 << modeBits - 1) : 0
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
        let previous = previousBlockSize
        let (blockSize, frames) = try step(first: first)
        return Packet(
            mode: Self.mode(ofFirstByte: Int(first), modeBits: modeBits), blockSize: blockSize, frames: frames,
            decodedFrames: previous.map { $0 / 4 + blockSize / 4 } ?? 0)
    }

    /// `measure(first:)`'s frame count alone, for the per-packet path of a non-empty packet.
    @inline(__always)
    mutating func frames(first: UInt8) throws(StructureError) -> Int { try step(first: first).frames }

    /// One lookup in the first-byte table: the packet's block size and frame count (as `Packet.frames`);
    /// remembers the block size for the next packet.
    @inline(__always)
    private mutating func step(first: UInt8) throws(StructureError) -> (blockSize: Int, frames: Int) {
        let entry = geometryByFirstByte[Int(first)]
        guard entry != 0 else { throw rejection(first: first) }
        let blockSize = Int(entry & 0xFFFF)
        let flagged = Int(entry >> 16)
        let ffmpegPrevious = flagged != 0 ? flagged : previousBlockSize ?? blocksize0
        previousBlockSize = blockSize
        return (blockSize, ffmpegPrevious / 4 + blockSize / 4)
    }

    /// Why a first byte does not start an audio packet of this stream.
    @inline(never)
    private func rejection(first: UInt8) -> StructureError {
        guard first & 1 == 0 else { return Self.structure.invalid("packet type bit is set in an audio packet") }
        let mode = Self.mode(ofFirstByte: Int(first), modeBits: modeBits)
        return Self.structure.invalid("packet uses mode \(mode) of \(modeBlockFlags.count)")
    }
}
