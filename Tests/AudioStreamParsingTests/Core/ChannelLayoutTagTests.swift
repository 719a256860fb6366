import Testing

@testable import AudioStreamParsing

/// `ChannelLayout.Tag` values checked against Apple's `CoreAudioBaseTypes.h` (AudioChannelLayoutTag
/// constants), transcribed by hand as the header writes them, `(layout id << 16) | channel count`, and
/// the name of each (its constant without `kAudioChannelLayoutTag_`).
@Suite("Channel layout tags")
struct ChannelLayoutTagTests {
    struct Row: Sendable, CustomStringConvertible {
        var tag: ChannelLayout.Tag
        var layoutID: UInt32
        var channels: UInt32
        var name: String
        var description: String { name }
    }

    static let rows: [Row] = [
        Row(tag: .useChannelDescriptions, layoutID: 0, channels: 0, name: "UseChannelDescriptions"),
        Row(tag: .useChannelBitmap, layoutID: 1, channels: 0, name: "UseChannelBitmap"),
        Row(tag: .mono, layoutID: 100, channels: 1, name: "Mono"),
        Row(tag: .stereo, layoutID: 101, channels: 2, name: "Stereo"),
        Row(tag: .stereoHeadphones, layoutID: 102, channels: 2, name: "StereoHeadphones"),
        Row(tag: .matrixStereo, layoutID: 103, channels: 2, name: "MatrixStereo"),
        Row(tag: .quadraphonic, layoutID: 108, channels: 4, name: "Quadraphonic"),
        Row(tag: .octagonal, layoutID: 111, channels: 8, name: "Octagonal"),
        Row(tag: .cube, layoutID: 112, channels: 8, name: "Cube"),
        Row(tag: .mpeg_3_0_A, layoutID: 113, channels: 3, name: "MPEG_3_0_A"),
        Row(tag: .mpeg_3_0_B, layoutID: 114, channels: 3, name: "MPEG_3_0_B"),
        Row(tag: .mpeg_5_0_A, layoutID: 117, channels: 5, name: "MPEG_5_0_A"),
        Row(tag: .mpeg_5_1_A, layoutID: 121, channels: 6, name: "MPEG_5_1_A"),
        Row(tag: .mpeg_5_1_D, layoutID: 124, channels: 6, name: "MPEG_5_1_D"),
        Row(tag: .mpeg_6_1_A, layoutID: 125, channels: 7, name: "MPEG_6_1_A"),
        Row(tag: .mpeg_7_1_B, layoutID: 127, channels: 8, name: "MPEG_7_1_B"),
        Row(tag: .mpeg_7_1_C, layoutID: 128, channels: 8, name: "MPEG_7_1_C"),
        Row(tag: .itu_2_1, layoutID: 131, channels: 3, name: "ITU_2_1"),
        Row(tag: .dvd_4, layoutID: 133, channels: 3, name: "DVD_4"),
        Row(tag: .audioUnit_7_0_Front, layoutID: 148, channels: 7, name: "AudioUnit_7_0_Front"),
        Row(tag: .aac_6_0, layoutID: 141, channels: 6, name: "AAC_6_0"),
        Row(tag: .aacOctagonal, layoutID: 144, channels: 8, name: "AAC_Octagonal"),
        Row(tag: .aac_7_1_C, layoutID: 184, channels: 8, name: "AAC_7_1_C"),
        Row(tag: .tmh_10_2_full, layoutID: 146, channels: 21, name: "TMH_10_2_full"),
        Row(tag: .ac3_3_0, layoutID: 150, channels: 3, name: "AC3_3_0"),
        Row(tag: .eac3_7_1_H, layoutID: 167, channels: 8, name: "EAC3_7_1_H"),
        Row(tag: .dts_8_1_B, layoutID: 181, channels: 9, name: "DTS_8_1_B"),
        Row(tag: .wave_4_0_B, layoutID: 185, channels: 4, name: "WAVE_4_0_B"),
        Row(tag: .wave_7_1, layoutID: 189, channels: 8, name: "WAVE_7_1"),
        Row(tag: .atmos_9_1_6, layoutID: 193, channels: 16, name: "Atmos_9_1_6"),
        Row(tag: .ogg_5_0, layoutID: 212, channels: 5, name: "Ogg_5_0"),
        Row(tag: .ogg_7_1, layoutID: 215, channels: 8, name: "Ogg_7_1"),
    ]

    @Test(arguments: rows)
    func tagMatchesTheHeader(_ row: Row) {
        #expect(row.tag.rawValue == row.layoutID << 16 | row.channels)
        #expect(row.tag.numberOfChannels == Int(row.channels))
        #expect(row.tag.name == row.name)
        #expect(row.tag.description == row.name)
        #expect(ChannelLayout.Tag(rawValue: row.tag.rawValue) == row.tag)
    }

    /// Aliases are the value they are defined as, and carry that constant's name.
    @Test func aliasesAreTheTagsTheyName() {
        let aliases: [(ChannelLayout.Tag, ChannelLayout.Tag, String)] = [
            (.mpeg_1_0, .mono, "Mono"), (.mpeg_2_0, .stereo, "Stereo"),
            (.aac_3_0, .mpeg_3_0_B, "MPEG_3_0_B"), (.aacQuadraphonic, .quadraphonic, "Quadraphonic"),
            (.aac_4_0, .mpeg_4_0_B, "MPEG_4_0_B"), (.aac_5_0, .mpeg_5_0_D, "MPEG_5_0_D"),
            (.aac_5_1, .mpeg_5_1_D, "MPEG_5_1_D"), (.aac_7_1, .mpeg_7_1_B, "MPEG_7_1_B"),
            (.wave_2_1, .dvd_4, "DVD_4"), (.wave_3_0, .mpeg_3_0_A, "MPEG_3_0_A"), (.wave_4_0_A, .itu_2_2, "ITU_2_2"),
            (.wave_5_0_A, .mpeg_5_0_A, "MPEG_5_0_A"), (.wave_5_1_A, .mpeg_5_1_A, "MPEG_5_1_A"),
            (.ogg_3_0, .ac3_3_0, "AC3_3_0"), (.ogg_4_0, .wave_4_0_B, "WAVE_4_0_B"),
        ]
        for (alias, tag, name) in aliases {
            #expect(alias == tag, "\(name)")
            #expect(alias.name == name)
        }
    }

    /// Tags that take any channel count: DiscreteInOrder (147 << 16 | n), Unknown (0xFFFF0000 | n), the
    /// HOA tags (190 and 191 << 16 | n); any other value in hexadecimal.
    @Test func tagsWithAnyChannelCount() {
        #expect(ChannelLayout.Tag.discreteInOrder(6).rawValue == 147 << 16 | 6)
        #expect(ChannelLayout.Tag.discreteInOrder(6).name == "DiscreteInOrder (6 ch)")
        #expect(ChannelLayout.Tag.discreteInOrder(6).numberOfChannels == 6)
        #expect(ChannelLayout.Tag.unknown(3).rawValue == 0xFFFF_0003)
        #expect(ChannelLayout.Tag.unknown(3).name == "Unknown (3 ch)")
        #expect(ChannelLayout.Tag.unknown(0x1_0002) == .unknown(2), "the count keeps its low 16 bits")
        #expect(ChannelLayout.Tag(rawValue: 190 << 16 | 9).name == "HOA_ACN_SN3D (9 ch)")
        #expect(ChannelLayout.Tag(rawValue: 191 << 16 | 4).name == "HOA_ACN_N3D (4 ch)")
        #expect(ChannelLayout.Tag(rawValue: 0x00FA_0002).name == "0x00FA0002 (2 ch)")
    }

    /// A layout counts its channels from the tag, or from the bitmap or descriptions the tag defers to.
    @Test func layoutChannelCount() {
        #expect(ChannelLayout(tag: .mpeg_5_1_A).numberOfChannels == 6)
        #expect(ChannelLayout(tag: .useChannelBitmap, bitmap: 0x3F).numberOfChannels == 6)
        #expect(ChannelLayout(tag: .useChannelBitmap, bitmap: 0x3F).channelLabels == [1, 2, 3, 4, 5, 6])
        let descriptions = [ChannelDescription(label: 1), ChannelDescription(label: 2)]
        let described = ChannelLayout(tag: .useChannelDescriptions, channelDescriptions: descriptions)
        #expect(described.numberOfChannels == 2 && described.channelLabels == [1, 2])
    }

    /// Every named value has one name, and every name one value (a value shared by several constants is
    /// named once, by the constant that defines it).
    @Test func namesAreOneToOne() {
        let names = ChannelLayout.Tag.names
        #expect(Set(names.values).count == names.count)
        #expect(names.count == 98)
    }
}
