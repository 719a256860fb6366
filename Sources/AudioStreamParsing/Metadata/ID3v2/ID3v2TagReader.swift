/// Reads the text frames of an ID3v2 tag held whole in memory (an `id3 `/`ID3 ` chunk of a WAVE or
/// AIFF file).
///
/// Tag header (ID3v2.4.0 structure §3.1; the same in 2.2 and 2.3):
///
/// ```
///  offset  size  field
///  0       3     "ID3"
///  3       1     major version (2, 3 or 4)
///  4       1     revision
///  5       1     flags: 0x80 unsynchronisation; 2.2: 0x40 compression (the tag cannot be read);
///                2.3/2.4: 0x40 extended header, 0x20 experimental; 2.4: 0x10 footer
///  6       4     size: syncsafe (4 × 7 bits), bytes after the header (footer excluded)
/// ```
///
/// Frame headers:
///
/// ```
///  2.2 (6 bytes):  ID (3 chars)  size (3 bytes, big-endian)
///  2.3 (10 bytes): ID (4 chars)  size (4 bytes, big-endian)  flags (2)
///  2.4 (10 bytes): ID (4 chars)  size (4 bytes, syncsafe)    flags (2)
/// ```
///
/// 2.3 format flags: 0x80 compression, 0x40 encryption, 0x20 grouping (one extra byte).
/// 2.4 format flags: 0x40 grouping (one extra byte), 0x08 compression, 0x04 encryption,
/// 0x02 unsynchronisation, 0x01 data length indicator (four extra bytes).
///
/// Contract: never traps on any input and does work proportional to its length; malformed frames
/// end the frame walk or are skipped; compressed and encrypted frames are skipped. Tag-level
/// unsynchronisation (2.2, 2.3) and frame-level unsynchronisation (2.4) are reversed; the extended
/// header is skipped. Returns the text frames (`T***` except `TXXX`) and comments (`COMM`/`COM`) as
/// tags (source `"id3v2"`, key = frame ID) with the Apple info-dictionary key each maps to.
///
/// References: ID3 tag version 2 (informal standard, 1998), ID3 tag version 2.3.0 (1999), ID3 tag
/// version 2.4.0 – Main Structure and – Native Frames (2000), at id3.org.
enum ID3v2TagReader {
    /// The raw-tag source name.
    static let source = "id3v2"
    /// The tag header's length.
    static let headerByteCount = 10

    /// One text frame and its info-dictionary key.
    struct Entry: Equatable {
        /// The frame as a raw tag: source `"id3v2"`, key = frame ID, value = its text.
        var tag: AudioMetadata.Tag
        /// The info-dictionary key the frame maps to, if any.
        var infoKey: String?
        /// The info-dictionary value when it differs from the tag's value (`TDRC` "2024-05-06" gives
        /// the year "2024"); `nil` means the tag's value.
        var infoValue: String? = nil
    }

    /// Parses `bytes` (starting with `ID3`). Returns `nil` when they are not an ID3v2 tag.
    ///
    /// - Parameter bytes: the tag; bytes after the size its header declares are ignored, and a tag
    ///   whose size exceeds `bytes` is read as far as it goes.
    /// - Returns: the text and comment frames in tag order, or `nil` when `bytes` do not start with a
    ///   version 2.2–2.4 ID3v2 header.
    static func read(_ bytes: [UInt8]) -> [Entry]? {
        guard bytes.count >= headerByteCount, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 else { return nil }
        let version = bytes[3]
        guard (2...4).contains(version), bytes[4] != 0xFF else { return nil }
        let flags = bytes[5]
        let size = syncsafe(bytes[6], bytes[7], bytes[8], bytes[9])
        let end = headerByteCount + min(size, bytes.count - headerByteCount)
        var body = Array(bytes[headerByteCount..<end])
        // 2.2 §3.1: "the ID3 decoder should just ignore the entire tag if the compression bit is set".
        if version == 2 && flags & 0x40 != 0 { return [] }
        if version < 4 && flags & 0x80 != 0 { body = removeUnsynchronisation(body[...]) }
        var position = 0
        if version >= 3 && flags & 0x40 != 0 {
            guard body.count >= 4 else { return [] }
            if version == 3 {
                // 2.3 §3.2: the size excludes its own four bytes.
                position = 4 + min(Int(clamping: readUInt32(body, at: 0)), body.count)
            } else {
                // 2.4 §3.2: a syncsafe size that includes itself.
                position = max(4, syncsafe(body[0], body[1], body[2], body[3]))
            }
        }
        var entries: [Entry] = []
        let frameHeaderSize = version == 2 ? 6 : 10
        let idLength = version == 2 ? 3 : 4
        while position <= body.count - frameHeaderSize {
            guard isFrameID(body, at: position, length: idLength) else { break }
            let id = String(decoding: body[position..<(position + idLength)], as: UTF8.self)
            let frameSize: Int
            var formatFlags: UInt8 = 0
            switch version {
            case 2:
                frameSize = Int(body[position + 3]) << 16 | Int(body[position + 4]) << 8 | Int(body[position + 5])
            case 3:
                frameSize = Int(clamping: readUInt32(body, at: position + 4))
                formatFlags = body[position + 9]
            default:
                frameSize = version4FrameSize(body, at: position)
                formatFlags = body[position + 9]
            }
            let dataStart = position + frameHeaderSize
            guard frameSize <= body.count - dataStart else { break }
            let data = body[dataStart..<(dataStart + frameSize)]
            position = dataStart + frameSize
            guard let content = frameContent(data, version: version, formatFlags: formatFlags, tagFlags: flags) else {
                continue
            }
            if let entry = entry(id: id, content) { entries.append(entry) }
        }
        return entries
    }

    /// Adds entries to `metadata`: every entry as a raw tag, and its info-dictionary value when that
    /// key is not set yet.
    static func merge(_ entries: [Entry], into metadata: inout AudioMetadata) {
        for entry in entries {
            metadata.tags.append(entry.tag)
            let value = entry.infoValue ?? entry.tag.value
            if let key = entry.infoKey, metadata.info[key] == nil, !value.isEmpty { metadata.info[key] = value }
        }
    }

    // MARK: Frame headers

    /// The frame's payload with the frame-header extensions removed and unsynchronisation reversed, or
    /// `nil` for a compressed or encrypted frame.
    private static func frameContent(
        _ data: ArraySlice<UInt8>, version: UInt8, formatFlags: UInt8, tagFlags: UInt8
    ) -> ArraySlice<UInt8>? {
        switch version {
        case 3:
            if formatFlags & 0xC0 != 0 { return nil }
            return formatFlags & 0x20 != 0 ? data.dropFirst() : data
        case 4:
            if formatFlags & 0x0C != 0 { return nil }
            var content = data
            if formatFlags & 0x40 != 0 { content = content.dropFirst() }
            if formatFlags & 0x01 != 0 { content = content.dropFirst(4) }
            // 2.4 §3.1: the tag flag means every frame is unsynchronised.
            if formatFlags & 0x02 != 0 || tagFlags & 0x80 != 0 {
                return removeUnsynchronisation(content)[...]
            }
            return content
        default:
            return data
        }
    }

    /// A 2.4 frame size: syncsafe as the standard says, unless the bytes cannot be syncsafe or only
    /// the plain big-endian reading lands on a frame boundary (iTunes wrote 2.4 tags with plain
    /// sizes; the same check as FFmpeg's and TagLib's).
    private static func version4FrameSize(_ body: [UInt8], at position: Int) -> Int {
        let plain = Int(clamping: readUInt32(body, at: position + 4))
        if body[(position + 4)..<(position + 8)].contains(where: { $0 & 0x80 != 0 }) { return plain }
        let safe = syncsafe(body[position + 4], body[position + 5], body[position + 6], body[position + 7])
        if safe == plain || isFrameBoundary(body, at: position + 10 + safe) { return safe }
        let plainFits = plain <= body.count - position - 10
        return plainFits && isFrameBoundary(body, at: position + 10 + plain) ? plain : safe
    }

    /// True at the end of the frames: the tag's end, padding, or another frame ID.
    private static func isFrameBoundary(_ body: [UInt8], at position: Int) -> Bool {
        if position == body.count { return true }
        guard position < body.count else { return false }
        return body[position] == 0 || isFrameID(body, at: position, length: 4)
    }

    /// Frame IDs are capital letters A–Z and digits 0–9 (2.4 §4).
    private static func isFrameID(_ body: [UInt8], at position: Int, length: Int) -> Bool {
        guard position >= 0, position <= body.count - length else { return false }
        return body[position..<(position + length)].allSatisfy {
            (0x41...0x5A).contains($0) || (0x30...0x39).contains($0)
        }
    }

    // MARK: Byte helpers

    /// A 28-bit syncsafe integer (the top bit of each byte is ignored).
    static func syncsafe(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) -> Int {
        Int(b0 & 0x7F) << 21 | Int(b1 & 0x7F) << 14 | Int(b2 & 0x7F) << 7 | Int(b3 & 0x7F)
    }

    /// A big-endian 32-bit value; the caller has checked that four bytes are there.
    private static func readUInt32(_ bytes: [UInt8], at i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }

    /// Reverses unsynchronisation: every 0xFF 0x00 becomes 0xFF (2.4 §6.1).
    static func removeUnsynchronisation(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { out.append(byte) }
            // After a removed 0x00 the pair is complete: "FF 00 00" keeps the second 00.
            previous = previous == 0xFF && byte == 0x00 ? 0x01 : byte
        }
        return out
    }
}
