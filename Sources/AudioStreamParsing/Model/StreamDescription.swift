/// The format of a stream's audio data (CoreAudio `AudioStreamBasicDescription`, 40 bytes).
///
/// As in CoreAudio, a field that is 0 means "unknown or not applicable": compressed formats have
/// `bytesPerFrame == 0` and `bitsPerChannel == 0`; variable-size packets have `bytesPerPacket == 0`;
/// variable-duration packets have `framesPerPacket == 0`.
public struct StreamDescription: Hashable, Sendable {
    /// `mSampleRate`: frames per second of the decoded stream.
    public var sampleRate: Double
    /// `mFormatID`.
    public var formatID: AudioFormat
    /// `mFormatFlags`: format-specific flags (see `LinearPCMFlags` for LPCM).
    public var formatFlags: UInt32
    /// `mBytesPerPacket`: 0 for variable-size packets.
    public var bytesPerPacket: UInt32
    /// `mFramesPerPacket`: 1 for LPCM, 0 when it varies.
    public var framesPerPacket: UInt32
    /// `mBytesPerFrame`: 0 for compressed formats.
    public var bytesPerFrame: UInt32
    /// `mChannelsPerFrame`.
    public var channelsPerFrame: UInt32
    /// `mBitsPerChannel`: valid bits per sample; 0 for compressed formats.
    public var bitsPerChannel: UInt32

    /// Creates a description; every field defaults to 0 ("unknown").
    public init(
        sampleRate: Double = 0, formatID: AudioFormat, formatFlags: UInt32 = 0, bytesPerPacket: UInt32 = 0,
        framesPerPacket: UInt32 = 0, bytesPerFrame: UInt32 = 0, channelsPerFrame: UInt32 = 0,
        bitsPerChannel: UInt32 = 0
    ) {
        self.sampleRate = sampleRate
        self.formatID = formatID
        self.formatFlags = formatFlags
        self.bytesPerPacket = bytesPerPacket
        self.framesPerPacket = framesPerPacket
        self.bytesPerFrame = bytesPerFrame
        self.channelsPerFrame = channelsPerFrame
        self.bitsPerChannel = bitsPerChannel
    }

    /// A linear PCM description as CoreAudio's `FillOutASBDForLPCM` makes it.
    ///
    /// - Parameters:
    ///   - sampleRate: frames per second (`mSampleRate`).
    ///   - channels: channels per frame (`mChannelsPerFrame`).
    ///   - validBits: bits of each sample that carry signal (`mBitsPerChannel`).
    ///   - containerBits: bits each sample occupies (8, 16, 24, 32 or 64).
    ///   - isFloat: IEEE float samples.
    ///   - isBigEndian: big-endian samples (ignored for 8-bit).
    ///   - isSigned: signed integer samples (8-bit WAVE and some others are unsigned).
    public static func linearPCM(
        sampleRate: Double, channels: UInt32, validBits: UInt32, containerBits: UInt32, isFloat: Bool,
        isBigEndian: Bool, isSigned: Bool = true
    ) -> StreamDescription {
        var flags: UInt32 = 0
        if isFloat {
            flags |= LinearPCMFlags.isFloat
        } else if isSigned {
            flags |= LinearPCMFlags.isSignedInteger
        }
        if isBigEndian && containerBits > 8 { flags |= LinearPCMFlags.isBigEndian }
        flags |= validBits == containerBits ? LinearPCMFlags.isPacked : LinearPCMFlags.isAlignedHigh
        let bytesPerFrame = channels &* (containerBits / 8)
        return StreamDescription(
            sampleRate: sampleRate, formatID: .linearPCM, formatFlags: flags, bytesPerPacket: bytesPerFrame,
            framesPerPacket: 1, bytesPerFrame: bytesPerFrame, channelsPerFrame: channels, bitsPerChannel: validBits)
    }
}

/// CoreAudio's standard linear PCM format flags (`kAudioFormatFlagIs*`, `kLinearPCMFormatFlagIs*`).
public enum LinearPCMFlags {
    /// `kAudioFormatFlagIsFloat`
    public static let isFloat: UInt32 = 0x1
    /// `kAudioFormatFlagIsBigEndian`
    public static let isBigEndian: UInt32 = 0x2
    /// `kAudioFormatFlagIsSignedInteger`
    public static let isSignedInteger: UInt32 = 0x4
    /// `kAudioFormatFlagIsPacked`
    public static let isPacked: UInt32 = 0x8
    /// `kAudioFormatFlagIsAlignedHigh`
    public static let isAlignedHigh: UInt32 = 0x10
    /// `kAudioFormatFlagIsNonInterleaved`
    public static let isNonInterleaved: UInt32 = 0x20
    /// `kAudioFormatFlagIsNonMixable`
    public static let isNonMixable: UInt32 = 0x40
    /// `kAudioFormatFlagsAreAllClear`
    public static let areAllClear: UInt32 = 0x8000_0000
}

/// One decodable layer of a stream (CoreAudio `AudioFormatListItem`).
public struct FormatListItem: Hashable, Sendable {
    /// `mASBD`.
    public var streamDescription: StreamDescription
    /// `mChannelLayoutTag` (0 when the stream has no layout).
    public var channelLayoutTag: ChannelLayout.Tag

    /// Creates an item.
    public init(streamDescription: StreamDescription, channelLayoutTag: ChannelLayout.Tag) {
        self.streamDescription = streamDescription
        self.channelLayoutTag = channelLayoutTag
    }
}
