/// The header of a PES packet (ISO/IEC 13818-1 §2.4.3.6, Table 2-21; §2.4.3.7 for the fields), as it
/// starts the payload of a packet whose payload_unit_start_indicator is set.
///
/// ```
///  packet_start_code_prefix 24 (0x000001) | stream_id 8 | PES_packet_length 16 (0: unbounded)
///  '10' 2 | PES_scrambling_control 2 | PES_priority 1 | data_alignment_indicator 1 | copyright 1 |
///  original_or_copy 1 | PTS_DTS_flags 2 | ESCR_flag 1 | ES_rate_flag 1 | DSM_trick_mode_flag 1 |
///  additional_copy_info_flag 1 | PES_CRC_flag 1 | PES_extension_flag 1 | PES_header_data_length 8
///  PTS (PTS_DTS_flags 10 or 11), 40 bits:  '001x' 4 | PTS[32..30] 3 | 1 | PTS[29..15] 15 | 1 |
///                                          PTS[14..0] 15 | 1
///  DTS (PTS_DTS_flags 11), 40 bits, the same layout with '0001'
///  … the other optional fields and stuffing, up to 9 + PES_header_data_length bytes
/// ```
///
/// The stream_ids without the optional header (program_stream_map 0xBC, padding 0xBE,
/// private_stream_2 0xBF, ECM 0xF0, EMM 0xF1, DSMCC 0xF2, H.222.1 type E 0xF8, directory 0xFF) carry
/// their data right after PES_packet_length.
struct TSPESHeader: Hashable, Sendable {
    var streamID: UInt8
    /// PES_packet_length: the bytes after this field; 0 when unbounded.
    var packetLength: Int
    /// The bytes of the header: where the elementary stream data starts.
    var headerLength: Int
    /// The presentation time stamp, 90 kHz.
    var pts: Int64?
    /// The decoding time stamp, 90 kHz.
    var dts: Int64?

    /// What the bytes at the start of a PES packet say.
    enum Decoded: Hashable, Sendable {
        case header(TSPESHeader)
        /// This many bytes are needed.
        case needMoreData(Int)
        /// Not a PES header (why).
        case invalid(String)
    }

    /// The longest header: 9 bytes plus a PES_header_data_length of up to 255.
    static let maxHeaderLength = 9 + 255

    /// Decodes the header at the start of `bytes`.
    static func decode(_ bytes: ArraySlice<UInt8>) -> Decoded {
        let b = bytes.startIndex
        guard bytes.count >= 6 else { return .needMoreData(6) }
        guard bytes[b] == 0, bytes[b + 1] == 0, bytes[b + 2] == 1 else {
            return .invalid("no packet_start_code_prefix")
        }
        let id = bytes[b + 3]
        let length = Int(bytes[b + 4]) << 8 | Int(bytes[b + 5])
        if [0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xF2, 0xF8, 0xFF].contains(id) {
            return .header(TSPESHeader(streamID: id, packetLength: length, headerLength: 6))
        }
        guard bytes.count >= 9 else { return .needMoreData(9) }
        guard bytes[b + 6] & 0xC0 == 0x80 else { return .invalid("the optional header does not start with '10'") }
        let headerLength = 9 + Int(bytes[b + 8])
        guard length == 0 || headerLength <= 6 + length else {
            return .invalid("PES_header_data_length runs past PES_packet_length")
        }
        guard bytes.count >= headerLength else { return .needMoreData(headerLength) }
        var header = TSPESHeader(streamID: id, packetLength: length, headerLength: headerLength)
        let flags = bytes[b + 7] >> 6
        if flags & 2 != 0, headerLength >= 14 { header.pts = timeStamp(bytes, at: b + 9) }
        if flags == 3, headerLength >= 19 { header.dts = timeStamp(bytes, at: b + 14) }
        return .header(header)
    }

    /// The 33-bit time stamp in the 5 bytes at `i` (markers ignored).
    private static func timeStamp(_ bytes: ArraySlice<UInt8>, at i: Int) -> Int64 {
        let high = Int64(bytes[i] >> 1 & 0x07) << 30
        let middle = (Int64(bytes[i + 1]) << 7 | Int64(bytes[i + 2] >> 1)) << 15
        let low = Int64(bytes[i + 3]) << 7 | Int64(bytes[i + 4] >> 1)
        return high | middle | low
    }
}
