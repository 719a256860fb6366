/// One channel's SBR data after its grid (ISO/IEC 14496-3 §4.4.2.8 Tables 4.68–4.72): read only to
/// find where it ends, the values themselves are skipped.
///
/// ```
///  sbr_dtdf    bs_df_env 1 × bs_num_env, bs_df_noise 1 × bs_num_noise
///  sbr_invf    bs_invf_mode 2 × N_Q
///  sbr_envelope per envelope, over N_high (bs_freq_res 1) or N_low bands:
///              frequency coded (bs_df_env 0): a start value, then a codeword per further band
///                level: 7 bits (1.5 dB) or 6 (3.0 dB); balance (coupled second channel): 6 or 5
///              time coded: a codeword per band
///  sbr_noise   per noise floor, over N_Q bands: frequency coded: a 5-bit start value, then a
///              codeword per further band; time coded: a codeword per band
///  sinusoidal_coding  bs_add_harmonic 1 × N_high
/// ```
///
/// Codebooks (Annex 4.A): envelope t_/f_huffman_env_{1_5,3_0}dB, balance t_/f_huffman_env_bal_…;
/// noise level t_huffman_noise_3_0dB in time and f_huffman_env_3_0dB in frequency, noise balance
/// t_huffman_noise_bal_3_0dB and f_huffman_env_bal_3_0dB.
enum SBRChannelData {
    /// How a channel's envelope and noise values are coded.
    enum Coding {
        /// Levels (a single channel, or either channel of an uncoupled pair, or a coupled pair's first).
        case level
        /// Balance: the second channel of a coupled pair.
        case balance
    }

    /// Whether each envelope and each noise floor is coded in time (true) or frequency: sbr_dtdf().
    static func readDirections(_ r: inout AACSyntaxReader, grid: SBRGrid) throws(AACSyntaxReader.Failure)
        -> (envelopes: [Bool], noise: [Bool])
    {
        var envelopes: [Bool] = []
        var noise: [Bool] = []
        for _ in 0..<grid.envelopeCount { envelopes.append(try r.flag()) }
        for _ in 0..<grid.noiseFloorCount { noise.append(try r.flag()) }
        return (envelopes, noise)
    }

    /// sbr_envelope(): skips the envelopes of one channel.
    static func skipEnvelopes(
        _ r: inout AACSyntaxReader, grid: SBRGrid, timeCoded: [Bool], coding: Coding, tables: SBRFrequencyBandTables
    ) throws(AACSyntaxReader.Failure) {
        let fine = grid.amplitudeResolution == 0
        let books: (time: AACHuffmanCodebook, frequency: AACHuffmanCodebook, startBits: Int) =
            switch (coding, fine) {
            case (.level, true): (.sbrEnvelopeTime1_5dB, .sbrEnvelopeFrequency1_5dB, 7)
            case (.level, false): (.sbrEnvelopeTime3_0dB, .sbrEnvelopeFrequency3_0dB, 6)
            case (.balance, true): (.sbrBalanceTime1_5dB, .sbrBalanceFrequency1_5dB, 6)
            case (.balance, false): (.sbrBalanceTime3_0dB, .sbrBalanceFrequency3_0dB, 5)
            }
        for (envelope, inTime) in timeCoded.enumerated() {
            let bands = grid.highResolution[envelope] ? tables.highBandCount : tables.lowBandCount
            try skipValues(
                &r, bands: bands, inTime: inTime, time: books.time, frequency: books.frequency,
                startBits: books.startBits)
        }
    }

    /// sbr_noise(): skips the noise floors of one channel.
    static func skipNoise(
        _ r: inout AACSyntaxReader, timeCoded: [Bool], coding: Coding, tables: SBRFrequencyBandTables
    ) throws(AACSyntaxReader.Failure) {
        let time: AACHuffmanCodebook = coding == .level ? .sbrNoiseTime3_0dB : .sbrNoiseBalanceTime3_0dB
        let frequency: AACHuffmanCodebook = coding == .level ? .sbrEnvelopeFrequency3_0dB : .sbrBalanceFrequency3_0dB
        for inTime in timeCoded {
            try skipValues(
                &r, bands: tables.noiseBandCount, inTime: inTime, time: time, frequency: frequency,
                startBits: 5)
        }
    }

    /// One envelope or noise floor: time coded, a codeword per band; frequency coded, a start value
    /// of `startBits` and a codeword per further band.
    private static func skipValues(
        _ r: inout AACSyntaxReader, bands: Int, inTime: Bool, time: AACHuffmanCodebook,
        frequency: AACHuffmanCodebook, startBits: Int
    ) throws(AACSyntaxReader.Failure) {
        var codewords = bands
        if !inTime {
            try r.skip(startBits)
            codewords -= 1
        }
        for _ in 0..<max(codewords, 0) {
            guard (inTime ? time : frequency).decode(&r.bits) != nil else { throw .truncated }
        }
    }
}

extension AACHuffmanCodebook {
    /// The SBR codebooks of Annex 4.A (``SBRHuffmanTables``).
    static let sbrEnvelopeTime1_5dB = AACHuffmanCodebook(SBRHuffmanTables.envelopeTime1_5dB)
    static let sbrEnvelopeFrequency1_5dB = AACHuffmanCodebook(SBRHuffmanTables.envelopeFrequency1_5dB)
    static let sbrBalanceTime1_5dB = AACHuffmanCodebook(SBRHuffmanTables.balanceTime1_5dB)
    static let sbrBalanceFrequency1_5dB = AACHuffmanCodebook(SBRHuffmanTables.balanceFrequency1_5dB)
    static let sbrEnvelopeTime3_0dB = AACHuffmanCodebook(SBRHuffmanTables.envelopeTime3_0dB)
    static let sbrEnvelopeFrequency3_0dB = AACHuffmanCodebook(SBRHuffmanTables.envelopeFrequency3_0dB)
    static let sbrBalanceTime3_0dB = AACHuffmanCodebook(SBRHuffmanTables.balanceTime3_0dB)
    static let sbrBalanceFrequency3_0dB = AACHuffmanCodebook(SBRHuffmanTables.balanceFrequency3_0dB)
    static let sbrNoiseTime3_0dB = AACHuffmanCodebook(SBRHuffmanTables.noiseTime3_0dB)
    static let sbrNoiseBalanceTime3_0dB = AACHuffmanCodebook(SBRHuffmanTables.noiseBalanceTime3_0dB)
}
