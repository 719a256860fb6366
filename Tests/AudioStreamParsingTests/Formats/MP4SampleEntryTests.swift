import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

// Sample entries cut from the MP4 fixtures by a test-only box finder (MP4TestBoxes.swift) and decoded
// with MP4AudioSampleEntry. Expected values come from each fixture's ffprobe oracle (codec, rate,
// channels, extradata) or are worked out by hand from the specs named next to them.

@Suite("MP4: audio sample entries")
struct MP4SampleEntryTests {
    static let fixtures: [String] = FixtureCatalog.all.map(\.path).filter { $0.hasPrefix("mp4/") }

    static func decode(_ path: String) throws -> (MP4AudioSampleEntry, MP4TestFile, Oracle.Stream) {
        let file = try MP4TestFile(path)
        let entry = try #require(file.audioSampleEntry, "\(path): no audio sample entry")
        let decoded = try MP4AudioSampleEntry.decode(entry, isQuickTime: file.isQuickTime, limits: ParserLimits())
        let stream = try #require(try FixtureCatalog.fixture(path).oracle().stream)
        return (decoded, file, stream)
    }

    static func extradata(_ stream: Oracle.Stream) -> [UInt8] {
        MP4Hex.bytes(stream.fields["extradata_hex"]?.string ?? "")
    }

    @Test func everyMP4FixtureIsCovered() {
        #expect(Self.fixtures.count >= 20)
    }

    @Test("codec, sample rate and channels as ffprobe reports them", arguments: fixtures)
    func matchesOracle(_ path: String) throws {
        let (entry, _, stream) = try Self.decode(path)
        let format = entry.streamDescription
        let codec = try #require(stream.codecName)
        #expect(CodecTable.entry(codec)?.format == format.formatID, "\(path): \(codec)")
        if let profile = stream.fields["profile"]?.string, CodecTable.sbrFormats[profile] != nil,
            entry.audioSpecificConfig?.allowsImplicitSBR == true
        {
            // Implicit HE-AAC: the entry is the AAC-LC core; ffprobe's decoder reports the SBR output rate
            // (twice the core's) and, on a mono core, stereo. The parser finds the SBR in the first sample
            // (MP4HEAACTests, the conformance suite).
            #expect(Int(format.sampleRate) * 2 == stream.sampleRate, "\(path)")
            return
        }
        #expect(Int(format.sampleRate) == stream.sampleRate, "\(path)")
        #expect(Int(format.channelsPerFrame) == stream.channels, "\(path)")
        if let layout = CodecTable.pcmLayout(codec) {
            #expect(Int(format.bitsPerChannel) == layout.bits, "\(path)")
            #expect(Int(format.bytesPerFrame) == layout.bits / 8 * Int(format.channelsPerFrame), "\(path)")
            #expect((format.formatFlags & LinearPCMFlags.isFloat != 0) == layout.isFloat, "\(path)")
            #expect((format.formatFlags & LinearPCMFlags.isSignedInteger != 0) == layout.isSigned, "\(path)")
            if let bigEndian = layout.isBigEndian {
                #expect((format.formatFlags & LinearPCMFlags.isBigEndian != 0) == bigEndian, "\(path)")
            }
        }
        if let layout = entry.channelLayout {
            #expect(layout.numberOfChannels == stream.channels, "\(path)")
        }
    }

    // MARK: Magic cookies against ffmpeg's extradata

    /// AAC: the cookie is the ES_Descriptor, i.e. the esds body after its version and flags
    /// (ISO/IEC 14496-14 §5.6); its DecoderSpecificInfo is ffmpeg's extradata (the AudioSpecificConfig).
    @Test(arguments: fixtures.filter { $0.contains("/aac-") })
    func aacCookieIsTheESDescriptor(_ path: String) throws {
        let (entry, file, stream) = try Self.decode(path)
        let cookie = try #require(entry.magicCookie)
        let sampleEntry = try #require(file.audioSampleEntry)
        let bytes = file.bytes
        // The esds box: in the entry (ISO) or in its wave box (QuickTime version 1).
        let fixedSize = file.isQuickTime && sampleEntry[sampleEntry.startIndex + 17] == 1 ? 52 : 36
        let inner = MP4TestBox.children(of: bytes, in: (sampleEntry.startIndex + fixedSize)..<sampleEntry.endIndex)
        let esds = try #require(
            inner.first { $0.type == "esds" }
                ?? inner.first { $0.type == "wave" }?.children(in: bytes).first { $0.type == "esds" })
        #expect(cookie == Array(esds.body.dropFirst(4)))
        #expect(cookie.first == 0x03)
        #expect(AudioSpecificConfig(magicCookie: cookie)?.bytes == Self.extradata(stream))
        #expect(entry.streamDescription.framesPerPacket == 1024)
        #expect(entry.streamDescription.formatFlags == 2)  // AAC LC (MPEG4ObjectID 2)
        #expect(entry.formatList.isEmpty)
    }

    /// ALAC: ffmpeg's extradata is the whole 36-byte `alac` atom; the cookie is its ALACSpecificConfig.
    @Test func alacCookieIsTheSpecificConfig() throws {
        let (entry, _, stream) = try Self.decode("mp4/alac-44100-2ch.m4a")
        let extradata = Self.extradata(stream)
        #expect(extradata.count == 36)
        #expect(entry.magicCookie == Array(extradata[12...]))
        // ALACSpecificConfig: frameLength 0x1000, bitDepth 16 → kAppleLosslessFormatFlag_16BitSourceData.
        #expect(entry.streamDescription.framesPerPacket == 4096)
        #expect(entry.streamDescription.formatFlags == 1)
        #expect(entry.streamDescription.formatID == .appleLossless)
    }

    /// Opus: ffmpeg turns dOps into OpusHead for its extradata, exactly as RFC 7845 §5.1 lays it out.
    @Test func opusCookieIsOpusHead() throws {
        let (entry, _, stream) = try Self.decode("mp4/opus-48000-2ch.mp4")
        #expect(entry.magicCookie == Self.extradata(stream))
        // dOps 00 02 0138 0000bb80 0000 00: pre-skip 312, input rate 48000, family 0.
        #expect(entry.magicCookie == Array("OpusHead".utf8) + MP4Hex.bytes("01 02 3801 80bb0000 0000 00"))
        #expect(entry.streamDescription.framesPerPacket == 0)
    }

    /// FLAC: the cookie is the dfLa body; ffmpeg's extradata is the bare 34-byte STREAMINFO after it.
    @Test func flacCookieIsTheDfLaBody() throws {
        let (entry, _, stream) = try Self.decode("mp4/flac-44100-2ch.mp4")
        let cookie = try #require(entry.magicCookie)
        #expect(Array(cookie[8...]) == Self.extradata(stream))
        #expect(Array(cookie[0..<8]) == MP4Hex.bytes("00000000 80000022"))  // version/flags, last STREAMINFO 34
        // STREAMINFO 1200 1200: fixed block size 4608.
        #expect(entry.streamDescription.framesPerPacket == 4608)
        #expect(entry.streamDescription.formatFlags == 1)  // 16-bit source
    }

    @Test func mp3InMP4HasNoCookie() throws {
        let (entry, _, _) = try Self.decode("mp4/mp3-44100-2ch.mp4")
        #expect(entry.magicCookie == nil)
        #expect(entry.streamDescription.framesPerPacket == 1152)  // MPEG-1 Layer III at 44.1 kHz
        #expect(entry.format == FourCharCode.value("mp4a"))
    }

    // MARK: Hand-derived values

    /// esds DecoderConfigDescriptor (40 15 000000 0001F400 0001E0D5): maxBitrate 128000,
    /// avgBitrate 123093 bit/s; there is no btrt in this entry.
    @Test func aacBitRatesComeFromTheDecoderConfigDescriptor() throws {
        let (entry, _, _) = try Self.decode("mp4/aac-44100-2ch-faststart.m4a")
        #expect(entry.averageBitRate == 123_093)
        #expect(entry.maximumBitRate == 128_000)
        #expect(entry.channelLayout == ChannelLayout(tag: ChannelLayout.Tag.stereo))
    }

    /// channelConfiguration 6 → kAudioChannelLayoutTag_AAC_5_1 = MPEG_5_1_D (124 << 16 | 6).
    @Test func fivePointOneAAC() throws {
        let (entry, _, _) = try Self.decode("mp4/aac-48000-6ch.m4a")
        let mpeg51D: UInt32 = 124 << 16 | 6
        #expect(entry.channelLayout == ChannelLayout(tag: .init(rawValue: mpeg51D)))
    }

    /// QuickTime version 1 with wave (frma mp4a, esds) and chan (tag 0x00650002 = Stereo).
    @Test func quickTimeAACReadsTheWaveBox() throws {
        let (entry, file, _) = try Self.decode("mp4/aac-44100-2ch.mov")
        #expect(file.isQuickTime)
        #expect(entry.streamDescription.formatID == .mpeg4AAC)
        #expect(entry.channelLayout == ChannelLayout(tag: ChannelLayout.Tag.stereo))
    }

    /// dac3 0x1010C0: fscod 0 (48 kHz), acmod 2 (2/0), lfeon 0, bit_rate_code 6 (96 kbit/s)
    /// (ETSI TS 102 366 F.4); dec3 0x0300 2004 00: data_rate 96, acmod 2.
    @Test func ac3AndEnhancedAC3() throws {
        let (ac3, _, _) = try Self.decode("mp4/ac3-48000-2ch.mp4")
        #expect(ac3.streamDescription.framesPerPacket == 1536)
        #expect(ac3.averageBitRate == 96_000)
        let (eac3, _, _) = try Self.decode("mp4/eac3-48000-2ch.mp4")
        #expect(eac3.streamDescription.formatID == .enhancedAC3)
        #expect(eac3.averageBitRate == 96_000)
        #expect(eac3.magicCookie == nil)
    }

    /// Version 2 lpcm: audioSampleRate 96000.0, formatSpecificFlags 9 (float | packed, little-endian),
    /// constBytesPerAudioPacket 4, constLPCMFramesPerAudioPacket 1.
    @Test func quickTimeVersion2LPCM() throws {
        let (entry, _, _) = try Self.decode("mp4/pcm_f32le-96000-1ch.mov")
        #expect(
            entry.streamDescription
                == .linearPCM(
                    sampleRate: 96000, channels: 1, validBits: 32, containerBits: 32, isFloat: true, isBigEndian: false)
        )
    }

    /// Version 1 in24 with wave/enda 1: little-endian 24-bit.
    @Test func quickTimeIn24WithEnda() throws {
        let (entry, _, _) = try Self.decode("mp4/pcm_s24le-8000-2ch.mov")
        #expect(
            entry.streamDescription
                == .linearPCM(
                    sampleRate: 8000, channels: 2, validBits: 24, containerBits: 24, isFloat: false, isBigEndian: false)
        )
    }

    /// ffmpeg writes a bitmap layout for mono µ-law: tag UseChannelBitmap, bitmap 4 (kAudioChannelBit_Center).
    @Test func chanBoxWithABitmap() throws {
        let (entry, _, _) = try Self.decode("mp4/pcm_mulaw-8000-1ch.mov")
        #expect(entry.channelLayout == ChannelLayout(tag: ChannelLayout.Tag.useChannelBitmap, bitmap: 4))
        #expect(entry.streamDescription.bytesPerPacket == 1)
    }

    /// QuickTime version 0 PCM entries without a fixture, 2 channels at 22050 Hz, sample size field
    /// `bits` (QuickTime File Format, "Sound sample description", audio data formats; CoreAudio's
    /// FillOutASBDForLPCM flags: float 0x1, big-endian 0x2, signed 0x4, packed 0x8).
    @Test(arguments: [
        ("raw ", 8, UInt32(0x8), 2), ("twos", 8, 0xC, 2), ("NONE", 16, 0xE, 4), ("in32", 32, 0xE, 8),
        ("fl32", 32, 0xB, 8), ("fl64", 64, 0xB, 16), ("alaw", 16, 0, 2),
    ])
    func quickTimePCMWithoutFixtures(
        _ type: String, _ bits: UInt8, _ flags: UInt32, _ bytesPerFrame: UInt32
    ) throws {
        let fixed: [UInt8] =
            [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
            + [0, 2, 0, bits, 0, 0, 0, 0, 0x56, 0x22, 0, 0]
        let entry = try MP4AudioSampleEntry.decode(
            Self.box(type, fixed)[...], isQuickTime: true, limits: ParserLimits())
        let format = entry.streamDescription
        #expect(format.formatFlags == flags)
        #expect(format.bytesPerFrame == bytesPerFrame)
        #expect(format.bytesPerPacket == bytesPerFrame)
        #expect(format.sampleRate == 22050)
        #expect(format.formatID == (type == "alaw" ? .aLaw : .linearPCM))
        #expect(entry.channelLayout == ChannelLayout(tag: ChannelLayout.Tag.stereo))
    }

    // MARK: Explicit SBR and PS (hand-built AudioSpecificConfigs, ISO/IEC 14496-3 §1.6.2.1)

    /// An `mp4a` entry (ISO version 0) with an esds around `asc`, descriptor sizes in the 1-byte form.
    static func mp4aEntry(asc: [UInt8], channels: UInt8 = 2, rate: UInt16 = 48000) -> [UInt8] {
        let dsi: [UInt8] = [0x05, UInt8(asc.count)] + asc
        let dcd: [UInt8] = [0x04, UInt8(13 + dsi.count), 0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + dsi
        let es: [UInt8] = [0x03, UInt8(3 + dcd.count + 3), 0, 1, 0] + dcd + [0x06, 0x01, 0x02]
        let esds = box("esds", [0, 0, 0, 0] + es)
        let fixed: [UInt8] =
            [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
            + [0, channels, 0, 16, 0, 0, 0, 0, UInt8(rate >> 8), UInt8(rate & 0xFF), 0, 0]
        return box("mp4a", fixed + esds)
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + body
    }

    /// An AudioSpecificConfig whose GASpecificConfig is cut short (dependsOnCoreCoder set, the bytes end
    /// inside coreCoderDelay: 12 12, hand-built from ISO/IEC 14496-3 §4.4.1): the entry decodes with the
    /// object type, rate and channels, and carries the note; a whole parse reports it as a diagnostic and
    /// gives the packets, in every chunking.
    @Test func cutShortAudioSpecificConfigIsReported() throws {
        let entry = Self.mp4aEntry(asc: [0x12, 0x12], channels: 2, rate: 44100)
        let decoded = try MP4AudioSampleEntry.decode(entry[...], isQuickTime: false, limits: ParserLimits())
        #expect(decoded.streamDescription.formatID == .mpeg4AAC)
        #expect(decoded.streamDescription.sampleRate == 44100 && decoded.streamDescription.channelsPerFrame == 2)
        #expect(decoded.streamDescription.framesPerPacket == 1024)
        #expect(decoded.notes.map(\.kind) == [.truncated])

        let ftyp = MP4Build.ftyp("M4A ")
        func moov(_ base: UInt32) -> [UInt8] {
            let trak = MP4Build.trak(
                id: 1, handler: "soun", timescale: 44100, entry: entry,
                tables: MP4Build.stts([(2, 1024)]) + MP4Build.stsc([(1, 2)]) + MP4Build.stsz([10, 12])
                    + MP4Build.stco([base]))
            return MP4Build.box("moov", MP4Build.mvhd(timescale: 1000) + trak)
        }
        let base = UInt32(ftyp.count + moov(0).count + 8)
        let bytes = ftyp + moov(base) + MP4Build.box("mdat", (0..<22).map { MP4Build.pattern($0) })
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil, "\(String(describing: log.error))")
        #expect(log.packets.map(\.size) == [10, 12])
        let diagnostics = log.entries.compactMap { e -> ParserDiagnostic? in
            if case .diagnostic(let d) = e { return d } else { return nil }
        }
        // The cut configuration at the moov; then, as for any AAC-LC configuration, the first sample is read for
        // implicit SBR, and these pattern bytes are no raw data block (docs/formats/mp4.md, "Implicit HE-AAC").
        #expect(diagnostics.map(\.kind) == [.truncated, .inconsistentValues])
        #expect(diagnostics.last?.message.contains("could not be read to its end") == true)
        #expect(diagnostics.first?.byteOffset == Int64(ftyp.count))
        #expect(diagnostics.first?.message.contains("coreCoderDelay") == true)
    }

    /// AOT 5, index 6 (24000), configuration 2, extension index 3 (48000), AOT 2, GA 000:
    /// 00101 0110 0010 0011 00010 000 (+7 pad bits) → 2B 11 88 00.
    @Test func explicitSBRGivesTwoLayers() throws {
        let entry = try MP4AudioSampleEntry.decode(
            Self.mp4aEntry(asc: [0x2B, 0x11, 0x88, 0x00])[...], isQuickTime: false, limits: ParserLimits())
        let he = StreamDescription(
            sampleRate: 48000, formatID: .mpeg4AAC_HE, formatFlags: 5, framesPerPacket: 2048, channelsPerFrame: 2)
        let lc = StreamDescription(
            sampleRate: 24000, formatID: .mpeg4AAC, formatFlags: 2, framesPerPacket: 1024, channelsPerFrame: 2)
        #expect(entry.streamDescription == he)
        #expect(
            entry.formatList == [
                FormatListItem(streamDescription: he, channelLayoutTag: ChannelLayout.Tag.stereo),
                FormatListItem(streamDescription: lc, channelLayoutTag: ChannelLayout.Tag.stereo),
            ])
    }

    /// AOT 29, index 6, configuration 1, extension index 3, AOT 2, GA 000:
    /// 11101 0110 0001 0011 00010 000 (+7 pad bits) → EB 09 88 00.
    @Test func explicitPSGivesThreeLayers() throws {
        let entry = try MP4AudioSampleEntry.decode(
            Self.mp4aEntry(asc: [0xEB, 0x09, 0x88, 0x00], channels: 2)[...], isQuickTime: false,
            limits: ParserLimits())
        let layers = entry.formatList.map {
            (
                $0.streamDescription.formatID, $0.streamDescription.sampleRate,
                $0.streamDescription.channelsPerFrame, $0.streamDescription.framesPerPacket
            )
        }
        #expect(layers.map(\.0) == [.mpeg4AAC_HE_V2, .mpeg4AAC_HE, .mpeg4AAC])
        #expect(layers.map(\.1) == [48000, 48000, 24000])
        #expect(layers.map(\.2) == [2, 1, 1])
        #expect(layers.map(\.3) == [2048, 2048, 1024])
        #expect(entry.channelLayout == ChannelLayout(tag: ChannelLayout.Tag.stereo))
    }

    /// Backward-compatible signalling (§1.6.5.2): AAC-LC 24000 Hz, then syncExtensionType 0x2B7,
    /// extensionAudioObjectType 5, sbrPresentFlag 1, extension index 3 (48000):
    /// 00010 0110 0010 000 01010110111 00101 1 0011 (+2 pad bits) → 13 10 56 E5 98.
    @Test func backwardCompatibleSBR() throws {
        let entry = try MP4AudioSampleEntry.decode(
            Self.mp4aEntry(asc: [0x13, 0x10, 0x56, 0xE5, 0x98])[...], isQuickTime: false, limits: ParserLimits())
        #expect(entry.formatList.map(\.streamDescription.formatID) == [.mpeg4AAC_HE, .mpeg4AAC])
        #expect(entry.formatList.map(\.streamDescription.sampleRate) == [48000, 24000])
        #expect(entry.streamDescription.framesPerPacket == 2048)
    }

    /// The same in mono with 0x548 and psPresentFlag 1 after it:
    /// 00010 0110 0001 000 01010110111 00101 1 0011 10101001000 1 (+7) → 13 08 56 E5 9D 48 80.
    @Test func backwardCompatibleSBRAndPS() throws {
        let entry = try MP4AudioSampleEntry.decode(
            Self.mp4aEntry(asc: [0x13, 0x08, 0x56, 0xE5, 0x9D, 0x48, 0x80], channels: 1)[...], isQuickTime: false,
            limits: ParserLimits())
        #expect(entry.formatList.map(\.streamDescription.formatID) == [.mpeg4AAC_HE_V2, .mpeg4AAC_HE, .mpeg4AAC])
        #expect(entry.formatList.map(\.streamDescription.channelsPerFrame) == [2, 1, 1])
    }

    /// ffmpeg's encoder writes the 0x2B7 extension with sbrPresentFlag 0 (extradata 12 10 56 E5 00):
    /// explicitly no SBR, one AAC-LC layer (checked on every AAC fixture by aacCookieIsTheESDescriptor).
    @Test func sbrPresentFlagZeroMeansPlainAAC() {
        #expect(AudioSpecificConfig(bytes: [0x12, 0x10, 0x56, 0xE5, 0x00])?.extensionAudioObjectType == nil)
        #expect(AudioSpecificConfig(bytes: [0x12, 0x10])?.extensionAudioObjectType == nil)
    }

    // MARK: Malformed entries

    @Test func malformedEntriesThrowTheDocumentedCodes() {
        let limits = ParserLimits()
        func code(_ bytes: [UInt8], quickTime: Bool = false) -> AudioStreamError.Code? {
            do {
                _ = try MP4AudioSampleEntry.decode(bytes[...], isQuickTime: quickTime, limits: limits)
                return nil
            } catch {
                return error.code
            }
        }
        let good = Self.mp4aEntry(asc: [0x12, 0x10])
        #expect(code(good) == nil)
        #expect(code(Array(good.prefix(30))) == .invalidFile)  // shorter than the fixed fields
        #expect(code(Self.box("mp4a", Array(good[8..<36]))) == .invalidFile)  // no esds
        // An unknown entry type is an opaque track (issue 15): its type is the format ID, with a diagnostic.
        var unknown = good
        unknown.replaceSubrange(4..<8, with: Array("zzzz".utf8))
        #expect(code(unknown) == nil)
        let opaque = try? MP4AudioSampleEntry.decode(unknown[...], isQuickTime: false, limits: ParserLimits())
        #expect(opaque?.streamDescription.formatID == AudioFormat(rawValue: 0x7A7A_7A7A))
        #expect(opaque?.notes.first?.kind == .unknownStructure)
        var pastEnd = good
        pastEnd[39] = 0xFF  // the esds size runs past the entry
        #expect(code(pastEnd) == .invalidFile)
        var zeroChannels = Self.box("twos", Array(good[8..<36]))
        zeroChannels[25] = 0
        #expect(code(zeroChannels) == .invalidFile)
        #expect(code(Self.mp4aEntry(asc: [0x42, 0x10])) == .unsupportedDataFormat)  // AOT 8 (CELP)
        // QuickTime version 2 lpcm with 0xFFFFFFFF channels: refused before any frame-size arithmetic.
        let v2: [UInt8] =
            [0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 16, 0xFF, 0xFE, 0, 0, 0, 1, 0, 0]
            + [0, 0, 0, 72] + [0x40, 0xE5, 0x88, 0x80, 0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF] + [0x7F, 0, 0, 0]
            + [0, 0, 0, 16] + [0, 0, 0, 0x0C] + [0, 0, 0, 4] + [0, 0, 0, 1]
        #expect(code(Self.box("lpcm", v2), quickTime: true) == .limitExceeded)
        var sane = v2
        sane.replaceSubrange(40..<44, with: [0, 0, 0, 2])  // 2 channels of 16-bit little-endian (flags 0x0C)
        #expect(code(Self.box("lpcm", sane), quickTime: true) == nil)
    }

    /// Every prefix and every single-byte change of every fixture's entry decodes or throws; none traps.
    @Test(arguments: fixtures)
    func damagedEntriesNeverTrap(_ path: String) throws {
        let file = try MP4TestFile(path)
        let entry = Array(try #require(file.audioSampleEntry))
        for length in 0..<entry.count {
            _ = try? MP4AudioSampleEntry.decode(
                entry[0..<length], isQuickTime: file.isQuickTime, limits: ParserLimits())
        }
        for i in 0..<entry.count {
            var damaged = entry
            damaged[i] ^= 0xFF
            _ = try? MP4AudioSampleEntry.decode(damaged[...], isQuickTime: file.isQuickTime, limits: ParserLimits())
        }
    }
}
