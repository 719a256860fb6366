/// Separates the audio bytes of an ICY (Shoutcast/Icecast) HTTP body from its interleaved metadata
/// blocks.
///
/// When the client sent `Icy-MetaData: 1` and the server answered `icy-metaint: N`, the body is
///
/// ```
/// +----------------+---+-----------------+----------------+---+---------
/// | N audio bytes  | L | L × 16 bytes    | N audio bytes  | L | …
/// |                |   | metadata, NUL-  |                |   |
/// |                |   | padded (L may   |                |   |
/// |                |   | be 0: no change)|                |   |
/// +----------------+---+-----------------+----------------+---+---------
/// ```
///
/// Feed the body in chunks of any size (including 1 byte and 0 bytes); each call returns the audio
/// byte ranges of the chunk (to pass to the parser, zero-copy) and the metadata blocks completed in
/// it, each with the audio offset where it sits (the number of audio bytes before it). Metadata
/// blocks of length 0, or whose bytes hold no field, are "no change" and are not reported. At most
/// one block (≤ 4,080 bytes) is buffered.
public struct ICYMetadataDemuxer: Sendable {
    /// What a chunk holds, in order.
    public enum Segment: Hashable, Sendable {
        /// Audio bytes: a range of offsets from the start of the chunk passed to `demux`.
        case audio(Range<Int>)
        /// A complete, non-empty metadata block; `audioOffset` is the number of audio bytes before it
        /// in the whole body (the offset in the stream the parser sees).
        case metadata(ICYMetadata, audioOffset: Int64)
    }

    private enum State: Sendable {
        /// Inside audio: `remaining` bytes until the next length byte.
        case audio(remaining: Int)
        /// The next byte is a block's length (in 16-byte units).
        case lengthByte
        /// Inside a block: `remaining` bytes still to come after `block`.
        case metadata(remaining: Int, block: [UInt8])
    }

    /// The `icy-metaint` interval: audio bytes between metadata blocks.
    public let metaInterval: Int
    /// Audio bytes returned so far.
    public private(set) var audioByteCount: Int64 = 0
    /// Metadata blocks seen so far, including empty ones.
    public private(set) var metadataBlockCount = 0
    private var state: State

    /// Creates a demuxer for a body that starts at its first audio byte.
    ///
    /// - Parameter metaInterval: the `icy-metaint` header value (see ``ICYHeaders``);
    ///   must be positive (values below 1 are treated as 1).
    public init(metaInterval: Int) {
        self.metaInterval = max(1, metaInterval)
        state = .audio(remaining: self.metaInterval)
    }

    /// Splits the next chunk of the body (see the public `demux(_:)`).
    mutating func demux(borrowed chunk: BorrowedBytes) -> [Segment] {
        var segments: [Segment] = []
        var i = 0
        let count = chunk.count
        while i < count {
            switch state {
            case .audio(let remaining):
                let n = min(remaining, count - i)
                segments.append(.audio(i..<(i + n)))
                audioByteCount += Int64(n)
                i += n
                state = remaining == n ? .lengthByte : .audio(remaining: remaining - n)
            case .lengthByte:
                let length = Int(chunk[i]) * 16
                i += 1
                metadataBlockCount += 1
                state = length == 0 ? .audio(remaining: metaInterval) : .metadata(remaining: length, block: [])
            case .metadata(let remaining, var block):
                // Drop the state's reference first, so `block` grows in place instead of being copied on
                // every chunk (quadratic when the body arrives a few bytes at a time).
                state = .lengthByte
                let n = min(remaining, count - i)
                if block.isEmpty { block.reserveCapacity(remaining) }
                block.append(contentsOf: chunk.extracting(i..<(i + n)))
                i += n
                if remaining == n {
                    let metadata = ICYMetadata(parsing: block)
                    if !metadata.fields.isEmpty {
                        segments.append(.metadata(metadata, audioOffset: audioByteCount))
                    }
                    state = .audio(remaining: metaInterval)
                } else {
                    state = .metadata(remaining: remaining - n, block: block)
                }
            }
        }
        return segments
    }

    /// Splits the next chunk of the body (any contiguous or non-contiguous byte collection).
    public mutating func demux(_ chunk: some Collection<UInt8>) -> [Segment] {
        withBorrowedBytes(of: chunk) { demux(borrowed: $0) }
    }

    /// Splits the next chunk into a copy of its audio bytes and its metadata blocks (convenience for
    /// callers that do not need zero-copy ranges).
    public mutating func separate(_ chunk: [UInt8]) -> (audio: [UInt8], metadata: [(ICYMetadata, audioOffset: Int64)]) {
        var audio: [UInt8] = []
        var metadata: [(ICYMetadata, audioOffset: Int64)] = []
        for segment in demux(chunk) {
            switch segment {
            case .audio(let range): audio.append(contentsOf: chunk[range])
            case .metadata(let m, let offset): metadata.append((m, offset))
            }
        }
        return (audio, metadata)
    }
}
