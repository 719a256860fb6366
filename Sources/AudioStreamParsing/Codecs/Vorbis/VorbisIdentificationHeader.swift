/// The Vorbis identification header: the first packet of a Vorbis stream (Vorbis I §4.2.2).
///
/// ```
///  offset  size  field
///  0       1     packet type: 1
///  1       6     "vorbis"
///  7       4     vorbis_version (little-endian): 0
///  11      1     audio_channels: > 0
///  12      4     audio_sample_rate (little-endian): > 0
///  16      4     bitrate_maximum (little-endian, signed; 0 = unset)
///  20      4     bitrate_nominal (little-endian, signed; 0 = unset)
///  24      4     bitrate_minimum (little-endian, signed; 0 = unset)
///  28      1     bits 0–3: blocksize_0 exponent, bits 4–7: blocksize_1 exponent
///                (each 6…13, i.e. 64…8192 samples; blocksize_0 ≤ blocksize_1)
///  29      1     framing flag: bit 0 set
/// ```
///
/// A packet longer than 30 bytes is accepted (the spec says nothing of trailing bytes; libvorbis
/// ignores them).
struct VorbisIdentificationHeader: Hashable, Sendable {
    /// The length of the header.
    static let byteCount = 30

    /// `vorbis_version` (always 0 in a decodable stream).
    var version: UInt32
    /// `audio_channels`.
    var channels: Int
    /// `audio_sample_rate`.
    var sampleRate: UInt32
    /// `bitrate_maximum` in bits per second; 0 when unset (negative values are kept as written).
    var bitrateMaximum: Int32
    /// `bitrate_nominal`.
    var bitrateNominal: Int32
    /// `bitrate_minimum`.
    var bitrateMinimum: Int32
    /// The short block size in samples (`1 << exponent`, 64…8192).
    var blocksize0: Int
    /// The long block size in samples (64…8192, ≥ `blocksize0`).
    var blocksize1: Int

    /// True when `packet` starts with a Vorbis header packet of `type` (1, 3 or 5) and "vorbis".
    static func isHeader(_ packet: ArraySlice<UInt8>, type: UInt8) -> Bool {
        packet.first == type && packet.dropFirst().starts(with: signature)
    }

    /// "vorbis".
    static let signature: [UInt8] = Array("vorbis".utf8)

    /// Where decoding errors point.
    static let structure = Structure("vorbis", "identification")

    /// Decodes an identification header packet.
    ///
    /// - Throws: `.invalidFile` when the packet is not an identification header, is shorter than
    ///   30 bytes, or breaks a rule of §4.2.2 (channels or rate zero, block size exponent outside
    ///   6…13, blocksize_0 > blocksize_1, framing flag clear); `.unsupportedDataFormat` for a
    ///   `vorbis_version` other than 0.
    static func decode(_ packet: ArraySlice<UInt8>) throws(StructureError) -> VorbisIdentificationHeader {
        guard isHeader(packet, type: 1) else {
            throw structure.invalid("packet is not a Vorbis identification header")
        }
        var reader = ByteReader(packet.prefix(byteCount))
        guard reader.remaining == byteCount, reader.skip(7),
            let version = reader.readInteger(as: UInt32.self, endianness: .little),
            let channels = reader.readUInt8(),
            let rate = reader.readInteger(as: UInt32.self, endianness: .little),
            let maximum = reader.readInteger(as: UInt32.self, endianness: .little),
            let nominal = reader.readInteger(as: UInt32.self, endianness: .little),
            let minimum = reader.readInteger(as: UInt32.self, endianness: .little),
            let sizes = reader.readUInt8(),
            let framing = reader.readUInt8()
        else {
            throw structure.invalid("header is \(packet.count) bytes, shorter than 30")
        }
        guard version == 0 else {
            throw structure.unsupported("vorbis_version \(version) is not 0")
        }
        guard channels > 0 else {
            throw structure.invalid("audio_channels is zero")
        }
        guard rate > 0 else {
            throw structure.invalid("audio_sample_rate is zero")
        }
        let exponent0 = Int(sizes & 0x0F)
        let exponent1 = Int(sizes >> 4)
        guard (6...13).contains(exponent0), (6...13).contains(exponent1) else {
            throw structure.invalid("block size exponents \(exponent0)/\(exponent1) are outside 6…13")
        }
        guard exponent0 <= exponent1 else {
            throw structure.invalid("blocksize_0 is larger than blocksize_1")
        }
        guard framing & 1 == 1 else {
            throw structure.invalid("framing flag is not set")
        }
        return VorbisIdentificationHeader(
            version: version, channels: Int(channels), sampleRate: rate,
            bitrateMaximum: Int32(bitPattern: maximum), bitrateNominal: Int32(bitPattern: nominal),
            bitrateMinimum: Int32(bitPattern: minimum), blocksize0: 1 << exponent0, blocksize1: 1 << exponent1)
    }

    /// The stream's format: the private `'vorb'` format ID, the rate and channels; packets vary in
    /// size and duration, so bytes and frames per packet are 0.
    var streamDescription: StreamDescription {
        StreamDescription(sampleRate: Double(sampleRate), formatID: .vorbis, channelsPerFrame: UInt32(channels))
    }
}
