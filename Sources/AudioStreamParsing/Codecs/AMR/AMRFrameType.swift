/// The frame types of AMR (narrowband) and AMR-WB speech frames, and the size of each in the storage
/// format: the one-byte frame header (RFC 4867 §5.3) followed by the frame's bits, padded to whole
/// bytes.
///
/// ```
///  frame header (RFC 4867 §5.3, storage format)
///   bit  7    6 5 4 3    2    1 0
///        P    FT         Q    P P
///
///  P   padding, 0
///  FT  frame type: the codec mode (speech), SID (comfort noise) or NO_DATA
///  Q   frame quality: 0 = the frame is damaged (it is still a frame of its size)
/// ```
///
/// Speech and SID bits per frame type (3GPP TS 26.101 Table 1a for AMR, TS 26.201 Table 1a for
/// AMR-WB; also RFC 4867 §3.6 and Table 1):
///
/// | FT | AMR                      | AMR-WB                     |
/// | -- | ------------------------ | -------------------------- |
/// | 0…7 | 4.75…12.2 kbit/s: 95, 103, 118, 134, 148, 159, 204, 244 bits | 6.60…23.05 kbit/s: 132, 177, 253, 285, 317, 365, 397, 461 bits |
/// | 8  | SID, 39 bits             | 23.85 kbit/s, 477 bits     |
/// | 9  | GSM-EFR SID (not in AMR storage) | SID, 40 bits       |
/// | 10, 11 | TDMA-EFR and PDC-EFR SID (not in AMR storage) | reserved |
/// | 12…13 | reserved              | reserved                   |
/// | 14 | reserved                 | SPEECH_LOST, 0 bits        |
/// | 15 | NO_DATA, 0 bits          | NO_DATA, 0 bits            |
///
/// A frame type marked "not in storage" or reserved does not start a frame: the parser treats such a
/// header as junk and resynchronises.
enum AMRFrameType {
    /// The bits after the header of each frame type, `nil` where the type does not occur in a file.
    static let narrowbandBits: [Int?] = [95, 103, 118, 134, 148, 159, 204, 244, 39, nil, nil, nil, nil, nil, nil, 0]
    static let widebandBits: [Int?] = [132, 177, 253, 285, 317, 365, 397, 461, 477, 40, nil, nil, nil, nil, 0, 0]

    /// The stored size of a frame whose header is `header` (header byte included), or `nil` when the
    /// byte is not a frame header of the variant (padding bits set, or a frame type without frames).
    static func storedSize(header: UInt8, isWideband: Bool) -> Int? {
        guard header & 0x83 == 0 else { return nil }
        let type = Int(header >> 3) & 0x0F
        guard let bits = (isWideband ? widebandBits : narrowbandBits)[type] else { return nil }
        return 1 + (bits + 7) / 8
    }
}
