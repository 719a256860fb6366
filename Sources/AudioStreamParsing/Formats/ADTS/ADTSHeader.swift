/// The header of one ADTS frame: `adts_fixed_header()` + `adts_variable_header()`, 56 bits, then the
/// error-check fields when `protection_absent` is 0.
///
/// References: ISO/IEC 13818-7 §6.2 (Tables 5–10, `adts_frame`) and ISO/IEC 14496-3 §1.A.2.2
/// (Tables 1.A.5–1.A.10) with the semantics in §1.A.3.2 / 13818-7 §8.2.
///
/// ```
///  byte 0   byte 1   byte 2   byte 3   byte 4   byte 5   byte 6   [ error check … ]
///  SSSSSSSS SSSSILLP OOFFFFpC CCohcsMM MMMMMMMM MMMBBBBB BBBBBBRR
///
///  S 12 syncword, 0xFFF                                         ┐
///  I  1 ID: 0 = MPEG-4, 1 = MPEG-2                              │
///  L  2 layer, always 00                                        │
///  P  1 protection_absent: 1 = no CRC                           │ adts_fixed_header
///  O  2 profile_ObjectType = MPEG-4 audioObjectType − 1         │ (28 bits, the same in
///  F  4 sampling_frequency_index: 0…12 (13, 14 reserved,        │  every frame of a stream)
///       15 escape: not allowed in ADTS)                         │
///  p  1 private_bit                                             │
///  C  3 channel_configuration (0 = program_config_element       │
///       in the raw data, 1…7 = Table 1.19 of 14496-3)           │
///  o  1 original_copy                                           │
///  h  1 home                                                    ┘
///  c  1 copyright_identification_bit                            ┐
///  s  1 copyright_identification_start                          │ adts_variable_header
///  M 13 aac_frame_length: the whole frame, header and CRC incl. │ (28 bits)
///  B 11 adts_buffer_fullness (0x7FF: variable bit rate)         │
///  R  2 number_of_raw_data_blocks_in_frame (blocks − 1)         ┘
///
///  error check, only when P = 0:
///    R = 0: crc_check (16)                                         adts_error_check
///    R > 0: raw_data_block_position[1…R] (16 each), crc_check (16)  adts_header_error_check
///           and a crc_check (16) after every raw_data_block         adts_raw_data_block_error_check
/// ```
///
/// `raw_data_block_position[i]` is the offset of block i from the first block's start.
struct ADTSHeader: Hashable, Sendable {
    /// The 56-bit header length in bytes.
    static let fixedSize = 7

    /// ID: true for MPEG-2 (13818-7), false for MPEG-4 (14496-3).
    var isMPEG2: Bool
    /// protection_absent: true when the frame carries no CRC.
    var protectionAbsent: Bool
    /// profile_ObjectType (0…3).
    var profile: UInt8
    /// sampling_frequency_index (0…12).
    var samplingFrequencyIndex: UInt8
    /// private_bit.
    var privateBit: Bool
    /// channel_configuration (0…7).
    var channelConfiguration: UInt8
    /// original_copy.
    var originalCopy: Bool
    /// home.
    var home: Bool
    /// copyright_identification_bit.
    var copyrightIdentificationBit: Bool
    /// copyright_identification_start.
    var copyrightIdentificationStart: Bool
    /// aac_frame_length: bytes in the whole frame.
    var frameLength: Int
    /// adts_buffer_fullness.
    var bufferFullness: UInt16
    /// number_of_raw_data_blocks_in_frame + 1 (1…4).
    var rawDataBlockCount: Int

    /// The sampling frequencies of `sampling_frequency_index` 0…12 (ISO/IEC 14496-3 Table 1.18;
    /// 13818-7 Table 35 has the same values for 0…11).
    static let samplingFrequencies: [Int] = [
        96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000, 7_350,
    ]

    /// The MPEG-4 audioObjectType the profile stands for (14496-3 §1.A.3.2.1: profile + 1;
    /// 1 Main, 2 LC, 3 SSR, 4 LTP).
    var audioObjectType: Int { Int(profile) + 1 }

    /// The sampling frequency in Hz.
    var samplingFrequency: Int { ADTSHeader.samplingFrequencies[Int(samplingFrequencyIndex)] }

    /// Bytes before the first raw data block: 7, plus the error-check fields when protected.
    var headerLength: Int {
        if protectionAbsent { return ADTSHeader.fixedSize }
        return ADTSHeader.fixedSize + 2 * (rawDataBlockCount - 1) + 2
    }

    /// True when `other` has the same adts_fixed_header fields that define the stream (ID, layer,
    /// profile, sampling frequency index, channel configuration).
    func agrees(with other: ADTSHeader) -> Bool {
        isMPEG2 == other.isMPEG2 && profile == other.profile && samplingFrequencyIndex == other.samplingFrequencyIndex
            && channelConfiguration == other.channelConfiguration
    }

    /// Why a sync word was not accepted as a frame header.
    enum Rejection: Hashable, Sendable, CustomStringConvertible {
        case layer(UInt8)
        case samplingFrequencyIndex(UInt8)
        case reservedProfile
        case frameLength(Int, headerLength: Int)

        var description: String {
            switch self {
            case .layer(let l): return "layer is \(l), not 0 (an MPEG audio frame?)"
            case .samplingFrequencyIndex(15): return "sampling_frequency_index 15 (escape) is not allowed in ADTS"
            case .samplingFrequencyIndex(let i): return "sampling_frequency_index \(i) is reserved"
            case .reservedProfile: return "profile 3 is reserved in MPEG-2 AAC"
            case .frameLength(let l, let h):
                return "aac_frame_length \(l) leaves no raw data after the \(h)-byte header"
            }
        }
    }

    /// The outcome of decoding the 56 header bits.
    enum Decoded: Hashable, Sendable {
        case valid(ADTSHeader)
        case invalid(Rejection)
        /// The first 12 bits are not the syncword.
        case noSync
    }

    /// Decodes the 7 header bytes, given big-endian in the low 56 bits of `bits`.
    ///
    /// - Returns: the header, or why it is not a valid ADTS header. The error-check fields are not
    ///   read here (see `ADTSFrameLayout`).
    static func decode(_ bits: UInt64) -> Decoded {
        func field(_ offset: Int, _ width: Int) -> UInt64 {
            (bits >> UInt64(56 - offset - width)) & ((1 << UInt64(width)) - 1)
        }
        guard field(0, 12) == 0xFFF else { return .noSync }
        let layer = UInt8(field(13, 2))
        guard layer == 0 else { return .invalid(.layer(layer)) }
        let header = ADTSHeader(
            isMPEG2: field(12, 1) == 1,
            protectionAbsent: field(15, 1) == 1,
            profile: UInt8(field(16, 2)),
            samplingFrequencyIndex: UInt8(field(18, 4)),
            privateBit: field(22, 1) == 1,
            channelConfiguration: UInt8(field(23, 3)),
            originalCopy: field(26, 1) == 1,
            home: field(27, 1) == 1,
            copyrightIdentificationBit: field(28, 1) == 1,
            copyrightIdentificationStart: field(29, 1) == 1,
            frameLength: Int(field(30, 13)),
            bufferFullness: UInt16(field(43, 11)),
            rawDataBlockCount: Int(field(54, 2)) + 1)
        guard Int(header.samplingFrequencyIndex) < samplingFrequencies.count else {
            return .invalid(.samplingFrequencyIndex(header.samplingFrequencyIndex))
        }
        if header.isMPEG2 && header.profile == 3 { return .invalid(.reservedProfile) }
        // A raw_data_block holds at least its END element (3 bits): at least one byte per block after
        // the header, plus the 2-byte CRC that follows each block of a protected multi-block frame.
        let blocks = header.rawDataBlockCount
        let bytesPerBlock = header.protectionAbsent || blocks == 1 ? 1 : 3
        guard header.frameLength >= header.headerLength + bytesPerBlock * blocks else {
            return .invalid(.frameLength(header.frameLength, headerLength: header.headerLength))
        }
        return .valid(header)
    }

    /// Why a syncword is not an ADTS header, decided from bytes 1 and 2 alone (byte 2 when readable),
    /// in the order `decode` checks: layer, sampling_frequency_index, reserved profile. `nil` when
    /// these bytes do not rule the header out. Byte 1's syncword bits are not checked.
    static func rejection(byte1: UInt8, byte2: UInt8?) -> Rejection? {
        let layer = (byte1 >> 1) & 0x03
        guard layer == 0 else { return .layer(layer) }
        guard let byte2 else { return nil }
        let index = (byte2 >> 2) & 0x0F
        guard Int(index) < samplingFrequencies.count else { return .samplingFrequencyIndex(index) }
        if byte1 & 0x08 != 0 && byte2 >> 6 == 3 { return .reservedProfile }
        return nil
    }

    /// Reads and decodes the header `offset` bytes after the window's position, or `nil` when the 7
    /// bytes are not readable yet.
    static func decode(_ window: InputWindow, at offset: Int) -> Decoded? {
        window.peekInteger(at: offset, byteCount: fixedSize, as: UInt64.self, endianness: .big).map { decode($0) }
    }
}
