/// The scalefactor window bands of AAC with 1024-sample frames: where each band starts, in spectral
/// coefficients of one window (ISO/IEC 14496-3 §4.5.4, the `swb_offset_long_window` and
/// `swb_offset_short_window` tables per sampling frequency; 13818-7 §8.9).
///
/// ```
///  sampling_frequency_index   0-1 96/88.2k  2 64k  3-4 48/44.1k  5 32k  6-7 24/22.05k
///                             8-10 16/12/11.025k  11-12 8/7.35k
///  long windows (1024)        41 49/47 49 51 47 43 40 bands   (num_swb_long_window)
///  short windows (128)        12 12 14 14 15 15 15 bands      (num_swb_short_window)
/// ```
///
/// Each list ends with the window length, so band `b` spans `offsets[b]..<offsets[b + 1]`.
enum AACScalefactorBands {
    /// swb_offset_long_window for 96 and 88.2 kHz.
    static let long96: [Int] = [
        0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 64, 72, 80, 88, 96, 108, 120, 132, 144,
        156, 172, 188, 212, 240, 276, 320, 384, 448, 512, 576, 640, 704, 768, 832, 896, 960, 1024,
    ]
    /// swb_offset_long_window for 64 kHz.
    static let long64: [Int] = [
        0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 64, 72, 80, 88, 100, 112, 124, 140, 156,
        172, 192, 216, 240, 268, 304, 344, 384, 424, 464, 504, 544, 584, 624, 664, 704, 744, 784, 824, 864,
        904, 944, 984, 1024,
    ]
    /// swb_offset_long_window for 48 and 44.1 kHz (49 bands); 32 kHz adds 960 and 992 (51 bands).
    static let long48: [Int] = [
        0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 56, 64, 72, 80, 88, 96, 108, 120, 132, 144, 160, 176,
        196, 216, 240, 264, 292, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768,
        800, 832, 864, 896, 928, 1024,
    ]
    /// swb_offset_long_window for 32 kHz.
    static let long32: [Int] = Array(long48.dropLast()) + [960, 992, 1024]
    /// swb_offset_long_window for 24 and 22.05 kHz.
    static let long24: [Int] = [
        0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 52, 60, 68, 76, 84, 92, 100, 108, 116, 124, 136, 148,
        160, 172, 188, 204, 220, 240, 260, 284, 308, 336, 364, 396, 432, 468, 508, 552, 600, 652, 704, 768,
        832, 896, 960, 1024,
    ]
    /// swb_offset_long_window for 16, 12 and 11.025 kHz.
    static let long16: [Int] = [
        0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 100, 112, 124, 136, 148, 160, 172, 184, 196, 212, 228,
        244, 260, 280, 300, 320, 344, 368, 396, 424, 456, 492, 532, 572, 616, 664, 716, 772, 832, 896, 960,
        1024,
    ]
    /// swb_offset_long_window for 8 kHz (and 7.35 kHz).
    static let long8: [Int] = [
        0, 12, 24, 36, 48, 60, 72, 84, 96, 108, 120, 132, 144, 156, 172, 188, 204, 220, 236, 252, 268, 288,
        308, 328, 348, 372, 396, 420, 448, 476, 508, 544, 580, 620, 664, 712, 764, 820, 880, 944, 1024,
    ]
    /// swb_offset_short_window for 96 to 64 kHz.
    static let short96: [Int] = [0, 4, 8, 12, 16, 20, 24, 32, 40, 48, 64, 92, 128]
    /// swb_offset_short_window for 48 to 32 kHz.
    static let short48: [Int] = [0, 4, 8, 12, 16, 20, 28, 36, 44, 56, 68, 80, 96, 112, 128]
    /// swb_offset_short_window for 24 and 22.05 kHz.
    static let short24: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 36, 44, 52, 64, 76, 92, 108, 128]
    /// swb_offset_short_window for 16 to 11.025 kHz.
    static let short16: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 60, 72, 88, 108, 128]
    /// swb_offset_short_window for 8 and 7.35 kHz.
    static let short8: [Int] = [0, 4, 8, 12, 16, 20, 24, 28, 36, 44, 52, 60, 72, 88, 108, 128]

    /// The long-window offsets for sampling_frequency_index 0…12, else `nil`.
    static func long(_ index: Int) -> [Int]? {
        switch index {
        case 0, 1: long96
        case 2: long64
        case 3, 4: long48
        case 5: long32
        case 6, 7: long24
        case 8, 9, 10: long16
        case 11, 12: long8
        default: nil
        }
    }

    /// The short-window offsets for sampling_frequency_index 0…12, else `nil`.
    static func short(_ index: Int) -> [Int]? {
        switch index {
        case 0, 1, 2: short96
        case 3, 4, 5: short48
        case 6, 7: short24
        case 8, 9, 10: short16
        case 11, 12: short8
        default: nil
        }
    }

    /// PRED_SFB_MAX: the bands Main-profile prediction covers (prediction_used bits in ics_info), per
    /// sampling_frequency_index (ISO/IEC 14496-3 §4.6.7, 13818-7 §8.3.2).
    static let predictionBands: [Int] = [33, 33, 38, 40, 40, 40, 41, 41, 37, 37, 37, 34, 34]
}
