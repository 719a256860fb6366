/// The Vorbis setup header: the third header packet (Vorbis I §4.2.4), decoded as far as a parser
/// needs: every configuration structure is read and validated (so the mode table is found where
/// the bitstream puts it) but only the counts and the mode table are kept.
///
/// ```
///  byte  0       packet type: 5
///  bytes 1–6     "vorbis"
///  then LSB-first bits (§2.1.4):
///   8   vorbis_codebook_count − 1      codebooks     (§3.2.1, VorbisSetupHeader+Codebooks.swift)
///   6   vorbis_time_count − 1          16 bits each, all 0 (placeholders)
///   6   vorbis_floor_count − 1         16-bit type (0 or 1) + floor config (§6.2.1, §7.2.2)
///   6   vorbis_residue_count − 1       16-bit type (0, 1, 2) + residue config (§8.6.1)
///   6   vorbis_mapping_count − 1       16-bit type (0) + mapping config (§4.2.4 step 5)
///   6   vorbis_mode_count − 1          per mode: 1 blockflag, 16 windowtype (0),
///                                      16 transformtype (0), 8 mapping (< mapping count)
///   1   framing flag: 1
/// ```
///
/// Bounds: nothing is allocated from a count; every loop reads at least one bit per turn or skips
/// a length checked against the bits left, so a hostile count ends at the end of the packet (an
/// error) after at most one turn per bit. Never traps.
struct VorbisSetupHeader: Hashable, Sendable {
    /// One mode (§4.2.4 step 6).
    struct Mode: Hashable, Sendable {
        /// `vorbis_mode_blockflag`: long (`blocksize_1`) blocks when set, short (`blocksize_0`) otherwise.
        var blockFlag: Bool
        /// `vorbis_mode_windowtype` (0).
        var windowType: UInt16
        /// `vorbis_mode_transformtype` (0).
        var transformType: UInt16
        /// `vorbis_mode_mapping`: an index into the mappings.
        var mapping: Int
    }

    /// `vorbis_codebook_count`.
    var codebookCount: Int
    /// `vorbis_floor_count`.
    var floorCount: Int
    /// `vorbis_residue_count`.
    var residueCount: Int
    /// `vorbis_mapping_count`.
    var mappingCount: Int
    /// The modes, in order (1…64).
    var modes: [Mode]

    /// Decodes a setup header packet.
    ///
    /// - Parameters:
    ///   - packet: the whole third header packet.
    ///   - channels: `audio_channels` from the identification header (coupling steps and channel
    ///     mux fields depend on it).
    /// - Throws: `.invalidFile` when the packet is not a setup header, ends early, or breaks a rule
    ///   of §3.2.1, §4.2.4, §6.2.1, §7.2.2 or §8.6.1 (with the structure and index in the reason).
    static func decode(_ packet: ArraySlice<UInt8>, channels: Int) throws(StructureError) -> VorbisSetupHeader {
        guard VorbisIdentificationHeader.isHeader(packet, type: 5) else {
            throw structure.invalid("packet is not a Vorbis setup header")
        }
        guard channels > 0 else { throw structure.invalid("channel count is zero") }
        var bits = BitReader(packet.dropFirst(7), order: .leastSignificantFirst)
        let codebookCount = try Int(read(8, &bits, "codebook count")) + 1
        for index in 0..<codebookCount {
            try skipCodebook(index, &bits)
        }
        let timeCount = try Int(read(6, &bits, "time count")) + 1
        for index in 0..<timeCount {
            guard try read(16, &bits, "time domain type") == 0 else {
                throw structure.invalid("time domain transform \(index) is not 0")
            }
        }
        let floorCount = try Int(read(6, &bits, "floor count")) + 1
        for index in 0..<floorCount {
            try skipFloor(index, codebookCount: codebookCount, &bits)
        }
        let residueCount = try Int(read(6, &bits, "residue count")) + 1
        for index in 0..<residueCount {
            try skipResidue(index, codebookCount: codebookCount, &bits)
        }
        let mappingCount = try Int(read(6, &bits, "mapping count")) + 1
        for index in 0..<mappingCount {
            try skipMapping(
                index, channels: channels, floorCount: floorCount, residueCount: residueCount, &bits)
        }
        let modeCount = try Int(read(6, &bits, "mode count")) + 1
        var modes: [Mode] = []
        modes.reserveCapacity(modeCount)  // ≤ 64
        for index in 0..<modeCount {
            let blockFlag = try read(1, &bits, "mode blockflag") == 1
            let windowType = try read(16, &bits, "mode windowtype")
            let transformType = try read(16, &bits, "mode transformtype")
            let mapping = try Int(read(8, &bits, "mode mapping"))
            guard windowType == 0, transformType == 0 else {
                throw structure.invalid("mode \(index) has window/transform type \(windowType)/\(transformType)")
            }
            guard mapping < mappingCount else {
                throw structure.invalid("mode \(index) uses mapping \(mapping) of \(mappingCount)")
            }
            modes.append(
                Mode(
                    blockFlag: blockFlag, windowType: UInt16(windowType), transformType: UInt16(transformType),
                    mapping: mapping))
        }
        guard try read(1, &bits, "framing flag") == 1 else {
            throw structure.invalid("framing flag is not set")
        }
        return VorbisSetupHeader(
            codebookCount: codebookCount, floorCount: floorCount, residueCount: residueCount,
            mappingCount: mappingCount, modes: modes)
    }

    /// Where decoding errors point.
    static let structure = Structure("vorbis", "setup")

    /// `ilog(x)` (Vorbis I §9.2.1): the position of the highest set bit, counted from 1; 0 for
    /// values ≤ 0. ilog(0) = 0, ilog(1) = 1, ilog(2) = ilog(3) = 2, ilog(4) = 3, ilog(7) = 3.
    static func ilog(_ x: Int) -> Int {
        x <= 0 ? 0 : Int.bitWidth - x.leadingZeroBitCount
    }

    /// Reads `count` bits, or throws "ends early" naming `field`.
    static func read(_ count: Int, _ bits: inout BitReader, _ field: String) throws(StructureError) -> UInt32 {
        guard let value = bits.read(count) else {
            throw structure.invalid("packet ends inside \(field)")
        }
        return value
    }

    /// Skips `count` bits, or throws "ends early" naming `field`.
    static func skip(bits count: Int64, _ bits: inout BitReader, _ field: String) throws(StructureError) {
        guard bits.skip(count) else {
            throw structure.invalid("packet ends inside \(field)")
        }
    }

    /// Mapping type 0 (§4.2.4 step 5; decoded per the "mapping 0" setup of §4.2.4):
    ///
    /// ```
    ///  16  mapping type: 0
    ///   1  flag: submaps follow          → 4 bits: submaps − 1   (else 1 submap)
    ///   1  flag: coupling follows        → 8 bits: coupling_steps − 1, then per step
    ///                                       ilog(channels − 1) bits magnitude, same for angle
    ///                                       (both < channels, different)
    ///   2  reserved: 0
    ///      if submaps > 1: per channel 4 bits mux (< submaps)
    ///      per submap: 8 bits unused time config, 8 bits floor (< floor count),
    ///                  8 bits residue (< residue count)
    /// ```
    static func skipMapping(
        _ index: Int, channels: Int, floorCount: Int, residueCount: Int, _ bits: inout BitReader
    ) throws(StructureError) {
        let type = try read(16, &bits, "mapping type")
        guard type == 0 else {
            throw structure.invalid("mapping \(index) has type \(type), not 0")
        }
        var submaps = 1
        if try read(1, &bits, "mapping submap flag") == 1 {
            submaps = try Int(read(4, &bits, "mapping submaps")) + 1
        }
        if try read(1, &bits, "mapping coupling flag") == 1 {
            let steps = try Int(read(8, &bits, "mapping coupling steps")) + 1
            let width = ilog(channels - 1)
            for step in 0..<steps {
                let magnitude = try Int(read(width, &bits, "mapping coupling magnitude"))
                let angle = try Int(read(width, &bits, "mapping coupling angle"))
                guard magnitude != angle, magnitude < channels, angle < channels else {
                    throw structure.invalid(
                        "mapping \(index) coupling step \(step) couples channels \(magnitude) and \(angle) of "
                            + "\(channels)")
                }
            }
        }
        guard try read(2, &bits, "mapping reserved bits") == 0 else {
            throw structure.invalid("mapping \(index) reserved bits are not 0")
        }
        if submaps > 1 {
            for channel in 0..<channels {
                let mux = try Int(read(4, &bits, "mapping channel mux"))
                guard mux < submaps else {
                    throw structure.invalid("mapping \(index) channel \(channel) uses submap \(mux) of \(submaps)")
                }
            }
        }
        for submap in 0..<submaps {
            _ = try read(8, &bits, "mapping submap time config")
            let floor = try Int(read(8, &bits, "mapping submap floor"))
            let residue = try Int(read(8, &bits, "mapping submap residue"))
            guard floor < floorCount, residue < residueCount else {
                throw structure.invalid(
                    "mapping \(index) submap \(submap) uses floor \(floor) of \(floorCount) or residue \(residue) of "
                        + "\(residueCount)")
            }
        }
    }
}
