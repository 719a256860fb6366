/// The code tables AC-3 and Enhanced AC-3 share (ETSI TS 102 366): what the `fscod`, `acmod` and
/// `frmsizecod` fields of a sync frame's `syncinfo()`/`bsi()` (§4.4.1, §4.4.2) stand for, and what the
/// MP4 `dac3`/`dec3` boxes (Annex F) copy from them.
///
/// | field | values | spec |
/// | --- | --- | --- |
/// | `fscod` (2 bits) | 48000, 44100, 32000 Hz; 3 reserved (E-AC-3: a reduced rate) | §4.4.1.3 |
/// | `acmod` (3 bits) | full-bandwidth channels 2 (1+1), 1, 2, 3, 3, 4, 4, 5 | §4.4.2.3, Table 4.3 |
/// | `lfeon` (1 bit) | one more channel, the LFE | §4.4.2.7 |
/// | `frmsizecod` (6 bits) | nominal rate of code / 2 (`dac3` `bit_rate_code`) | §4.4.1.4, Table 4.13 |
///
/// An AC-3 sync frame holds 6 audio blocks of 256 samples.
enum AC3 {
    /// The sample rates of `fscod` 0…2 (Table 4.1).
    static let sampleRates: [UInt32] = [48000, 44100, 32000]

    /// Full-bandwidth channels of `acmod` 0…7 (Table 4.3; 0 is two independent mono channels, "1+1").
    static let channelsPerAcmod: [UInt32] = [2, 1, 2, 3, 3, 4, 4, 5]

    /// Nominal bit rates in kbit/s of `frmsizecod / 2` (Table 4.13), the `bit_rate_code` of `dac3`.
    static let nominalBitRates: [UInt32] = [
        32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640,
    ]

    /// The sample rate of `fscod`, or `nil` for the reserved code 3.
    static func sampleRate(fscod: UInt8) -> UInt32? {
        Int(fscod) < sampleRates.count ? sampleRates[Int(fscod)] : nil
    }

    /// The channel count of `acmod` (its low 3 bits) plus the LFE when `lfeon` is set.
    static func channelCount(acmod: UInt8, lfeon: Bool) -> UInt32 {
        channelsPerAcmod[Int(acmod & 0x7)] + (lfeon ? 1 : 0)
    }

    /// 16-bit words in an AC-3 sync frame of `frmsizecod` (0…37) at `fscod` (0…2) (Table 4.13): the
    /// nominal bit rate × 1536 samples / the sample rate / 16 bits, truncated; at 44.1 kHz the odd code
    /// adds the one word that keeps the average rate.
    static func wordsPerSyncFrame(fscod: UInt8, frmsizecod: UInt8) -> Int {
        let kbps = Int(nominalBitRates[Int(frmsizecod / 2) % nominalBitRates.count])
        switch fscod {
        case 0: return 2 * kbps
        case 2: return 3 * kbps
        default: return kbps * 1000 * 1536 / 44100 / 16 + Int(frmsizecod & 1)
        }
    }

    /// CoreAudio's channel layout of `acmod` with or without the LFE (decoder output order: the AC-3
    /// order L C R Ls Rs with the LFE last, §5.4.2.3 Table 5.8). `nil` for acmod 0 (1+1: two
    /// independent mono programs, which no tag describes).
    ///
    /// | acmod | channels | tag | with LFE |
    /// | --- | --- | --- | --- |
    /// | 1 | C | `Mono` | `AC3_1_0_1` |
    /// | 2 | L R | `Stereo` | `DVD_4` |
    /// | 3 | L C R | `AC3_3_0` | `AC3_3_0_1` |
    /// | 4 | L R S | `ITU_2_1` | `AC3_2_1_1` |
    /// | 5 | L C R S | `AC3_3_1` | `AC3_3_1_1` |
    /// | 6 | L R Ls Rs | `ITU_2_2` | `DVD_18` |
    /// | 7 | L C R Ls Rs | `MPEG_5_0_C` | `MPEG_5_1_C` |
    static func channelLayoutTag(acmod: UInt8, lfeon: Bool) -> ChannelLayout.Tag? {
        let tags: [(ChannelLayout.Tag, ChannelLayout.Tag)] = [
            (.mono, .ac3_1_0_1), (.stereo, .dvd_4), (.ac3_3_0, .ac3_3_0_1), (.itu_2_1, .ac3_2_1_1),
            (.ac3_3_1, .ac3_3_1_1), (.itu_2_2, .dvd_18), (.mpeg_5_0_C, .mpeg_5_1_C),
        ]
        let acmod = Int(acmod & 7)
        guard acmod > 0 else { return nil }
        return lfeon ? tags[acmod - 1].1 : tags[acmod - 1].0
    }
}
