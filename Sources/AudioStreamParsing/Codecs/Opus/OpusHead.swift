/// The Opus identification header, the first packet of an Ogg Opus stream (RFC 7845 §5.1).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |      'O'      |      'p'      |      'u'      |      's'      |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |      'H'      |      'e'      |      'a'      |      'd'      |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  Version = 1  | Channel Count |           Pre-skip (LE)       |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                     Input Sample Rate (Hz, LE)                |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |   Output Gain (Q7.8 in dB, LE)| Mapping Family|               |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+               :
/// |       Optional Channel Mapping Table (family != 0)...          |
/// ```
///
/// Version: the upper 4 bits are the major version; decoders accept major version 0 (values 0-15).
/// Mapping family 0: mono or stereo, no table; family 1: 1-8 channels in Vorbis order (§5.1.1.2), with
/// a table of stream count, coupled count and one mapping byte per channel.
///
/// The first packet of an Ogg Opus stream, the magic cookie of `kAudioFormatOpus` in every container
/// (MP4 builds it from `dOps`: ``OpusSpecificBox``), Matroska's `A_OPUS` CodecPrivate.
struct OpusHead: Equatable {
    static let magic: [UInt8] = Array("OpusHead".utf8)

    var version: UInt8
    var channelCount: UInt8
    var preSkip: UInt16
    var inputSampleRate: UInt32
    var outputGain: Int16
    var mappingFamily: UInt8
    /// The whole packet, the magic cookie of `kAudioFormatOpus`.
    var rawBytes: [UInt8]

    /// Where decoding errors point.
    static let structure = Structure("opus", "OpusHead")

    /// Decodes the identification header packet.
    ///
    /// - Throws: `invalidFile` when it is shorter than 19 bytes or lacks the magic, its channel count is
    ///   zero, mapping family 0 has more than 2 channels, or the mapping table is cut short;
    ///   `unsupportedDataFormat` for a major version other than 0.
    static func decode(_ packet: [UInt8]) throws(StructureError) -> OpusHead {
        var reader = ByteReader(packet)
        guard packet.starts(with: magic), reader.skip(magic.count), let version = reader.readUInt8(),
            let channels = reader.readUInt8(), let preSkip = reader.readInteger(as: UInt16.self, endianness: .little),
            let rate = reader.readInteger(as: UInt32.self, endianness: .little),
            let gain = reader.readInteger(as: UInt16.self, endianness: .little), let family = reader.readUInt8()
        else { throw structure.invalid("shorter than 19 bytes") }
        guard version >> 4 == 0 else { throw structure.unsupported("major version is not 0") }
        guard channels > 0 else { throw structure.invalid("channel count is zero") }
        if family == 0 && channels > 2 { throw structure.invalid("mapping family 0 with more than 2 channels") }
        // Stream count, coupled count, one mapping byte per channel.
        if family != 0 && reader.remaining < 2 + Int(channels) {
            throw structure.invalid("channel mapping table is cut short")
        }
        return OpusHead(
            version: version, channelCount: channels, preSkip: preSkip, inputSampleRate: rate,
            outputGain: Int16(bitPattern: gain), mappingFamily: family, rawBytes: packet)
    }

    /// `kAudioFormatOpus` at 48 kHz (RFC 7845 §4: granule positions and decoding always use 48 kHz, the
    /// input rate is informational). Frames per packet vary (2.5 to 120 ms): 0, and each packet
    /// description carries its frame count.
    var streamDescription: StreamDescription {
        StreamDescription(
            sampleRate: 48000, formatID: .opus, formatFlags: 0, bytesPerPacket: 0, framesPerPacket: 0,
            bytesPerFrame: 0, channelsPerFrame: UInt32(channelCount), bitsPerChannel: 0)
    }

    /// The channel layout: family 0 mono/stereo; family 1 the Vorbis channel order (RFC 7845
    /// §5.1.1.2) as CoreAudio's Ogg layout tags (`VorbisChannelLayout`); otherwise unknown.
    var channelLayout: ChannelLayout? {
        if mappingFamily > 1 { return nil }
        return VorbisChannelLayout.layout(channels: Int(channelCount))
    }
}
