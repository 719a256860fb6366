/// Where a seek lands (the outputs of CoreAudio's `AudioFileStreamSeek`).
public struct SeekTarget: Hashable, Sendable {
    /// The packet's byte offset relative to `dataOffset`; feed from `dataOffset + byteOffset`.
    public var byteOffset: Int64
    /// `kAudioFileStreamSeekFlag_OffsetIsEstimated`.
    public var isEstimated: Bool
    /// The absolute stream offset to feed from (`dataOffset + byteOffset`).
    public var absoluteOffset: Int64

    /// Creates a target.
    public init(byteOffset: Int64, isEstimated: Bool, absoluteOffset: Int64) {
        self.byteOffset = byteOffset
        self.isEstimated = isEstimated
        self.absoluteOffset = absoluteOffset
    }
}
