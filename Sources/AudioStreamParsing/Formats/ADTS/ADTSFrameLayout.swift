/// Where the raw data blocks of one ADTS frame lie, as byte ranges relative to the frame's start.
///
/// ISO/IEC 13818-7 §6.2 Table 5 (14496-3 Table 1.A.5), `adts_frame()`:
///
/// ```
///  blocks = 1:           header [crc] raw_data_block
///  blocks > 1, no CRC:   header raw_data_block raw_data_block …          (boundaries not signalled)
///  blocks > 1, CRC:      header position[1…n] crc  block crc  block crc …
///                                              ▲ first block starts here; position[i] is block i's
///                                                start relative to it (the CRCs in between included)
/// ```
///
/// Only the multi-block header CRC (`adts_header_error_check`) covers bytes that can be checked
/// without decoding: the 56 header bits and the positions. The CRC of a single-block frame and the
/// per-block CRCs also cover regions inside the channel elements that only a decoder can locate,
/// so they are not verified.
struct ADTSFrameLayout: Equatable {
    /// The first packet: a byte range of the frame.
    var first: Range<Int>
    /// The further packets, in order: empty (no allocation) for the usual frame of one raw data block.
    var more: [Range<Int>] = []
    /// Frames (audio samples per channel) in each packet: 1024, or 1024 × blocks when several blocks
    /// had to stay together in one packet.
    var framesPerPacket: Int
    /// Why a multi-block frame could not be split, when it could not.
    var unsplitReason: String?

    /// The number of packets.
    var count: Int { 1 + more.count }

    /// Packet `i` (`0..<count`).
    subscript(i: Int) -> Range<Int> { i == 0 ? first : more[i - 1] }

    /// The frames (samples per channel) of one raw data block (ISO/IEC 14496-3 §4.5.1.1: 1024 for
    /// the AAC object types an ADTS header can carry).
    static let framesPerBlock = 1024

    /// The layout of the frame at `offset` after the window's position, each raw data block decoding to
    /// `framesPerBlock` frames (2048 with implicit SBR). The whole frame must be readable.
    static func make(
        _ header: ADTSHeader, _ window: InputWindow, at offset: Int, framesPerBlock: Int = framesPerBlock
    ) -> ADTSFrameLayout {
        let length = header.frameLength
        let count = header.rawDataBlockCount
        if count == 1 {
            return ADTSFrameLayout(first: header.headerLength..<length, framesPerPacket: framesPerBlock)
        }
        func whole(_ reason: String) -> ADTSFrameLayout {
            ADTSFrameLayout(
                first: header.headerLength..<length, framesPerPacket: framesPerBlock * count, unsplitReason: reason)
        }
        if header.protectionAbsent {
            return whole("raw_data_block boundaries are not signalled without CRC")
        }
        let crcOffset = ADTSHeader.fixedSize + 2 * (count - 1)
        guard let protected = window.peekBytes(at: offset, count: crcOffset),
            let crc = window.peekInteger(at: offset + crcOffset, as: UInt16.self, endianness: .big)
        else {
            return whole("header error check not readable")
        }
        guard UInt64(crc16(protected)) == crc else {
            return whole("adts_header_error_check CRC mismatch; raw_data_block_position values not trusted")
        }
        // Block i starts at first + position[i]; each block is followed by its 2-byte CRC.
        let first = header.headerLength
        var starts = [first]
        for i in 1..<count {
            // Safe: the bytes were read above (crcOffset covers every position field).
            let position =
                Int(protected[ADTSHeader.fixedSize + 2 * (i - 1)]) << 8
                | Int(protected[ADTSHeader.fixedSize + 2 * (i - 1) + 1])
            starts.append(first + position)
        }
        var blocks: [Range<Int>] = []
        for i in 0..<count {
            let end = (i + 1 < count ? starts[i + 1] : length) - 2
            guard starts[i] < end, end + 2 <= length else {
                return whole("raw_data_block_position values out of order or past the frame")
            }
            blocks.append(starts[i]..<end)
        }
        return ADTSFrameLayout(first: blocks[0], more: Array(blocks.dropFirst()), framesPerPacket: framesPerBlock)
    }

    /// The MPEG CRC-16 of ISO/IEC 13818-7 §8.2.2 / 11172-3 §2.4.3.1: generator
    /// x¹⁶ + x¹⁵ + x² + 1 (0x8005), register preset to all ones, bits taken most significant first.
    static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x8005 : crc << 1
            }
        }
        return crc
    }
}
