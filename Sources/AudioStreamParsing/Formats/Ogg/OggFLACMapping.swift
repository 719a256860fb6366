/// The FLAC-in-Ogg mapping header, the first packet of an Ogg FLAC stream
/// (https://xiph.org/flac/ogg_mapping.html, RFC 9639 Appendix "Ogg encapsulation").
///
/// ```
/// byte  0       0x7F
/// bytes 1-4     "FLAC"
/// byte  5       mapping major version (1)
/// byte  6       mapping minor version (0)
/// bytes 7-8     number of header packets that follow (big-endian; 0 = unknown)
/// bytes 9-12    "fLaC"
/// bytes 13-16   METADATA_BLOCK_HEADER of the STREAMINFO block (type 0, length 34)
/// bytes 17-50   STREAMINFO (RFC 9639 §8.2)
/// ```
///
/// The other metadata blocks follow as one header packet each (VORBIS_COMMENT first); then every
/// packet is one FLAC frame.
struct OggFLACMappingHeader: Equatable {
    static let magic: [UInt8] = [0x7F] + Array("FLAC".utf8)
    static let size = 51

    var majorVersion: UInt8
    var minorVersion: UInt8
    /// Header packets after this one; 0 when unknown.
    var headerPacketCount: UInt16
    var streamInfo: FLACStreamInfo

    /// Where decoding errors point.
    static let structure = Structure("flac", "ogg mapping")

    /// Decodes the mapping header packet.
    ///
    /// - Throws: `invalidFile` when it is shorter than 51 bytes, lacks the magic, `fLaC` or the
    ///   STREAMINFO block header, or the STREAMINFO is impossible (its own reason);
    ///   `unsupportedDataFormat` for a mapping major version other than 1.
    static func decode(_ packet: [UInt8]) throws(StructureError) -> OggFLACMappingHeader {
        var reader = ByteReader(packet)
        guard packet.count >= size, packet.starts(with: magic), reader.skip(magic.count),
            let major = reader.readUInt8(), let minor = reader.readUInt8(),
            let headerPackets = reader.readInteger(as: UInt16.self, endianness: .big),
            let signature = reader.readFourCC(), let blockType = reader.readUInt8(), reader.skip(3)
        else { throw structure.invalid("FLAC mapping header shorter than 51 bytes") }
        guard major == 1 else { throw structure.unsupported("FLAC mapping major version is not 1") }
        guard signature == FourCharCode.value("fLaC"), blockType & 0x7F == 0 else {
            throw structure.invalid("FLAC mapping header lacks fLaC and STREAMINFO")
        }
        let info = try FLACStreamInfo.decode(reader.readRemainingBytes())
        return OggFLACMappingHeader(
            majorVersion: major, minorVersion: minor, headerPacketCount: headerPackets, streamInfo: info)
    }
}

/// The block size of a FLAC frame from its header (RFC 9639 §9.1), enough of it to count frames.
///
/// ```
/// bytes 0-1  sync 0b11111111_111110 + reserved bit + blocking strategy bit
/// byte 2     block size code (4 bits) | sample rate code (4 bits)
/// byte 3     channel assignment (4) | sample size (3) | reserved (1)
/// 1-7 bytes  coded frame or sample number (UTF-8-like)
/// 0/1/2      block size - 1 when the code is 6 (8 bits) or 7 (16 bits)
/// ```
enum FLACFrameBlockSize {
    /// Samples per channel in the frame whose first bytes are `b`; `nil` when the header is not a frame
    /// header or is cut short.
    static func of(_ b: [UInt8]) -> Int64? {
        guard b.count >= 5, b[0] == 0xFF, b[1] & 0xFE == 0xF8 else { return nil }
        let code = b[2] >> 4
        switch code {
        case 1: return 192
        case 2...5: return 144 << Int64(code)
        case 8...15: return 1 << Int64(code)
        case 6, 7:
            // Skip the coded number: its first byte's leading ones give its length.
            let lead = b[4].leadingZeroBitCount == 0 ? (~b[4]).leadingZeroBitCount : 0
            let length = lead == 0 ? 1 : lead
            guard lead != 1, length <= 7 else { return nil }
            let at = 4 + length
            if code == 6 {
                guard at < b.count else { return nil }
                return Int64(b[at]) + 1
            }
            guard at + 1 < b.count else { return nil }
            return (Int64(b[at]) << 8 | Int64(b[at + 1])) + 1
        default: return nil
        }
    }

    /// The frame number of a fixed-blocksize frame (blocking strategy bit 0) whose first bytes are `b`:
    /// the coded number after the first four header bytes, UTF-8-like (RFC 9639 §9.1.5: a first byte
    /// `0xxxxxxx`, or `n` leading ones then `n − 1` bytes `10xxxxxx`, up to 6 bytes for a frame number).
    /// `nil` for a variable-blocksize frame (it codes a sample number) or a cut or invalid header.
    static func frameNumber(_ b: [UInt8]) -> Int64? {
        guard b.count >= 5, b[0] == 0xFF, b[1] == 0xF8 else { return nil }
        return codedNumber(b, maxLength: 6)
    }

    /// The sample number of a variable-blocksize frame (blocking strategy bit 1) whose first bytes are
    /// `b`: the number of its first sample in the stream, coded as the frame number is but in up to 7
    /// bytes (RFC 9639 §9.1.5). `nil` for a fixed-blocksize frame or a cut or invalid header.
    static func sampleNumber(_ b: [UInt8]) -> Int64? {
        guard b.count >= 5, b[0] == 0xFF, b[1] == 0xF9 else { return nil }
        return codedNumber(b, maxLength: 7)
    }

    /// The UTF-8-like number from byte 4 of `b`, at most `maxLength` bytes long.
    private static func codedNumber(_ b: [UInt8], maxLength: Int) -> Int64? {
        let lead = (~b[4]).leadingZeroBitCount
        if lead == 0 { return Int64(b[4]) }
        guard lead >= 2, lead <= maxLength, b.count >= 4 + lead else { return nil }
        var value = Int64(b[4] & (0x7F >> UInt8(lead)))
        for i in 5..<(4 + lead) {
            guard b[i] & 0xC0 == 0x80 else { return nil }
            value = value << 6 | Int64(b[i] & 0x3F)
        }
        return value
    }
}
