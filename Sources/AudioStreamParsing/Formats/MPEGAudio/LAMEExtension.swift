/// The LAME extension of a Xing/Info tag (the LAME project's "Mp3 Info Tag rev 1
/// specifications"): 36 bytes right after the Xing fields, written by LAME and, with an `Lavf`/`Lavc`
/// version string, by FFmpeg's MP3 muxer.
///
/// ```
///  offset  size  field
///  0       9     encoder version, e.g. "LAME3.100"
///  9       1     info tag revision (high 4 bits) | VBR method (low 4 bits)
///  10      1     lowpass frequency / 100 Hz
///  11      4     peak signal amplitude
///  15      2     radio replay gain
///  17      2     audiophile replay gain
///  19      1     encoding flags (high 4 bits) | ATH type (low 4 bits)
///  20      1     bit rate: ABR target, CBR rate or VBR minimum, kbit/s (255 = 255 or more)
///  21      3     encoder delay (high 12 bits) | padding (low 12 bits), in samples
///  24      1     source frequency (2) | unwise settings (1) | stereo mode (3) | noise shaping (2)
///  25      1     MP3 gain
///  26      2     unused (2) | surround (3) | preset (11)
///  28      4     music length: bytes from the Info frame's first byte to the end of the last frame
///  32      2     music CRC: CRC-16 of the audio frames
///  34      2     tag CRC: CRC-16 of the Info frame's bytes before this field
/// ```
///
/// Encoder delay is the number of samples the encoder put in front of the input; padding the number
/// it appended to fill the last frame. `docs/formats/mpeg-audio.md` explains how they become
/// `PacketTableInfo` (the decoder's own 529-sample delay is added to the priming).
struct LAMEExtension: Hashable, Sendable {
    /// The extension's length in bytes.
    static let byteCount = 36

    /// The encoder version string, e.g. `LAME3.100` or `Lavf59.27` (printable ASCII, trailing NULs
    /// and spaces removed).
    let encoderVersion: String
    /// Info tag revision (0 or 1).
    let revision: UInt8
    /// VBR method: 1 CBR, 2 ABR, 3…6 VBR variants, 8 CBR two-pass, 9 ABR two-pass.
    let vbrMethod: UInt8
    let lowpassHz: UInt32
    let encodingFlags: UInt8
    let athType: UInt8
    /// ABR target, CBR bit rate or VBR minimum in kbit/s.
    let bitRate: UInt8
    /// Encoder delay in samples (12 bits).
    let encoderDelay: Int
    /// Padding in samples at the end (12 bits).
    let padding: Int
    let misc: UInt8
    let mp3Gain: UInt8
    let presetAndSurround: UInt16
    /// Bytes from the Info frame's first byte to the end of the last audio frame.
    let musicLength: UInt32
    let musicCRC: UInt16
    /// The tag CRC as written.
    let tagCRC: UInt16
    /// True when `tagCRC` equals the CRC-16 of the frame bytes before it.
    let isTagCRCValid: Bool

    /// True when the encoder is one whose delay and padding fields are known to mean what the
    /// specification says: LAME, and FFmpeg's muxer (`Lavf`, `Lavc`) which writes LAME's layout.
    var hasTrustedGaplessInfo: Bool {
        encoderVersion.hasPrefix("LAME") || encoderVersion.hasPrefix("Lavf") || encoderVersion.hasPrefix("Lavc")
    }

    /// Decodes the extension at `offset` of `frame`; `nil` when fewer than 36 bytes remain or the
    /// version string is not printable ASCII (no extension: other encoders leave zeros or garbage).
    static func decode(_ frame: [UInt8], at offset: Int) -> LAMEExtension? {
        guard offset >= 0, offset <= frame.count - byteCount else { return nil }
        let b = Array(frame[offset..<(offset + byteCount)])
        let versionBytes = b[0..<9]
        guard let first = versionBytes.first, first >= 0x41, first <= 0x7A,
            versionBytes.allSatisfy({ $0 == 0 || (0x20...0x7E).contains($0) })
        else { return nil }
        var version = String(decoding: versionBytes.prefix { $0 != 0 }, as: UTF8.self)
        while version.last == " " { version.removeLast() }
        let delayAndPadding = UInt32(b[21]) << 16 | UInt32(b[22]) << 8 | UInt32(b[23])
        let crcOffset = offset + 34
        let computed = crc16(frame[0..<crcOffset])
        let written = UInt16(b[34]) << 8 | UInt16(b[35])
        return LAMEExtension(
            encoderVersion: version, revision: b[9] >> 4, vbrMethod: b[9] & 0xF, lowpassHz: UInt32(b[10]) * 100,
            encodingFlags: b[19] >> 4, athType: b[19] & 0xF, bitRate: b[20],
            encoderDelay: Int(delayAndPadding >> 12), padding: Int(delayAndPadding & 0xFFF), misc: b[24],
            mp3Gain: b[25], presetAndSurround: UInt16(b[26]) << 8 | UInt16(b[27]),
            musicLength: UInt32(b[28]) << 24 | UInt32(b[29]) << 16 | UInt32(b[30]) << 8 | UInt32(b[31]),
            musicCRC: UInt16(b[32]) << 8 | UInt16(b[33]), tagCRC: written, isTagCRCValid: computed == written)
    }

    /// CRC-16 as LAME computes it (polynomial x^16 + x^15 + x^2 + 1, bit-reflected as 0xA001,
    /// initial value 0).
    static func crc16<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1
            }
        }
        return crc
    }
}
