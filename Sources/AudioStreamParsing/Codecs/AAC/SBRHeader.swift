/// sbr_header() (ISO/IEC 14496-3 §4.4.2.8 Table 4.63, semantics §4.5.2.8): the parameters the
/// frequency band tables are derived from. A header stays in force until the next one: an SBR
/// payload without a header (bs_header_flag 0) is read with the last header seen.
///
/// ```
///  bs_amp_res 1  bs_start_freq 4  bs_stop_freq 4  bs_xover_band 3  bs_reserved 2
///  bs_header_extra_1 1  bs_header_extra_2 1
///  [extra_1: bs_freq_scale 2  bs_alter_scale 1  bs_noise_bands 2]
///  [extra_2: bs_limiter_bands 2  bs_limiter_gains 2  bs_interpol_freq 1  bs_smoothing_mode 1]
/// ```
///
/// Without extra_1 the defaults are bs_freq_scale 2, bs_alter_scale 1, bs_noise_bands 2; without
/// extra_2, bs_limiter_bands 2, bs_limiter_gains 2, bs_interpol_freq 1, bs_smoothing_mode 1 (the
/// limiter fields do not change the bitstream and are not kept).
struct SBRHeader: Equatable, Sendable {
    /// bs_amp_res: 1 for 3.0 dB envelope steps, 0 for 1.5 dB.
    var amplitudeResolution: Int
    /// bs_start_freq: the start band k0 (with the sampling rate's offset table).
    var startFrequency: Int
    /// bs_stop_freq: the stop band k2 (14: 2 × k0, 15: 3 × k0).
    var stopFrequency: Int
    /// bs_xover_band: the first band of f_master that SBR covers.
    var crossoverBand: Int
    /// bs_freq_scale: 0 linear, 1…3 logarithmic with 12, 10, 8 bands per octave.
    var frequencyScale = 2
    /// bs_alter_scale: linear bands of 2 (scale 0), or a warped upper region (scale > 0).
    var alterScale = 1
    /// bs_noise_bands: noise floor bands per octave (0: one band).
    var noiseBands = 2

    /// Reads the header at the cursor.
    static func read(_ r: inout AACSyntaxReader) throws(AACSyntaxReader.Failure) -> SBRHeader {
        var header = SBRHeader(
            amplitudeResolution: try r.read(1), startFrequency: try r.read(4), stopFrequency: try r.read(4),
            crossoverBand: try r.read(3))
        try r.skip(2)  // bs_reserved
        let extra1 = try r.flag()
        let extra2 = try r.flag()
        if extra1 {
            header.frequencyScale = try r.read(2)
            header.alterScale = try r.read(1)
            header.noiseBands = try r.read(2)
        }
        if extra2 { try r.skip(2 + 2 + 1 + 1) }
        return header
    }
}
