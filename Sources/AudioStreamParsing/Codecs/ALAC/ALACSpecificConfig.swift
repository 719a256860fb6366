/// The Apple Lossless decoder configuration, `ALACSpecificConfig` (Apple "ALAC Magic Cookie
/// Description", ALACMagicCookieDescription.txt in Apple's ALAC sources; all fields big-endian):
/// 24 bytes, the magic cookie of `kAudioFormatAppleLossless`.
///
/// ```
///  offset  size  field
///       0     4  frameLength         frames per packet (4096 by default)
///       4     1  compatibleVersion   0
///       5     1  bitDepth            16, 20, 24 or 32
///       6     3  pb, mb, kb          Rice parameters (40, 10, 14)
///       9     1  numChannels         1…8
///      10     2  maxRun              255
///      12     4  maxFrameBytes       largest packet (0: unknown)
///      16     4  avgBitRate          bits per second (0: unknown)
///      20     4  sampleRate          Hz (an MP4 sample entry's 16.16 field cannot hold rates above 65535)
/// ```
///
/// Where it is found:
/// - MP4: the `alac` box inside the `alac` sample entry, a full box (version 0, flags 0) holding the
///   24 bytes (``decode(alacBoxBody:)``).
/// - CAF `kuki`: the 24 bytes, or the older layout that wraps them in atoms (a 12-byte `frma` atom
///   naming `alac`, then the 36-byte `alac` atom, sometimes a terminator atom). The CAF parser passes
///   the cookie through unchanged (its `desc` chunk already gives the format); ALAC decoders accept
///   both layouts.
struct ALACSpecificConfig: Hashable {
    /// The byte size of the configuration.
    static let size = 24

    var frameLength: UInt32
    var bitDepth: UInt8
    var numChannels: UInt8
    var maxFrameBytes: UInt32
    var avgBitRate: UInt32
    var sampleRate: UInt32
    /// The 24 bytes as stored.
    var bytes: [UInt8]

    /// Where decoding errors point: the MP4 `alac` box that holds the configuration.
    static let structure = Structure("mp4", "alac")

    /// Decodes the body of an MP4 `alac` box: 4 bytes of version and flags, then the configuration. A
    /// body of exactly 24 bytes (no full-box header, as some writers put it) is accepted too.
    ///
    /// - Throws: `invalidFile` when fewer than 24 bytes follow, or the frame length, channel count or
    ///   sample rate is zero.
    static func decode(alacBoxBody body: ArraySlice<UInt8>) throws(StructureError) -> ALACSpecificConfig {
        var reader = ByteReader(body)
        if body.count != size { _ = reader.skip(4) }  // version and flags
        guard let bytes = reader.readBytes(size) else {
            throw structure.invalid("ALACSpecificConfig shorter than 24 bytes")
        }
        var fields = ByteReader(bytes)
        guard let frameLength = fields.readInteger(as: UInt32.self, endianness: .big), fields.skip(1),
            let bitDepth = fields.readUInt8(), fields.skip(3), let numChannels = fields.readUInt8(), fields.skip(2),
            let maxFrameBytes = fields.readInteger(as: UInt32.self, endianness: .big),
            let avgBitRate = fields.readInteger(as: UInt32.self, endianness: .big),
            let sampleRate = fields.readInteger(as: UInt32.self, endianness: .big)
        else { throw structure.invalid("ALACSpecificConfig shorter than 24 bytes") }
        guard frameLength > 0, numChannels > 0, sampleRate > 0 else {
            throw structure.invalid("frameLength, numChannels or sampleRate is zero")
        }
        return ALACSpecificConfig(
            frameLength: frameLength, bitDepth: bitDepth, numChannels: numChannels, maxFrameBytes: maxFrameBytes,
            avgBitRate: avgBitRate, sampleRate: sampleRate, bytes: Array(bytes))
    }

    /// `kAppleLosslessFormatFlag_16/20/24/32BitSourceData` (1…4), 0 for another depth.
    var formatFlags: UInt32 { Self.sourceBitDepthFlag(UInt32(bitDepth)) }

    /// `kAppleLosslessFormatFlag_16/20/24/32BitSourceData` for a source bit depth (1, 2, 3, 4), 0 for
    /// a depth Apple has no flag for. Apple's FLAC ASBD codes its bit depth the same way.
    static func sourceBitDepthFlag(_ bits: UInt32) -> UInt32 {
        switch bits {
        case 16: 1
        case 20: 2
        case 24: 3
        case 32: 4
        default: 0
        }
    }

    /// The ASBD for `kAudioFormatAppleLossless`: the configuration's rate, channels and frames per
    /// packet, the source bit depth in the flags, variable packet size.
    var streamDescription: StreamDescription {
        StreamDescription(
            sampleRate: Double(sampleRate), formatID: .appleLossless, formatFlags: formatFlags, bytesPerPacket: 0,
            framesPerPacket: frameLength, bytesPerFrame: 0, channelsPerFrame: UInt32(numChannels), bitsPerChannel: 0)
    }
}
