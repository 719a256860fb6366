/// The Xing VBR header (`Xing`) or its CBR twin (`Info`), written by LAME and FFmpeg into the
/// side-information-free payload of a silent Layer III frame at the start of a stream.
///
/// It sits right after the Layer III side information (``MPEGFrameHeader/sideInformationLength``)
/// and, when the frame has a CRC, after the CRC as well:
///
/// ```
///  offset  size  field
///  0       4     "Xing" (VBR) or "Info" (CBR)
///  4       4     flags, big-endian: 0x1 frames, 0x2 bytes, 0x4 TOC, 0x8 quality present
///  8       4     frames: audio frames in the stream, the Xing frame itself excluded
///          4     bytes: stream length in bytes, the Xing frame included (ID3v2 excluded)
///          100   TOC: entry i = 256 × (byte position of i % of the duration) / bytes
///          4     quality: 0 (best) … 100
/// ```
///
/// Each optional field follows the previous present one. The LAME extension
/// (``LAMEExtension``) follows the last field. References: Xing Technology's "XING VBR header"
/// SDK notes; the LAME project's "Mp3 Info Tag rev 1 specifications"; what "frames" and "bytes"
/// count was checked against LAME 3.100 output (see `docs/formats/mpeg-audio.md`).
struct XingHeader: Hashable, Sendable {
    /// True for `Info`, the tag LAME writes in constant-bit-rate streams.
    let isCBR: Bool
    let frameCount: UInt32?
    let byteCount: UInt32?
    /// 100 entries when present.
    let tableOfContents: [UInt8]?
    let quality: UInt32?
    /// The LAME extension, when the bytes after the fields hold one.
    let lame: LAMEExtension?
    /// The offset of the `Xing`/`Info` tag within its frame.
    let offsetInFrame: Int

    /// Finds and decodes the tag in `frame` (a whole Layer III frame).
    ///
    /// - Parameters:
    ///   - frame: the frame's bytes, header included.
    ///   - header: its decoded header.
    /// - Returns: the tag, or `nil` when the frame has none (or it runs past the frame).
    static func find(in frame: [UInt8], header: MPEGFrameHeader) -> XingHeader? {
        guard header.layer == 3 else { return nil }
        let plain = MPEGFrameHeader.byteCount + header.sideInformationLength
        // Encoders write the tag right after the side information; with a CRC the side information
        // itself starts 2 bytes later.
        for offset in header.hasCRC ? [plain + 2, plain] : [plain] {
            if let tag = decode(frame, at: offset) { return tag }
        }
        return nil
    }

    private static func decode(_ frame: [UInt8], at offset: Int) -> XingHeader? {
        var reader = ByteReader(frame)
        guard reader.skip(offset), let magic = reader.readBytes(4) else { return nil }
        let isCBR: Bool
        if magic.elementsEqual("Xing".utf8) {
            isCBR = false
        } else if magic.elementsEqual("Info".utf8) {
            isCBR = true
        } else {
            return nil
        }
        guard let flags = reader.readInteger(as: UInt32.self, endianness: .big) else { return nil }
        var frames: UInt32?
        var bytes: UInt32?
        var toc: [UInt8]?
        var quality: UInt32?
        if flags & 0x1 != 0 {
            guard let v = reader.readInteger(as: UInt32.self, endianness: .big) else { return nil }
            frames = v
        }
        if flags & 0x2 != 0 {
            guard let v = reader.readInteger(as: UInt32.self, endianness: .big) else { return nil }
            bytes = v
        }
        if flags & 0x4 != 0 {
            guard let v = reader.readBytes(100) else { return nil }
            toc = Array(v)
        }
        if flags & 0x8 != 0 {
            guard let v = reader.readInteger(as: UInt32.self, endianness: .big) else { return nil }
            quality = v
        }
        let lameStart = frame.count - reader.remaining
        let lame = LAMEExtension.decode(frame, at: lameStart)
        return XingHeader(
            isCBR: isCBR, frameCount: frames, byteCount: bytes, tableOfContents: toc, quality: quality, lame: lame,
            offsetInFrame: offset)
    }

    /// The estimated byte offset, from the start of the Xing frame, of the point `fraction` (0…1)
    /// through the stream's duration: linear interpolation between TOC entries, as the Xing SDK
    /// describes. `nil` without a TOC or a byte count.
    func estimatedOffset(atFraction fraction: Double) -> Int64? {
        guard let toc = tableOfContents, toc.count == 100, let bytes = byteCount, bytes > 0 else { return nil }
        let percent = min(max(fraction * 100, 0), 100)
        let index = min(Int(percent), 99)
        let low = Double(toc[index])
        let high = index < 99 ? Double(toc[index + 1]) : 256
        let scaled = low + (high - low) * (percent - Double(index))
        return Int64(scaled / 256 * Double(bytes))
    }
}
