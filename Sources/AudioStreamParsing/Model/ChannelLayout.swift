/// A channel layout (CoreAudio `AudioChannelLayout`).
///
/// `tag` is an `AudioChannelLayoutTag`: `(layout id << 16) | channel count`, or
/// `useChannelBitmap` / `useChannelDescriptions`.
public struct ChannelLayout: Hashable, Sendable {
    /// `mChannelLayoutTag`.
    public var tag: UInt32
    /// `mChannelBitmap` (meaningful when `tag == ChannelLayout.Tag.useChannelBitmap`).
    public var bitmap: UInt32
    /// `mChannelDescriptions`.
    public var channelDescriptions: [ChannelDescription]

    /// Creates a layout.
    public init(tag: UInt32, bitmap: UInt32 = 0, channelDescriptions: [ChannelDescription] = []) {
        self.tag = tag
        self.bitmap = bitmap
        self.channelDescriptions = channelDescriptions
    }

    /// The number of channels the layout describes, when it can be told.
    public var numberOfChannels: Int {
        switch tag {
        case Tag.useChannelDescriptions: return channelDescriptions.count
        case Tag.useChannelBitmap: return bitmap.nonzeroBitCount
        default: return Int(tag & 0xFFFF)
        }
    }

    /// Channel labels, in order: from the descriptions, or the bits of the bitmap (WAVE order).
    public var channelLabels: [UInt32] {
        switch tag {
        case Tag.useChannelDescriptions:
            return channelDescriptions.map(\.label)
        case Tag.useChannelBitmap:
            // kAudioChannelBit_Left (bit 0) maps to kAudioChannelLabel_Left (1), and so on.
            return (0..<32).filter { bitmap & (1 << $0) != 0 }.map { UInt32($0) + 1 }
        default:
            return []
        }
    }

    /// Common `AudioChannelLayoutTag` values (`kAudioChannelLayoutTag_*`).
    public enum Tag {
        /// `kAudioChannelLayoutTag_UseChannelDescriptions`
        public static let useChannelDescriptions: UInt32 = 0
        /// `kAudioChannelLayoutTag_UseChannelBitmap`
        public static let useChannelBitmap: UInt32 = 1 << 16
        /// `kAudioChannelLayoutTag_Mono`
        public static let mono: UInt32 = 100 << 16 | 1
        /// `kAudioChannelLayoutTag_Stereo`
        public static let stereo: UInt32 = 101 << 16 | 2
        /// `kAudioChannelLayoutTag_DiscreteInOrder` with `n` channels.
        public static func discreteInOrder(_ n: UInt32) -> UInt32 { 147 << 16 | (n & 0xFFFF) }
        /// `kAudioChannelLayoutTag_Unknown` with `n` channels.
        public static func unknown(_ n: UInt32) -> UInt32 { 0xFFFF_0000 | (n & 0xFFFF) }
    }
}

/// One channel of a `ChannelLayout` (CoreAudio `AudioChannelDescription`).
public struct ChannelDescription: Hashable, Sendable {
    /// `mChannelLabel` (`kAudioChannelLabel_*`).
    public var label: UInt32
    /// `mChannelFlags`.
    public var flags: UInt32
    /// `mCoordinates`.
    public var coordinates: [Float]

    /// Creates a channel description.
    public init(label: UInt32, flags: UInt32 = 0, coordinates: [Float] = [0, 0, 0]) {
        self.label = label
        self.flags = flags
        self.coordinates = coordinates
    }
}
