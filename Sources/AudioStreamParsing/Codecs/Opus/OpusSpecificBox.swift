/// `dOps`, the Opus Specific Box in an MP4 `Opus` sample entry ("Encapsulation of Opus in ISO Base
/// Media File Format" §4.3.2), big-endian, and the `OpusHead` identification header (RFC 7845 §5.1,
/// little-endian) it stands for, which Opus decoders and ffmpeg's extradata use as configuration.
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

    /// Where decoding errors point.
    static let structure = Structure("mp4", "dOps")

    /// Decodes the box body.
    ///
    /// - Throws: `invalidFile` when the body is shorter than 11 bytes, its version is not 0, the
    ///   channel count is zero or the mapping table is cut short.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> OpusSpecificBox {
        var reader = ByteReader(body)
        guard let version = reader.readUInt8(), let channels = reader.readUInt8(),
            let preSkip = reader.readInteger(as: UInt16.self, endianness: .big),
            let rate = reader.readInteger(as: UInt32.self, endianness: .big),
            let gain = reader.readInteger(as: UInt16.self, endianness: .big), let family = reader.readUInt8()
        else { throw structure.invalid("shorter than 11 bytes") }
        guard version == 0 else { throw structure.invalid("version \(version) is not 0") }
        guard channels > 0 else { throw structure.invalid("OutputChannelCount is zero") }
        var table: [UInt8] = []
        if family != 0 {
            guard let bytes = reader.readBytes(2 + Int(channels)) else {
                throw structure.invalid("channel mapping table cut short")
            }
            table = Array(bytes)
        }
        return OpusSpecificBox(
            outputChannelCount: channels, preSkip: preSkip, inputSampleRate: rate, outputGain: gain,
            channelMappingFamily: family, mappingTable: table)
    }

    /// The `OpusHead` packet (RFC 7845 §5.1) the box stands for: 19 bytes plus the mapping table.
    var opusHead: OpusHead {
        var head: [UInt8] = OpusHead.magic + [1, outputChannelCount]
        head += [UInt8(preSkip & 0xFF), UInt8(preSkip >> 8)]
        head += (0..<4).map { UInt8(truncatingIfNeeded: inputSampleRate >> (8 * UInt32($0))) }
        head += [UInt8(outputGain & 0xFF), UInt8(outputGain >> 8), channelMappingFamily]
        return OpusHead(
            version: 1, channelCount: outputChannelCount, preSkip: preSkip, inputSampleRate: inputSampleRate,
            outputGain: Int16(bitPattern: outputGain), mappingFamily: channelMappingFamily,
            rawBytes: head + mappingTable)
    }
}
