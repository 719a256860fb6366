/// `dec3`, the EC3SpecificBox in an MP4 `ec-3` sample entry (ETSI TS 102 366 Annex F.6): the data
/// rate, then one description per independent substream.
///
/// ```
///  data_rate 13 (kbit/s), num_ind_sub 3 (independent substreams − 1), then per independent substream:
///  0                   1                   2
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3
/// +---+---------+-+-+-----+-----+-+-----+-------+-+
/// |fsc|  bsid   |r|a|bsmod|acmod|L| res |num_dep|c|  [chan_loc 8 more bits when num_dep_sub > 0,
/// |od |         | |s|     |     |F|     | _sub  | |   else the last bit is reserved]
/// +---+---------+-+-+-----+-----+-+-----+-------+-+
///  fscod 2, bsid 5, reserved 1, asvc 1, bsmod 3, acmod 3, lfeon 1, reserved 3, num_dep_sub 4,
///  chan_loc 9 | reserved 1
/// ```
///
/// Only the first independent substream is read: its channels are the stream's (dependent substreams
/// that extend 5.1 to 7.1 are not counted). Codes: ``AC3``.
struct EC3SpecificBox: Hashable {
    /// The data rate in kbit/s.
    var dataRate: UInt32
    /// Sample rate code of the first independent substream (3: a reduced rate, which `dec3` does not
    /// carry).
    var fscod: UInt8
    /// Bit stream identification (16 for E-AC-3).
    var bsid: UInt8
    /// Bit stream mode.
    var bsmod: UInt8
    /// Audio coding mode: the full-bandwidth channels.
    var acmod: UInt8
    /// Whether the LFE channel is on.
    var lfeon: Bool

    /// Where decoding errors point.
    static let structure = Structure("mp4", "dec3")

    /// Decodes the box body.
    ///
    /// - Throws: `invalidFile` when it is shorter than 5 bytes (the data rate and one substream).
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> EC3SpecificBox {
        var reader = ByteReader(body)
        guard let rate = reader.readInteger(as: UInt16.self, endianness: .big),
            let substream = reader.readInteger(byteCount: 3, as: UInt32.self, endianness: .big)
        else { throw structure.invalid("shorter than 5 bytes") }
        return EC3SpecificBox(
            dataRate: UInt32(rate >> 3), fscod: UInt8(substream >> 22), bsid: UInt8(substream >> 17 & 0x1F),
            bsmod: UInt8(substream >> 12 & 0x7), acmod: UInt8(substream >> 9 & 0x7), lfeon: substream >> 8 & 1 == 1)
    }

    /// 48000, 44100 or 32000 Hz; 24000 Hz for the reduced rates (fscod 3), the common case.
    var sampleRate: UInt32 { AC3.sampleRate(fscod: fscod) ?? 24000 }

    /// The channels of the first independent substream: acmod's full-bandwidth channels plus the LFE.
    var channelCount: UInt32 { AC3.channelCount(acmod: acmod, lfeon: lfeon) }
}
