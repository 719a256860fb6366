/// The compressed WAVE formats beyond PCM, G.711 and the IMA/MS ADPCM blocks: GSM 6.10, MPEG audio,
/// the ITU-T ADPCM bitstreams, and any other format tag as opaque blocks.
extension WAVEStreamFormat {
    /// GSM 6.10 (Microsoft's packing, tag 0x0031): blocks of `nBlockAlign` bytes (65: two 260-bit GSM
    /// frames) of `wSamplesPerBlock` samples (320), the first two bytes of the `fmt ` extension.
    ///
    /// ```
    ///  fmt extension (cbSize 2)   0  2  wSamplesPerBlock   320 for 65-byte blocks
    /// ```
    static func gsm(_ format: WAVEFormatChunk, endianness: Endianness) throws(StructureError) -> WAVEStreamFormat {
        var reader = ByteReader(format.extensionBytes)
        let declared = reader.readInteger(as: UInt16.self, endianness: endianness).map { UInt32($0) } ?? 0
        // Two 33-byte GSM frames of 160 samples share 65 bytes (the odd nibbles packed together).
        let implied = UInt32(format.blockAlign) * 320 / 65
        var notes: [DiagnosticNote] = []
        var samples = declared
        if declared == 0 {
            samples = implied
            if samples == 0 { throw fmt.invalid("GSM 6.10 block align \(format.blockAlign) holds no samples") }
            notes.append(
                DiagnosticNote(
                    .inconsistentValues, fmt.message("GSM 6.10 without wSamplesPerBlock; \(samples) implied")))
        }
        return block(format, formatID: .microsoftGSM, samplesPerBlock: samples, notes: notes)
    }

    /// The ITU-T ADPCM bitstreams (G.721, G.722, G.723, G.726): `wBitsPerSample` bits per sample and
    /// channel, packed without block headers; a packet is one `nBlockAlign` block.
    static func bitstreamADPCM(_ format: WAVEFormatChunk, tag: UInt16) throws(StructureError) -> WAVEStreamFormat {
        let bits = UInt32(format.bitsPerSample)
        guard (2...8).contains(bits) else {
            throw fmt.unsupported(
                "\(WAVEFormatTag.describe(tag)) with \(format.bitsPerSample) bits per sample is not supported")
        }
        let blockBits = UInt32(format.blockAlign) * 8
        let perFrame = bits * UInt32(format.channels)
        var notes: [DiagnosticNote] = []
        if blockBits % perFrame != 0 {
            notes.append(
                DiagnosticNote(
                    .inconsistentValues,
                    fmt.message(
                        "block align \(format.blockAlign) is not a whole number of \(bits)-bit samples × "
                            + "\(format.channels) channels; the last bits of each block are ignored")))
        }
        guard blockBits / perFrame > 0 else {
            throw fmt.invalid("block align \(format.blockAlign) holds no \(bits)-bit sample frame")
        }
        return block(format, formatID: .microsoftACM(tag: tag), samplesPerBlock: blockBits / perFrame, notes: notes)
    }

    /// Any other format tag: opaque blocks of `nBlockAlign` bytes. The frames per block come from
    /// `wBitsPerSample` when it divides the block, else from `nAvgBytesPerSec` when the block is a
    /// whole number of sample periods, else they are unknown (0).
    static func opaque(_ format: WAVEFormatChunk, tag: UInt16) -> WAVEStreamFormat {
        let blockAlign = UInt64(format.blockAlign)
        let perFrame = UInt64(format.bitsPerSample) * UInt64(format.channels)
        var samples: UInt64 = 0
        if perFrame > 0, blockAlign * 8 % perFrame == 0 {
            samples = blockAlign * 8 / perFrame
        } else if format.averageBytesPerSecond > 0,
            blockAlign * UInt64(format.samplesPerSecond) % UInt64(format.averageBytesPerSecond) == 0
        {
            samples = blockAlign * UInt64(format.samplesPerSecond) / UInt64(format.averageBytesPerSecond)
        }
        let duration = samples > 0 ? "\(samples) frames each" : "of an unknown duration"
        let note = DiagnosticNote(
            .unknownStructure,
            fmt.message(
                "format tag \(WAVEFormatTag.describe(tag)) is not decoded; its data is delivered as opaque "
                    + "\(format.blockAlign)-byte packets \(duration)"))
        return block(
            format, formatID: .microsoftACM(tag: tag), samplesPerBlock: UInt32(clamping: samples), isOpaque: true,
            notes: [note])
    }

    /// A block codec: one packet per `nBlockAlign` block of `samplesPerBlock` frames (0: unknown).
    private static func block(
        _ format: WAVEFormatChunk, formatID: AudioFormat, samplesPerBlock: UInt32, isOpaque: Bool = false,
        notes: [DiagnosticNote]
    ) -> WAVEStreamFormat {
        let blockAlign = UInt32(format.blockAlign)
        let description = StreamDescription(
            sampleRate: Double(format.samplesPerSecond), formatID: formatID, formatFlags: 0,
            bytesPerPacket: blockAlign, framesPerPacket: samplesPerBlock, bytesPerFrame: 0,
            channelsPerFrame: UInt32(format.channels), bitsPerChannel: 0)
        var bitRate = UInt64(format.averageBytesPerSecond) * 8
        if samplesPerBlock > 0 {
            bitRate = UInt64(format.samplesPerSecond) * UInt64(blockAlign) * 8 / UInt64(samplesPerBlock)
        }
        // An opaque format's fmt extension is its codec configuration, as FFmpeg passes it on.
        let cookie = isOpaque && !format.extensionBytes.isEmpty ? format.extensionBytes : nil
        return WAVEStreamFormat(
            streamDescription: description, packetSize: Int(blockAlign), framesPerPacket: samplesPerBlock,
            bitRate: clampedBitRate(bitRate), magicCookie: cookie, isBlockCompressed: samplesPerBlock > 0,
            notes: notes)
    }

    /// MPEG audio (tag 0x0050 for Layers I and II, 0x0055 for Layer III): the packets are the frames
    /// in the data (``MPEGPacketFraming``), checked against the layer and sampling frequency the
    /// `fmt ` chunk declares.
    ///
    /// ```
    ///  MPEG1WAVEFORMAT extension (0x0050, cbSize 22)
    ///  0  2  fwHeadLayer     1 = Layer I, 2 = Layer II, 4 = Layer III
    ///  2  4  dwHeadBitrate
    ///  …     fwHeadMode, fwHeadModeExt, wHeadEmphasis, fwHeadFlags, dwPTSLow, dwPTSHigh
    ///
    ///  MPEGLAYER3WAVEFORMAT extension (0x0055, cbSize 12)
    ///  0  2  wID             1 = MPEGLAYER3_ID_MPEG
    ///  2  4  fdwFlags        padding
    ///  6  2  nBlockSize      bytes per block (a frame, for constant bit rates)
    ///  8  2  nFramesPerBlock
    /// 10  2  nCodecDelay
    /// ```
    static func mpeg(_ format: WAVEFormatChunk, tag: UInt16, endianness: Endianness) throws(StructureError)
        -> WAVEStreamFormat
    {
        var layer = 3
        var notes: [DiagnosticNote] = []
        if tag == WAVEFormatTag.mpeg {
            var reader = ByteReader(format.extensionBytes)
            switch reader.readInteger(as: UInt16.self, endianness: endianness) {
            case 1: layer = 1
            case 4: layer = 3
            case 2: layer = 2
            default:
                layer = 2
                notes.append(
                    DiagnosticNote(
                        .inconsistentValues, fmt.message("MPEG format without a known fwHeadLayer; Layer II assumed")))
            }
        }
        let rate = format.samplesPerSecond
        let isMPEG1 = MPEGFrameHeader.mpeg1SampleRates.contains(rate)
        let framesPerPacket: UInt32 = layer == 1 ? 384 : (layer == 3 && !isMPEG1 ? 576 : 1152)
        // The largest frame: the top bit rate of the layer with a padding slot (11172-3 §2.4.3.1).
        let largest = MPEGFrameHeader.largestFrameLength(layer: layer, sampleRate: rate)
        let formatID: AudioFormat = layer == 1 ? .mpegLayer1 : (layer == 2 ? .mpegLayer2 : .mpegLayer3)
        let description = StreamDescription(
            sampleRate: Double(rate), formatID: formatID, formatFlags: 0, bytesPerPacket: 0,
            framesPerPacket: framesPerPacket, bytesPerFrame: 0, channelsPerFrame: UInt32(format.channels),
            bitsPerChannel: 0)
        return WAVEStreamFormat(
            streamDescription: description, packetSize: largest, framesPerPacket: framesPerPacket,
            bitRate: clampedBitRate(UInt64(format.averageBytesPerSecond) * 8),
            framing: MPEGPacketFraming(layer: layer, sampleRate: rate), notes: notes)
    }
}
