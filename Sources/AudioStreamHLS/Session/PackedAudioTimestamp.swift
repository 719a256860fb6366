/// The timestamp of a packed audio segment (RFC 8216 section 3.4): an ID3v2 tag at the segment's start
/// with a `PRIV` frame whose owner is `com.apple.streaming.transportStreamTimestamp` and whose data is the
/// MPEG-2 presentation timestamp of the first sample, 33 bits in an 8-byte big-endian integer (the upper
/// 31 bits zero), in 90 kHz units.
///
/// ```
/// ID3v2 header (ID3v2.4 section 3.1)    frame (section 4; v2.3: size not syncsafe)
/// "ID3" ver rev flags size(4, syncsafe)  id(4) size(4) flags(2) owner "\0" PTS(8, big-endian)
/// ```
public enum PackedAudioTimestamp {
    /// The PRIV owner identifier.
    public static let owner = "com.apple.streaming.transportStreamTimestamp"

    /// The timestamp in 90 kHz ticks read from the ID3v2 tag at the start of `segment`, or `nil` when there
    /// is no such tag or frame. Reads only inside the tag; never traps on a damaged tag.
    public static func read(_ segment: [UInt8]) -> Int64? {
        guard segment.count >= 10, segment[0] == 0x49, segment[1] == 0x44, segment[2] == 0x33 else { return nil }
        let version = segment[3]
        guard version == 3 || version == 4, segment[6...9].allSatisfy({ $0 < 0x80 }) else { return nil }
        let tagSize = segment[6...9].reduce(0) { $0 << 7 | Int($1) }
        let end = min(segment.count, 10 + tagSize)
        var position = 10
        if segment[5] & 0x40 != 0, position + 4 <= end {  // extended header: skipped by its size
            let size = segment[position..<(position + 4)].reduce(0) { $0 << (version == 4 ? 7 : 8) | Int($1) }
            position += version == 4 ? size : size + 4
        }
        let ownerBytes = Array(owner.utf8) + [0]
        while position + 10 <= end {
            let id = segment[position..<(position + 4)]
            if id.allSatisfy({ $0 == 0 }) { return nil }  // padding
            let sizeBytes = segment[(position + 4)..<(position + 8)]
            let size = sizeBytes.reduce(0) { $0 << (version == 4 ? 7 : 8) | Int($1) }
            let body = position + 10
            guard size >= 0, size <= end - body else { return nil }
            if id.elementsEqual("PRIV".utf8), size == ownerBytes.count + 8,
                segment[body..<(body + ownerBytes.count)].elementsEqual(ownerBytes)
            {
                let data = segment[(body + ownerBytes.count)..<(body + size)]
                return Int64(data.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x1_FFFF_FFFF)
            }
            position = body + size
        }
        return nil
    }
}
