/// Raw AC-3 and E-AC-3 as a frame-sync format (``FrameSyncFormat``): how the content probe's and the
/// parser's search recognise a sync frame.
///
/// A candidate is a syncword 0x0B77 whose header (``AC3SyncFrame``) decodes and starts an audio block
/// set (an AC-3 frame or an independent E-AC-3 frame of substream 0). It is **confirmed** when what
/// follows it (at candidate + frame length) is a header of the same syntax and sample rate, or when
/// the stream ends exactly there. Every decision waits for the bytes it depends on (or the end of the
/// input), so the outcome never depends on how the input was chunked.
struct AC3FrameSync: FrameSyncFormat {
    static var syncByte: UInt8 { 0x0B }
    static var headerByteCount: Int { AC3SyncFrame.headerByteCount }

    func examine(_ window: InputWindow, at offset: Int, horizon: Int) -> FrameSyncCandidate<AC3SyncFrame> {
        guard offset + AC3SyncFrame.headerByteCount <= horizon, let decoded = AC3SyncFrame.decode(window, at: offset)
        else { return .rejected(reason: nil) }
        let frame: AC3SyncFrame
        switch decoded {
        case .noSync: return .rejected(reason: nil)
        case .invalid(let why): return .rejected(reason: why)
        case .valid(let header): frame = header
        }
        guard frame.startsPacket else {
            return .rejected(reason: "a dependent or secondary E-AC-3 substream without its independent frame")
        }
        let next = offset + frame.frameLength
        let final = window.isFinal && window.readable <= horizon
        guard let successor = AC3SyncFrame.decode(window, at: next), next + AC3SyncFrame.headerByteCount <= horizon
        else {
            if final { return window.readable == next ? .frame(frame) : .rejected(reason: "cut short by the end") }
            if next + AC3SyncFrame.headerByteCount > horizon { return .rejected(reason: nil) }
            return .needMoreData(atLeast: next + AC3SyncFrame.headerByteCount)
        }
        guard case .valid(let header) = successor, header.agrees(with: frame) else {
            return .rejected(reason: "no agreeing sync frame after the frame length \(frame.frameLength)")
        }
        return .frame(frame)
    }
}
