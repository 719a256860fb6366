/// The Fraunhofer VBRI header, written by Fraunhofer's encoders into the first Layer III frame,
/// always 32 bytes after the 4-byte frame header (at frame offset 36), whatever the side
/// information length.
///
/// ```
///  offset  size  field (big-endian)
///  0       4     "VBRI"
///  4       2     version (1)
///  6       2     delay
///  8       2     quality
///  10      4     bytes: stream length, the VBRI frame included
///  14      4     frames: audio frames, the VBRI frame excluded
///  18      2     TOC entry count
///  20      2     TOC scale factor
///  22      2     bytes per TOC entry (1…4)
///  24      2     frames per TOC entry
///  26      …     TOC: entry i × scale = bytes of frames [i × framesPerEntry, (i + 1) × framesPerEntry)
/// ```
///
/// Reference: Fraunhofer IIS "VBRI header" description shipped with its MP3 SDK. No Debian encoder
/// writes VBRI, so the frame-count and TOC-origin conventions follow what FFmpeg and mpg123 read
/// (frames = audio frames; TOC sizes counted from the start of the VBRI frame); see
/// `docs/formats/mpeg-audio.md`.
struct VBRIHeader: Hashable, Sendable {
    /// The offset of `VBRI` within its frame.
    static let offsetInFrame = 36

    let version: UInt16
    let delay: UInt16
    let quality: UInt16
    let byteCount: UInt32
    let frameCount: UInt32
    let tableScale: UInt16
    let bytesPerEntry: UInt16
    let framesPerEntry: UInt16
    /// The TOC, already multiplied by the scale: the byte length of each run of `framesPerEntry`
    /// frames.
    let segmentByteCounts: [UInt32]

    /// Finds and decodes the header in `frame` (a whole Layer III frame); `nil` when there is none or
    /// it runs past the frame. A TOC that runs past the frame is dropped (the counts are kept).
    static func find(in frame: [UInt8], header: MPEGFrameHeader) -> VBRIHeader? {
        guard header.layer == 3 else { return nil }
        var reader = ByteReader(frame)
        guard reader.skip(offsetInFrame), let magic = reader.readBytes(4), magic.elementsEqual("VBRI".utf8),
            let version = reader.readInteger(as: UInt16.self, endianness: .big),
            let delay = reader.readInteger(as: UInt16.self, endianness: .big),
            let quality = reader.readInteger(as: UInt16.self, endianness: .big),
            let bytes = reader.readInteger(as: UInt32.self, endianness: .big),
            let frames = reader.readInteger(as: UInt32.self, endianness: .big),
            let entries = reader.readInteger(as: UInt16.self, endianness: .big),
            let scale = reader.readInteger(as: UInt16.self, endianness: .big),
            let entrySize = reader.readInteger(as: UInt16.self, endianness: .big),
            let framesPerEntry = reader.readInteger(as: UInt16.self, endianness: .big)
        else { return nil }
        var segments: [UInt32] = []
        if (1...4).contains(entrySize), Int(entries) * Int(entrySize) <= reader.remaining {
            segments.reserveCapacity(Int(entries))
            for _ in 0..<entries {
                var value: UInt32 = 0
                for _ in 0..<entrySize {
                    // Safe to force unwrap: the guard above proved entries × entrySize bytes remain.
                    value = value << 8 | UInt32(reader.readUInt8()!)
                }
                let (scaled, overflow) = value.multipliedReportingOverflow(by: UInt32(scale))
                segments.append(overflow ? UInt32.max : scaled)
            }
        }
        return VBRIHeader(
            version: version, delay: delay, quality: quality, byteCount: bytes, frameCount: frames, tableScale: scale,
            bytesPerEntry: entrySize, framesPerEntry: framesPerEntry, segmentByteCounts: segments)
    }

    /// The estimated byte offset of audio frame `frame` from the start of the VBRI frame: the sum of
    /// the whole segments before it plus a linear share of its segment. `nil` without a usable TOC.
    func estimatedOffset(ofFrame frame: Int64) -> Int64? {
        guard framesPerEntry > 0, !segmentByteCounts.isEmpty, frame >= 0 else { return nil }
        let perEntry = Int64(framesPerEntry)
        let whole = frame / perEntry
        var offset: Int64 = 0
        for i in 0..<min(Int(whole), segmentByteCounts.count) {
            offset += Int64(segmentByteCounts[i])
        }
        if whole < Int64(segmentByteCounts.count) {
            offset += Int64(segmentByteCounts[Int(whole)]) * (frame % perEntry) / perEntry
        }
        return offset
    }
}
