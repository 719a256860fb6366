/// sbr_grid() (ISO/IEC 14496-3 §4.4.2.8 Table 4.67, semantics §4.5.2.8, time borders §4.6.18.3.3):
/// one channel's envelopes and noise floors in an SBR frame of 16 time slots (1024-sample core
/// frames), and the frequency resolution of each envelope.
///
/// ```
///  bs_frame_class 2
///  0 FIXFIX  tmp 2 (bs_num_env = 2^tmp; one envelope forces bs_amp_res 0), bs_freq_res 1 (all)
///  1 FIXVAR  bs_var_bord_1 2, bs_num_rel_1 2, bs_rel_bord_1 2 × num_rel_1, bs_pointer P,
///            bs_freq_res 1 × bs_num_env (last envelope first)          bs_num_env = num_rel_1 + 1
///  2 VARFIX  bs_var_bord_0 2, bs_num_rel_0 2, bs_rel_bord_0 2 × num_rel_0, bs_pointer P,
///            bs_freq_res 1 × bs_num_env                                bs_num_env = num_rel_0 + 1
///  3 VARVAR  bs_var_bord_0 2, bs_var_bord_1 2, bs_num_rel_0 2, bs_num_rel_1 2,
///            bs_rel_bord_0 2 × num_rel_0, bs_rel_bord_1 2 × num_rel_1, bs_pointer P,
///            bs_freq_res 1 × bs_num_env                     bs_num_env = num_rel_0 + num_rel_1 + 1
///  P = ⌈log2(bs_num_env + 1)⌉ bits; bs_num_noise = 2 when bs_num_env > 1, else 1
///  borders: first = bs_var_bord_0 (0 for FIX…), last = 16 + bs_var_bord_1 (16 for …FIX), relative
///  borders 2 × bs_rel_bord + 2 from the first forwards and from the last backwards
/// ```
///
/// Contract: throws ``AACSyntaxReader/Failure`` for the bits running out, more envelopes than the
/// frame allows (4 for FIXFIX, 5 otherwise), a pointer past bs_num_env + 1, or time borders that
/// do not increase.
struct SBRGrid: Equatable, Sendable {
    /// bs_num_env: 1…5.
    var envelopeCount: Int
    /// bs_freq_res per envelope: true for the high-resolution table.
    var highResolution: [Bool]
    /// bs_amp_res in force for this channel's envelopes (0 with FIXFIX and one envelope).
    var amplitudeResolution: Int

    /// bs_num_noise: 2 when there are several envelopes, else 1.
    var noiseFloorCount: Int { envelopeCount > 1 ? 2 : 1 }

    /// The SBR time slots of a 1024-sample frame (numTimeSlots).
    static let timeSlots = 16

    /// Reads a grid at the cursor; `amplitudeResolution` is the header's bs_amp_res.
    static func read(_ r: inout AACSyntaxReader, amplitudeResolution: Int) throws(AACSyntaxReader.Failure) -> SBRGrid {
        var resolution = amplitudeResolution
        var first = 0
        var last = timeSlots
        var leading: [Int] = []
        var trailing: [Int] = []
        let count: Int
        var highResolution: [Bool] = []
        let frameClass = try r.read(2)
        switch frameClass {
        case 0:
            let exponent = try r.read(2)
            count = 1 << exponent
            guard count <= 4 else { throw .invalid("\(count) envelopes in a FIXFIX SBR frame") }
            if count == 1 { resolution = 0 }
            highResolution = Array(repeating: try r.flag(), count: count)
            leading = Array(repeating: timeSlots / count, count: count - 1)
        default:
            if frameClass != 1 { first = try r.read(2) }
            if frameClass != 2 { last = try timeSlots + r.read(2) }
            let leadCount = try frameClass == 1 ? 0 : r.read(2)
            let trailCount = try frameClass == 2 ? 0 : r.read(2)
            count = leadCount + trailCount + 1
            guard count <= 5 else { throw .invalid("\(count) envelopes in an SBR frame") }
            for _ in 0..<leadCount { leading.append(try 2 * r.read(2) + 2) }
            for _ in 0..<trailCount { trailing.append(try 2 * r.read(2) + 2) }
            // ⌈log2(count + 1)⌉ for count 1…5.
            let pointerBits = [1, 2, 2, 3, 3][count - 1]
            guard try r.read(pointerBits) <= count + 1 else { throw .invalid("bs_pointer past the envelopes") }
            for _ in 0..<count { highResolution.append(try r.flag()) }
            if frameClass == 1 { highResolution.reverse() }
        }
        // The borders: first, the leading relative ones forwards, the trailing ones backwards from last.
        var borders = [first]
        for width in leading { borders.append(borders[borders.count - 1] + width) }
        var tail = [last]
        for width in trailing { tail.insert(tail[0] - width, at: 0) }
        borders += tail
        guard borders.count == count + 1, zip(borders, borders.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw .invalid("SBR time borders \(borders) do not increase")
        }
        return SBRGrid(envelopeCount: count, highResolution: highResolution, amplitudeResolution: resolution)
    }
}
