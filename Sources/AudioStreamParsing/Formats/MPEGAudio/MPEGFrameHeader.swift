/// The 32-bit header that starts every MPEG audio frame (ISO/IEC 11172-3 §2.4.1.3 and §2.4.2.3,
/// ISO/IEC 13818-3 §2.4.1.3 for the lower sampling frequencies, and the MPEG-2.5 extension).
///
/// ```
///  byte 0   byte 1   byte 2   byte 3
///  AAAAAAAA AAABBCCD EEEEFFGH IIJJKLMM
///
///  A  11  syncword, all ones (11172-3 has a 12-bit syncword and a 1-bit ID; MPEG-2.5 takes the
///         syncword's last bit as the high bit of a 2-bit version)
///  B   2  version: 00 MPEG-2.5, 01 reserved, 10 MPEG-2 (13818-3 LSF), 11 MPEG-1 (11172-3)
///  C   2  layer: 00 reserved, 01 Layer III, 10 Layer II, 11 Layer I
///  D   1  protection_bit: 0 = a 16-bit CRC follows the header
///  E   4  bitrate_index: 0 = free format, 15 = forbidden
///  F   2  sampling_frequency: 3 = reserved
///  G   1  padding_bit: the frame carries one extra slot
///  H   1  private_bit
///  I   2  mode: 00 stereo, 01 joint stereo, 10 dual channel, 11 single channel
///  J   2  mode_extension (joint stereo)
///  K   1  copyright
///  L   1  original/home
///  M   2  emphasis: 00 none, 01 50/15 µs, 10 reserved, 11 CCITT J.17
/// ```
///
/// A header is valid when the syncword is set and version, layer, bit rate and sampling frequency
/// are not reserved or forbidden. Reserved emphasis is accepted (it does not change the framing).
struct MPEGFrameHeader: Hashable, Sendable {
    /// The MPEG version (field B).
    enum Version: Hashable, Sendable {
        /// ISO/IEC 11172-3.
        case mpeg1
        /// ISO/IEC 13818-3 lower sampling frequencies.
        case mpeg2
        /// The unofficial MPEG-2.5 extension (8, 11.025, 12 kHz).
        case mpeg25
    }

    /// The header's 32 bits, big-endian as in the stream.
    let word: UInt32
    let version: Version
    /// 1, 2 or 3.
    let layer: Int
    /// True when a 16-bit CRC follows the header (protection_bit is 0).
    let hasCRC: Bool
    /// 0 (free format) … 14.
    let bitRateIndex: Int
    /// 0 … 2.
    let sampleRateIndex: Int
    let hasPadding: Bool
    /// 0 stereo, 1 joint stereo, 2 dual channel, 3 single channel.
    let channelMode: Int

    /// The header size in bytes.
    static let byteCount = 4

    // MARK: Tables

    /// Bit rates in kbit/s of MPEG-1, by layer (I, II, III) and bitrate_index (ISO/IEC 11172-3
    /// §2.4.2.3). Index 0 is free format; index 15 is forbidden and not listed.
    static let mpeg1BitRates: [[UInt32]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    ]
    /// Bit rates in kbit/s of MPEG-2 and MPEG-2.5 (ISO/IEC 13818-3 §2.4.2.3): Layer I, then
    /// Layers II and III, which share one table.
    static let lowSampleRateBitRates: [[UInt32]] = [
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]
    /// Sampling frequencies in Hz by sampling_frequency (11172-3 §2.4.2.3, 13818-3 §2.4.2.3, and
    /// MPEG-2.5 at half the MPEG-2 rates).
    static let mpeg1SampleRates: [UInt32] = [44_100, 48_000, 32_000]
    static let mpeg2SampleRates: [UInt32] = [22_050, 24_000, 16_000]
    static let mpeg25SampleRates: [UInt32] = [11_025, 12_000, 8_000]

    // MARK: Decoding

    /// Decodes a header word; `nil` when it is not a valid header.
    init?(_ word: UInt32) {
        guard word & 0xFFE0_0000 == 0xFFE0_0000 else { return nil }
        switch (word >> 19) & 0b11 {
        case 0b00: version = .mpeg25
        case 0b10: version = .mpeg2
        case 0b11: version = .mpeg1
        default: return nil
        }
        let layerBits = Int((word >> 17) & 0b11)
        guard layerBits != 0 else { return nil }
        layer = 4 - layerBits
        hasCRC = (word >> 16) & 1 == 0
        bitRateIndex = Int((word >> 12) & 0xF)
        guard bitRateIndex != 15 else { return nil }
        sampleRateIndex = Int((word >> 10) & 0b11)
        guard sampleRateIndex != 3 else { return nil }
        hasPadding = (word >> 9) & 1 == 1
        channelMode = Int((word >> 6) & 0b11)
        self.word = word
    }

    /// Decodes the header at `offset` after the window's position; `nil` when fewer than 4 bytes
    /// are readable there or they are not a valid header.
    init?(_ window: InputWindow, at offset: Int) {
        guard let word = window.peekInteger(at: offset, as: UInt32.self, endianness: .big) else { return nil }
        self.init(UInt32(truncatingIfNeeded: word))
    }

    // MARK: Derived values

    /// True for MPEG-2 and MPEG-2.5 (the "lower sampling frequency" extension).
    var isLowSampleRate: Bool { version != .mpeg1 }

    /// The bit rate in bit/s; 0 for free format.
    var bitRate: UInt32 {
        let kbps: UInt32
        switch version {
        case .mpeg1: kbps = Self.mpeg1BitRates[layer - 1][bitRateIndex]
        case .mpeg2, .mpeg25: kbps = Self.lowSampleRateBitRates[layer == 1 ? 0 : 1][bitRateIndex]
        }
        return kbps * 1000
    }

    /// True for free format (bitrate_index 0): the frame length must be measured.
    var isFreeFormat: Bool { bitRateIndex == 0 }

    /// The sampling frequency in Hz.
    var sampleRate: UInt32 {
        switch version {
        case .mpeg1: return Self.mpeg1SampleRates[sampleRateIndex]
        case .mpeg2: return Self.mpeg2SampleRates[sampleRateIndex]
        case .mpeg25: return Self.mpeg25SampleRates[sampleRateIndex]
        }
    }

    /// 1 for single channel, otherwise 2.
    var channelCount: UInt32 { channelMode == 3 ? 1 : 2 }

    /// Samples per channel in one frame: 384 (Layer I), 1152 (Layer II, and Layer III of MPEG-1),
    /// 576 (Layer III of MPEG-2/2.5; 13818-3 §2.4.3.4).
    var samplesPerFrame: UInt32 {
        switch layer {
        case 1: return 384
        case 2: return 1152
        default: return isLowSampleRate ? 576 : 1152
        }
    }

    /// Bytes per slot: 4 in Layer I, 1 in Layers II and III (11172-3 §2.4.3.1).
    var slotSize: Int { layer == 1 ? 4 : 1 }

    /// The frame length in bytes, header and padding included; `nil` for free format.
    ///
    /// 11172-3 §2.4.3.1: a frame has N = samplesPerFrame / 8 × bit_rate / sampling_frequency bytes,
    /// counted in slots and truncated to whole slots, plus one slot when padding_bit is set. That is
    /// (12 × bit_rate / fs + padding) × 4 in Layer I, 144 × bit_rate / fs + padding in Layers II and
    /// III, and 72 × bit_rate / fs + padding in Layer III of MPEG-2/2.5 (13818-3 §2.4.3.1).
    var frameLength: Int? {
        if isFreeFormat { return nil }
        return Self.frameLength(slots: slotsPerFrame(bitRate: bitRate), header: self)
    }

    /// The whole slots of a frame at `bitRate` without padding.
    func slotsPerFrame(bitRate: UInt32) -> Int {
        let bytesPerSlot = UInt64(slotSize)
        return Int(UInt64(samplesPerFrame) / 8 * UInt64(bitRate) / UInt64(sampleRate) / bytesPerSlot)
    }

    /// The length of a frame of `slots` slots (plus the padding slot when the header has one).
    static func frameLength(slots: Int, header: MPEGFrameHeader) -> Int {
        (slots + (header.hasPadding ? 1 : 0)) * header.slotSize
    }

    /// The largest frame this version, layer and sampling frequency allow: the highest bit rate with
    /// padding.
    var largestFrameLength: Int { Self.largestFrameLength(layer: layer, sampleRate: sampleRate) }

    /// The largest frame of `layer` (1…3) at `sampleRate` (> 0), for a container that declares them before
    /// any frame is seen: MPEG-1's tables at its three rates, the lower-frequency tables at any other.
    static func largestFrameLength(layer: Int, sampleRate: UInt32) -> Int {
        let isMPEG1 = mpeg1SampleRates.contains(sampleRate)
        let top = isMPEG1 ? mpeg1BitRates[layer - 1][14] : lowSampleRateBitRates[layer == 1 ? 0 : 1][14]
        let samples: UInt64 = layer == 1 ? 384 : (layer == 2 || isMPEG1 ? 1152 : 576)
        let slot = layer == 1 ? 4 : 1
        let slots = Int(samples / 8 * UInt64(top) * 1000 / UInt64(sampleRate) / UInt64(slot))
        return (slots + 1) * slot
    }

    /// The Layer III side information length (11172-3 §2.4.1.7, 13818-3 §2.4.1.7): 32 or 17 bytes in
    /// MPEG-1 (two channels or one), 17 or 9 in MPEG-2/2.5.
    var sideInformationLength: Int {
        switch (isLowSampleRate, channelCount) {
        case (false, 1): return 17
        case (false, _): return 32
        case (true, 1): return 9
        case (true, _): return 17
        }
    }

    /// The fields that must stay the same from frame to frame of one stream: version, layer,
    /// sampling frequency and whether it is mono (joint stereo and stereo may alternate).
    var signature: Signature {
        Signature(version: version, layer: layer, sampleRateIndex: sampleRateIndex, isMono: channelMode == 3)
    }

    /// See `signature`.
    struct Signature: Hashable, Sendable {
        let version: Version
        let layer: Int
        let sampleRateIndex: Int
        let isMono: Bool
    }

    /// True when `other` can be the next frame of a free-format stream this header belongs to: the
    /// same word except padding, private and mode-extension bits (which change from frame to frame).
    func matchesFreeFormat(_ other: MPEGFrameHeader) -> Bool {
        let mask: UInt32 = ~(0x0000_0200 | 0x0000_0100 | 0x0000_0030)
        return word & mask == other.word & mask
    }

    /// The container type of a stream whose frames have this layer.
    var fileType: AudioFileType {
        switch layer {
        case 1: return .mp1
        case 2: return .mp2
        default: return .mp3
        }
    }

    /// The data format of a stream whose frames have this layer.
    var audioFormat: AudioFormat {
        switch layer {
        case 1: return .mpegLayer1
        case 2: return .mpegLayer2
        default: return .mpegLayer3
        }
    }

    /// The stream description CoreAudio gives MPEG audio: variable packet size (0 bytes per
    /// packet), `samplesPerFrame` frames per packet, no bytes per frame or bits per channel.
    var streamDescription: StreamDescription {
        StreamDescription(
            sampleRate: Double(sampleRate), formatID: audioFormat, formatFlags: 0, bytesPerPacket: 0,
            framesPerPacket: samplesPerFrame, bytesPerFrame: 0, channelsPerFrame: channelCount, bitsPerChannel: 0)
    }
}
