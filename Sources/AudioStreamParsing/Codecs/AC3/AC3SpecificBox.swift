/// `dac3`, the AC3SpecificBox in an MP4 `ac-3` sample entry (ETSI TS 102 366 Annex F.4): the
/// `bsi()` fields of the stream's sync frames, 3 bytes.
///
/// ```
///  0                   1                   2
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3
/// +---+---------+-----+-----+-+---------+---------+
/// |fsc|  bsid   |bsmod|acmod|L|bit_rate_|reserved |
/// |od |         |     |     |F|  code   |         |
/// +---+---------+-----+-----+-+---------+---------+
///  fscod 2, bsid 5, bsmod 3, acmod 3, lfeon 1, bit_rate_code 5, reserved 5
/// ```
///
/// `bit_rate_code` is the sync frames' `frmsizecod / 2` (the nominal bit rate, Table 4.13). Codes
/// and what they stand for: ``AC3``.
struct AC3SpecificBox: Hashable {
    /// Sample rate code (0 = 48 kHz, 1 = 44.1 kHz, 2 = 32 kHz).
    var fscod: UInt8
    /// Bit stream identification (8 for AC-3).
    var bsid: UInt8
    /// Bit stream mode (main, music and effects, …).
    var bsmod: UInt8
    /// Audio coding mode: the full-bandwidth channels.
    var acmod: UInt8
    /// Whether the LFE channel is on.
    var lfeon: Bool
    /// The nominal bit rate code (`frmsizecod / 2`).
    var bitRateCode: UInt8

    /// Where decoding errors point.
    static let structure = Structure("mp4", "dac3")

    /// Decodes the box body.
    ///
    /// - Throws: `invalidFile` when it is shorter than 3 bytes or `fscod` is the reserved 3.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> AC3SpecificBox {
        var reader = ByteReader(body)
        guard let bits = reader.readInteger(byteCount: 3, as: UInt32.self, endianness: .big) else {
            throw structure.invalid("shorter than 3 bytes")
        }
        let box = AC3SpecificBox(
            fscod: UInt8(bits >> 22), bsid: UInt8(bits >> 17 & 0x1F), bsmod: UInt8(bits >> 14 & 0x7),
            acmod: UInt8(bits >> 11 & 0x7), lfeon: bits >> 10 & 1 == 1, bitRateCode: UInt8(bits >> 5 & 0x1F))
        guard AC3.sampleRate(fscod: box.fscod) != nil else { throw structure.invalid("reserved fscod 3") }
        return box
    }

    /// 48000, 44100 or 32000 Hz.
    var sampleRate: UInt32 { AC3.sampleRate(fscod: fscod) ?? 0 }  // decode refused fscod 3

    /// The channels: acmod's full-bandwidth channels plus the LFE.
    var channelCount: UInt32 { AC3.channelCount(acmod: acmod, lfeon: lfeon) }

    /// The nominal bit rate in kbit/s; 0 for a code past the table.
    var bitRateKbps: UInt32 {
        Int(bitRateCode) < AC3.nominalBitRates.count ? AC3.nominalBitRates[Int(bitRateCode)] : 0
    }
}
