/// MPEG audio frames as the packets of a container's data chunk (WAVE and Wave64 format tags 0x0050
/// and 0x0055): a frame is a valid header (``MPEGFrameHeader``) with the stream's signature (version,
/// layer, sampling frequency, mono or not) and a computable length.
///
/// The signature is the first frame's: ``init(expected:)`` takes what the container's format says
/// (layer and sampling frequency), and frames that disagree are junk. Free-format frames (bitrate_index
/// 0) have no length in their header and are not recognised here (no encoder writes them into WAVE).
struct MPEGPacketFraming: PacketFraming, Equatable {
    /// The layer (1, 2 or 3) the container declares, or `nil` to accept any.
    let layer: Int?
    /// The sampling frequency (Hz) the container declares, or `nil` to accept any.
    let sampleRate: UInt32?

    var headerByteCount: Int { MPEGFrameHeader.byteCount }
    var confirmationDepth: Int { 1 }
    func canResynchronise(at packet: FramedPacket) -> Bool { true }
    var dropsFirstPacketAfterResynchronising: Bool { false }
    var inSyncConfirmationDepth: Int { 0 }

    func packet(_ window: InputWindow, at offset: Int) -> FramedPacket? {
        guard let header = MPEGFrameHeader(window, at: offset), let length = header.frameLength else { return nil }
        if let layer, header.layer != layer { return nil }
        if let sampleRate, header.sampleRate != sampleRate { return nil }
        return FramedPacket(length: length, frames: header.samplesPerFrame)
    }
}
