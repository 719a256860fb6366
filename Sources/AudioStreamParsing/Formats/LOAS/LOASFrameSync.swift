/// Raw LOAS as a frame-sync format (``FrameSyncFormat``): how the content probe's and the parser's
/// search recognise a LOAS frame (``AudioSyncStreamHeader``, ISO/IEC 14496-3 §1.7.2).
///
/// A candidate is a syncword 0x2B7 (11 bits: the byte 0x56, then 0b111 at the top of the next) with a
/// non-zero audioMuxLengthBytes. It is **confirmed** when `successors` more LOAS headers follow it back
/// to back (each at the previous frame's length), or when the stream ends exactly after a frame of the
/// chain. The sync pattern is short (11 bits) and its first byte is the ASCII `V`, so the content probe
/// asks for a chain of three frames (``probeSuccessors``) before it claims a stream, the parser's
/// resynchronisation for one. Every decision waits for the bytes it depends on (or the end of the
/// input), so the outcome never depends on how the input was chunked.
struct LOASFrameSync: FrameSyncFormat {
    static var syncByte: UInt8 { 0x56 }
    static var headerByteCount: Int { AudioSyncStreamHeader.byteCount }
    /// The headers the content probe wants after a candidate.
    static let probeSuccessors = 2

    /// The headers that must follow a candidate.
    var successors = 1

    /// The LOAS header `offset` bytes after the window's position, if there is one.
    static func header(_ window: InputWindow, at offset: Int) -> AudioSyncStreamHeader? {
        guard
            let bits = window.peekInteger(
                at: offset, byteCount: AudioSyncStreamHeader.byteCount, as: UInt32.self, endianness: .big)
        else {
            return nil
        }
        return AudioSyncStreamHeader(bits)
    }

    func examine(_ window: InputWindow, at offset: Int, horizon: Int) -> FrameSyncCandidate<AudioSyncStreamHeader> {
        let n = AudioSyncStreamHeader.byteCount
        guard offset + n <= horizon, let first = Self.header(window, at: offset) else {
            return .rejected(reason: nil)
        }
        var next = offset + first.frameLength
        for _ in 0..<successors {
            guard next + n <= horizon else {
                // Past the horizon nothing may be looked at: only a stream that ends there confirms.
                let ends = window.isFinal && window.readable == next
                return ends ? .frame(first) : .rejected(reason: nil)
            }
            guard next + n <= window.readable else {
                guard window.isFinal else { return .needMoreData(atLeast: next + n) }
                return window.readable == next ? .frame(first) : .rejected(reason: "cut short by the end")
            }
            guard let successor = Self.header(window, at: next) else {
                return .rejected(reason: "no LOAS header after the frame length \(next - offset)")
            }
            next += successor.frameLength
        }
        return .frame(first)
    }
}
