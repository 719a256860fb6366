/// `individual_channel_stream()` (ISO/IEC 14496-3 §4.4.2.1 Table 4.5 and Tables 4.7–4.13,
/// semantics §4.5.2.3), read only to find where it ends.
///
/// ```
///  global_gain 8
///  [ics_info()]                            unless the channel pair shares a common window
///  section_data()        per window group, while k < max_sfb:
///                          sect_cb 4, sect_len_incr 5 (long) / 3 (short), repeated while it is
///                          31 / 7 (the escape value); the section covers sect_len bands
///  scale_factor_data()   per group, per band with sect_cb ≠ ZERO_HCB (0):
///                          noise (13): the first dpcm_noise_nrg is 9 bits, later ones hcod_sf
///                          intensity (14, 15) and spectral (1…11): hcod_sf (Table 4.A.1)
///  pulse_data_present 1  [number_pulse 2, pulse_start_sfb 6, {pulse_offset 5, pulse_amp 4} × number_pulse+1]
///  tns_data_present 1    [tns_data()]
///  gain_control_data_present 1 [gain_control_data()]   (SSR only)
///  spectral_data()       per group, per section with a spectral codebook 1…11: one codeword per
///                          4 (books 1–4) or 2 (books 5–11) coefficients; unsigned books then carry
///                          a sign bit per non-zero value; book 11's value 16 is followed by an
///                          escape (N ones, a zero, an N+4-bit word; N ≤ 8)
/// ```
///
/// The coefficients of a band in a window group are the band's width times the group's windows.
struct AACIndividualChannelStream {
    /// ics_info (read here or shared from the channel pair).
    var info: AACICSInfo
    /// The section codebook of each band, group after group (`maxSFB` entries per group).
    var bandCodebooks: [Int]

    /// Reads an individual_channel_stream. `sharedInfo` is the channel pair's common ics_info;
    /// `scaleFlag` is set for the scalable profiles only (not followed: always false here).
    static func read(_ r: inout AACSyntaxReader, sharedInfo: AACICSInfo?) throws(AACSyntaxReader.Failure)
        -> AACIndividualChannelStream
    {
        try r.skip(8)  // global_gain
        let info: AACICSInfo
        if let sharedInfo { info = sharedInfo } else { info = try AACICSInfo.read(&r, commonWindow: false) }
        let codebooks = try readSections(&r, info)
        try skipScalefactors(&r, info, codebooks)
        if try r.flag() {  // pulse_data_present
            guard !info.isShort else { throw .invalid("pulse data in short windows") }
            let pulses = try r.read(2) + 1
            try r.skip(6 + pulses * 9)
        }
        if try r.flag() { try skipTNS(&r, info) }
        if try r.flag() { try skipGainControl(&r, info) }
        try skipSpectralData(&r, info, codebooks)
        return AACIndividualChannelStream(info: info, bandCodebooks: codebooks)
    }

    /// section_data(): the codebook of every band.
    private static func readSections(_ r: inout AACSyntaxReader, _ info: AACICSInfo) throws(AACSyntaxReader.Failure)
        -> [Int]
    {
        let lengthBits = info.isShort ? 3 : 5
        let escape = (1 << lengthBits) - 1
        var codebooks: [Int] = []
        codebooks.reserveCapacity(info.maxSFB * info.groupLengths.count)
        for _ in info.groupLengths {
            var band = 0
            while band < info.maxSFB {
                let codebook = try r.read(4)
                guard codebook != 12 else { throw .invalid("reserved section codebook 12") }
                var length = 0
                while true {
                    let increment = try r.read(lengthBits)
                    length += increment
                    guard length <= info.maxSFB else { throw .invalid("section runs past max_sfb") }
                    if increment != escape { break }
                }
                // An empty section is legal syntax; it still costs bits, so the loop ends with them.
                guard band + length <= info.maxSFB else { throw .invalid("section runs past max_sfb") }
                codebooks.append(contentsOf: repeatElement(codebook, count: length))
                band += length
            }
        }
        return codebooks
    }

    /// scale_factor_data(): one codeword per transmitted band, the first noise energy in 9 bits.
    private static func skipScalefactors(_ r: inout AACSyntaxReader, _ info: AACICSInfo, _ codebooks: [Int])
        throws(AACSyntaxReader.Failure)
    {
        var firstNoise = true
        for codebook in codebooks where codebook != 0 {
            if codebook == 13, firstNoise {
                firstNoise = false
                try r.skip(9)  // dpcm_noise_nrg
            } else {
                try r.skipScalefactorCodeword()
            }
        }
    }

    /// tns_data() (Table 4.48): per window, n_filt filters of `order` coefficients.
    private static func skipTNS(_ r: inout AACSyntaxReader, _ info: AACICSInfo) throws(AACSyntaxReader.Failure) {
        let windows = info.isShort ? 8 : 1
        for _ in 0..<windows {
            let filters = try r.read(info.isShort ? 1 : 2)
            guard filters > 0 else { continue }
            let coefficientResolution = try r.read(1)
            for _ in 0..<filters {
                try r.skip(info.isShort ? 4 : 6)  // length
                let order = try r.read(info.isShort ? 3 : 5)
                guard order > 0 else { continue }
                try r.skip(1)  // direction
                let compress = try r.read(1)
                try r.skip(order * (coefficientResolution + 3 - compress))
            }
        }
    }

    /// gain_control_data() (SSR, Table 4.49): adjustment points per band and window.
    private static func skipGainControl(_ r: inout AACSyntaxReader, _ info: AACICSInfo)
        throws(AACSyntaxReader.Failure)
    {
        guard r.audioObjectType == 3 else { throw .invalid("gain control data outside SSR") }
        let bands = try r.read(2)
        // (windows, aloccode bits of window 0, of the others) per window_sequence.
        let layout: (Int, Int, Int) =
            switch info.windowSequence {
            case 0: (1, 5, 5)
            case 1: (2, 4, 2)
            case 2: (8, 2, 2)
            default: (2, 4, 5)
            }
        for _ in 0..<bands {
            for window in 0..<layout.0 {
                let adjustments = try r.read(3)
                try r.skip(adjustments * (4 + (window == 0 ? layout.1 : layout.2)))
            }
        }
    }

    /// spectral_data(): every codeword of every section with a spectral codebook.
    private static func skipSpectralData(_ r: inout AACSyntaxReader, _ info: AACICSInfo, _ codebooks: [Int])
        throws(AACSyntaxReader.Failure)
    {
        let offsets = info.isShort ? r.shortBands : r.longBands
        var index = 0
        for windows in info.groupLengths {
            for band in 0..<info.maxSFB {
                let codebook = codebooks[index]
                index += 1
                guard (1...11).contains(codebook) else { continue }
                let coefficients = (offsets[band + 1] - offsets[band]) * windows
                let dimension = codebook < 5 ? 4 : 2
                for _ in 0..<(coefficients / dimension) {
                    try skipCodeword(&r, codebook)
                }
            }
        }
    }

    /// One spectral codeword of `codebook` with its sign bits and escapes.
    private static func skipCodeword(_ r: inout AACSyntaxReader, _ codebook: Int) throws(AACSyntaxReader.Failure) {
        guard let index = AACHuffmanCodebook.spectral[codebook - 1].decode(&r.bits) else { throw .truncated }
        switch codebook {
        case 1, 2, 5, 6:
            return  // signed values: no sign bits
        case 3, 4:
            // Unsigned quadruples of 0…2: index = 27w + 9x + 3y + z.
            var signs = 0
            var rest = index
            for _ in 0..<4 {
                if rest % 3 != 0 { signs += 1 }
                rest /= 3
            }
            try r.skip(signs)
        default:
            // Unsigned pairs: index = modulo·y + z; modulo 8 (books 7, 8), 13 (9, 10), 17 (11).
            let modulo = codebook < 9 ? 8 : codebook < 11 ? 13 : 17
            let y = index / modulo
            let z = index % modulo
            try r.skip((y != 0 ? 1 : 0) + (z != 0 ? 1 : 0))
            if codebook == 11 {
                if y == 16 { try skipEscape(&r) }
                if z == 16 { try skipEscape(&r) }
            }
        }
    }

    /// An escape_sequence of book 11 (§4.6.3.3): N ones, a zero, then an (N + 4)-bit word.
    private static func skipEscape(_ r: inout AACSyntaxReader) throws(AACSyntaxReader.Failure) {
        var prefix = 0
        while try r.flag() {
            prefix += 1
            guard prefix <= 8 else { throw .invalid("escape prefix longer than 8") }
        }
        try r.skip(prefix + 4)
    }
}
