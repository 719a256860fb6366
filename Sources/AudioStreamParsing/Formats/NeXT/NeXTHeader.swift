/// The fixed 24-byte header of a NeXT/Sun audio file (`.au`, `.snd`).
///
/// References: Sun Microsystems, *audio_filehdr(4)* / `<multimedia/audio_filehdr.h>` (SunOS 4.1 and
/// Solaris `au(4)` manual page); NeXT, *SoundStructure* in `<sound/soundstruct.h>` (NeXTSTEP 3.3
/// Sound Kit). All fields are big-endian 32-bit unsigned integers.
///
/// ```
///  offset  size  field
///  ──────  ────  ─────────────────────────────────────────────────────────────
///     0     4    magic          0x2E736E64 ('.snd')
///     4     4    data offset    byte offset of the first audio byte (≥ 24)
///     8     4    data size      bytes of audio data; 0xFFFFFFFF = unknown (to the end)
///    12     4    encoding       1 µ-law, 2/3/4/5 8/16/24/32-bit linear, 6/7 float,
///                               23…26 G.72x ADPCM, 27 A-law, …
///    16     4    sample rate    frames per second
///    20     4    channels       interleaved channels per frame
///    24    ...   annotation     (data offset − 24) bytes, conventionally NUL-terminated text
/// ```
struct NeXTHeader: Hashable {
    /// The header, for messages.
    static let structure = Structure("au", "header")
    /// The header size in bytes (the smallest legal data offset).
    static let size = 24
    /// `.snd`
    static let magic: UInt32 = 0x2E73_6E64
    /// The data size value that means "unknown: the data runs to the end of the stream".
    static let unknownDataSize: UInt32 = 0xFFFF_FFFF

    /// Absolute offset of the first audio byte.
    var dataOffset: UInt32
    /// Bytes of audio data, or `nil` when the header says "unknown" (0xFFFFFFFF).
    var dataSize: UInt32?
    /// The encoding field.
    var encoding: UInt32
    /// Frames per second.
    var sampleRate: UInt32
    /// Channels per frame.
    var channels: UInt32
    /// The data format the encoding and the other fields describe.
    var streamDescription: StreamDescription

    /// The annotation's length (the bytes between the header and the data).
    var annotationLength: Int { Int(dataOffset) - NeXTHeader.size }
    /// Bytes per packet: one frame of PCM or G.711, the smallest whole-byte run of G.72x frames.
    var packetSize: Int { Int(streamDescription.bytesPerPacket) }
    /// Frames per packet (1 for PCM and G.711).
    var framesPerPacket: UInt32 { streamDescription.framesPerPacket }

    /// Decodes and validates the 24 header bytes.
    ///
    /// - Parameters:
    ///   - bytes: exactly 24 bytes starting with the magic.
    ///   - context: for errors (at the header's offset) and limits.
    /// - Returns: the header.
    /// - Throws: `invalidFile` (`dta?`) for a wrong magic, a data offset below 24, zero channels or a zero
    ///   sample rate; `unsupportedDataFormat` (`fmt?`) for an encoding this library does not map;
    ///   `limitExceeded` for a frame larger than `ParserLimits.maxPacketBytes`.
    static func decode(_ bytes: [UInt8], _ context: borrowing ParseContext) throws(AudioStreamError) -> NeXTHeader {
        var reader = ByteReader(bytes)
        guard let magic = reader.readInteger(as: UInt32.self, endianness: .big),
            let offset = reader.readInteger(as: UInt32.self, endianness: .big),
            let size = reader.readInteger(as: UInt32.self, endianness: .big),
            let encoding = reader.readInteger(as: UInt32.self, endianness: .big),
            let rate = reader.readInteger(as: UInt32.self, endianness: .big),
            let channels = reader.readInteger(as: UInt32.self, endianness: .big)
        else {
            throw context.error(.invalidFile, structure, "header shorter than 24 bytes")
        }
        guard magic == NeXTHeader.magic else {
            throw context.error(.invalidFile, structure, "magic is not '.snd'")
        }
        guard offset >= UInt32(NeXTHeader.size) else {
            throw context.error(.invalidFile, at: context.window.position + 4, structure, "data offset is below 24")
        }
        guard let sample = NeXTEncoding(rawValue: encoding) else {
            throw context.error(
                .unsupportedDataFormat, at: context.window.position + 12, structure, "unsupported encoding")
        }
        guard rate > 0 else {
            throw context.error(.invalidFile, at: context.window.position + 16, structure, "sample rate is zero")
        }
        guard channels > 0 else {
            throw context.error(.invalidFile, at: context.window.position + 20, structure, "channel count is zero")
        }
        // Checked: channels × bits per sample must fit a packet size (UInt32 and the packet limit).
        let (frameBits, overflow) = UInt64(channels).multipliedReportingOverflow(by: UInt64(sample.bitsPerSample))
        // A packet of G.72x holds at most 8 frames: bits × channels bytes.
        let frameBytes = frameBits % 8 == 0 ? frameBits / 8 : frameBits
        guard !overflow, frameBytes <= UInt64(UInt32.max) else {
            throw context.error(.invalidFile, at: context.window.position + 20, structure, "channel count too large")
        }
        guard frameBytes <= UInt64(context.limits.maxPacketBytes) else {
            throw context.error(
                .limitExceeded, at: context.window.position + 20, structure, "frame larger than maxPacketBytes")
        }
        return NeXTHeader(
            dataOffset: offset, dataSize: size == NeXTHeader.unknownDataSize ? nil : size, encoding: encoding,
            sampleRate: rate, channels: channels,
            streamDescription: sample.streamDescription(sampleRate: Double(rate), channels: channels))
    }
}

/// The NeXT/Sun encodings this library maps to a CoreAudio data format (`audio_filehdr.h`
/// `AUDIO_FILE_ENCODING_*`, NeXT `SND_FORMAT_*`).
///
/// | value | Sun name                        | NeXT name              | data format            |
/// | ----- | ------------------------------- | ---------------------- | ---------------------- |
/// | 1     | `AUDIO_FILE_ENCODING_MULAW_8`   | `SND_FORMAT_MULAW_8`   | `ulaw`, 8 bits         |
/// | 2     | `AUDIO_FILE_ENCODING_LINEAR_8`  | `SND_FORMAT_LINEAR_8`  | `lpcm` signed 8-bit    |
/// | 3     | `AUDIO_FILE_ENCODING_LINEAR_16` | `SND_FORMAT_LINEAR_16` | `lpcm` BE signed 16    |
/// | 4     | `AUDIO_FILE_ENCODING_LINEAR_24` | `SND_FORMAT_LINEAR_24` | `lpcm` BE signed 24    |
/// | 5     | `AUDIO_FILE_ENCODING_LINEAR_32` | `SND_FORMAT_LINEAR_32` | `lpcm` BE signed 32    |
/// | 6     | `AUDIO_FILE_ENCODING_FLOAT`     | `SND_FORMAT_FLOAT`     | `lpcm` BE float 32     |
/// | 7     | `AUDIO_FILE_ENCODING_DOUBLE`    | `SND_FORMAT_DOUBLE`    | `lpcm` BE float 64     |
/// | 27    | `AUDIO_FILE_ENCODING_ALAW_8`    | `SND_FORMAT_ALAW_8`    | `alaw`, 8 bits         |
///
/// | 23    | `AUDIO_FILE_ENCODING_ADPCM_G721`   | `SND_FORMAT_G721`   | G.721 4-bit: `ms` + 0x0040 |
/// | 24    | `AUDIO_FILE_ENCODING_ADPCM_G722`   | `SND_FORMAT_G722`   | G.722 4-bit: `ms` + 0x028F |
/// | 25    | `AUDIO_FILE_ENCODING_ADPCM_G723_3` | `SND_FORMAT_G723_3` | G.723 3-bit: `ms` + 0x0014 |
/// | 26    | `AUDIO_FILE_ENCODING_ADPCM_G723_5` | `SND_FORMAT_G723_5` | G.723 5-bit: `ms` + 0x0014 |
///
/// The G.72x bitstreams get the IDs of the same codecs in WAVE (``AudioFormat/microsoftACM(tag:)``),
/// in packets of the fewest frames that fill whole bytes (`8 / gcd(8, bits × channels)` frames): 1 byte
/// of 2 frames for 4-bit mono, 3 bytes of 8 frames for 3-bit mono. The two G.723 rates share an ID
/// and differ in bytes per packet.
///
/// Every other value (0 unspecified, 8…22 NeXT DSP/indirect/compressed, …) is not mapped: the parser
/// throws `unsupportedDataFormat` (`fmt?`).
enum NeXTEncoding: UInt32 {
    case muLaw8 = 1
    case linear8 = 2
    case linear16 = 3
    case linear24 = 4
    case linear32 = 5
    case float32 = 6
    case float64 = 7
    case aLaw8 = 27
    case g721 = 23
    case g722 = 24
    case g723Bits3 = 25
    case g723Bits5 = 26

    /// Bits one sample of one channel occupies.
    var bitsPerSample: Int {
        switch self {
        case .muLaw8, .aLaw8, .linear8: return 8
        case .linear16: return 16
        case .linear24: return 24
        case .linear32, .float32: return 32
        case .float64: return 64
        case .g721, .g722: return 4
        case .g723Bits3: return 3
        case .g723Bits5: return 5
        }
    }

    /// The WAVE format tag of the same ADPCM codec, for the G.72x encodings.
    var adpcmFormatTag: UInt16? {
        switch self {
        case .g721: return 0x0040
        case .g722: return 0x028F
        case .g723Bits3, .g723Bits5: return 0x0014
        default: return nil
        }
    }

    /// The CoreAudio description of `channels` interleaved channels in this encoding.
    ///
    /// µ-law and A-law: `formatFlags` 0, 8 bits per channel, one byte per sample (CoreAudio's
    /// description of G.711 data). Linear encodings: `StreamDescription.linearPCM` with big-endian
    /// signed integers (8-bit samples are signed in `.au`) or big-endian IEEE floats.
    func streamDescription(sampleRate: Double, channels: UInt32) -> StreamDescription {
        let bits = UInt32(bitsPerSample)
        switch self {
        case .g721, .g722, .g723Bits3, .g723Bits5:
            let frameBits = UInt64(bits) * UInt64(channels)
            var a = frameBits
            var b: UInt64 = 8
            while b != 0 { (a, b) = (b, a % b) }
            let frames = 8 / a
            return StreamDescription(
                sampleRate: sampleRate, formatID: .microsoftACM(tag: adpcmFormatTag ?? 0), formatFlags: 0,
                bytesPerPacket: UInt32(truncatingIfNeeded: frameBits * frames / 8), framesPerPacket: UInt32(frames),
                bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
        case .muLaw8, .aLaw8:
            return StreamDescription(
                sampleRate: sampleRate, formatID: self == .muLaw8 ? .uLaw : .aLaw, formatFlags: 0,
                bytesPerPacket: channels, framesPerPacket: 1, bytesPerFrame: channels, channelsPerFrame: channels,
                bitsPerChannel: 8)
        case .linear8, .linear16, .linear24, .linear32:
            return .linearPCM(
                sampleRate: sampleRate, channels: channels, validBits: bits, containerBits: bits, isFloat: false,
                isBigEndian: true, isSigned: true)
        case .float32, .float64:
            return .linearPCM(
                sampleRate: sampleRate, channels: channels, validBits: bits, containerBits: bits, isFloat: true,
                isBigEndian: true)
        }
    }
}
