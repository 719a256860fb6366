import AudioStreamParsing
import Testing

/// Every code set value checked against Apple's constants, transcribed by hand from
/// `reference/audiofilestream.md` (section cited on each table). Each row carries the four characters
/// and the hex value as the reference prints them; the test checks the library's value and that the
/// transcription itself is consistent (the hex spells the four characters).
@Suite("Code tables")
struct CodeTableTests {
    struct Row<Code: Sendable>: Sendable, CustomStringConvertible {
        var code: Code
        var chars: String
        var hex: UInt32
        var description: String { "\(chars) (0x\(String(hex, radix: 16, uppercase: true)))" }
    }

    /// The big-endian value of four ASCII characters.
    static func value(_ chars: String) -> UInt32 {
        chars.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    // MARK: audiofilestream.md §2.3 Property IDs

    static let properties: [Row<AudioStreamPropertyID>] = [
        Row(code: .readyToProducePackets, chars: "redy", hex: 0x7265_6479),
        Row(code: .fileFormat, chars: "ffmt", hex: 0x6666_6D74),
        Row(code: .dataFormat, chars: "dfmt", hex: 0x6466_6D74),
        Row(code: .formatList, chars: "flst", hex: 0x666C_7374),
        Row(code: .magicCookieData, chars: "mgic", hex: 0x6D67_6963),
        Row(code: .audioDataByteCount, chars: "bcnt", hex: 0x6263_6E74),
        Row(code: .audioDataPacketCount, chars: "pcnt", hex: 0x7063_6E74),
        Row(code: .maximumPacketSize, chars: "psze", hex: 0x7073_7A65),
        Row(code: .dataOffset, chars: "doff", hex: 0x646F_6666),
        Row(code: .channelLayout, chars: "cmap", hex: 0x636D_6170),
        Row(code: .packetToFrame, chars: "pkfr", hex: 0x706B_6672),
        Row(code: .frameToPacket, chars: "frpk", hex: 0x6672_706B),
        Row(code: .restrictsRandomAccess, chars: "rrap", hex: 0x7272_6170),
        Row(code: .packetToRollDistance, chars: "pkrl", hex: 0x706B_726C),
        Row(code: .previousIndependentPacket, chars: "pind", hex: 0x7069_6E64),
        Row(code: .nextIndependentPacket, chars: "nind", hex: 0x6E69_6E64),
        Row(code: .packetToDependencyInfo, chars: "pkdp", hex: 0x706B_6470),
        Row(code: .packetToByte, chars: "pkby", hex: 0x706B_6279),
        Row(code: .byteToPacket, chars: "bypk", hex: 0x6279_706B),
        Row(code: .packetTableInfo, chars: "pnfo", hex: 0x706E_666F),
        Row(code: .packetSizeUpperBound, chars: "pkub", hex: 0x706B_7562),
        Row(code: .averageBytesPerPacket, chars: "abpp", hex: 0x6162_7070),
        Row(code: .bitRate, chars: "brat", hex: 0x6272_6174),
        Row(code: .infoDictionary, chars: "info", hex: 0x696E_666F),
    ]

    @Test(arguments: properties)
    func propertyIDMatchesApple(_ row: Row<AudioStreamPropertyID>) {
        #expect(Self.value(row.chars) == row.hex, "transcription")
        #expect(row.code.rawValue == row.hex)
        #expect(row.code.description == row.chars)
    }

    @Test func allKnownPropertyIDsAreExactlyApplesList() {
        #expect(AudioStreamPropertyID.allKnown.map(\.rawValue) == Self.properties.map(\.hex))
    }

    // MARK: audiofilestream.md §2.2 Error codes (+ the private limit code, AudioStreamError.swift)

    static let errors: [Row<AudioStreamError.Code>] = [
        Row(code: .unsupportedFileType, chars: "typ?", hex: 0x7479_703F),
        Row(code: .unsupportedDataFormat, chars: "fmt?", hex: 0x666D_743F),
        Row(code: .unsupportedProperty, chars: "pty?", hex: 0x7074_793F),
        Row(code: .badPropertySize, chars: "!siz", hex: 0x2173_697A),
        Row(code: .notOptimized, chars: "optm", hex: 0x6F70_746D),
        Row(code: .invalidPacketOffset, chars: "pck?", hex: 0x7063_6B3F),
        Row(code: .invalidFile, chars: "dta?", hex: 0x6474_613F),
        Row(code: .valueUnknown, chars: "unk?", hex: 0x756E_6B3F),
        Row(code: .dataUnavailable, chars: "more", hex: 0x6D6F_7265),
        Row(code: .illegalOperation, chars: "nope", hex: 0x6E6F_7065),
        Row(code: .unspecifiedError, chars: "wht?", hex: 0x7768_743F),
        Row(code: .discontinuityCantRecover, chars: "dsc!", hex: 0x6473_6321),
        // Private (no CoreAudio constant): documented in AudioStreamError.swift as 'lim!' 0x6C696D21.
        Row(code: .limitExceeded, chars: "lim!", hex: 0x6C69_6D21),
    ]

    /// The decimal OSStatus values the reference also prints (§2.2), for the Apple codes.
    static let errorDecimals: [UInt32] = [
        1_954_115_647, 1_718_449_215, 1_886_681_407, 561_211_770, 1_869_640_813, 1_885_563_711, 1_685_348_671,
        1_970_170_687, 1_836_020_325, 1_852_797_029, 2_003_334_207, 1_685_283_617,
    ]

    @Test(arguments: errors)
    func errorCodeMatchesApple(_ row: Row<AudioStreamError.Code>) {
        #expect(Self.value(row.chars) == row.hex, "transcription")
        #expect(row.code.rawValue == row.hex)
        #expect(row.code.description == row.chars)
    }

    @Test func errorDecimalsMatchHex() {
        #expect(Self.errors.prefix(12).map(\.hex) == Self.errorDecimals)
    }

    @Test func allErrorCodesAreListed() {
        #expect(AudioStreamError.Code.all.map(\.rawValue) == Self.errors.map(\.hex))
    }

    // MARK: audiofilestream.md §3.7 AudioFileTypeID (+ private 'ogg ')

    static let fileTypes: [Row<AudioFileType>] = [
        Row(code: .aiff, chars: "AIFF", hex: 0x4149_4646),
        Row(code: .aifc, chars: "AIFC", hex: 0x4149_4643),
        Row(code: .wave, chars: "WAVE", hex: 0x5741_5645),
        Row(code: .rf64, chars: "RF64", hex: 0x5246_3634),
        Row(code: .bw64, chars: "BW64", hex: 0x4257_3634),
        Row(code: .wave64, chars: "W64f", hex: 0x5736_3466),
        Row(code: .soundDesigner2, chars: "Sd2f", hex: 0x5364_3266),
        Row(code: .next, chars: "NeXT", hex: 0x4E65_5854),
        Row(code: .mp3, chars: "MPG3", hex: 0x4D50_4733),
        Row(code: .mp2, chars: "MPG2", hex: 0x4D50_4732),
        Row(code: .mp1, chars: "MPG1", hex: 0x4D50_4731),
        Row(code: .ac3, chars: "ac-3", hex: 0x6163_2D33),
        Row(code: .aacADTS, chars: "adts", hex: 0x6164_7473),
        Row(code: .mpeg4, chars: "mp4f", hex: 0x6D70_3466),
        Row(code: .m4a, chars: "m4af", hex: 0x6D34_6166),
        Row(code: .m4b, chars: "m4bf", hex: 0x6D34_6266),
        Row(code: .caf, chars: "caff", hex: 0x6361_6666),
        Row(code: .threeGP, chars: "3gpp", hex: 0x3367_7070),
        Row(code: .threeGP2, chars: "3gp2", hex: 0x3367_7032),
        Row(code: .amr, chars: "amrf", hex: 0x616D_7266),
        Row(code: .flac, chars: "flac", hex: 0x666C_6163),
        Row(code: .latmInLOAS, chars: "loas", hex: 0x6C6F_6173),
        // Private: §3.7 notes no Ogg type exists; AudioStreaming's 'ogg ' (0x6F676720) is reused.
        Row(code: .ogg, chars: "ogg ", hex: 0x6F67_6720),
        // Private: no Matroska or WebM type exists in §3.7 (docs/coreaudio-mapping.md).
        Row(code: .matroska, chars: "mkv ", hex: 0x6D6B_7620),
        Row(code: .webM, chars: "webm", hex: 0x7765_626D),
        // Private: no E-AC-3 or transport stream type exists in §3.7 (docs/coreaudio-mapping.md).
        Row(code: .enhancedAC3, chars: "ec-3", hex: 0x6563_2D33),
        Row(code: .mpeg2TransportStream, chars: "mp2t", hex: 0x6D70_3274),
    ]

    @Test(arguments: fileTypes)
    func fileTypeMatchesApple(_ row: Row<AudioFileType>) {
        #expect(Self.value(row.chars) == row.hex, "transcription")
        #expect(row.code.rawValue == row.hex)
        #expect(row.code.description == row.chars)
    }

    // MARK: audiofilestream.md §3.8 AudioFormatID (+ private 'vorb' and MS ADPCM)

    static let formats: [Row<AudioFormat>] = [
        Row(code: .linearPCM, chars: "lpcm", hex: 0x6C70_636D),
        Row(code: .ac3, chars: "ac-3", hex: 0x6163_2D33),
        Row(code: .ac3_60958, chars: "cac3", hex: 0x6361_6333),
        Row(code: .appleIMA4, chars: "ima4", hex: 0x696D_6134),
        Row(code: .mpeg4AAC, chars: "aac ", hex: 0x6161_6320),
        Row(code: .mpeg4CELP, chars: "celp", hex: 0x6365_6C70),
        Row(code: .mpeg4HVXC, chars: "hvxc", hex: 0x6876_7863),
        Row(code: .mpeg4TwinVQ, chars: "twvq", hex: 0x7477_7671),
        Row(code: .mace3, chars: "MAC3", hex: 0x4D41_4333),
        Row(code: .mace6, chars: "MAC6", hex: 0x4D41_4336),
        Row(code: .uLaw, chars: "ulaw", hex: 0x756C_6177),
        Row(code: .aLaw, chars: "alaw", hex: 0x616C_6177),
        Row(code: .qDesign, chars: "QDMC", hex: 0x5144_4D43),
        Row(code: .qDesign2, chars: "QDM2", hex: 0x5144_4D32),
        Row(code: .qualcomm, chars: "Qclp", hex: 0x5163_6C70),
        Row(code: .mpegLayer1, chars: ".mp1", hex: 0x2E6D_7031),
        Row(code: .mpegLayer2, chars: ".mp2", hex: 0x2E6D_7032),
        Row(code: .mpegLayer3, chars: ".mp3", hex: 0x2E6D_7033),
        Row(code: .timeCode, chars: "time", hex: 0x7469_6D65),
        Row(code: .midiStream, chars: "midi", hex: 0x6D69_6469),
        Row(code: .parameterValueStream, chars: "apvs", hex: 0x6170_7673),
        Row(code: .appleLossless, chars: "alac", hex: 0x616C_6163),
        Row(code: .mpeg4AAC_HE, chars: "aach", hex: 0x6161_6368),
        Row(code: .mpeg4AAC_LD, chars: "aacl", hex: 0x6161_636C),
        Row(code: .mpeg4AAC_ELD, chars: "aace", hex: 0x6161_6365),
        Row(code: .mpeg4AAC_ELD_SBR, chars: "aacf", hex: 0x6161_6366),
        Row(code: .mpeg4AAC_ELD_V2, chars: "aacg", hex: 0x6161_6367),
        Row(code: .mpeg4AAC_HE_V2, chars: "aacp", hex: 0x6161_6370),
        Row(code: .mpeg4AAC_Spatial, chars: "aacs", hex: 0x6161_6373),
        Row(code: .mpegD_USAC, chars: "usac", hex: 0x7573_6163),
        Row(code: .amr, chars: "samr", hex: 0x7361_6D72),
        Row(code: .amrWB, chars: "sawb", hex: 0x7361_7762),
        Row(code: .audible, chars: "AUDB", hex: 0x4155_4442),
        Row(code: .iLBC, chars: "ilbc", hex: 0x696C_6263),
        Row(code: .aes3, chars: "aes3", hex: 0x6165_7333),
        Row(code: .enhancedAC3, chars: "ec-3", hex: 0x6563_2D33),
        Row(code: .flac, chars: "flac", hex: 0x666C_6163),
        Row(code: .opus, chars: "opus", hex: 0x6F70_7573),
        // Private: no CoreAudio Vorbis ID (docs/coreaudio-mapping.md).
        Row(code: .vorbis, chars: "vorb", hex: 0x766F_7262),
    ]

    @Test(arguments: formats)
    func formatIDMatchesApple(_ row: Row<AudioFormat>) {
        #expect(Self.value(row.chars) == row.hex, "transcription")
        #expect(row.code.rawValue == row.hex)
        #expect(row.code.description == row.chars)
    }

    /// §3.8 gives these two as numbers: 0x6D730011 (DVI/Intel IMA), 0x6D730031 (MS GSM 6.10). MS ADPCM is
    /// private, following the same `'ms' << 16 | wFormatTag` pattern with tag 0x0002.
    @Test func numericFormatIDs() {
        #expect(AudioFormat.dviIntelIMA.rawValue == 0x6D73_0011)
        #expect(AudioFormat.microsoftGSM.rawValue == 0x6D73_0031)
        #expect(AudioFormat.microsoftADPCM.rawValue == 0x6D73_0002)
        #expect(AudioFormat.dviIntelIMA.description == "0x6D730011")
    }

    @Test func codeSetsHaveNoDuplicates() {
        #expect(Set(Self.properties.map(\.hex)).count == Self.properties.count)
        #expect(Set(Self.errors.map(\.hex)).count == Self.errors.count)
        #expect(Set(Self.fileTypes.map(\.hex)).count == Self.fileTypes.count)
        let formatValues = Self.formats.map(\.hex) + [0x6D73_0011, 0x6D73_0031, 0x6D73_0002]
        #expect(Set(formatValues).count == formatValues.count)
    }

    // MARK: audiofilestream.md §3.9 kAFInfoDictionary keys

    /// One row of §3.9: the key, the constant's suffix after `kAFInfoDictionary_`, and the key string.
    struct InfoKeyRow: Sendable, CustomStringConvertible {
        var key: InfoKey
        var constant: String
        var string: String
        var description: String { "kAFInfoDictionary_\(constant)" }
    }

    static let infoKeys: [InfoKeyRow] = [
        InfoKeyRow(key: .artist, constant: "Artist", string: "artist"),
        InfoKeyRow(key: .album, constant: "Album", string: "album"),
        InfoKeyRow(key: .title, constant: "Title", string: "title"),
        InfoKeyRow(key: .subTitle, constant: "SubTitle", string: "subtitle"),
        InfoKeyRow(key: .tempo, constant: "Tempo", string: "tempo"),
        InfoKeyRow(key: .keySignature, constant: "KeySignature", string: "key signature"),
        InfoKeyRow(key: .timeSignature, constant: "TimeSignature", string: "time signature"),
        InfoKeyRow(key: .trackNumber, constant: "TrackNumber", string: "track number"),
        InfoKeyRow(key: .year, constant: "Year", string: "year"),
        InfoKeyRow(key: .recordedDate, constant: "RecordedDate", string: "recorded date"),
        InfoKeyRow(key: .composer, constant: "Composer", string: "composer"),
        InfoKeyRow(key: .lyricist, constant: "Lyricist", string: "lyricist"),
        InfoKeyRow(key: .genre, constant: "Genre", string: "genre"),
        InfoKeyRow(key: .comments, constant: "Comments", string: "comments"),
        InfoKeyRow(key: .copyright, constant: "Copyright", string: "copyright"),
        InfoKeyRow(key: .isrc, constant: "ISRC", string: "ISRC"),
        InfoKeyRow(key: .sourceEncoder, constant: "SourceEncoder", string: "source encoder"),
        InfoKeyRow(key: .encodingApplication, constant: "EncodingApplication", string: "encoding application"),
        InfoKeyRow(key: .nominalBitRate, constant: "NominalBitRate", string: "nominal bit rate"),
        InfoKeyRow(key: .channelLayout, constant: "ChannelLayout", string: "channel layout"),
        InfoKeyRow(
            key: .approximateDurationInSeconds, constant: "ApproximateDurationInSeconds",
            string: "approximate duration in seconds"),
        InfoKeyRow(key: .sourceBitDepth, constant: "SourceBitDepth", string: "source bit depth"),
    ]

    @Test(arguments: infoKeys)
    func infoKeyMatchesApple(_ row: InfoKeyRow) {
        #expect(row.key.rawValue == row.string)
        #expect(row.key.description == row.string)
        #expect(InfoKey(rawValue: row.string) == row.key)
    }

    @Test func allInfoKeysAreExactlyApplesList() {
        #expect(InfoKey.all == Self.infoKeys.map(\.key))
        #expect(Set(InfoKey.all.map(\.rawValue)).count == InfoKey.all.count)
    }

    /// The info dictionary is open (§3.9: components may add keys): a string literal is a key, and a
    /// literal that spells a known key is that key.
    @Test func infoKeyLiteralsAreKeys() {
        let literal: InfoKey = "track number"
        #expect(literal == .trackNumber)
        let metadata = AudioMetadata(info: ["artist": "A", "vendor key": "V"])
        #expect(metadata.info[.artist] == "A")
        #expect(metadata.info[InfoKey(rawValue: "vendor key")] == "V")
    }
}
