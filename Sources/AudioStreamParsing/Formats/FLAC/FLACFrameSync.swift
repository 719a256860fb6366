/// FLAC frames as a frame-sync format (``FrameSyncFormat``): how the frame search after junk, a seek or
/// a discontinuity recognises a frame header (RFC 9639 §9.1).
///
/// A candidate is a 0xFF byte whose header decodes (sync code, CRC-8) and agrees with STREAMINFO and the
/// stream's blocking strategy (``FLACFrameHeader/decode(_:at:streamInfo:variable:)``). The header alone
/// is the candidate's evidence here: its frame is confirmed afterwards, by the header chain (the next
/// header carries exactly the next frame or sample number) or by the footer CRC-16, while the parser
/// scans for the frame's end (`FLACParser.stepFrame`).
struct FLACFrameSync: FrameSyncFormat {
    static var syncByte: UInt8 { 0xFF }
    /// The decoder asks for the header's bytes itself as it goes.
    static var headerByteCount: Int { 1 }

    /// The stream's STREAMINFO, which every frame header must agree with.
    let streamInfo: FLACStreamInfo
    /// The stream's blocking strategy (true: variable), once a frame was seen.
    let variable: Bool?

    func examine(_ window: InputWindow, at offset: Int, horizon: Int) -> FrameSyncCandidate<FLACFrameHeader> {
        switch FLACFrameHeader.decode(window, at: offset, streamInfo: streamInfo, variable: variable) {
        case .needMoreData(let n):
            return window.isFinal ? .rejected(reason: nil) : .needMoreData(atLeast: offset + n)
        case .invalid:
            return .rejected(reason: nil)
        case .valid(let header):
            return .frame(header)
        }
    }
}
