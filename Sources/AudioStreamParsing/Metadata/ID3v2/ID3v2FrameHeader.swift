/// A frame header, and the rules shared by the in-memory parser (`ID3v2Tag.parse`) and the
/// streaming reader (`ID3v2StreamReader`) for finding frames, sizing them and unwrapping their data.
///
/// ```
///  2.2 (6 bytes):  ID (3 chars)  size (3 bytes, big-endian)
///  2.3 (10 bytes): ID (4 chars)  size (4 bytes, big-endian)  status flags (1)  format flags (1)
///  2.4 (10 bytes): ID (4 chars)  size (4 bytes, syncsafe)    status flags (1)  format flags (1)
/// ```
///
/// Format flags and the bytes they add after the header, in this order (both versions; the sizes
/// count them):
///
/// ```
///  2.3 (§3.3.1): 0x80 compression (zlib; 4 bytes decompressed size), 0x40 encryption (1 byte
///                method), 0x20 grouping (1 byte group ID)
///  2.4 (§4.1.2): 0x40 grouping (1 byte group ID), 0x08 compression (zlib), 0x04 encryption
///                (1 byte method), 0x02 unsynchronisation, 0x01 data length indicator (4 bytes,
///                syncsafe)
/// ```
struct ID3v2FrameHeader: Hashable, Sendable {
    /// The frame ID ("TIT2", "PIC").
    let id: String
    /// The size after the header (as resolved for 2.4, see ``resolve(version:available:remaining:mode:limits:peek:)``).
    let size: Int
    let statusFlags: UInt8
    let formatFlags: UInt8

    /// How 2.4 frame sizes are written in the tag being read.
    enum SizeMode: Hashable, Sendable {
        /// Not known yet: syncsafe unless a frame proves otherwise.
        case undecided
        /// Syncsafe, as ID3v2.4 requires.
        case syncsafe
        /// Plain 32-bit big-endian, as iTunes and others wrote 2.4 tags.
        case plain
    }

    /// What ``resolve(version:available:remaining:mode:limits:peek:)`` found at a frame
    /// boundary.
    enum Resolution: Equatable {
        /// A frame header.
        case frame(ID3v2FrameHeader)
        /// Padding (a zero byte where a frame ID would start): the frames are over.
        case padding
        /// Not a frame: the frames are over; the message says why.
        case invalid(String)
        /// This many bytes, counted from the frame's start, are needed to decide (more than
        /// `available`, at most `remaining` and `lookaheadLimit`).
        case needBytes(Int)
    }

    /// Reads the frame header at a frame boundary.
    ///
    /// - Parameters:
    ///   - version: the tag's major version.
    ///   - available: bytes readable from the frame's start (`peek` answers below this).
    ///   - remaining: bytes from the frame's start to the end of the frame area (> 0).
    ///   - mode: the 2.4 size mode found so far; updated when a frame decides it.
    ///   - limits: bound how far past the frame's start the reader may look to check a 2.4 size:
    ///     the header, ``maxBufferedBodySize(id:limits:)`` and 4 bytes (the streaming reader's
    ///     buffering bound); beyond it the current mode decides.
    ///   - peek: the byte at an offset from the frame's start, `nil` when not available.
    ///
    /// 2.4 sizes: when the four size bytes read the same syncsafe and plain (all values below 128),
    /// or a byte has its top bit set (plain, certainly), there is nothing to decide. Otherwise the
    /// syncsafe reading is kept when it lands on a frame boundary (the end of the frames, padding,
    /// or four frame-ID characters); if it does not and the plain reading does (or cannot be
    /// checked within `lookaheadLimit` but fits in the tag), the tag's frames are taken to be plain
    /// (iTunes 2.4 tags) from then on. TagLib and FFmpeg decide the same way.
    static func resolve(
        version: UInt8, available: Int, remaining: Int, mode: inout SizeMode, limits: ParserLimits,
        peek: (Int) -> UInt8?
    ) -> Resolution {
        guard let first = peek(0) else { return .needBytes(1) }
        if first == 0 { return .padding }
        let headerSize = version == 2 ? 6 : 10
        let idLength = version == 2 ? 3 : 4
        guard remaining >= headerSize else {
            return .invalid("\(remaining) bytes after the last frame are neither padding nor a frame")
        }
        guard available >= headerSize else { return .needBytes(headerSize) }
        // Safe to force unwrap: `available >= headerSize`.
        let b = (0..<headerSize).map { peek($0)! }
        guard b[0..<idLength].allSatisfy(isFrameIDCharacter) else {
            return .invalid("'\(printable(b[0..<idLength]))' is not a frame ID")
        }
        let id = String(decoding: b[0..<idLength], as: UTF8.self)
        let lookaheadLimit = headerSize + maxBufferedBodySize(id: id, limits: limits) + 4
        switch version {
        case 2:
            let size = Int(b[3]) << 16 | Int(b[4]) << 8 | Int(b[5])
            return .frame(ID3v2FrameHeader(id: id, size: size, statusFlags: 0, formatFlags: 0))
        case 3:
            let size = Int(b[4]) << 24 | Int(b[5]) << 16 | Int(b[6]) << 8 | Int(b[7])
            return .frame(ID3v2FrameHeader(id: id, size: size, statusFlags: b[8], formatFlags: b[9]))
        default:
            let plain = Int(b[4]) << 24 | Int(b[5]) << 16 | Int(b[6]) << 8 | Int(b[7])
            let safe = ID3v2Tag.syncsafe(b[4], b[5], b[6], b[7])
            func frame(_ size: Int) -> Resolution {
                .frame(ID3v2FrameHeader(id: id, size: size, statusFlags: b[8], formatFlags: b[9]))
            }
            if b[4..<8].contains(where: { $0 >= 0x80 }) {
                mode = .plain
                return frame(plain)
            }
            if safe == plain { return frame(safe) }
            switch mode {
            case .plain: return frame(plain)
            case .syncsafe: return frame(safe)
            case .undecided: break
            }
            // Does the syncsafe size land on a boundary?
            guard headerSize + safe <= remaining else { return frame(safe) }  // Neither fits.
            let safeEnd = headerSize + safe
            let safeNeed = min(safeEnd + 4, remaining)
            guard safeNeed <= lookaheadLimit else { return frame(safe) }
            guard safeNeed <= available else { return .needBytes(safeNeed) }
            if isBoundary(at: safeEnd, remaining: remaining, peek: peek) {
                mode = .syncsafe
                return frame(safe)
            }
            guard headerSize + plain <= remaining else { return frame(safe) }
            let plainEnd = headerSize + plain
            let plainNeed = min(plainEnd + 4, remaining)
            if plainNeed > lookaheadLimit {
                mode = .plain
                return frame(plain)
            }
            guard plainNeed <= available else { return .needBytes(plainNeed) }
            if isBoundary(at: plainEnd, remaining: remaining, peek: peek) {
                mode = .plain
                return frame(plain)
            }
            return frame(safe)
        }
    }

    /// True at the end of the frames, at padding, or at four frame-ID characters.
    private static func isBoundary(at offset: Int, remaining: Int, peek: (Int) -> UInt8?) -> Bool {
        if offset == remaining { return true }
        guard let first = peek(offset) else { return false }
        if first == 0 { return true }
        guard offset + 4 <= remaining else { return false }
        return (0..<4).allSatisfy { peek(offset + $0).map(isFrameIDCharacter) ?? false }
    }

    /// Frame IDs are capital letters A–Z and digits 0–9 (ID3v2.4.0 main structure §4).
    static func isFrameIDCharacter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x30...0x39).contains(b) }

    private static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }

    // MARK: Limits

    /// Picture frames (`APIC`, `PIC`) are bounded by `maxArtworkBytes` plus this much for their
    /// MIME type, picture type and description.
    static let pictureHeaderAllowance = 4096

    /// The largest frame body (after the header) that is buffered and decoded; larger frames are
    /// skipped with a diagnostic, unbuffered. Pictures: `maxArtworkBytes` + ``pictureHeaderAllowance``;
    /// other frames: `maxTagBytes`; both at most `maxBufferedBytes` − 16, so that a frame, its header
    /// and the 4-byte look-ahead of a 2.4 size check always fit the driver's buffer.
    static func maxBufferedBodySize(id: String, limits: ParserLimits) -> Int {
        let limit = isPicture(id) ? addingClamped(limits.maxArtworkBytes, pictureHeaderAllowance) : limits.maxTagBytes
        return max(0, min(limit, limits.maxBufferedBytes - 16))
    }

    /// `APIC` (2.3, 2.4) or `PIC` (2.2).
    static func isPicture(_ id: String) -> Bool { id == "APIC" || id == "PIC" }

    private static func addingClamped(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }

    // MARK: Frame data

    /// A frame's data after its format flags are applied.
    enum Content: Equatable {
        /// The frame's content, ready to decode.
        case decoded([UInt8])
        /// Compressed or encrypted: kept as written, with the reason.
        case undecodable(reason: String)
        /// The flags declare more extra bytes than the frame has.
        case malformed(String)
    }

    /// Strips the extra header bytes the format flags announce and reverses unsynchronisation.
    ///
    /// - Parameters:
    ///   - data: the frame's bytes after its header (`size` bytes).
    ///   - version: the tag's major version.
    ///   - tagUnsynchronised: the tag header's unsynchronisation flag (2.4: every frame is).
    func content(_ data: ArraySlice<UInt8>, version: UInt8, tagUnsynchronised: Bool) -> Content {
        switch version {
        case 3:
            let compressed = formatFlags & 0x80 != 0
            let encrypted = formatFlags & 0x40 != 0
            let extra = (compressed ? 4 : 0) + (encrypted ? 1 : 0) + (formatFlags & 0x20 != 0 ? 1 : 0)
            guard data.count >= extra else { return .malformed("flags announce \(extra) extra bytes") }
            if encrypted { return .undecodable(reason: "encrypted") }
            if compressed { return .undecodable(reason: "compressed (zlib)") }
            return .decoded(Array(data.dropFirst(extra)))
        case 4:
            let compressed = formatFlags & 0x08 != 0
            let encrypted = formatFlags & 0x04 != 0
            let extra =
                (formatFlags & 0x40 != 0 ? 1 : 0) + (encrypted ? 1 : 0) + (formatFlags & 0x01 != 0 ? 4 : 0)
            guard data.count >= extra else { return .malformed("flags announce \(extra) extra bytes") }
            if encrypted { return .undecodable(reason: "encrypted") }
            if compressed { return .undecodable(reason: "compressed (zlib)") }
            let body = data.dropFirst(extra)
            // 2.4 §3.1: the tag flag means every frame is unsynchronised.
            if formatFlags & 0x02 != 0 || tagUnsynchronised { return .decoded(ID3v2Tag.removeUnsynchronisation(body)) }
            return .decoded(Array(body))
        default:
            return .decoded(Array(data))
        }
    }
}
