/// A channel layout (CoreAudio `AudioChannelLayout`).
///
/// `tag` is an `AudioChannelLayoutTag` (``Tag``): a standard layout with its channel count, or
/// ``Tag/useChannelBitmap`` / ``Tag/useChannelDescriptions``, which defer to `bitmap` or
/// `channelDescriptions`.
public struct ChannelLayout: Hashable, Sendable {
    /// `mChannelLayoutTag`.
    public var tag: Tag
    /// `mChannelBitmap` (meaningful when `tag == .useChannelBitmap`).
    public var bitmap: UInt32
    /// `mChannelDescriptions`.
    public var channelDescriptions: [ChannelDescription]

    /// Creates a layout.
    public init(tag: Tag, bitmap: UInt32 = 0, channelDescriptions: [ChannelDescription] = []) {
        self.tag = tag
        self.bitmap = bitmap
        self.channelDescriptions = channelDescriptions
    }

    /// The number of channels the layout describes, when it can be told.
    public var numberOfChannels: Int {
        switch tag {
        case .useChannelDescriptions: return channelDescriptions.count
        case .useChannelBitmap: return bitmap.nonzeroBitCount
        default: return tag.numberOfChannels
        }
    }

    /// Channel labels, in order: from the descriptions, or the bits of the bitmap (WAVE order).
    public var channelLabels: [UInt32] {
        switch tag {
        case .useChannelDescriptions:
            return channelDescriptions.map(\.label)
        case .useChannelBitmap:
            // kAudioChannelBit_Left (bit 0) maps to kAudioChannelLabel_Left (1), and so on.
            return (0..<32).filter { bitmap & (1 << $0) != 0 }.map { UInt32($0) + 1 }
        default:
            return []
        }
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
