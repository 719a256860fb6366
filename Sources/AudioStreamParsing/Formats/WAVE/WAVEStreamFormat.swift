/// What a `fmt ` chunk means for the stream: the `StreamDescription` (ASBD), the packet geometry, the
/// channel layout, the bit rate and the magic cookie.
///
/// Every WAVE format has constant-size packets except MPEG audio, whose packets are its frames
/// (`framing`):
///
/// | format tag | format ID | packet | frames per packet |
/// | --- | --- | --- | --- |
/// | PCM (1), IEEE float (3) | `lpcm` | one frame (`nBlockAlign` bytes) | 1 |
/// | A-law (6), mu-law (7) | `alaw`, `ulaw` | one frame (`nChannels` bytes) | 1 |
/// | IMA ADPCM (0x11) | `dviIntelIMA` (0x6D730011) | one block (`nBlockAlign` bytes) | samples per block |
/// | MS ADPCM (2) | `microsoftADPCM` (0x6D730002) | one block (`nBlockAlign` bytes) | samples per block |
/// | GSM 6.10 (0x31) | `microsoftGSM` (0x6D730031) | one block (`nBlockAlign` bytes, 65) | samples per block (320) |
/// | G.721 (0x40), G.723 (0x14), G.726 (0x45, 0x64), G.722 (0x28F) | `ms` + tag (0x6D73xxxx) | one block (`nBlockAlign` bytes) | `nBlockAlign` × 8 / (bits × channels) |
/// | MPEG (0x50), MPEG Layer III (0x55) | `.mp1`, `.mp2`, `.mp3` | one MPEG frame (variable) | 384, 1152 or 576 |
/// | any other tag | `ms` + tag (0x6D73xxxx) | one block (`nBlockAlign` bytes), opaque | from the bit or byte rate when exact, else 0 |
///
/// The `ms` + tag IDs follow CoreAudio's own for the ACM codecs it names (`kAudioFormatDVIIntelIMA`
/// 0x6D730011, `kAudioFormatMicrosoftGSM` 0x6D730031): `0x6D73` ("ms") then the 16-bit format tag.
///
/// `WAVE_FORMAT_EXTENSIBLE` maps through its sub-format tag; its `wValidBitsPerSample` smaller than
/// the container makes the samples aligned high, and its channel mask becomes a channel bitmap
/// (WAVE speaker bits equal CoreAudio's `kAudioChannelBit_*`).
struct WAVEStreamFormat: Equatable {
    /// The `fmt ` chunk, for messages.
    static let fmt = WAVEFormatChunk.structure
    /// `mFormatFlags` etc. as CoreAudio's WAVE reader reports them (see audiofilestream.md §3.1).
    var streamDescription: StreamDescription
    /// Bytes per packet (> 0): the constant size, or the largest frame when `framing` is set.
    var packetSize: Int
    /// Frames per packet (0 when an opaque format does not say).
    var framesPerPacket: UInt32
    /// MPEG audio: the data holds frames of their own lengths, not constant-size packets.
    var framing: MPEGPacketFraming?
    /// The channel layout, when the file says or the channel count implies one.
    var channelLayout: ChannelLayout?
    /// Bits per second.
    var bitRate: UInt32
    /// The codec configuration a decoder needs beyond the ASBD: the `fmt ` extension of MS ADPCM
    /// (samples per block, coefficient count and pairs; the bytes FFmpeg calls extradata).
    var magicCookie: [UInt8]?
    /// Block-compressed audio (ADPCM), whose last block may be padded: the `fact` chunk's sample
    /// length can then trim it (`packetTableInfo`).
    var isBlockCompressed: Bool
    /// Oddities worked around (reported as diagnostics).
    var notes: [DiagnosticNote] = []

    /// Interprets a decoded `fmt ` chunk.
    ///
    /// - Parameters:
    ///   - format: the decoded chunk.
    ///   - endianness: the file's (big-endian in RIFX files, whose samples are big-endian too).
    /// - Throws: `invalidFile` for a zero channel count, sample rate or block align;
    ///   `unsupportedDataFormat` for other format tags and sample sizes. A PCM, float or G.711 block align
    ///   that contradicts channels × bytes per sample is noted (`inconsistentValues`) and the frame is
    ///   channels × bytes per sample, as ffprobe reads such files; ADPCM blocks are `nBlockAlign` bytes.
    init(_ format: WAVEFormatChunk, endianness: Endianness) throws(StructureError) {
        guard format.channels > 0 else { throw Self.fmt.invalid("channel count is zero") }
        guard format.samplesPerSecond > 0 else {
            throw Self.fmt.invalid("sample rate is zero")
        }
        guard format.blockAlign > 0 else { throw Self.fmt.invalid("block align is zero") }
        let tag = format.effectiveFormatTag
        switch tag {
        case WAVEFormatTag.pcm, WAVEFormatTag.ieeeFloat:
            self = try Self.linearPCM(format, isFloat: tag == WAVEFormatTag.ieeeFloat, endianness: endianness)
        case WAVEFormatTag.aLaw, WAVEFormatTag.muLaw:
            self = try Self.companded(format, formatID: tag == WAVEFormatTag.aLaw ? .aLaw : .uLaw)
        case WAVEFormatTag.imaADPCM:
            self = try Self.adpcm(
                format, formatID: .dviIntelIMA, name: "IMA ADPCM", headerBytesPerChannel: 4, endianness: endianness)
        case WAVEFormatTag.microsoftADPCM:
            self = try Self.adpcm(
                format, formatID: .microsoftADPCM, name: "MS ADPCM", headerBytesPerChannel: 7, endianness: endianness)
        case WAVEFormatTag.gsm610:
            self = try Self.gsm(format, endianness: endianness)
        case WAVEFormatTag.mpeg, WAVEFormatTag.mpegLayer3:
            self = try Self.mpeg(format, tag: tag, endianness: endianness)
        case _ where WAVEFormatTag.adpcmBitstreams.contains(tag):
            self = try Self.bitstreamADPCM(format, tag: tag)
        default:
            self = Self.opaque(format, tag: tag)
        }
        notes = format.notes + notes
        channelLayout = Self.channelLayout(format, notes: &notes)
    }

    init(
        streamDescription: StreamDescription, packetSize: Int, framesPerPacket: UInt32, bitRate: UInt32,
        magicCookie: [UInt8]? = nil, isBlockCompressed: Bool = false, framing: MPEGPacketFraming? = nil,
        notes: [DiagnosticNote] = []
    ) {
        self.streamDescription = streamDescription
        self.packetSize = packetSize
        self.framesPerPacket = framesPerPacket
        self.framing = framing
        self.bitRate = bitRate
        self.magicCookie = magicCookie
        self.isBlockCompressed = isBlockCompressed
        self.notes = notes
    }

    /// Integer PCM (8-bit unsigned, 16/24/32-bit signed) and IEEE float (32/64-bit).
    private static func linearPCM(
        _ format: WAVEFormatChunk, isFloat: Bool, endianness: Endianness
    ) throws(StructureError) -> WAVEStreamFormat {
        let bits = UInt32(format.bitsPerSample)
        guard bits > 0 else { throw fmt.invalid("bits per sample is zero") }
        let containerBits: UInt32
        let validBits: UInt32
        if let extensible = format.extensible {
            // wBitsPerSample is the container size; wValidBitsPerSample the signal bits (0: all).
            guard bits % 8 == 0 else {
                throw fmt.invalid("WAVE_FORMAT_EXTENSIBLE container of \(bits) bits is not whole bytes")
            }
            containerBits = bits
            validBits = extensible.samples == 0 ? bits : UInt32(extensible.samples)
            guard validBits <= containerBits else {
                throw fmt.invalid("\(validBits) valid bits exceed the \(containerBits)-bit container")
            }
        } else {
            // WAVEFORMATEX: samples occupy whole bytes, the signal in the high bits.
            containerBits = (bits + 7) / 8 * 8
            validBits = bits
        }
        let channels = UInt32(format.channels)
        let expectedAlign = channels * (containerBits / 8)
        var notes: [DiagnosticNote] = []
        if UInt32(format.blockAlign) != expectedAlign {
            // The frame is what the samples need, as ffprobe reads it (docs/formats/wave.md, "Block align").
            notes.append(
                DiagnosticNote(
                    .inconsistentValues, fmt,
                    "block align \(format.blockAlign) is not \(channels) channels × \(containerBits / 8) bytes; "
                        + "frames of \(expectedAlign) bytes"))
        }
        let supported: Set<UInt32> = isFloat ? [32, 64] : [8, 16, 24, 32]
        guard supported.contains(containerBits) else {
            throw fmt.unsupported("\(containerBits)-bit \(isFloat ? "float" : "integer") PCM is not supported")
        }
        // 8-bit WAVE PCM is unsigned (offset binary); wider samples are two's complement.
        let description = StreamDescription.linearPCM(
            sampleRate: Double(format.samplesPerSecond), channels: channels, validBits: validBits,
            containerBits: containerBits, isFloat: isFloat, isBigEndian: endianness == .big, isSigned: containerBits > 8
        )
        let packetSize = Int(expectedAlign)
        return WAVEStreamFormat(
            streamDescription: description, packetSize: packetSize, framesPerPacket: 1,
            bitRate: clampedBitRate(UInt64(format.samplesPerSecond) * UInt64(packetSize) * 8), notes: notes)
    }

    /// G.711 A-law and mu-law: one byte per sample, one frame per packet.
    private static func companded(
        _ format: WAVEFormatChunk, formatID: AudioFormat
    ) throws(StructureError) -> WAVEStreamFormat {
        var notes: [DiagnosticNote] = []
        if format.bitsPerSample != 8 {
            notes.append(
                DiagnosticNote(
                    .inconsistentValues, fmt.message("\(format.bitsPerSample) bits per sample for G.711; 8 assumed")))
        }
        if format.blockAlign != format.channels {
            notes.append(
                DiagnosticNote(
                    .inconsistentValues, fmt,
                    "block align \(format.blockAlign) is not \(format.channels) channels × 1 byte; "
                        + "frames of \(format.channels) bytes"))
        }
        let channels = UInt32(format.channels)
        // CoreAudio describes G.711 with 8 bits per channel and one byte per sample (inference from
        // afinfo output; the ASBD rules in audiofilestream.md §3.1 give 0 only for bit-less codecs).
        let description = StreamDescription(
            sampleRate: Double(format.samplesPerSecond), formatID: formatID, formatFlags: 0, bytesPerPacket: channels,
            framesPerPacket: 1, bytesPerFrame: channels, channelsPerFrame: channels, bitsPerChannel: 8)
        return WAVEStreamFormat(
            streamDescription: description, packetSize: Int(channels), framesPerPacket: 1,
            bitRate: clampedBitRate(UInt64(format.samplesPerSecond) * UInt64(channels) * 8), notes: notes)
    }

    /// IMA ADPCM and Microsoft ADPCM: one packet per block of `nBlockAlign` bytes.
    ///
    /// Samples per block come from the `fmt ` extension (`wSamplesPerBlock`, or the EXTENSIBLE
    /// `Samples` union), else from the block layout:
    /// - IMA ADPCM: a 4-byte header per channel (one sample), then 4-byte words per channel of
    ///   eight 4-bit samples: `(nBlockAlign − 4·ch) / (4·ch) · 8 + 1`.
    /// - MS ADPCM: a 7-byte header per channel (two samples), then 4-bit samples interleaved:
    ///   `(nBlockAlign − 7·ch) · 2 / ch + 2`.
    private static func adpcm(
        _ format: WAVEFormatChunk, formatID: AudioFormat, name: String, headerBytesPerChannel: Int,
        endianness: Endianness
    ) throws(StructureError) -> WAVEStreamFormat {
        guard format.bitsPerSample == 4 else {
            throw fmt.unsupported("\(name) with \(format.bitsPerSample) bits per sample is not supported")
        }
        let channels = Int(format.channels)
        let blockAlign = Int(format.blockAlign)
        let headerBytes = headerBytesPerChannel * channels
        guard blockAlign >= headerBytes else {
            throw fmt.invalid("block align \(blockAlign) is smaller than the \(name) block headers")
        }
        let derived =
            headerBytesPerChannel == 4
            ? (blockAlign - headerBytes) / (4 * channels) * 8 + 1
            : (blockAlign - headerBytes) * 2 / channels + 2
        var declared = 0
        if let extensible = format.extensible {
            declared = Int(extensible.samples)
        } else {
            var reader = ByteReader(format.extensionBytes)
            declared = reader.readInteger(as: UInt16.self, endianness: endianness).map { Int($0) } ?? 0
        }
        var notes: [DiagnosticNote] = []
        var samplesPerBlock = derived
        if declared > 0 {
            if declared != derived {
                notes.append(
                    DiagnosticNote(
                        .inconsistentValues,
                        fmt.message(
                            "\(declared) samples per block declared, \(derived) implied by the block align; "
                                + "the declared value is used")))
            }
            samplesPerBlock = declared
        }
        let description = StreamDescription(
            sampleRate: Double(format.samplesPerSecond), formatID: formatID, formatFlags: 0,
            bytesPerPacket: UInt32(blockAlign), framesPerPacket: UInt32(samplesPerBlock), bytesPerFrame: 0,
            channelsPerFrame: UInt32(channels), bitsPerChannel: 0)
        let computed = UInt64(format.samplesPerSecond) * UInt64(blockAlign) * 8 / UInt64(samplesPerBlock)
        let bitRate = format.averageBytesPerSecond > 0 ? UInt64(format.averageBytesPerSecond) * 8 : computed
        let cookie = formatID == .microsoftADPCM && format.extensible == nil && !format.extensionBytes.isEmpty
        return WAVEStreamFormat(
            streamDescription: description, packetSize: blockAlign, framesPerPacket: UInt32(samplesPerBlock),
            bitRate: clampedBitRate(bitRate), magicCookie: cookie ? format.extensionBytes : nil,
            isBlockCompressed: true, notes: notes)
    }

    /// The channel mask as a bitmap layout, else mono or stereo by channel count, else none.
    private static func channelLayout(_ format: WAVEFormatChunk, notes: inout [DiagnosticNote]) -> ChannelLayout? {
        if let mask = format.extensible?.channelMask, mask != 0 {
            if mask.nonzeroBitCount == Int(format.channels) {
                return ChannelLayout(tag: ChannelLayout.Tag.useChannelBitmap, bitmap: mask)
            }
            notes.append(
                DiagnosticNote(
                    .inconsistentValues,
                    fmt.message(
                        "channel mask 0x\(FourCharCode.hex(mask, digits: 8)) names \(mask.nonzeroBitCount) "
                            + "speakers for \(format.channels) channels; ignored")))
        }
        switch format.channels {
        case 1: return ChannelLayout(tag: ChannelLayout.Tag.mono)
        case 2: return ChannelLayout(tag: ChannelLayout.Tag.stereo)
        default: return nil
        }
    }

    static func clampedBitRate(_ value: UInt64) -> UInt32 { UInt32(min(value, UInt64(UInt32.max))) }
}
