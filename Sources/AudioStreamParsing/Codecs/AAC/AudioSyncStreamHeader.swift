/// The header of one LOAS frame: `AudioSyncStream()` (ISO/IEC 14496-3 §1.7.2, Table 1.36), the
/// self-synchronising transport of LATM used by transport streams (stream_type 0x11) and by raw `.loas`
/// / `.latm` files.
///
/// ```
///  byte 0        byte 1        byte 2
///  0101 0110 111 | 0 0000 0000 0000
///  syncword 11 = 0x2B7  audioMuxLengthBytes 13
///  then audioMuxLengthBytes bytes: one AudioMuxElement(1) (``AudioMuxElement``)
/// ```
struct AudioSyncStreamHeader: Hashable, Sendable {
    /// The bytes of the header.
    static let byteCount = 3
    /// syncword, the top 11 bits of the header.
    static let syncword: UInt32 = 0x2B7

    /// audioMuxLengthBytes: the AudioMuxElement's length in bytes (0…8191).
    var audioMuxLengthBytes: Int

    /// The frame's length, header included.
    var frameLength: Int { Self.byteCount + audioMuxLengthBytes }

    /// The header of an element of `audioMuxLengthBytes` bytes.
    init(audioMuxLengthBytes: Int) { self.audioMuxLengthBytes = audioMuxLengthBytes }

    /// Decodes the header from the 24 bits in the low bits of `bits`; `nil` without the syncword or with
    /// an empty element (an AudioMuxElement has at least its useSameStreamMux bit).
    init?(_ bits: UInt32) {
        guard bits >> 13 & 0x7FF == Self.syncword else { return nil }
        let length = Int(bits & 0x1FFF)
        guard length > 0 else { return nil }
        audioMuxLengthBytes = length
    }
}
