/// `ics_info()` of an individual channel stream (ISO/IEC 14496-3 §4.4.2.1 Table 4.6, semantics
/// §4.5.2.3.1; window grouping §4.5.2.3.4).
///
/// ```
///  ics_reserved_bit 1, window_sequence 2, window_shape 1
///  EIGHT_SHORT_SEQUENCE (2):  max_sfb 4, scale_factor_grouping 7
///  otherwise:                 max_sfb 6, predictor_data_present 1
///    Main (object type 1):    predictor_reset 1 [predictor_reset_group_number 5],
///                             prediction_used 1 × min(max_sfb, PRED_SFB_MAX)
///    LTP (object type 4):     ltp_data_present 1 [ltp_data()], and in a common window a second
///                             ltp_data_present 1 [ltp_data()] for the right channel
///  ltp_data() (long windows): ltp_lag 11, ltp_coef 3, ltp_long_used 1 × min(max_sfb, 40)
/// ```
struct AACICSInfo: Equatable {
    /// window_sequence: 0 ONLY_LONG, 1 LONG_START, 2 EIGHT_SHORT, 3 LONG_STOP.
    var windowSequence: Int
    /// max_sfb: the bands transmitted per window.
    var maxSFB: Int
    /// The windows in each window group (one group of one window for long sequences).
    var groupLengths: [Int]

    /// True for EIGHT_SHORT_SEQUENCE.
    var isShort: Bool { windowSequence == 2 }

    /// Reads ics_info; `commonWindow` tells whether a channel_pair_element shares it (LTP then
    /// carries a second ltp_data).
    static func read(_ r: inout AACSyntaxReader, commonWindow: Bool) throws(AACSyntaxReader.Failure) -> AACICSInfo {
        guard try r.read(1) == 0 else { throw .invalid("ics_reserved_bit is set") }
        let windowSequence = try r.read(2)
        try r.skip(1)  // window_shape
        if windowSequence == 2 {
            let maxSFB = try r.read(4)
            guard maxSFB <= r.shortBands.count - 1 else { throw .invalid("max_sfb \(maxSFB) past the short bands") }
            let grouping = try r.read(7)
            var groups = [1]
            // Bit 6 (first read) tells whether window 1 joins window 0's group, … bit 0 window 7.
            for window in 1..<8 {
                if (grouping >> (7 - window)) & 1 == 1 { groups[groups.count - 1] += 1 } else { groups.append(1) }
            }
            return AACICSInfo(windowSequence: windowSequence, maxSFB: maxSFB, groupLengths: groups)
        }
        let maxSFB = try r.read(6)
        guard maxSFB <= r.longBands.count - 1 else { throw .invalid("max_sfb \(maxSFB) past the long bands") }
        if try r.flag() {  // predictor_data_present
            switch r.audioObjectType {
            case 1:
                if try r.flag() { try r.skip(5) }  // predictor_reset_group_number
                try r.skip(min(maxSFB, AACScalefactorBands.predictionBands[r.samplingFrequencyIndex]))
            case 4:
                for _ in 0..<(commonWindow ? 2 : 1) {
                    guard try r.flag() else { continue }  // ltp_data_present
                    try r.skip(11 + 3 + min(maxSFB, 40))  // ltp_lag, ltp_coef, ltp_long_used
                }
            default:
                throw .invalid("predictor_data_present in object type \(r.audioObjectType)")
            }
        }
        return AACICSInfo(windowSequence: windowSequence, maxSFB: maxSFB, groupLengths: [1])
    }
}
