/// The standard layout tags of Apple's `CoreAudioBaseTypes.h`, by family: every tag the header defines
/// with its own value (which ``ChannelLayout/Tag/name`` spells), and the aliases of the families this
/// library produces (`MPEG_1_0`, `MPEG_2_0`, `AAC_*`, `WAVE_*`, `Ogg_*`).
///
/// | family      | CoreAudio constants (`kAudioChannelLayoutTag_…`)                   | layout ids          |
/// | ----------- | ------------------------------------------------------------------ | ------------------- |
/// | MPEG        | `MPEG_3_0_A` … `MPEG_7_1_C`, `Emagic_Default_7_1`, `SMPTE_DTV`     | 113 … 130           |
/// | ITU         | `ITU_2_1`, `ITU_2_2`                                               | 131, 132            |
/// | DVD         | `DVD_4`, `DVD_5`, `DVD_6`, `DVD_10`, `DVD_11`, `DVD_18`            | 133 … 138           |
/// | Audio units | `AudioUnit_6_0`, `AudioUnit_7_0`, `AudioUnit_7_0_Front`            | 139, 140, 148       |
/// | AAC         | `AAC_6_0` … `AAC_Octagonal`, `AAC_7_1_B`, `AAC_7_1_C` (+ aliases)  | 141 … 144, 183, 184 |
/// | TMH         | `TMH_10_2_std`, `TMH_10_2_full`                                    | 145, 146            |
/// | AC-3        | `AC3_1_0_1` … `AC3_3_1_1`                                          | 149 … 154           |
/// | E-AC-3      | `EAC_6_0_A`, `EAC_7_0_A`, `EAC3_6_1_A` … `EAC3_7_1_H`              | 155 … 167           |
/// | DTS         | `DTS_3_1` … `DTS_6_1_D`                                            | 168 … 182           |
/// | WAVE        | `WAVE_4_0_B`, `WAVE_5_0_B`, `WAVE_5_1_B`, `WAVE_6_1`, `WAVE_7_1` (+ aliases) | 185 … 189 |
/// | Atmos       | `Atmos_7_1_4`, `Atmos_9_1_6`, `Atmos_5_1_2`                        | 192 … 194           |
/// | Ogg         | `Ogg_5_0` … `Ogg_7_1` (+ aliases `Ogg_3_0`, `Ogg_4_0`)             | 212 … 215           |
///
/// Swift names: the constant in lower camel case where it is a word (`emagicDefault_7_1`, `smpteDTV`,
/// `aacOctagonal`), else its family prefix lowercased with the digits and underscores kept
/// (`mpeg_5_1_A`, `eac3_7_1_H`, `ogg_5_1`).
///
/// Channel abbreviations are the header's: L left, R right, C center, LFE low-frequency effects,
/// Ls/Rs left/right surround, Cs center surround, Rls/Rrs rear left/right surround, Lw/Rw left/right
/// wide, Lsd/Rsd left/right surround direct, Csd center surround direct, Lc/Rc left/right center,
/// Ts top surround, Vhl/Vhc/Vhr vertical height left/center/right, Ltm/Rtm left/right top middle,
/// Ltr/Rtr left/right top rear, Lt/Rt matrix-encoded left/right total.
extension ChannelLayout.Tag {
    // MARK: MPEG

    /// `kAudioChannelLayoutTag_MPEG_1_0`: the same tag as ``mono`` (C).
    public static let mpeg_1_0 = mono
    /// `kAudioChannelLayoutTag_MPEG_2_0`: the same tag as ``stereo`` (L R, for loudspeakers).
    public static let mpeg_2_0 = stereo
    /// `kAudioChannelLayoutTag_MPEG_3_0_A` (113 << 16 | 3): L R C.
    public static let mpeg_3_0_A = Self(layoutID: 113, channels: 3)
    /// `kAudioChannelLayoutTag_MPEG_3_0_B` (114 << 16 | 3): C L R.
    public static let mpeg_3_0_B = Self(layoutID: 114, channels: 3)
    /// `kAudioChannelLayoutTag_MPEG_4_0_A` (115 << 16 | 4): L R C Cs.
    public static let mpeg_4_0_A = Self(layoutID: 115, channels: 4)
    /// `kAudioChannelLayoutTag_MPEG_4_0_B` (116 << 16 | 4): C L R Cs.
    public static let mpeg_4_0_B = Self(layoutID: 116, channels: 4)
    /// `kAudioChannelLayoutTag_MPEG_5_0_A` (117 << 16 | 5): L R C Ls Rs.
    public static let mpeg_5_0_A = Self(layoutID: 117, channels: 5)
    /// `kAudioChannelLayoutTag_MPEG_5_0_B` (118 << 16 | 5): L R Ls Rs C.
    public static let mpeg_5_0_B = Self(layoutID: 118, channels: 5)
    /// `kAudioChannelLayoutTag_MPEG_5_0_C` (119 << 16 | 5): L C R Ls Rs.
    public static let mpeg_5_0_C = Self(layoutID: 119, channels: 5)
    /// `kAudioChannelLayoutTag_MPEG_5_0_D` (120 << 16 | 5): C L R Ls Rs.
    public static let mpeg_5_0_D = Self(layoutID: 120, channels: 5)
    /// `kAudioChannelLayoutTag_MPEG_5_1_A` (121 << 16 | 6): L R C LFE Ls Rs.
    public static let mpeg_5_1_A = Self(layoutID: 121, channels: 6)
    /// `kAudioChannelLayoutTag_MPEG_5_1_B` (122 << 16 | 6): L R Ls Rs C LFE.
    public static let mpeg_5_1_B = Self(layoutID: 122, channels: 6)
    /// `kAudioChannelLayoutTag_MPEG_5_1_C` (123 << 16 | 6): L C R Ls Rs LFE.
    public static let mpeg_5_1_C = Self(layoutID: 123, channels: 6)
    /// `kAudioChannelLayoutTag_MPEG_5_1_D` (124 << 16 | 6): C L R Ls Rs LFE.
    public static let mpeg_5_1_D = Self(layoutID: 124, channels: 6)
    /// `kAudioChannelLayoutTag_MPEG_6_1_A` (125 << 16 | 7): L R C LFE Ls Rs Cs.
    public static let mpeg_6_1_A = Self(layoutID: 125, channels: 7)
    /// `kAudioChannelLayoutTag_MPEG_7_1_A` (126 << 16 | 8): L R C LFE Ls Rs Lc Rc.
    public static let mpeg_7_1_A = Self(layoutID: 126, channels: 8)
    /// `kAudioChannelLayoutTag_MPEG_7_1_B` (127 << 16 | 8): C Lc Rc L R Ls Rs LFE.
    public static let mpeg_7_1_B = Self(layoutID: 127, channels: 8)
    /// `kAudioChannelLayoutTag_MPEG_7_1_C` (128 << 16 | 8): L R C LFE Ls Rs Rls Rrs.
    public static let mpeg_7_1_C = Self(layoutID: 128, channels: 8)
    /// `kAudioChannelLayoutTag_Emagic_Default_7_1` (129 << 16 | 8): L R Ls Rs C LFE Lc Rc.
    public static let emagicDefault_7_1 = Self(layoutID: 129, channels: 8)
    /// `kAudioChannelLayoutTag_SMPTE_DTV` (130 << 16 | 8): L R C LFE Ls Rs Lt Rt.
    public static let smpteDTV = Self(layoutID: 130, channels: 8)

    // MARK: ITU

    /// `kAudioChannelLayoutTag_ITU_2_1` (131 << 16 | 3): L R Cs.
    public static let itu_2_1 = Self(layoutID: 131, channels: 3)
    /// `kAudioChannelLayoutTag_ITU_2_2` (132 << 16 | 4): L R Ls Rs.
    public static let itu_2_2 = Self(layoutID: 132, channels: 4)

    // MARK: DVD

    /// `kAudioChannelLayoutTag_DVD_4` (133 << 16 | 3): L R LFE.
    public static let dvd_4 = Self(layoutID: 133, channels: 3)
    /// `kAudioChannelLayoutTag_DVD_5` (134 << 16 | 4): L R LFE Cs.
    public static let dvd_5 = Self(layoutID: 134, channels: 4)
    /// `kAudioChannelLayoutTag_DVD_6` (135 << 16 | 5): L R LFE Ls Rs.
    public static let dvd_6 = Self(layoutID: 135, channels: 5)
    /// `kAudioChannelLayoutTag_DVD_10` (136 << 16 | 4): L R C LFE.
    public static let dvd_10 = Self(layoutID: 136, channels: 4)
    /// `kAudioChannelLayoutTag_DVD_11` (137 << 16 | 5): L R C LFE Cs.
    public static let dvd_11 = Self(layoutID: 137, channels: 5)
    /// `kAudioChannelLayoutTag_DVD_18` (138 << 16 | 5): L R Ls Rs LFE.
    public static let dvd_18 = Self(layoutID: 138, channels: 5)

    // MARK: Audio units

    /// `kAudioChannelLayoutTag_AudioUnit_6_0` (139 << 16 | 6): L R Ls Rs C Cs.
    public static let audioUnit_6_0 = Self(layoutID: 139, channels: 6)
    /// `kAudioChannelLayoutTag_AudioUnit_7_0` (140 << 16 | 7): L R Ls Rs C Rls Rrs.
    public static let audioUnit_7_0 = Self(layoutID: 140, channels: 7)
    /// `kAudioChannelLayoutTag_AudioUnit_7_0_Front` (148 << 16 | 7): L R Ls Rs C Lc Rc.
    public static let audioUnit_7_0_Front = Self(layoutID: 148, channels: 7)

    // MARK: AAC

    /// `kAudioChannelLayoutTag_AAC_3_0`: the same tag as ``mpeg_3_0_B`` (C L R).
    public static let aac_3_0 = mpeg_3_0_B
    /// `kAudioChannelLayoutTag_AAC_Quadraphonic`: the same tag as ``quadraphonic`` (L R Ls Rs, 90° apart).
    public static let aacQuadraphonic = quadraphonic
    /// `kAudioChannelLayoutTag_AAC_4_0`: the same tag as ``mpeg_4_0_B`` (C L R Cs).
    public static let aac_4_0 = mpeg_4_0_B
    /// `kAudioChannelLayoutTag_AAC_5_0`: the same tag as ``mpeg_5_0_D`` (C L R Ls Rs).
    public static let aac_5_0 = mpeg_5_0_D
    /// `kAudioChannelLayoutTag_AAC_5_1`: the same tag as ``mpeg_5_1_D`` (C L R Ls Rs LFE).
    public static let aac_5_1 = mpeg_5_1_D
    /// `kAudioChannelLayoutTag_AAC_6_0` (141 << 16 | 6): C L R Ls Rs Cs.
    public static let aac_6_0 = Self(layoutID: 141, channels: 6)
    /// `kAudioChannelLayoutTag_AAC_6_1` (142 << 16 | 7): C L R Ls Rs Cs LFE.
    public static let aac_6_1 = Self(layoutID: 142, channels: 7)
    /// `kAudioChannelLayoutTag_AAC_7_0` (143 << 16 | 7): C L R Ls Rs Rls Rrs.
    public static let aac_7_0 = Self(layoutID: 143, channels: 7)
    /// `kAudioChannelLayoutTag_AAC_7_1`: the same tag as ``mpeg_7_1_B`` (C Lc Rc L R Ls Rs LFE).
    public static let aac_7_1 = mpeg_7_1_B
    /// `kAudioChannelLayoutTag_AAC_7_1_B` (183 << 16 | 8): C L R Ls Rs Rls Rrs LFE.
    public static let aac_7_1_B = Self(layoutID: 183, channels: 8)
    /// `kAudioChannelLayoutTag_AAC_7_1_C` (184 << 16 | 8): C L R Ls Rs LFE Vhl Vhr.
    public static let aac_7_1_C = Self(layoutID: 184, channels: 8)
    /// `kAudioChannelLayoutTag_AAC_Octagonal` (144 << 16 | 8): C L R Ls Rs Rls Rrs Cs.
    public static let aacOctagonal = Self(layoutID: 144, channels: 8)

    // MARK: TMH

    /// `kAudioChannelLayoutTag_TMH_10_2_std` (145 << 16 | 16): L R C Vhc Lsd Rsd Ls Rs Vhl Vhr Lw Rw Csd Cs LFE1 LFE2.
    public static let tmh_10_2_std = Self(layoutID: 145, channels: 16)
    /// `kAudioChannelLayoutTag_TMH_10_2_full` (146 << 16 | 21): TMH_10_2_std plus Lc Rc HI VI Haptic.
    public static let tmh_10_2_full = Self(layoutID: 146, channels: 21)

    // MARK: AC-3

    /// `kAudioChannelLayoutTag_AC3_1_0_1` (149 << 16 | 2): C LFE.
    public static let ac3_1_0_1 = Self(layoutID: 149, channels: 2)
    /// `kAudioChannelLayoutTag_AC3_3_0` (150 << 16 | 3): L C R.
    public static let ac3_3_0 = Self(layoutID: 150, channels: 3)
    /// `kAudioChannelLayoutTag_AC3_3_1` (151 << 16 | 4): L C R Cs.
    public static let ac3_3_1 = Self(layoutID: 151, channels: 4)
    /// `kAudioChannelLayoutTag_AC3_3_0_1` (152 << 16 | 4): L C R LFE.
    public static let ac3_3_0_1 = Self(layoutID: 152, channels: 4)
    /// `kAudioChannelLayoutTag_AC3_2_1_1` (153 << 16 | 4): L R Cs LFE.
    public static let ac3_2_1_1 = Self(layoutID: 153, channels: 4)
    /// `kAudioChannelLayoutTag_AC3_3_1_1` (154 << 16 | 5): L C R Cs LFE.
    public static let ac3_3_1_1 = Self(layoutID: 154, channels: 5)

    // MARK: E-AC-3

    /// `kAudioChannelLayoutTag_EAC_6_0_A` (155 << 16 | 6): L C R Ls Rs Cs.
    public static let eac_6_0_A = Self(layoutID: 155, channels: 6)
    /// `kAudioChannelLayoutTag_EAC_7_0_A` (156 << 16 | 7): L C R Ls Rs Rls Rrs.
    public static let eac_7_0_A = Self(layoutID: 156, channels: 7)
    /// `kAudioChannelLayoutTag_EAC3_6_1_A` (157 << 16 | 7): L C R Ls Rs LFE Cs.
    public static let eac3_6_1_A = Self(layoutID: 157, channels: 7)
    /// `kAudioChannelLayoutTag_EAC3_6_1_B` (158 << 16 | 7): L C R Ls Rs LFE Ts.
    public static let eac3_6_1_B = Self(layoutID: 158, channels: 7)
    /// `kAudioChannelLayoutTag_EAC3_6_1_C` (159 << 16 | 7): L C R Ls Rs LFE Vhc.
    public static let eac3_6_1_C = Self(layoutID: 159, channels: 7)
    /// `kAudioChannelLayoutTag_EAC3_7_1_A` (160 << 16 | 8): L C R Ls Rs LFE Rls Rrs.
    public static let eac3_7_1_A = Self(layoutID: 160, channels: 8)
    /// `kAudioChannelLayoutTag_EAC3_7_1_B` (161 << 16 | 8): L C R Ls Rs LFE Lc Rc.
    public static let eac3_7_1_B = Self(layoutID: 161, channels: 8)
    /// `kAudioChannelLayoutTag_EAC3_7_1_C` (162 << 16 | 8): L C R Ls Rs LFE Lsd Rsd.
    public static let eac3_7_1_C = Self(layoutID: 162, channels: 8)
    /// `kAudioChannelLayoutTag_EAC3_7_1_D` (163 << 16 | 8): L C R Ls Rs LFE Lw Rw.
    public static let eac3_7_1_D = Self(layoutID: 163, channels: 8)
    /// `kAudioChannelLayoutTag_EAC3_7_1_E` (164 << 16 | 8): L C R Ls Rs LFE Vhl Vhr.
    public static let eac3_7_1_E = Self(layoutID: 164, channels: 8)
    /// `kAudioChannelLayoutTag_EAC3_7_1_F` (165 << 16 | 8): L C R Ls Rs LFE Cs Ts.
    public static let eac3_7_1_F = Self(layoutID: 165, channels: 8)
    /// `kAudioChannelLayoutTag_EAC3_7_1_G` (166 << 16 | 8): L C R Ls Rs LFE Cs Vhc.
    public static let eac3_7_1_G = Self(layoutID: 166, channels: 8)
    /// `kAudioChannelLayoutTag_EAC3_7_1_H` (167 << 16 | 8): L C R Ls Rs LFE Ts Vhc.
    public static let eac3_7_1_H = Self(layoutID: 167, channels: 8)

    // MARK: DTS

    /// `kAudioChannelLayoutTag_DTS_3_1` (168 << 16 | 4): C L R LFE.
    public static let dts_3_1 = Self(layoutID: 168, channels: 4)
    /// `kAudioChannelLayoutTag_DTS_4_1` (169 << 16 | 5): C L R Cs LFE.
    public static let dts_4_1 = Self(layoutID: 169, channels: 5)
    /// `kAudioChannelLayoutTag_DTS_6_0_A` (170 << 16 | 6): Lc Rc L R Ls Rs.
    public static let dts_6_0_A = Self(layoutID: 170, channels: 6)
    /// `kAudioChannelLayoutTag_DTS_6_0_B` (171 << 16 | 6): C L R Rls Rrs Ts.
    public static let dts_6_0_B = Self(layoutID: 171, channels: 6)
    /// `kAudioChannelLayoutTag_DTS_6_0_C` (172 << 16 | 6): C Cs L R Rls Rrs.
    public static let dts_6_0_C = Self(layoutID: 172, channels: 6)
    /// `kAudioChannelLayoutTag_DTS_6_1_A` (173 << 16 | 7): Lc Rc L R Ls Rs LFE.
    public static let dts_6_1_A = Self(layoutID: 173, channels: 7)
    /// `kAudioChannelLayoutTag_DTS_6_1_B` (174 << 16 | 7): C L R Rls Rrs Ts LFE.
    public static let dts_6_1_B = Self(layoutID: 174, channels: 7)
    /// `kAudioChannelLayoutTag_DTS_6_1_C` (175 << 16 | 7): C Cs L R Rls Rrs LFE.
    public static let dts_6_1_C = Self(layoutID: 175, channels: 7)
    /// `kAudioChannelLayoutTag_DTS_7_0` (176 << 16 | 7): Lc C Rc L R Ls Rs.
    public static let dts_7_0 = Self(layoutID: 176, channels: 7)
    /// `kAudioChannelLayoutTag_DTS_7_1` (177 << 16 | 8): Lc C Rc L R Ls Rs LFE.
    public static let dts_7_1 = Self(layoutID: 177, channels: 8)
    /// `kAudioChannelLayoutTag_DTS_8_0_A` (178 << 16 | 8): Lc Rc L R Ls Rs Rls Rrs.
    public static let dts_8_0_A = Self(layoutID: 178, channels: 8)
    /// `kAudioChannelLayoutTag_DTS_8_0_B` (179 << 16 | 8): Lc C Rc L R Ls Cs Rs.
    public static let dts_8_0_B = Self(layoutID: 179, channels: 8)
    /// `kAudioChannelLayoutTag_DTS_8_1_A` (180 << 16 | 9): Lc Rc L R Ls Rs Rls Rrs LFE.
    public static let dts_8_1_A = Self(layoutID: 180, channels: 9)
    /// `kAudioChannelLayoutTag_DTS_8_1_B` (181 << 16 | 9): Lc C Rc L R Ls Cs Rs LFE.
    public static let dts_8_1_B = Self(layoutID: 181, channels: 9)
    /// `kAudioChannelLayoutTag_DTS_6_1_D` (182 << 16 | 7): C L R Ls Rs LFE Cs.
    public static let dts_6_1_D = Self(layoutID: 182, channels: 7)

    // MARK: WAVE

    /// `kAudioChannelLayoutTag_WAVE_2_1`: the same tag as ``dvd_4`` (L R LFE).
    public static let wave_2_1 = dvd_4
    /// `kAudioChannelLayoutTag_WAVE_3_0`: the same tag as ``mpeg_3_0_A`` (L R C).
    public static let wave_3_0 = mpeg_3_0_A
    /// `kAudioChannelLayoutTag_WAVE_4_0_A`: the same tag as ``itu_2_2`` (L R Ls Rs).
    public static let wave_4_0_A = itu_2_2
    /// `kAudioChannelLayoutTag_WAVE_4_0_B` (185 << 16 | 4): L R Rls Rrs.
    public static let wave_4_0_B = Self(layoutID: 185, channels: 4)
    /// `kAudioChannelLayoutTag_WAVE_5_0_A`: the same tag as ``mpeg_5_0_A`` (L R C Ls Rs).
    public static let wave_5_0_A = mpeg_5_0_A
    /// `kAudioChannelLayoutTag_WAVE_5_0_B` (186 << 16 | 5): L R C Rls Rrs.
    public static let wave_5_0_B = Self(layoutID: 186, channels: 5)
    /// `kAudioChannelLayoutTag_WAVE_5_1_A`: the same tag as ``mpeg_5_1_A`` (L R C LFE Ls Rs).
    public static let wave_5_1_A = mpeg_5_1_A
    /// `kAudioChannelLayoutTag_WAVE_5_1_B` (187 << 16 | 6): L R C LFE Rls Rrs.
    public static let wave_5_1_B = Self(layoutID: 187, channels: 6)
    /// `kAudioChannelLayoutTag_WAVE_6_1` (188 << 16 | 7): L R C LFE Cs Ls Rs.
    public static let wave_6_1 = Self(layoutID: 188, channels: 7)
    /// `kAudioChannelLayoutTag_WAVE_7_1` (189 << 16 | 8): L R C LFE Rls Rrs Ls Rs.
    public static let wave_7_1 = Self(layoutID: 189, channels: 8)

    // MARK: Atmos

    /// `kAudioChannelLayoutTag_Atmos_7_1_4` (192 << 16 | 12): L R C LFE Ls Rs Rls Rrs Vhl Vhr Ltr Rtr.
    public static let atmos_7_1_4 = Self(layoutID: 192, channels: 12)
    /// `kAudioChannelLayoutTag_Atmos_9_1_6` (193 << 16 | 16): L R C LFE Ls Rs Rls Rrs Lw Rw Vhl Vhr Ltm Rtm Ltr Rtr.
    public static let atmos_9_1_6 = Self(layoutID: 193, channels: 16)
    /// `kAudioChannelLayoutTag_Atmos_5_1_2` (194 << 16 | 8): L R C LFE Ls Rs Ltm Rtm.
    public static let atmos_5_1_2 = Self(layoutID: 194, channels: 8)

    // MARK: Ogg

    /// `kAudioChannelLayoutTag_Ogg_3_0`: the same tag as ``ac3_3_0`` (L C R).
    public static let ogg_3_0 = ac3_3_0
    /// `kAudioChannelLayoutTag_Ogg_4_0`: the same tag as ``wave_4_0_B`` (L R Rls Rrs).
    public static let ogg_4_0 = wave_4_0_B
    /// `kAudioChannelLayoutTag_Ogg_5_0` (212 << 16 | 5): L C R Rls Rrs.
    public static let ogg_5_0 = Self(layoutID: 212, channels: 5)
    /// `kAudioChannelLayoutTag_Ogg_5_1` (213 << 16 | 6): L C R Rls Rrs LFE.
    public static let ogg_5_1 = Self(layoutID: 213, channels: 6)
    /// `kAudioChannelLayoutTag_Ogg_6_1` (214 << 16 | 7): L C R Ls Rs Cs LFE.
    public static let ogg_6_1 = Self(layoutID: 214, channels: 7)
    /// `kAudioChannelLayoutTag_Ogg_7_1` (215 << 16 | 8): L C R Ls Rs Rls Rrs LFE.
    public static let ogg_7_1 = Self(layoutID: 215, channels: 8)

    // MARK: Names

    /// The name of every tag above (and of the general tags) that has its own value: its constant
    /// without the `kAudioChannelLayoutTag_` prefix.
    static let names: [UInt32: String] = [
        useChannelDescriptions.rawValue: "UseChannelDescriptions",
        useChannelBitmap.rawValue: "UseChannelBitmap",
        mono.rawValue: "Mono",
        stereo.rawValue: "Stereo",
        stereoHeadphones.rawValue: "StereoHeadphones",
        matrixStereo.rawValue: "MatrixStereo",
        midSide.rawValue: "MidSide",
        xy.rawValue: "XY",
        binaural.rawValue: "Binaural",
        ambisonicBFormat.rawValue: "Ambisonic_B_Format",
        quadraphonic.rawValue: "Quadraphonic",
        pentagonal.rawValue: "Pentagonal",
        hexagonal.rawValue: "Hexagonal",
        octagonal.rawValue: "Octagonal",
        cube.rawValue: "Cube",
        mpeg_3_0_A.rawValue: "MPEG_3_0_A",
        mpeg_3_0_B.rawValue: "MPEG_3_0_B",
        mpeg_4_0_A.rawValue: "MPEG_4_0_A",
        mpeg_4_0_B.rawValue: "MPEG_4_0_B",
        mpeg_5_0_A.rawValue: "MPEG_5_0_A",
        mpeg_5_0_B.rawValue: "MPEG_5_0_B",
        mpeg_5_0_C.rawValue: "MPEG_5_0_C",
        mpeg_5_0_D.rawValue: "MPEG_5_0_D",
        mpeg_5_1_A.rawValue: "MPEG_5_1_A",
        mpeg_5_1_B.rawValue: "MPEG_5_1_B",
        mpeg_5_1_C.rawValue: "MPEG_5_1_C",
        mpeg_5_1_D.rawValue: "MPEG_5_1_D",
        mpeg_6_1_A.rawValue: "MPEG_6_1_A",
        mpeg_7_1_A.rawValue: "MPEG_7_1_A",
        mpeg_7_1_B.rawValue: "MPEG_7_1_B",
        mpeg_7_1_C.rawValue: "MPEG_7_1_C",
        emagicDefault_7_1.rawValue: "Emagic_Default_7_1",
        smpteDTV.rawValue: "SMPTE_DTV",
        itu_2_1.rawValue: "ITU_2_1",
        itu_2_2.rawValue: "ITU_2_2",
        dvd_4.rawValue: "DVD_4",
        dvd_5.rawValue: "DVD_5",
        dvd_6.rawValue: "DVD_6",
        dvd_10.rawValue: "DVD_10",
        dvd_11.rawValue: "DVD_11",
        dvd_18.rawValue: "DVD_18",
        audioUnit_6_0.rawValue: "AudioUnit_6_0",
        audioUnit_7_0.rawValue: "AudioUnit_7_0",
        audioUnit_7_0_Front.rawValue: "AudioUnit_7_0_Front",
        aac_6_0.rawValue: "AAC_6_0",
        aac_6_1.rawValue: "AAC_6_1",
        aac_7_0.rawValue: "AAC_7_0",
        aac_7_1_B.rawValue: "AAC_7_1_B",
        aac_7_1_C.rawValue: "AAC_7_1_C",
        aacOctagonal.rawValue: "AAC_Octagonal",
        tmh_10_2_std.rawValue: "TMH_10_2_std",
        tmh_10_2_full.rawValue: "TMH_10_2_full",
        ac3_1_0_1.rawValue: "AC3_1_0_1",
        ac3_3_0.rawValue: "AC3_3_0",
        ac3_3_1.rawValue: "AC3_3_1",
        ac3_3_0_1.rawValue: "AC3_3_0_1",
        ac3_2_1_1.rawValue: "AC3_2_1_1",
        ac3_3_1_1.rawValue: "AC3_3_1_1",
        eac_6_0_A.rawValue: "EAC_6_0_A",
        eac_7_0_A.rawValue: "EAC_7_0_A",
        eac3_6_1_A.rawValue: "EAC3_6_1_A",
        eac3_6_1_B.rawValue: "EAC3_6_1_B",
        eac3_6_1_C.rawValue: "EAC3_6_1_C",
        eac3_7_1_A.rawValue: "EAC3_7_1_A",
        eac3_7_1_B.rawValue: "EAC3_7_1_B",
        eac3_7_1_C.rawValue: "EAC3_7_1_C",
        eac3_7_1_D.rawValue: "EAC3_7_1_D",
        eac3_7_1_E.rawValue: "EAC3_7_1_E",
        eac3_7_1_F.rawValue: "EAC3_7_1_F",
        eac3_7_1_G.rawValue: "EAC3_7_1_G",
        eac3_7_1_H.rawValue: "EAC3_7_1_H",
        dts_3_1.rawValue: "DTS_3_1",
        dts_4_1.rawValue: "DTS_4_1",
        dts_6_0_A.rawValue: "DTS_6_0_A",
        dts_6_0_B.rawValue: "DTS_6_0_B",
        dts_6_0_C.rawValue: "DTS_6_0_C",
        dts_6_1_A.rawValue: "DTS_6_1_A",
        dts_6_1_B.rawValue: "DTS_6_1_B",
        dts_6_1_C.rawValue: "DTS_6_1_C",
        dts_7_0.rawValue: "DTS_7_0",
        dts_7_1.rawValue: "DTS_7_1",
        dts_8_0_A.rawValue: "DTS_8_0_A",
        dts_8_0_B.rawValue: "DTS_8_0_B",
        dts_8_1_A.rawValue: "DTS_8_1_A",
        dts_8_1_B.rawValue: "DTS_8_1_B",
        dts_6_1_D.rawValue: "DTS_6_1_D",
        wave_4_0_B.rawValue: "WAVE_4_0_B",
        wave_5_0_B.rawValue: "WAVE_5_0_B",
        wave_5_1_B.rawValue: "WAVE_5_1_B",
        wave_6_1.rawValue: "WAVE_6_1",
        wave_7_1.rawValue: "WAVE_7_1",
        atmos_7_1_4.rawValue: "Atmos_7_1_4",
        atmos_9_1_6.rawValue: "Atmos_9_1_6",
        atmos_5_1_2.rawValue: "Atmos_5_1_2",
        ogg_5_0.rawValue: "Ogg_5_0",
        ogg_5_1.rawValue: "Ogg_5_1",
        ogg_6_1.rawValue: "Ogg_6_1",
        ogg_7_1.rawValue: "Ogg_7_1",
    ]
}
