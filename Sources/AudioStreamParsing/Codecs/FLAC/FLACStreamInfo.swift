/// The FLAC STREAMINFO metadata block body (RFC 9639 §8.2), 34 bytes, big-endian bit fields.
///
/// ```
/// bits  field
///   16  minimum block size (samples per channel), 16..65535
///   16  maximum block size, >= minimum
///   24  minimum frame size in bytes (0 = unknown)
///   24  maximum frame size in bytes (0 = unknown)
///   20  sample rate in Hz (0 only for non-audio streams)
///    3  channels - 1
///    5  bits per sample - 1 (4..32 bits)
///   36  total interchannel samples (0 = unknown)
///  128  MD5 of the unencoded audio (all zero = unknown)
/// ```
///
/// Read by native FLAC, FLAC-in-Ogg (the mapping header carries the same block) and MP4 `dfLa`
/// (``FLACSpecificBox``); Matroska's `A_FLAC` CodecPrivate holds it too.
struct FLACStreamInfo: Hashable, Sendable {
    /// The byte size of the block body.
    static let size = 34

    var minimumBlockSize: UInt16
    var maximumBlockSize: UInt16
    /// 0 when unknown.
    var minimumFrameSize: UInt32
    /// 0 when unknown.
    var maximumFrameSize: UInt32
    /// Hz, 0..1_048_575.
    var sampleRate: UInt32
    /// 1...8.
    var channels: UInt32
    /// 4...32.
    var bitsPerSample: UInt32
    /// Samples per channel in the stream; 0 when unknown.
    var totalSamples: UInt64
    /// MD5 of the decoded samples; all zero when unknown.
    var md5: [UInt8]
    /// The 34 bytes as they were read (for the magic cookie, byte for byte).
    var rawBytes: [UInt8]

    /// Where decoding errors point.
    static let structure = Structure("flac", "STREAMINFO")

    /// Decodes the first 34 bytes of `body` (extra bytes are ignored, as RFC 9639 allows the block to be
    /// followed by fields of a later version).
    ///
    /// - Throws: `invalidFile` when fewer than 34 bytes are given, a block size is below 16 (RFC 9639
    ///   §8.2: both must be at least 16), the minimum block size exceeds the maximum, the sample rate
    ///   is 0 (allowed only for streams without audio, which cannot be played) or there are fewer
    ///   than 4 bits per sample.
    static func decode(_ body: some Collection<UInt8>) throws(StructureError) -> FLACStreamInfo {
        let b = Array(body.prefix(size))
        var reader = ByteReader(b)
        guard let minBlock = reader.readInteger(as: UInt16.self, endianness: .big),
            let maxBlock = reader.readInteger(as: UInt16.self, endianness: .big),
            let minFrame = reader.readInteger(byteCount: 3, as: UInt32.self, endianness: .big),
            let maxFrame = reader.readInteger(byteCount: 3, as: UInt32.self, endianness: .big),
            // 20 bits rate, 3 channels − 1, 5 bits per sample − 1, 36 total samples.
            let packed = reader.readInteger(as: UInt64.self, endianness: .big),
            let md5 = reader.readBytes(16)
        else { throw structure.invalid("block shorter than 34 bytes") }
        let info = FLACStreamInfo(
            minimumBlockSize: minBlock, maximumBlockSize: maxBlock, minimumFrameSize: minFrame,
            maximumFrameSize: maxFrame, sampleRate: UInt32(packed >> 44), channels: UInt32(packed >> 41 & 0x7) + 1,
            bitsPerSample: UInt32(packed >> 36 & 0x1F) + 1, totalSamples: packed & 0xF_FFFF_FFFF, md5: Array(md5),
            rawBytes: b)
        if minBlock < 16 || maxBlock < 16 { throw structure.invalid("block size below 16 samples") }
        if minBlock > maxBlock { throw structure.invalid("minimum block size exceeds maximum") }
        if info.sampleRate == 0 { throw structure.invalid("sample rate is zero") }
        if info.bitsPerSample < 4 { throw structure.invalid("fewer than 4 bits per sample") }
        return info
    }

    /// True when every frame but the last has the same block size (minimum == maximum).
    var hasFixedBlockSize: Bool { minimumBlockSize == maximumBlockSize }

    /// `mFormatFlags` of Apple's FLAC ASBD: the source bit depth coded like ALAC's
    /// `kAppleLosslessFormatFlag_16/20/24/32BitSourceData` (1, 2, 3, 4); 0 for other depths, for
    /// which Apple has no flag. See docs/coreaudio-mapping.md.
    var appleFormatFlags: UInt32 { ALACSpecificConfig.sourceBitDepthFlag(bitsPerSample) }

    /// The ASBD for `kAudioFormatFLAC`: framesPerPacket = the block size when it is fixed, else 0;
    /// bytes per packet/frame and bits per channel 0 (compressed format), the bit depth in the flags.
    var streamDescription: StreamDescription {
        StreamDescription(
            sampleRate: Double(sampleRate), formatID: .flac, formatFlags: appleFormatFlags,
            bytesPerPacket: 0, framesPerPacket: hasFixedBlockSize ? UInt32(maximumBlockSize) : 0,
            bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
    }

    /// The magic cookie for `kAudioFormatFLAC`: the body of an ISO BMFF `dfLa` FullBox ("Encapsulation
    /// of FLAC in ISO Base Media File Format" §3.3.2): version 0 and flags 0 (4 bytes), then the
    /// STREAMINFO metadata block with its 4-byte header (last-block flag set), 42 bytes in all.
    /// Apple's decoder reads this layout from MP4 `dfLa` and CAF `kuki` (docs/coreaudio-mapping.md).
    var magicCookie: [UInt8] {
        [0, 0, 0, 0] + FLACMetadataBlockHeader(isLast: true, type: .streamInfo, length: Self.size).bytes
            + rawBytes
    }
}
