#if !FUZZ_SINGLE_MODULE
@testable import AudioStreamParsing
#endif

/// The codec-header and header-chunk decoders: the first byte chooses the decoder (`decoders`), the
/// rest is the body it is handed. Checks: no trap; decoded values are within their documented ranges
/// where the decoder promises one.
enum FuzzCodecHeaders {
    /// Decoder names by selector (`first byte % count`); `Fuzz/seeds.py` writes seeds with these bytes.
    static let decoders = [
        "AudioSpecificConfig", "esds", "stsd-entry", "dOps", "alac", "dac3/dec3", "OpusHead", "OggFLAC",
        "VorbisIdentification", "VorbisSetup", "VorbisMagicCookie", "CAF-chan", "CAF-desc", "CAF-pakt",
        "FLAC-STREAMINFO", "FLAC-SEEKTABLE", "FLAC-CUESHEET", "Xing/VBRI/LAME", "PCE", "WAVE-fmt",
        "AIFF-COMM", "NeXT-header", "RF64-ds64/fact", "ADTS-header",
    ]

    static func run(_ input: [UInt8]) throws {
        guard let first = input.first else { return }
        let selector = Int(first) % decoders.count
        let flag = first & 0x80 != 0
        let body = Array(input[1...])
        let limits = FuzzHarness.limits
        switch selector {
        case 0:
            if let asc = try? AudioSpecificConfig.decode(body) {
                _ = asc.formatListLayers()
            }
            _ = AudioSpecificConfig(magicCookie: body)
        case 1:
            if let es = try? ESDescriptor.decode(esdsBody: body[...]) {
                _ = ESDescriptor.decoderSpecificInfo(in: es.bytes)
            }
            _ = ESDescriptor.decoderSpecificInfo(in: body)
        case 2:
            _ = try? MP4AudioSampleEntry.decode(body[...], isQuickTime: flag, limits: limits)
        case 3:
            _ = (try? OpusSpecificBox.decode(body[...]))?.opusHead
        case 4:
            _ = (try? ALACSpecificConfig.decode(alacBoxBody: body[...]))?.streamDescription
        case 5:
            if flag {
                _ = (try? EC3SpecificBox.decode(body[...]))?.channelCount
            } else {
                _ = (try? AC3SpecificBox.decode(body[...]))?.bitRateKbps
            }
        case 6:
            _ = try? OpusHead.decode(body)
            _ = OpusPacket.frames(toc: body.first, second: body.dropFirst().first)
        case 7:
            _ = try? OggFLACMappingHeader.decode(body)
            _ = FLACFrameBlockSize.of(body)
        case 8:
            _ = try? VorbisIdentificationHeader.decode(body[...])
        case 9:
            let channels = 1 + Int(first >> 5)
            if let setup = try? VorbisSetupHeader.decode(body[...], channels: channels) { _ = setup }
        case 10:
            if let packets = VorbisMagicCookie.split(body[...]) {
                if packets.count >= 3, let id = try? VorbisIdentificationHeader.decode(packets[0]),
                    let setup = try? VorbisSetupHeader.decode(packets[2], channels: id.channels)
                {
                    _ = VorbisPacketDuration(identification: id, setup: setup)
                }
            }
        case 11:
            if let layout = ChannelLayoutChunk.decode(body) { _ = layout.channelDescriptions.count }
        case 12:
            if let desc = AudioDescriptionChunk.decode(body) { _ = try? desc.streamDescription() }
        case 13:
            if let pakt = PacketTableChunk.decodeHeader(body) {
                _ = pakt.packetTableInfo(totalFrames: Int64(body.count) << 20)
            }
        case 14:
            _ = try? FLACStreamInfo.decode(body)
            _ = try? FLACSpecificBox.decode(body[...])
        case 15:
            let table = FLACSeekTable.decode(body, maxPoints: limits.maxPacketTableEntries)
            _ = table.point(atOrBefore: UInt64(body.count) << 10)
            _ = table.point(atOrBeforeOffset: UInt64(body.count))
        case 16:
            if let sheet = FLACCueSheet.decode(body) { _ = sheet.chapters(sampleRate: flag ? 0 : 44100) }
        case 17:
            guard body.count >= 4 else { return }
            let word = UInt32(body[0]) << 24 | UInt32(body[1]) << 16 | UInt32(body[2]) << 8 | UInt32(body[3])
            if let header = MPEGFrameHeader(word) {
                if let xing = XingHeader.find(in: body, header: header) {
                    _ = xing.estimatedOffset(atFraction: 0.5)
                    _ = xing.estimatedOffset(atFraction: 1)
                }
                if let vbri = VBRIHeader.find(in: body, header: header) {
                    _ = vbri.estimatedOffset(ofFrame: 1)
                    _ = vbri.estimatedOffset(ofFrame: Int64(body.count))
                }
            }
            _ = LAMEExtension.decode(body, at: Int(first >> 3))
        case 18:
            _ = ProgramConfigElement.find(inRawDataBlock: body)
            var reader = BitReader(body, order: .mostSignificantFirst)
            _ = try? ProgramConfigElement.decode(&reader)
        case 19:
            if let fmt = try? WAVEFormatChunk.decode(body, endianness: flag ? .big : .little) {
                _ = try? WAVEStreamFormat(fmt, endianness: flag ? .big : .little)
            }
        case 20:
            var notes: [DiagnosticNote] = []
            if let comm = try? CommonChunk.decode(body, isAIFC: flag, notes: &notes) {
                _ = try? comm.audioFormat(limits: limits)
            }
        case 21:
            let context = ParseContext(limits: limits)
            _ = try? NeXTHeader.decode(body, context)
        case 22:
            _ = try? DataSize64Chunk.decode(body)
            _ = try? FactChunk.decode(body, endianness: flag ? .big : .little)
        default:
            guard body.count >= 8 else { return }
            let bits = body.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            _ = ADTSHeader.decode(bits)
        }
    }
}
