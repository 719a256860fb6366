/// What a format parser's `step` asks the driver to do next.
enum ParseStep: Equatable {
    /// Call `step` again: progress was made.
    case `continue`
    /// Call `step` again once at least this many bytes are readable from the current position.
    /// The count must be larger than what is readable now and at most `ParserLimits.maxBufferedBytes`.
    case needMoreData(atLeast: Int)
    /// Discard this many bytes from the current position without buffering them (they may arrive in
    /// later chunks), then call `step` again.
    case skip(Int64)
    /// The parser needs the bytes from this absolute stream offset next (an MP4 `moov` after the media
    /// data, when `ParserOptions.allowsByteRangeRequests` is set). The format parser announces
    /// `requestedByteOffset` first. An offset at or after the current position is reached by skipping
    /// the bytes in between (the caller may also jump there with `.discontinuity`); an earlier offset
    /// drops what is readable and waits for the caller to feed from that offset with `.discontinuity`.
    case request(Int64)
}

/// A per-format state machine driven by `AudioStreamParser`.
///
/// Contract:
/// - `step` looks at `context.window` from its position, and either consumes a whole unit (a chunk
///   header, a chunk, packets) and returns `.continue`, or consumes nothing and returns
///   `.needMoreData(atLeast:)` (peek, validate, commit; never consume then wait), or asks to `.skip`.
/// - A complete but invalid structure throws at once; it never waits for more bytes.
/// - `finish` is called once the input has ended and `step` has consumed all it could: it flushes
///   what remains, announces exact end-of-stream values, and throws if the stream ended somewhere a
///   stream cannot end (for example inside the format header).
/// - Each parser documents what it buffers, when it announces `readyToProducePackets`, and what
///   `finish` does.
protocol FormatParser {
    /// Parses as much as possible.
    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep
    /// The input has ended.
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError)
    /// The bytes that follow do not continue the previous ones (without a seek): drop partial state and
    /// resynchronise where possible.
    mutating func discontinuity(_ context: inout ParseContext)
    /// Packet geometry known so far, for translations and seeking.
    var packetMap: PacketMap { get }
    /// Prepares to continue with packet `packet`, whose bytes start `byteOffset` bytes after the data
    /// offset. Returns false when the parser cannot continue there (it has not reached the audio data).
    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool
    /// The tracks of a multi-track container (MP4), the parsed one marked selected; empty otherwise.
    var tracks: [TrackInfo] { get }
    /// The links of a chained stream (Ogg) met so far; empty for formats without links.
    var links: [StreamLink] { get }
    /// The seek-by-time hook (`AudioStreamParser.seek(toFrame:)`): the packet that holds decoded frame
    /// `frame` (priming frames included, as `packetToFrame` counts), and the frame's offset in it;
    /// `nil` when not known yet. The default answers from `packetMap.frameToPacket`. A container with a
    /// time index the packet map does not hold (Matroska `Cues`) implements it to answer from that index
    /// (estimated when it names a nearby packet). The facade then seeks with `seek(toPacket:)`, so
    /// `packetMap.packetToByte` and `prepareForSeek` must accept the packet this returns.
    func packetHolding(frame: Int64) -> Translation<PacketPosition>?
    /// After an estimated `seek(toFrame:)` when `ParserOptions.allowsByteRangeRequests` is set: the frame
    /// (on `packetToFrame`'s timeline) the landing should reach, the first frame of the first packet to
    /// decode. A parser whose units carry timestamps (Ogg, MPEG-TS) then searches for the unit holding it
    /// with byte requests (`SeekBisection`) and returns the absolute offset to start from (the search's
    /// first probe, which replaces the estimated offset); the default returns nil (the estimated landing
    /// stands).
    mutating func refineSeek(toFrame frame: Int64) -> Int64?
    /// After an estimated `seek(toFrame:)` (with or without byte requests), before `refineSeek`: the frame
    /// (on `packetToFrame`'s timeline) the landing aims at, the first frame of the first packet to decode. A
    /// parser that can place the packets at its landing in frames (Ogg: from the page's granule position)
    /// drops those that end at or before it, so that the first packet delivered holds it. The default
    /// ignores it.
    mutating func aimSeekLanding(atFrame frame: Int64)
}

extension FormatParser {
    var tracks: [TrackInfo] { [] }
    var links: [StreamLink] { [] }
    func packetHolding(frame: Int64) -> Translation<PacketPosition>? { packetMap.frameToPacket(frame) }
    mutating func refineSeek(toFrame frame: Int64) -> Int64? { nil }
    mutating func aimSeekLanding(atFrame frame: Int64) {}
}

/// A content probe for one container.
struct FormatProbe: Sendable {
    /// The result of looking at the first bytes of a stream.
    enum Result {
        /// The bytes are this container; parse them with this parser. `offset` is where its first unit
        /// starts after the window's position: 0 for a container recognised by a magic at the start, more
        /// for a probe that scans past junk (MPEG audio, ADTS). The earliest match wins.
        case match(AudioFileType, any FormatParser, offset: Int = 0)
        /// The bytes start with something that precedes a container without being one (a leading
        /// ID3v2 tag). Its parser consumes it, detects the container that follows, sets
        /// `ParseContext.fileType` and announces `fileFormat` itself, then delegates to that container.
        case prefix(any FormatParser)
        /// The bytes are not this container.
        case noMatch
        /// This many bytes are needed to decide. No match can start before `noMatchBefore`: a scanning
        /// probe reports how far it has ruled the bytes out (0 for a probe that checks a magic at the
        /// start), so a later probe's match that starts earlier need not wait for it.
        case needMoreData(atLeast: Int, noMatchBefore: Int = 0)
    }

    /// The file types this probe recognises (for hints).
    let fileTypes: [AudioFileType]
    /// Looks at the bytes from the window's position.
    let probe: @Sendable (_ window: InputWindow, _ options: ParserOptions) -> Result
}

extension FormatProbe {
    /// Compares the readable bytes at `offset` with `magic`: `false` as soon as one readable byte
    /// differs, `nil` when all readable bytes agree but some are missing, `true` on a full match.
    ///
    /// Probes decide on every byte they can see, so detection gives the same answer however the input
    /// was chunked.
    static func matches(_ window: InputWindow, _ magic: StaticString, at offset: Int = 0) -> Bool? {
        for i in 0..<magic.utf8CodeUnitCount {
            guard let b = window.peekUInt8(at: offset + i) else { return nil }
            if b != magic.utf8CodeUnit(at: i) { return false }
        }
        return true
    }
}

extension FormatParser {
    /// For `finish`: calls `step` until it needs bytes that will never come (the input is final), consuming
    /// what it asks to skip. Every step consumes bytes or moves towards a state that does, so a budget
    /// proportional to the readable bytes bounds the loop.
    mutating func stepToEnd(_ context: inout ParseContext) throws(AudioStreamError) {
        var budget = 4 * (context.window.readable + 8)
        while budget > 0 {
            budget -= 1
            switch try step(&context) {
            case .continue:
                continue
            case .skip(let n):
                context.window.consume(Int(min(n, Int64(context.window.readable))))
            case .needMoreData, .request:
                return
            }
        }
    }
}
