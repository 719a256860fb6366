/// Codec configuration boxes found in audio sample entries, other than `esds`.

/// `alac` inside an `alac` sample entry: a full box (version 0, flags 0) holding the 24-byte
/// `ALACSpecificConfig` (Apple "ALAC Magic Cookie Description"; all fields big-endian).
///
/// ```
///  frameLength        4   frames per packet (4096 by default)
///  compatibleVersion  1   0
///  bitDepth           1   16, 20, 24 or 32
///  pb, mb, kb         3   Rice parameters (40, 10, 14)
///  numChannels        1   1…8
///  maxRun             2   255
///  maxFrameBytes      4   largest packet (0: unknown)
///  avgBitRate         4   bits per second (0: unknown)
///  sampleRate         4   Hz (the sample entry's 16.16 field cannot hold rates above 65535)
/// ```
struct ALACSpecificConfig: Hashable {
    var frameLength: UInt32
    var bitDepth: UInt8
    var numChannels: UInt8
    var maxFrameBytes: UInt32
    var avgBitRate: UInt32
    var sampleRate: UInt32
    /// The 24 bytes as stored.
    var bytes: [UInt8]

    /// Decodes the body of an `alac` box: 4 bytes of version and flags, then the configuration.
    /// A body of exactly 24 bytes (no full-box header, as some writers put it) is accepted too.
    init(alacBoxBody body: ArraySlice<UInt8>) throws(StructureError) {
        let b = Array(body)
        let start = b.count == 24 ? 0 : 4
        guard b.count >= start + 24 else {
            throw StructureError(.invalidFile, reason: "mp4 (alac): ALACSpecificConfig shorter than 24 bytes")
        }
        func u32(_ i: Int) -> UInt32 { MP4ChildBoxes.uint32(b[...], start + i) }
        frameLength = u32(0)
        bitDepth = b[start + 5]
        numChannels = b[start + 9]
        maxFrameBytes = u32(12)
        avgBitRate = u32(16)
        sampleRate = u32(20)
        bytes = Array(b[start..<(start + 24)])
        guard frameLength > 0, numChannels > 0, sampleRate > 0 else {
            throw StructureError(
                .invalidFile, reason: "mp4 (alac): frameLength, numChannels or sampleRate is zero")
        }
    }

    /// `kAppleLosslessFormatFlag_16/20/24/32BitSourceData` (1…4), 0 for another depth.
    var formatFlags: UInt32 {
        switch bitDepth {
        case 16: 1
        case 20: 2
        case 24: 3
        case 32: 4
        default: 0
        }
    }
}

/// `dOps`, the Opus Specific Box ("Encapsulation of Opus in ISO Base Media File Format" §4.3.2),
/// big-endian, turned into the `OpusHead` identification header (RFC 7845 §5.1, little-endian) that
/// Opus decoders and ffmpeg's extradata use as configuration.
///
/// ```
///  dOps                               OpusHead
///  Version 8 (0)                      "OpusHead" 8 bytes, version 8 (1)
///  OutputChannelCount 8               channel count 8
///  PreSkip 16 (BE)                    pre-skip 16 (LE)
///  InputSampleRate 32 (BE)            input sample rate 32 (LE)
///  OutputGain 16 (BE, signed)         output gain 16 (LE)
///  ChannelMappingFamily 8             channel mapping family 8
///  [StreamCount 8, CoupledCount 8,    [the same table, unchanged]
///   ChannelMapping 8 × channels]
/// ```
struct OpusSpecificBox: Hashable {
    var outputChannelCount: UInt8
    var preSkip: UInt16
    var inputSampleRate: UInt32
    var outputGain: UInt16
    var channelMappingFamily: UInt8
    /// StreamCount, CoupledCount and the mapping (family ≠ 0).
    var mappingTable: [UInt8]

    init(body: ArraySlice<UInt8>) throws(StructureError) {
        let b = Array(body)
        func fail(_ why: String) -> StructureError { StructureError(.invalidFile, reason: "mp4 (dOps): " + why) }
        guard b.count >= 11 else { throw fail("shorter than 11 bytes") }
        guard b[0] == 0 else { throw fail("version \(b[0]) is not 0") }
        outputChannelCount = b[1]
        preSkip = UInt16(b[2]) << 8 | UInt16(b[3])
        inputSampleRate = MP4ChildBoxes.uint32(b[...], 4)
        outputGain = UInt16(b[8]) << 8 | UInt16(b[9])
        channelMappingFamily = b[10]
        guard outputChannelCount > 0 else { throw fail("OutputChannelCount is zero") }
        if channelMappingFamily == 0 {
            mappingTable = []
        } else {
            let needed = 13 + Int(outputChannelCount)
            guard b.count >= needed else { throw fail("channel mapping table cut short") }
            mappingTable = Array(b[11..<needed])
        }
    }

    /// The `OpusHead` packet (RFC 7845 §5.1), 19 bytes plus the mapping table.
    var opusHead: [UInt8] {
        var head: [UInt8] = Array("OpusHead".utf8) + [1, outputChannelCount]
        head += [UInt8(preSkip & 0xFF), UInt8(preSkip >> 8)]
        head += (0..<4).map { UInt8(truncatingIfNeeded: inputSampleRate >> (8 * UInt32($0))) }
        head += [UInt8(outputGain & 0xFF), UInt8(outputGain >> 8), channelMappingFamily]
        return head + mappingTable
    }
}

/// `dac3` and `dec3`, the AC-3 and Enhanced AC-3 specific boxes (ETSI TS 102 366 Annex F.4, F.6).
///
/// ```
///  dac3: fscod 2, bsid 5, bsmod 3, acmod 3, lfeon 1, bit_rate_code 5, reserved 5
///  dec3: data_rate 13, num_ind_sub 3 (+1 substreams), then per independent substream:
///        fscod 2, bsid 5, reserved 1, asvc 1, bsmod 3, acmod 3, lfeon 1, reserved 3,
///        num_dep_sub 4, [chan_loc 9 | reserved 1]
/// ```
/// Channels are those of the first independent substream: acmod's count (Table 4.3: 2, 1, 2, 3, 3,
/// 4, 4, 5 for acmod 0…7) plus the LFE; dependent substreams (7.1) are not counted.
struct AC3SpecificBox: Hashable {
    /// 48000, 44100 or 32000 Hz (fscod 0, 1, 2).
    var sampleRate: UInt32
    var acmod: UInt8
    var lfeon: Bool
    /// kbit/s: from bit_rate_code (dac3, nominal) or data_rate (dec3).
    var bitRateKbps: UInt32

    static let channelsPerAcmod: [UInt32] = [2, 1, 2, 3, 3, 4, 4, 5]
    static let sampleRates: [UInt32] = [48000, 44100, 32000]
    static let bitRates: [UInt32] = [
        32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640,
    ]

    init(dac3 body: ArraySlice<UInt8>) throws(StructureError) {
        let b = Array(body)
        guard b.count >= 3 else { throw StructureError(.invalidFile, reason: "mp4 (dac3): shorter than 3 bytes") }
        let bits = UInt32(b[0]) << 16 | UInt32(b[1]) << 8 | UInt32(b[2])
        let fscod = Int(bits >> 22)
        guard fscod < 3 else { throw StructureError(.invalidFile, reason: "mp4 (dac3): reserved fscod 3") }
        sampleRate = Self.sampleRates[fscod]
        acmod = UInt8(bits >> 11 & 0x7)
        lfeon = bits >> 10 & 1 == 1
        let code = Int(bits >> 5 & 0x1F)
        bitRateKbps = code < Self.bitRates.count ? Self.bitRates[code] : 0
    }

    init(dec3 body: ArraySlice<UInt8>) throws(StructureError) {
        let b = Array(body)
        guard b.count >= 5 else { throw StructureError(.invalidFile, reason: "mp4 (dec3): shorter than 5 bytes") }
        bitRateKbps = (UInt32(b[0]) << 8 | UInt32(b[1])) >> 3
        let fscod = Int(b[2] >> 6)
        // fscod 3 means a reduced rate (fscod2) that dec3 does not carry; 24000 Hz is the common case.
        sampleRate = fscod < 3 ? Self.sampleRates[fscod] : 24000
        acmod = b[3] >> 1 & 0x7
        lfeon = b[3] & 1 == 1
    }

    var channelCount: UInt32 { Self.channelsPerAcmod[Int(acmod)] + (lfeon ? 1 : 0) }
}
