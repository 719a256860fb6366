/// ADTS as a frame-sync format (``FrameSyncFormat``): how the content probe's and the parser's frame
/// search recognise a frame.
///
/// A candidate is a byte-aligned syncword (0xFFF) whose 56 header bits decode to a valid header. It
/// is **confirmed** when what follows the frame (at candidate + aac_frame_length) is
/// - a valid header that agrees with it in the fixed fields (ID, layer, profile, sampling frequency
///   index, channel configuration), or
/// - an ID3v2 tag header (HLS timed metadata between frames), or
/// - the end of the stream, exactly (only once the input is final).
///
/// Every decision is taken only when the bytes it depends on are readable (or the input is final),
/// so the outcome never depends on how the input was chunked.
struct ADTSFrameSync: FrameSyncFormat {
    static var syncByte: UInt8 { 0xFF }
    /// A syncword is rejected as soon as the readable bytes rule it out, without the whole header.
    static var headerByteCount: Int { 1 }

    /// Also recognise an ID3v2 tag header (the parser's search without a held frame: HLS timed metadata
    /// anywhere between frames; not the probe, which skips only leading tags).
    var stopsAtTags: Bool

    /// What follows a frame that ends `offset` bytes after the window's position.
    enum Successor: Equatable {
        /// A valid header that agrees with the frame.
        case frame
        /// An ID3v2 tag.
        case id3Tag
        /// The stream ends exactly where the frame ends, or inside the next frame's header (input final).
        case endOfStream
        /// The stream ends inside the frame (input final).
        case truncated
        /// Something else: junk, a header that does not agree, a damaged frame length.
        case other
        /// This many bytes are needed to decide.
        case needMoreData(atLeast: Int)
    }

    /// Examines the byte `offset` bytes after the window's position.
    ///
    /// A syncword is rejected as soon as the readable bytes rule it out (the layer bits of byte 1,
    /// the profile and sampling frequency index of byte 2), without waiting for the whole header.
    ///
    /// - Parameter horizon: no decision looks at the bytes at or after this offset (after the position):
    ///   what it would need there counts as a rejection. The probe passes the detection look-ahead, so
    ///   that its answer depends only on those bytes, never on how many more are readable.
    func examine(_ window: InputWindow, at offset: Int, horizon: Int) -> FrameSyncCandidate<ADTSHeader> {
        let noSync = FrameSyncCandidate<ADTSHeader>.rejected(reason: nil)
        // Beyond the horizon the stream is treated as cut off, but not as ended.
        let final = window.isFinal && window.readable <= horizon
        /// `n` bytes are needed to decide: wait for them, or give up on the candidate.
        func needs(_ n: Int) -> FrameSyncCandidate<ADTSHeader> {
            final || n > horizon ? noSync : .needMoreData(atLeast: n)
        }
        guard offset < horizon else { return noSync }
        // Past the readable bytes: more are needed, even at the end of the stream (callers stop there).
        guard let b0 = window.peekUInt8(at: offset) else { return .needMoreData(atLeast: offset + 1) }
        if stopsAtTags && b0 == 0x49 {  // "I"
            if offset + ID3v2Tag.Header.byteCount > horizon && !final { return noSync }
            switch ID3v2Tag.Header.recognise(window, at: offset) {
            case .header: return .tag
            case .needMoreData(let n): return needs(n)
            case .notATag: return noSync
            }
        }
        guard b0 == 0xFF else { return noSync }
        guard offset + 1 < horizon, let b1 = window.peekUInt8(at: offset + 1) else { return needs(offset + 2) }
        guard b1 & 0xF0 == 0xF0 else { return noSync }
        let b2 = offset + 2 < horizon ? window.peekUInt8(at: offset + 2) : nil
        if let rejection = ADTSHeader.rejection(byte1: b1, byte2: b2) {
            return .rejected(reason: rejection)
        }
        guard offset + ADTSHeader.fixedSize <= horizon, let decoded = ADTSHeader.decode(window, at: offset) else {
            return needs(offset + ADTSHeader.fixedSize)
        }
        switch decoded {
        case .noSync:
            return noSync
        case .invalid(let rejection):
            return .rejected(reason: rejection)
        case .valid(let header):
            switch Self.successor(of: header, window, at: offset + header.frameLength, horizon: horizon) {
            case .frame, .id3Tag, .endOfStream:
                return .frame(header)
            case .needMoreData(let n):
                return .needMoreData(atLeast: n)
            case .truncated:
                return .rejected(reason: "aac_frame_length \(header.frameLength) runs past the end of the stream")
            case .other:
                return .rejected(reason: "no agreeing frame header after aac_frame_length \(header.frameLength)")
            }
        }
    }

    /// What lies `offset` bytes after the window's position, right after a frame with `header`.
    ///
    /// - Parameter horizon: as for `examine`: what would be needed at or after it counts as `.other`.
    static func successor(of header: ADTSHeader, _ window: InputWindow, at offset: Int, horizon: Int = .max)
        -> Successor
    {
        let final = window.isFinal && window.readable <= horizon
        let readable = window.readable
        guard readable >= offset + ADTSHeader.fixedSize, offset + ADTSHeader.fixedSize <= horizon else {
            if !final {
                return offset + ADTSHeader.fixedSize > horizon
                    ? .other : .needMoreData(atLeast: offset + ADTSHeader.fixedSize)
            }
            if readable == offset { return .endOfStream }
            if readable < offset { return .truncated }
            // The stream ends inside the next header: this frame is whole.
            let b1 = window.peekUInt8(at: offset + 1)
            let cutHeader = window.peekUInt8(at: offset) == 0xFF && (b1.map { $0 & 0xF6 == 0xF0 } ?? true)
            return cutHeader ? .endOfStream : .other
        }
        if window.peekUInt8(at: offset) == 0x49 {
            if offset + ID3v2Tag.Header.byteCount > horizon && !final { return .other }
            switch ID3v2Tag.Header.recognise(window, at: offset) {
            case .header: return .id3Tag
            case .needMoreData(let n): return final ? .other : .needMoreData(atLeast: n)
            case .notATag: return .other
            }
        }
        // A trailing APEv2 or ID3v1 tag ends the audio: the frame before it is whole.
        for magic in [Self.apeTagMagic, Self.id3v1Magic] where window.peekUInt8(at: offset) == magic[0] {
            if offset + magic.count > horizon && !final { return .other }
            var matched = true
            for (i, byte) in magic.enumerated() {
                guard let b = window.peekUInt8(at: offset + i) else {
                    if !final { return .needMoreData(atLeast: offset + magic.count) }
                    matched = false
                    break
                }
                if b != byte {
                    matched = false
                    break
                }
            }
            if matched { return .endOfStream }
        }
        guard case .valid(let next)? = ADTSHeader.decode(window, at: offset), next.agrees(with: header) else {
            return .other
        }
        return .frame
    }

    /// `APETAGEX`: the preamble of an APEv2 header or footer.
    static let apeTagMagic: [UInt8] = Array("APETAGEX".utf8)
    /// `TAG`: an ID3v1 tag.
    static let id3v1Magic: [UInt8] = Array("TAG".utf8)
}
