/// A FLAC frame header (RFC 9639 §9.1), 6 to 16 bytes.
///
/// ```
/// bits  field
///   14  sync code 0b11111111111110
///    1  reserved (0)
///    1  blocking strategy: 0 fixed (frame number follows), 1 variable (sample number follows)
///    4  block size code        4  sample rate code
///    4  channel assignment     3  sample size code     1  reserved (0)
/// 8-56  coded number: frame number (≤ 31 bits, ≤ 6 bytes) or sample number (≤ 36 bits, ≤ 7 bytes),
///       in the UTF-8-like variable-length code of §9.1.5
///  0/8/16  uncommon block size - 1 (codes 6, 7)
///  0/8/16  uncommon sample rate (codes 12: kHz, 13: Hz, 14: tens of Hz)
///    8  CRC-8 of the header bytes before it
/// ```
struct FLACFrameHeader: Hashable, Sendable {
    /// The longest header: 4 fixed bytes, a 7-byte number, 2 + 2 uncommon bytes, the CRC-8.
    static let maximumSize = 16

    /// True for a variable-blocksize frame (the coded number is a sample number).
    var isVariable: Bool
    /// Samples per channel in the frame.
    var blockSize: Int
    /// The sample rate the header states, or `nil` for "from STREAMINFO".
    var sampleRate: UInt32?
    /// Channels (the assignment's count: 1...8).
    var channels: UInt32
    /// Bits per sample the header states, or `nil` for "from STREAMINFO".
    var bitsPerSample: UInt32?
    /// The frame number (fixed blocking) or the number of the first sample (variable blocking).
    var number: UInt64
    /// Header bytes, CRC-8 included.
    var length: Int

    /// The number the next frame carries.
    var nextNumber: UInt64 { isVariable ? number &+ UInt64(blockSize) : number &+ 1 }

    /// The outcome of decoding a header.
    enum Decoded: Equatable {
        case valid(FLACFrameHeader)
        /// Not a frame header of this stream (the reason is for diagnostics).
        case invalid(String)
        /// This many bytes from the offset are needed to decide.
        case needMoreData(Int)
    }

    /// Sync code check on the first two bytes only: 0xFF, then 0b1111100x.
    @inline(__always)
    static func isSync(_ b0: UInt8, _ b1: UInt8) -> Bool { b0 == 0xFF && b1 & 0xFE == 0xF8 }

    /// Decodes the header at `offset` in `window` and checks it against the stream: the sample rate,
    /// channel count and bit depth must agree with STREAMINFO, the block size must not exceed its
    /// maximum, and the blocking strategy must be `variable` when given.
    static func decode(
        _ window: InputWindow, at offset: Int, streamInfo: FLACStreamInfo, variable: Bool?
    ) -> Decoded {
        func byte(_ i: Int) -> UInt8? { window.peekUInt8(at: offset + i) }
        guard let b0 = byte(0), let b1 = byte(1) else { return .needMoreData(2) }
        guard isSync(b0, b1) else { return .invalid("no sync code") }
        let isVariable = b1 & 1 == 1
        if let variable, variable != isVariable { return .invalid("blocking strategy differs from the stream's") }
        guard let b2 = byte(2), let b3 = byte(3) else { return .needMoreData(4) }
        let blockCode = b2 >> 4
        let rateCode = b2 & 0xF
        let channelCode = b3 >> 4
        let sizeCode = b3 >> 1 & 0x7
        if blockCode == 0 { return .invalid("reserved block size code 0") }
        if rateCode == 15 { return .invalid("forbidden sample rate code 15") }
        if channelCode > 10 { return .invalid("reserved channel assignment \(channelCode)") }
        if sizeCode == 3 { return .invalid("reserved sample size code 3") }
        if b3 & 1 != 0 { return .invalid("reserved bit set") }
        let channels: UInt32 = channelCode < 8 ? UInt32(channelCode) + 1 : 2
        if channels != streamInfo.channels { return .invalid("channel count differs from STREAMINFO") }
        let bits: UInt32? = [nil, 8, 12, nil, 16, 20, 24, 32][Int(sizeCode)]
        if let bits, bits != streamInfo.bitsPerSample { return .invalid("bit depth differs from STREAMINFO") }
        // The coded number (§9.1.5).
        guard let lead = byte(4) else { return .needMoreData(5) }
        var extra: Int
        var number: UInt64
        switch lead {
        case 0x00...0x7F: extra = 0; number = UInt64(lead)
        case 0xC0...0xDF: extra = 1; number = UInt64(lead & 0x1F)
        case 0xE0...0xEF: extra = 2; number = UInt64(lead & 0x0F)
        case 0xF0...0xF7: extra = 3; number = UInt64(lead & 0x07)
        case 0xF8...0xFB: extra = 4; number = UInt64(lead & 0x03)
        case 0xFC...0xFD: extra = 5; number = UInt64(lead & 0x01)
        case 0xFE: extra = 6; number = 0
        default: return .invalid("invalid coded number")
        }
        if extra == 6 && !isVariable { return .invalid("7-byte coded number in a fixed-blocksize frame") }
        var i = 5
        for _ in 0..<extra {
            guard let c = byte(i) else { return .needMoreData(i + 1) }
            if c & 0xC0 != 0x80 { return .invalid("invalid coded number continuation byte") }
            number = number << 6 | UInt64(c & 0x3F)
            i += 1
        }
        // Uncommon block size and sample rate.
        var blockSize: Int
        switch blockCode {
        case 1: blockSize = 192
        case 2...5: blockSize = 144 << Int(blockCode)
        case 6:
            guard let v = byte(i) else { return .needMoreData(i + 1) }
            blockSize = Int(v) + 1
            i += 1
        case 7:
            guard let hi = byte(i), let lo = byte(i + 1) else { return .needMoreData(i + 2) }
            blockSize = (Int(hi) << 8 | Int(lo)) + 1
            i += 2
        default: blockSize = 1 << Int(blockCode)
        }
        var rate: UInt32?
        switch rateCode {
        case 0: rate = nil
        case 12:
            guard let v = byte(i) else { return .needMoreData(i + 1) }
            rate = UInt32(v) * 1000
            i += 1
        case 13, 14:
            guard let hi = byte(i), let lo = byte(i + 1) else { return .needMoreData(i + 2) }
            rate = (UInt32(hi) << 8 | UInt32(lo)) * (rateCode == 14 ? 10 : 1)
            i += 2
        default:
            rate =
                [0, 88_200, 176_400, 192_000, 8_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 96_000][
                    Int(rateCode)]
        }
        guard let crc = byte(i) else { return .needMoreData(i + 1) }
        var computed: UInt8 = 0
        window.withContiguousSegments(at: offset, count: i) { computed = FLACCRC.crc8($0, from: computed) }
        if crc != computed { return .invalid("header CRC-8 mismatch") }
        if let rate, rate != streamInfo.sampleRate { return .invalid("sample rate differs from STREAMINFO") }
        if blockSize > Int(streamInfo.maximumBlockSize) { return .invalid("block size exceeds STREAMINFO maximum") }
        return .valid(
            FLACFrameHeader(
                isVariable: isVariable, blockSize: blockSize, sampleRate: rate, channels: channels,
                bitsPerSample: bits, number: number, length: i + 1))
    }
}
