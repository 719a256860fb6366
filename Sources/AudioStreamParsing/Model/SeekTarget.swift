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

/// Where the last seek landed: the index its first packet was labelled with and, after an estimated
/// seek, its true index once the stream tells it (`AudioStreamParser.seekLanding`).
public struct SeekLanding: Hashable, Sendable {
    /// The packet index the seek asked for: the first packet delivered after it carries this index.
    public var labelledIndex: Int64
    /// The true index of that first packet: equal to `labelledIndex` after an exact seek; after an
    /// estimated one `nil` until known (a FLAC or fixed-blocksize Ogg FLAC frame number tells it at once;
    /// an MP3 stream whose header declares its frame count, or an ADTS stream whose count a whole pass
    /// told, tells it at `finish()`, when every packet from the landing to the end was delivered), and
    /// never known for Ogg Vorbis and Opus (a granule position corrects the landing's *frame* instead:
    /// `packetToFrame(labelledIndex)` becomes exact).
    public var trueIndex: Int64?

    /// Creates a landing.
    public init(labelledIndex: Int64, trueIndex: Int64?) {
        self.labelledIndex = labelledIndex
        self.trueIndex = trueIndex
    }

    /// `trueIndex − labelledIndex` when the true index is known: add it to the indices of the packets
    /// delivered since the seek to get their true indices.
    public var indexCorrection: Int64? { trueIndex.map { $0 - labelledIndex } }
}
