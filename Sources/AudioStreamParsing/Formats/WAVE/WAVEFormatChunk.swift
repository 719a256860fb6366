/// WAVE format tags (`wFormatTag`, Microsoft `mmreg.h`) this parser knows by name.
enum WAVEFormatTag {
    /// `WAVE_FORMAT_PCM`
    static let pcm: UInt16 = 0x0001
    /// `WAVE_FORMAT_ADPCM` (Microsoft ADPCM)
    static let microsoftADPCM: UInt16 = 0x0002
    /// `WAVE_FORMAT_IEEE_FLOAT`
    static let ieeeFloat: UInt16 = 0x0003
    /// `WAVE_FORMAT_ALAW`
    static let aLaw: UInt16 = 0x0006
    /// `WAVE_FORMAT_MULAW`
    static let muLaw: UInt16 = 0x0007
    /// `WAVE_FORMAT_DVI_ADPCM` / `WAVE_FORMAT_IMA_ADPCM`
    static let imaADPCM: UInt16 = 0x0011
    /// `WAVE_FORMAT_G723_ADPCM` (Antex)
    static let g723ADPCM: UInt16 = 0x0014
    /// `WAVE_FORMAT_GSM610`
    static let gsm610: UInt16 = 0x0031
    /// `WAVE_FORMAT_G721_ADPCM` (Antex)
    static let g721ADPCM: UInt16 = 0x0040
    /// `WAVE_FORMAT_G726_ADPCM` as FFmpeg writes it (registered to Dictaphone as `WAVE_FORMAT_DICTAPHONE_G726`)
    static let g726FFmpeg: UInt16 = 0x0045
    /// `WAVE_FORMAT_G726_ADPCM` (Dialogic)
    static let g726ADPCM: UInt16 = 0x0064
    /// `WAVE_FORMAT_G722_ADPCM`
    static let g722ADPCM: UInt16 = 0x028F
    /// `WAVE_FORMAT_MPEG`
    static let mpeg: UInt16 = 0x0050
    /// `WAVE_FORMAT_MPEGLAYER3`
    static let mpegLayer3: UInt16 = 0x0055
    /// `WAVE_FORMAT_EXTENSIBLE`
    static let extensible: UInt16 = 0xFFFE

    /// The ITU-T ADPCM bitstream codecs: `wBitsPerSample` bits per sample, no block headers.
    static let adpcmBitstreams: Set<UInt16> = [g723ADPCM, g721ADPCM, g726FFmpeg, g726ADPCM, g722ADPCM]

    /// `0x0055 (MPEG Layer III)`, for messages.
    static func describe(_ tag: UInt16) -> String {
        let names: [UInt16: String] = [
            pcm: "PCM", microsoftADPCM: "Microsoft ADPCM", ieeeFloat: "IEEE float", aLaw: "A-law", muLaw: "mu-law",
            imaADPCM: "IMA ADPCM", gsm610: "GSM 6.10", mpeg: "MPEG", mpegLayer3: "MPEG Layer III",
            g723ADPCM: "G.723 ADPCM", g721ADPCM: "G.721 ADPCM", g726FFmpeg: "G.726 ADPCM", g726ADPCM: "G.726 ADPCM",
            g722ADPCM: "G.722 ADPCM",
            extensible: "WAVE_FORMAT_EXTENSIBLE",
        ]
        let hex = "0x" + FourCharCode.hex(UInt32(tag), digits: 4)
        return names[tag].map { "\(hex) (\($0))" } ?? hex
    }
}

/// The `fmt ` chunk: a `WAVEFORMATEX`, possibly extended to `WAVEFORMATEXTENSIBLE`.
///
/// ```
///  offset  size  field                 (little-endian; big-endian in RIFX)
///  0       2     wFormatTag            WAVEFormatTag; 0xFFFE = WAVE_FORMAT_EXTENSIBLE
///  2       2     nChannels
///  4       4     nSamplesPerSec
///  8       4     nAvgBytesPerSec
///  12      2     nBlockAlign           bytes per frame (PCM) or per block (ADPCM)
///  14      2     wBitsPerSample        container bits in EXTENSIBLE
///  16      2     cbSize                extension bytes that follow (absent in a 16-byte fmt)
///  18      cb    extension:
///                  IMA / MS ADPCM: wSamplesPerBlock (2), MS ADPCM: wNumCoef (2), coefficient pairs
///                  EXTENSIBLE (cbSize 22):
///  18      2       Samples             wValidBitsPerSample (PCM) or wSamplesPerBlock (ADPCM)
///  20      4       dwChannelMask       speaker positions (SPEAKER_FRONT_LEFT = bit 0, …)
///  24      16      SubFormat           GUID xxxxxxxx-0000-0010-8000-00AA00389B71, where the low
///                                      16 bits of the first field are the format tag
/// ```
///
/// References: Microsoft "Multimedia Programming Interface and Data Specifications 1.0" (WAVE
/// `fmt ` chunk); Microsoft "Multiple Channel Audio Data and WAVE Files" (WAVEFORMATEXTENSIBLE,
/// KSDATAFORMAT_SUBTYPE_* GUIDs); Microsoft "New Multimedia Data Types and Data Techniques" (1994,
/// IMA and MS ADPCM `fmt ` extensions).
struct WAVEFormatChunk: Equatable {
    /// The chunk, for messages.
    static let structure = Structure("wave", "fmt ")
    /// The smallest `fmt ` body: a `PCMWAVEFORMAT` (16 bytes).
    static let minimumByteCount = 16
    /// The size of a `WAVEFORMATEXTENSIBLE` body.
    static let extensibleByteCount = 40
    /// The fixed tail of every `KSDATAFORMAT_SUBTYPE_*` GUID built from a format tag
    /// (bytes 8–15: 80 00 00 AA 00 38 9B 71).
    static let subFormatGUIDTail: [UInt8] = [0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    var formatTag: UInt16
    var channels: UInt16
    var samplesPerSecond: UInt32
    var averageBytesPerSecond: UInt32
    var blockAlign: UInt16
    var bitsPerSample: UInt16
    /// The `cbSize` extension bytes that are present (none for a 16-byte `fmt `).
    var extensionBytes: [UInt8]
    /// The `WAVE_FORMAT_EXTENSIBLE` fields, when `formatTag` is 0xFFFE.
    var extensible: Extensible?
    /// Oddities worked around while decoding (reported as diagnostics).
    var notes: [DiagnosticNote] = []

    /// The `WAVEFORMATEXTENSIBLE` extension.
    struct Extensible: Equatable {
        /// `wValidBitsPerSample` for PCM and float, `wSamplesPerBlock` for compressed sub-formats.
        var samples: UInt16
        /// `dwChannelMask`.
        var channelMask: UInt32
        /// The format tag the `SubFormat` GUID encodes.
        var subFormatTag: UInt16
    }

    /// The format tag that describes the audio: the sub-format's for `WAVE_FORMAT_EXTENSIBLE`.
    var effectiveFormatTag: UInt16 { extensible?.subFormatTag ?? formatTag }

    /// Decodes a whole `fmt ` body.
    ///
    /// - Parameters:
    ///   - body: the chunk body (without header and pad byte).
    ///   - endianness: the file's (big-endian in RIFX files).
    /// - Throws: `invalidFile` when the body is too short for its structure; `unsupportedDataFormat`
    ///   when a `WAVE_FORMAT_EXTENSIBLE` sub-format GUID is not one built from a format tag.
    static func decode(_ body: [UInt8], endianness: Endianness) throws(StructureError) -> WAVEFormatChunk {
        var reader = ByteReader(body)
        guard body.count >= minimumByteCount,
            let formatTag = reader.readInteger(as: UInt16.self, endianness: endianness),
            let channels = reader.readInteger(as: UInt16.self, endianness: endianness),
            let rate = reader.readInteger(as: UInt32.self, endianness: endianness),
            let averageBytes = reader.readInteger(as: UInt32.self, endianness: endianness),
            let blockAlign = reader.readInteger(as: UInt16.self, endianness: endianness),
            let bits = reader.readInteger(as: UInt16.self, endianness: endianness)
        else {
            throw structure.invalid("chunk is \(body.count) bytes, shorter than 16")
        }
        var chunk = WAVEFormatChunk(
            formatTag: formatTag, channels: channels, samplesPerSecond: rate, averageBytesPerSecond: averageBytes,
            blockAlign: blockAlign, bitsPerSample: bits, extensionBytes: [], extensible: nil)
        if let cbSize = reader.readInteger(as: UInt16.self, endianness: endianness) {
            let present = min(Int(cbSize), reader.remaining)
            if present < Int(cbSize) {
                chunk.notes.append(
                    DiagnosticNote(
                        .sizeCorrected,
                        structure.message("cbSize \(cbSize) exceeds the chunk; \(present) extension bytes read")))
            }
            // Safe: `present <= reader.remaining`.
            chunk.extensionBytes = Array(reader.readBytes(present) ?? [])
        }
        if formatTag == WAVEFormatTag.extensible {
            chunk.extensible = try decodeExtensible(chunk.extensionBytes, endianness: endianness)
        }
        return chunk
    }

    /// Decodes the 22-byte `WAVEFORMATEXTENSIBLE` extension and validates its `SubFormat` GUID.
    private static func decodeExtensible(_ bytes: [UInt8], endianness: Endianness) throws(StructureError) -> Extensible
    {
        var reader = ByteReader(bytes)
        guard let samples = reader.readInteger(as: UInt16.self, endianness: endianness),
            let mask = reader.readInteger(as: UInt32.self, endianness: endianness),
            let data1 = reader.readInteger(as: UInt32.self, endianness: endianness),
            let data2 = reader.readInteger(as: UInt16.self, endianness: endianness),
            let data3 = reader.readInteger(as: UInt16.self, endianness: endianness),
            let data4 = reader.readBytes(8)
        else {
            throw structure.invalid("WAVE_FORMAT_EXTENSIBLE needs a 22-byte extension, found \(bytes.count)")
        }
        guard data1 >> 16 == 0, data2 == 0x0000, data3 == 0x0010, data4.elementsEqual(subFormatGUIDTail) else {
            let guid =
                FourCharCode.hex(data1, digits: 8) + "-" + FourCharCode.hex(UInt32(data2), digits: 4) + "-"
                + FourCharCode.hex(UInt32(data3), digits: 4) + "-"
                + data4.map { FourCharCode.hex(UInt32($0), digits: 2) }.joined()
            throw structure.unsupported("WAVE_FORMAT_EXTENSIBLE sub-format \(guid) is not supported")
        }
        return Extensible(samples: samples, channelMask: mask, subFormatTag: UInt16(data1 & 0xFFFF))
    }
}
