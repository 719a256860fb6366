extension ChannelLayout {
    /// A channel layout tag (CoreAudio `AudioChannelLayoutTag`): the `mChannelLayoutTag` of an
    /// `AudioChannelLayout` and of an `AudioFormatListItem`.
    ///
    /// Apple's `CoreAudioBaseTypes.h` builds a tag as `(layout id << 16) | channel count`, so the low 16
    /// bits are the channel count (`AudioChannelLayoutTag_GetNumberOfChannels`), except for the two tags
    /// that defer to the layout's other fields:
    ///
    /// | Swift name               | CoreAudio constant (`kAudioChannelLayoutTag_…`) | value                |
    /// | ------------------------ | ----------------------------------------------- | -------------------- |
    /// | `useChannelDescriptions` | `UseChannelDescriptions`                        | 0                    |
    /// | `useChannelBitmap`       | `UseChannelBitmap`                              | 1 << 16              |
    /// | `mono` … `cube`          | `Mono` … `Cube` (general layouts)               | 100 … 112 << 16 \| n |
    /// | `discreteInOrder(_:)`    | `DiscreteInOrder`, ORed with the channel count  | 147 << 16 \| n       |
    /// | `unknown(_:)`            | `Unknown`, ORed with the channel count          | 0xFFFF0000 \| n      |
    ///
    /// The MPEG, ITU, DVD, AudioUnit, AAC, TMH, AC-3, E-AC-3, DTS, WAVE, Atmos and Ogg layouts
    /// (`mpeg_5_1_A`, `aac_6_0`, `ogg_5_1` …) are in `ChannelLayout+StandardTags.swift`.
    ///
    /// The set is open: any `UInt32` is a tag (a CAF or MP4 `chan` chunk may carry one this library
    /// does not name). ``name`` spells a tag as its constant in Apple's header.
    public struct Tag: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The `AudioChannelLayoutTag` value.
        public var rawValue: UInt32
        /// Wraps a raw `AudioChannelLayoutTag`.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `(layoutID << 16) | channels`, as Apple's header writes its tags.
        init(layoutID: UInt32, channels: UInt32) { self.rawValue = layoutID << 16 | channels }

        /// `kAudioChannelLayoutTag_UseChannelDescriptions` (0): the layout's channel descriptions
        /// define the channels.
        public static let useChannelDescriptions = Self(layoutID: 0, channels: 0)
        /// `kAudioChannelLayoutTag_UseChannelBitmap` (1 << 16): the layout's channel bitmap
        /// (`kAudioChannelBit_*`, the WAVE channel mask) defines the channels.
        public static let useChannelBitmap = Self(layoutID: 1, channels: 0)

        /// 0 in a format list item (`AudioFormatListItem.mChannelLayoutTag`) of a stream without a
        /// layout: numerically `useChannelDescriptions`, with no descriptions to use.
        static let noLayout = Self(rawValue: 0)

        // MARK: General layouts

        /// `kAudioChannelLayoutTag_Mono` (100 << 16 | 1): C.
        public static let mono = Self(layoutID: 100, channels: 1)
        /// `kAudioChannelLayoutTag_Stereo` (101 << 16 | 2): L R, for loudspeakers.
        public static let stereo = Self(layoutID: 101, channels: 2)
        /// `kAudioChannelLayoutTag_StereoHeadphones` (102 << 16 | 2): L R, for headphones.
        public static let stereoHeadphones = Self(layoutID: 102, channels: 2)
        /// `kAudioChannelLayoutTag_MatrixStereo` (103 << 16 | 2): Lt Rt, matrix-encoded stereo.
        public static let matrixStereo = Self(layoutID: 103, channels: 2)
        /// `kAudioChannelLayoutTag_MidSide` (104 << 16 | 2): mid, side.
        public static let midSide = Self(layoutID: 104, channels: 2)
        /// `kAudioChannelLayoutTag_XY` (105 << 16 | 2): X Y, a coincident microphone pair.
        public static let xy = Self(layoutID: 105, channels: 2)
        /// `kAudioChannelLayoutTag_Binaural` (106 << 16 | 2): L R, binaural.
        public static let binaural = Self(layoutID: 106, channels: 2)
        /// `kAudioChannelLayoutTag_Ambisonic_B_Format` (107 << 16 | 4): W X Y Z.
        public static let ambisonicBFormat = Self(layoutID: 107, channels: 4)
        /// `kAudioChannelLayoutTag_Quadraphonic` (108 << 16 | 4): L R Ls Rs, 90° apart.
        public static let quadraphonic = Self(layoutID: 108, channels: 4)
        /// `kAudioChannelLayoutTag_Pentagonal` (109 << 16 | 5): L R Ls Rs C, 72° apart.
        public static let pentagonal = Self(layoutID: 109, channels: 5)
        /// `kAudioChannelLayoutTag_Hexagonal` (110 << 16 | 6): L R Ls Rs C Cs, 60° apart.
        public static let hexagonal = Self(layoutID: 110, channels: 6)
        /// `kAudioChannelLayoutTag_Octagonal` (111 << 16 | 8): L R Ls Rs C Cs Lw Rw, 45° apart.
        public static let octagonal = Self(layoutID: 111, channels: 8)
        /// `kAudioChannelLayoutTag_Cube` (112 << 16 | 8): L R Rls Rrs, then the same four on top.
        public static let cube = Self(layoutID: 112, channels: 8)

        // MARK: Any channel count

        /// The layout id of `kAudioChannelLayoutTag_DiscreteInOrder`.
        static let discreteInOrderID: UInt32 = 147
        /// The layout id of `kAudioChannelLayoutTag_Unknown`.
        static let unknownID: UInt32 = 0xFFFF

        /// `kAudioChannelLayoutTag_DiscreteInOrder` (147 << 16) ORed with `channels`: channels in order,
        /// with no position.
        ///
        /// - Parameter channels: the channel count (its low 16 bits are used).
        /// - Returns: the tag.
        public static func discreteInOrder(_ channels: UInt32) -> Self {
            Self(layoutID: discreteInOrderID, channels: channels & 0xFFFF)
        }

        /// `kAudioChannelLayoutTag_Unknown` (0xFFFF0000) ORed with `channels`: a channel count without a
        /// layout.
        ///
        /// - Parameter channels: the channel count (its low 16 bits are used).
        /// - Returns: the tag.
        public static func unknown(_ channels: UInt32) -> Self {
            Self(layoutID: unknownID, channels: channels & 0xFFFF)
        }

        // MARK: Properties

        /// The channel count the tag states: its low 16 bits (`AudioChannelLayoutTag_GetNumberOfChannels`).
        /// 0 for `useChannelDescriptions` and `useChannelBitmap`, whose channels are counted from the
        /// layout's descriptions or bitmap (``ChannelLayout/numberOfChannels``).
        public var numberOfChannels: Int { Int(rawValue & 0xFFFF) }

        /// The tag's name: its constant in Apple's `CoreAudioBaseTypes.h` without the
        /// `kAudioChannelLayoutTag_` prefix, e.g. `Stereo`, `MPEG_5_1_A`, `UseChannelBitmap`.
        ///
        /// A value that several constants share is named by the one that defines it (`AAC_5_1` is
        /// defined as `MPEG_5_1_D`, so ``mpeg_5_1_D`` and ``aac_5_1`` are both `MPEG_5_1_D`). Tags that
        /// take any channel count give it: `DiscreteInOrder (6 ch)`, `Unknown (3 ch)`,
        /// `HOA_ACN_SN3D (9 ch)`, `HOA_ACN_N3D (9 ch)`. Any other value is shown in hexadecimal with
        /// its channel count, e.g. `0x00FA0002 (2 ch)`.
        public var name: String {
            if let name = Self.names[rawValue] { return name }
            let count = " (\(numberOfChannels) ch)"
            switch rawValue >> 16 {
            case Self.discreteInOrderID: return "DiscreteInOrder" + count
            case Self.unknownID: return "Unknown" + count
            case 190: return "HOA_ACN_SN3D" + count
            case 191: return "HOA_ACN_N3D" + count
            default:
                let digits = String(rawValue, radix: 16, uppercase: true)
                return "0x" + String(repeating: "0", count: 8 - digits.count) + digits + count
            }
        }

        /// The ``name``.
        public var description: String { name }
    }
}
