/// The per-codec half of `MP4AudioSampleEntry.decode`: one function per entry family.
struct EntryDecoder {
    let description: MP4SoundDescription
    let children: MP4ChildBoxes
    let wave: MP4ChildBoxes?
    let limits: ParserLimits

    /// A configuration box from the entry, or from its QuickTime `wave` box.
    func child(_ type: UInt32) -> MP4ChildBoxes.Box? { children.first(type) ?? wave?.first(type) }

    var entryName: String { FourCharCode.string(description.format) }

    /// The format the entry really holds: its type, or `frma` inside `wave` for a generic type.
    var realFormat: UInt32 {
        if let frma = wave?.first(MP4Code.frma),
            let named = ByteReader(frma.body).peekInteger(as: UInt32.self, endianness: .big)
        {
            // Protected entries ('enca', 'drms') name the real format in frma; QuickTime repeats it.
            if named != 0 { return named }
        }
        return description.format
    }

    mutating func decode() throws(StructureError) -> MP4AudioSampleEntry {
        switch realFormat {
        case MP4Code.mp4a: return try mpeg4Audio()
        case MP4Code.mp3, MP4Code.mp3MS: return try mpegAudio(layer3Frames())
        case MP4Code.alac: return try appleLossless()
        case MP4Code.opus: return try opus()
        case MP4Code.fLaC: return try flac()
        case MP4Code.ac3, MP4Code.ec3: return try ac3()
        case MP4Code.lpcm, MP4Code.twos, MP4Code.sowt, MP4Code.none, MP4Code.raw, MP4Code.in24, MP4Code.in32,
            MP4Code.fl32, MP4Code.fl64, MP4Code.ulaw, MP4Code.alaw:
            return try pcm(realFormat)
        case MP4Code.samr, MP4Code.sawb: return try amr()
        case MP4Code.ima4: return try appleIMA4()
        default: return try opaque()
        }
    }

    // MARK: Entry fields

    /// The channel count of the entry; `invalidFile` when it is 0.
    func channels() throws(StructureError) -> UInt32 {
        guard description.channelCount > 0 else {
            throw Structure.mp4(entryName).invalid("channel count is zero")
        }
        return description.channelCount
    }

    /// The sample rate: `srat` (ISO AudioSampleEntryV1) when present, else the entry's; `invalidFile` when 0.
    func sampleRate() throws(StructureError) -> Double {
        if let srat = children.first(MP4Code.srat),
            let rate = ByteReader(srat.body).peekInteger(at: 4, as: UInt32.self, endianness: .big), rate > 0
        {
            return Double(rate)
        }
        guard description.sampleRate > 0 else {
            throw Structure.mp4(entryName).invalid("sample rate is zero")
        }
        return description.sampleRate
    }

    func entry(
        _ format: StreamDescription, cookie: [UInt8]? = nil, layers: [FormatListItem] = [], layout: ChannelLayout? = nil
    ) -> MP4AudioSampleEntry {
        MP4AudioSampleEntry(
            format: description.format, streamDescription: format, magicCookie: cookie, formatList: layers,
            channelLayout: layout, averageBitRate: nil, maximumBitRate: nil)
    }

    static func compressed(
        _ rate: Double, _ format: AudioFormat, frames: UInt32, _ channels: UInt32
    ) -> StreamDescription {
        StreamDescription(
            sampleRate: rate, formatID: format, formatFlags: 0, bytesPerPacket: 0, framesPerPacket: frames,
            bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0)
    }

    // MARK: mp4a

    /// `mp4a` + `esds`: the objectTypeIndication picks the codec (14496-1 Table 5, mp4ra.org).
    func mpeg4Audio() throws(StructureError) -> MP4AudioSampleEntry {
        guard let esds = child(MP4Code.esds) else {
            throw Structure.mp4(entryName).invalid("no esds box")
        }
        let es = try ESDescriptor.decode(esdsBody: esds.body)
        let config = es.decoderConfig
        var result: MP4AudioSampleEntry
        switch config.objectTypeIndication {
        case 0x40, 0x66, 0x67, 0x68:
            result = try advancedAudioCoding(config, cookie: es.bytes)
        case 0x69, 0x6B:
            // MPEG-2 (13818-3) or MPEG-1 (11172-3) audio; the layer is not signalled. MP3 is what
            // these hold in practice (ffmpeg and Apple map both to MP3); 0x69 is the low-rate extension.
            result = try mpegAudio(layer3Frames())
        case 0xA5:
            result = entry(Self.compressed(try sampleRate(), .ac3, frames: 1536, try channels()))
        case 0xA6:
            result = entry(Self.compressed(try sampleRate(), .enhancedAC3, frames: 1536, try channels()))
        case 0xDD:
            // Vorbis (mp4ra.org): the DecoderSpecificInfo is the three Xiph-laced headers.
            guard let info = config.decoderSpecificInfo else {
                throw Structure.mp4("esds").invalid("Vorbis without a DecoderSpecificInfo")
            }
            let headers = try VorbisXiphLacedHeaders.decode(info[...], Structure.mp4("esds"))
            let id = headers.identification
            // Packet durations vary (short and long blocks): the stts says them (framesPerPacket 0).
            result = entry(
                id.streamDescription, cookie: headers.magicCookie,
                layout: VorbisChannelLayout.layout(channels: id.channels))
        default:
            let oti = FourCharCode.hex(UInt32(config.objectTypeIndication), digits: 2)
            throw Structure.mp4("esds").unsupported("objectTypeIndication 0x\(oti) is not supported")
        }
        if config.avgBitrate > 0 { result.averageBitRate = config.avgBitrate }
        if config.maxBitrate > 0 { result.maximumBitRate = config.maxBitrate }
        return result
    }

    /// AAC (and other MPEG-4 audio object types) from the AudioSpecificConfig in the DecoderSpecificInfo.
    func advancedAudioCoding(
        _ config: ESDescriptor.DecoderConfig, cookie: [UInt8]
    ) throws(StructureError) -> MP4AudioSampleEntry {
        guard let info = config.decoderSpecificInfo else {
            throw Structure.mp4("esds").invalid("no DecoderSpecificInfo (AudioSpecificConfig)")
        }
        // MPEG-2 AAC (13818-7): the DecoderSpecificInfo is an AudioSpecificConfig as well (14496-14 §3.1.2),
        // with the profile given by the objectTypeIndication (0x66 Main, 0x67 LC, 0x68 SSR).
        var notes: [DiagnosticNote] = []
        guard var asc = try? AudioSpecificConfig.decode(info, notes: &notes) else {
            throw Structure.mp4("esds").invalid("AudioSpecificConfig does not decode")
        }
        if config.objectTypeIndication != 0x40 { asc.audioObjectType = Int(config.objectTypeIndication) - 0x65 }
        if asc.channelCount == nil, description.channelCount > 0 { asc.channelCount = Int(description.channelCount) }
        guard let format = AACStreamFormat(asc) else {
            throw Structure.mp4("esds").unsupported(
                "MPEG-4 audioObjectType \(asc.audioObjectType) is not supported")
        }
        var result = entry(
            format.streamDescription, cookie: cookie, layers: format.layeredFormatList, layout: format.channelLayout)
        result.notes = notes
        result.audioSpecificConfig = asc
        return result
    }

    // MARK: MPEG audio

    /// Layer III frames per packet at the entry's rate: 1152 (MPEG-1), 576 (MPEG-2/2.5, below 32 kHz).
    func layer3Frames() throws(StructureError) -> UInt32 { try sampleRate() < 32000 ? 576 : 1152 }

    func mpegAudio(_ frames: UInt32) throws(StructureError) -> MP4AudioSampleEntry {
        entry(Self.compressed(try sampleRate(), .mpegLayer3, frames: frames, try channels()))
    }

    // MARK: alac

    func appleLossless() throws(StructureError) -> MP4AudioSampleEntry {
        guard let box = child(MP4Code.alac) else {
            throw Structure.mp4("alac").invalid("no alac configuration box")
        }
        let config = try ALACSpecificConfig.decode(alacBoxBody: box.body)
        var result = entry(config.streamDescription, cookie: config.bytes)
        if config.avgBitRate > 0 { result.averageBitRate = config.avgBitRate }
        return result
    }

    // MARK: Opus

    func opus() throws(StructureError) -> MP4AudioSampleEntry {
        guard let box = child(MP4Code.dOps) else {
            throw Structure.mp4("Opus").invalid("no dOps box")
        }
        let head = try OpusSpecificBox.decode(box.body).opusHead
        // Opus always decodes at 48 kHz (RFC 6716 §2); packets last 2.5–120 ms, so frames vary.
        return entry(head.streamDescription, cookie: head.rawBytes)
    }

    // MARK: FLAC

    func flac() throws(StructureError) -> MP4AudioSampleEntry {
        guard let box = child(MP4Code.dfLa) else {
            throw Structure.mp4("fLaC").invalid("no dfLa box")
        }
        let dfLa = try FLACSpecificBox.decode(box.body)
        return entry(dfLa.streamInfo.streamDescription, cookie: dfLa.bytes)
    }

    // MARK: AC-3, E-AC-3

    func ac3() throws(StructureError) -> MP4AudioSampleEntry {
        let isEnhanced = realFormat == MP4Code.ec3
        var specific: (sampleRate: UInt32, channelCount: UInt32, bitRateKbps: UInt32)?
        if isEnhanced, let box = child(MP4Code.dec3) {
            let dec3 = try EC3SpecificBox.decode(box.body)
            specific = (dec3.sampleRate, dec3.channelCount, dec3.dataRate)
        } else if !isEnhanced, let box = child(MP4Code.dac3) {
            let dac3 = try AC3SpecificBox.decode(box.body)
            specific = (dac3.sampleRate, dac3.channelCount, dac3.bitRateKbps)
        }
        var rate = Double(specific?.sampleRate ?? 0)
        if specific == nil { rate = try sampleRate() }
        var channels = specific?.channelCount ?? 0
        if specific == nil { channels = try self.channels() }
        var result = entry(Self.compressed(rate, isEnhanced ? .enhancedAC3 : .ac3, frames: 1536, channels))
        if let specific, specific.bitRateKbps > 0 {
            let rate = specific.bitRateKbps * 1000
            result.averageBitRate = rate
            if !isEnhanced { result.maximumBitRate = rate }
        }
        return result
    }

    // MARK: AMR, IMA4, opaque entries

    /// `samr`, `sawb` (3GPP TS 26.244 §6.5): AMR or AMR-WB frames in the storage format's frame layout
    /// (header byte + bits, RFC 4867 §5.3); `damr` says how many frames a sample holds.
    ///
    /// ```
    ///  damr (AMRSpecificBox)  0 4 vendor | 4 1 decoder_version | 5 2 mode_set | 7 1 mode_change_period
    ///                         8 1 frames_per_sample
    /// ```
    func amr() throws(StructureError) -> MP4AudioSampleEntry {
        let isWideband = realFormat == MP4Code.sawb
        var framesPerSample: UInt32 = 0
        if let damr = child(MP4Code.damr),
            let count = ByteReader(damr.body).peekInteger(at: 8, as: UInt8.self, endianness: .big)
        {
            framesPerSample = UInt32(count)
        }
        let rate: Double = isWideband ? 16_000 : 8_000
        let frames = framesPerSample * (isWideband ? 320 : 160)
        return entry(Self.compressed(rate, isWideband ? .amrWB : .amr, frames: frames, 1))
    }

    /// `ima4` (QuickTime IMA 4:1 ADPCM): packets of 34 bytes per channel (a 2-byte header and 32 bytes of
    /// 4-bit samples) holding 64 frames.
    func appleIMA4() throws(StructureError) -> MP4AudioSampleEntry {
        let channels = try channels()
        guard Int(channels) * 34 <= limits.maxPacketBytes else {
            throw Structure.mp4(entryName).limit("\(channels) channels exceed maxPacketBytes")
        }
        return entry(
            StreamDescription(
                sampleRate: try sampleRate(), formatID: .appleIMA4, formatFlags: 0, bytesPerPacket: 34 * channels,
                framesPerPacket: 64, bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0))
    }

    /// Any other sample entry: an opaque track whose packets are the samples as the tables give them, its
    /// format ID the entry type, with a diagnostic (docs/formats/mp4.md, "Sample entries").
    func opaque() throws(StructureError) -> MP4AudioSampleEntry {
        var result = entry(
            Self.compressed(try sampleRate(), AudioFormat(rawValue: realFormat), frames: 0, try channels()))
        result.notes.append(
            DiagnosticNote(
                .unknownStructure, Structure.mp4("stsd"),
                "sample entry '\(FourCharCode.string(realFormat))' is not decoded; its samples are delivered as "
                    + "opaque packets"))
        return result
    }

    // MARK: PCM

    /// The PCM family and the companded formats (QuickTime File Format, "Sound sample description",
    /// table of audio data formats; `enda` in `wave`: 1 = little-endian).
    func pcm(_ format: UInt32) throws(StructureError) -> MP4AudioSampleEntry {
        let rate = try sampleRate()
        let channels = try channels()
        // Safe: at most 8 bytes per sample; a count whose frame would not fit 32 bits is refused here,
        // before StreamDescription.linearPCM multiplies (version 2 carries a 32-bit channel count).
        guard Int(channels) * 8 <= min(limits.maxPacketBytes, Int(UInt32.max)) else {
            throw Structure.mp4(entryName).limit("\(channels) channels exceed maxPacketBytes")
        }
        var littleEndian = false
        if let enda = child(MP4Code.enda), let first = enda.body.first, enda.body.count >= 2 {
            littleEndian = enda.body[enda.body.startIndex + 1] & 1 == 1 || first & 1 == 1
        }
        func linear(
            _ bits: UInt32, float: Bool = false, bigEndian: Bool = true, signed: Bool = true
        ) -> StreamDescription {
            .linearPCM(
                sampleRate: rate, channels: channels, validBits: bits, containerBits: (bits + 7) / 8 * 8,
                isFloat: float, isBigEndian: bigEndian, isSigned: signed)
        }
        let result: StreamDescription
        switch format {
        case MP4Code.lpcm:
            result = try lpcm(rate: rate, channels: channels)
        case MP4Code.twos, MP4Code.none, MP4Code.sowt:
            let bits = description.sampleSize
            guard (1...32).contains(bits) else {
                throw Structure.mp4(entryName).invalid("sample size \(bits) is outside 1…32")
            }
            result = linear(bits, bigEndian: format != MP4Code.sowt && !littleEndian)
        case MP4Code.raw: result = linear(8, signed: false)
        case MP4Code.in24: result = linear(24, bigEndian: !littleEndian)
        case MP4Code.in32: result = linear(32, bigEndian: !littleEndian)
        case MP4Code.fl32: result = linear(32, float: true, bigEndian: !littleEndian)
        case MP4Code.fl64: result = linear(64, float: true, bigEndian: !littleEndian)
        default:
            // ulaw, alaw: 8 bits per sample, one frame per packet.
            result = StreamDescription(
                sampleRate: rate, formatID: format == MP4Code.ulaw ? .uLaw : .aLaw, formatFlags: 0,
                bytesPerPacket: channels, framesPerPacket: 1, bytesPerFrame: channels, channelsPerFrame: channels,
                bitsPerChannel: 8)
        }
        guard Int(result.bytesPerPacket) <= limits.maxPacketBytes else {
            throw Structure.mp4(entryName).limit("PCM frame larger than maxPacketBytes")
        }
        return entry(result)
    }

    /// Version 2 `lpcm`: formatSpecificFlags are CoreAudio's LPCM flags, constBytesPerAudioPacket is
    /// the frame size and constLPCMFramesPerAudioPacket 1.
    func lpcm(rate: Double, channels: UInt32) throws(StructureError) -> StreamDescription {
        guard let v2 = description.version2 else {
            throw Structure.mp4("lpcm").invalid("not a version 2 sound description")
        }
        let bits = description.sampleSize
        let (minimum, overflow) = channels.multipliedReportingOverflow(by: (bits + 7) / 8)
        guard bits >= 1, bits <= 64, !overflow, v2.bytesPerPacket >= minimum, v2.framesPerPacket == 1 else {
            throw Structure.mp4("lpcm").invalid(
                "\(bits) bits, \(channels) channels and \(v2.bytesPerPacket) bytes per packet do not fit")
        }
        return StreamDescription(
            sampleRate: rate, formatID: .linearPCM, formatFlags: v2.flags, bytesPerPacket: v2.bytesPerPacket,
            framesPerPacket: 1, bytesPerFrame: v2.bytesPerPacket, channelsPerFrame: channels, bitsPerChannel: bits)
    }
}
