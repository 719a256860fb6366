/// An Ogg page header (RFC 3533 §6).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 bit
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// | capture_pattern: magic number "OggS"                           | byte 0-3
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// | version = 0   | header_type   | granule_position (64 bits LE) | 4-7
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               |
/// |                                                               | 8-11
/// +                               +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                               | bitstream_serial_number (LE)  | 12-15
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               +
/// |                               | page_sequence_number (LE)     | 16-19
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               +
/// |                               | CRC_checksum (LE)             | 20-23
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               +
/// |                               |page_segments  | segment_table | 24-27
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// | ... page_segments lacing values (bytes 27 ..< 27 + page_segments), then the body     |
///
/// header_type: 0x01 continued packet, 0x02 first page of a logical bitstream (BOS),
///              0x04 last page of a logical bitstream (EOS); other bits reserved.
/// ```
///
/// The body is the concatenation of the segments; a lacing value of 255 means the packet continues in
/// the next segment, a value below 255 ends it (RFC 3533 §5). A granule position of -1 (all ones)
/// means no packet ends on this page.
struct OggPageHeader: Equatable {
    /// The fixed part before the segment table.
    static let fixedSize = 27
    /// The largest possible page: header with 255 lacing values, 255 segments of 255 bytes.
    static let maxPageSize = fixedSize + 255 + 255 * 255

    var version: UInt8
    var headerType: UInt8
    /// The granule position as stored (two's complement; -1 when no packet ends on the page).
    var granulePosition: Int64
    var serialNumber: UInt32
    var sequenceNumber: UInt32
    var checksum: UInt32
    /// The lacing values (held inline: reading a page header allocates nothing).
    var lacing: OggLacing

    var isContinued: Bool { headerType & 0x01 != 0 }
    var isBeginningOfStream: Bool { headerType & 0x02 != 0 }
    var isEndOfStream: Bool { headerType & 0x04 != 0 }
    /// Header bytes: 27 plus the segment table.
    var headerSize: Int { OggPageHeader.fixedSize + lacing.count }
    /// Body bytes: the sum of the lacing values.
    var bodySize: Int { lacing.sum }
    /// True when the last segment ends a packet (or the page has no segments).
    var lastPacketCompletes: Bool { (lacing.last ?? 0) < 255 }

    /// A header with every field 0 and no lacing values (storage for `read(_:at:into:)`).
    static var empty: OggPageHeader {
        OggPageHeader(
            version: 0, headerType: 0, granulePosition: 0, serialNumber: 0, sequenceNumber: 0, checksum: 0,
            lacing: OggLacing())
    }

    /// Reads the header at `offset` after the window's position into existing storage (the header is
    /// about 300 bytes: returning it would copy them). Returns false, leaving `header` unspecified, when
    /// its bytes are not all readable yet; the caller has checked the capture pattern.
    static func read(_ window: InputWindow, at offset: Int = 0, into header: inout OggPageHeader) -> Bool {
        guard let segments = window.peekUInt8(at: offset + 26),
            window.readable >= offset + fixedSize + Int(segments),
            let version = window.peekUInt8(at: offset + 4),
            let type = window.peekUInt8(at: offset + 5),
            let granule = window.peekInteger(at: offset + 6, as: UInt64.self, endianness: .little),
            let serial = window.peekInteger(at: offset + 14, as: UInt32.self, endianness: .little),
            let sequence = window.peekInteger(at: offset + 18, as: UInt32.self, endianness: .little),
            let crc = window.peekInteger(at: offset + 22, as: UInt32.self, endianness: .little)
        else { return false }
        header.version = version
        header.headerType = type
        header.granulePosition = Int64(bitPattern: granule)
        header.serialNumber = UInt32(truncatingIfNeeded: serial)
        header.sequenceNumber = UInt32(truncatingIfNeeded: sequence)
        header.checksum = UInt32(truncatingIfNeeded: crc)
        header.lacing.removeAll()
        header.lacing.append(window, at: offset + fixedSize, count: Int(segments))
        return true
    }

    /// The checksum of the page whose header is this one, at `offset` after the window's position;
    /// all `headerSize + bodySize` bytes must be readable.
    static func computeChecksum(_ window: InputWindow, at offset: Int = 0, pageSize: Int) -> UInt32 {
        var crc = OggCRC()
        crc.update(window, at: offset, count: 22)
        crc.updateZeros(4)
        crc.update(window, at: offset + 26, count: pageSize - 26)
        return crc.value
    }
}

/// A page's segment table: up to 255 lacing values, stored inline (no heap allocation per page), and
/// their sum, the page's body size.
struct OggLacing: RandomAccessCollection, Equatable {
    private var values = InlineByteArray()
    /// The sum of the values (the body size of the page).
    private(set) var sum = 0

    var startIndex: Int { 0 }
    var endIndex: Int { values.count }

    subscript(position: Int) -> UInt8 { values[position] }

    /// Removes every value (the storage is kept).
    mutating func removeAll() {
        values.removeAll()
        sum = 0
    }

    /// Appends the `count` lacing values at `offset` after the window's position (at most 255 in all: a
    /// page's segment count is one byte).
    mutating func append(_ window: InputWindow, at offset: Int, count: Int) {
        let start = values.count
        values.append(window, at: offset, count: count)
        sum = values.withSpan { span in
            var total = sum
            for i in start..<span.count { total += Int(span[i]) }
            return total
        }
    }

    /// Calls `body` with the lacing values in place (indexing the collection reads the inline storage
    /// vector by vector).
    func withValues<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try values.withSpan(body)
    }
}

/// What the bytes at the window's position are, page-wise: the first step of reading a page, shared by
/// the parser and the libogg comparison tests (`Tests/OggReferenceTests`).
///
/// A page is recognised by its capture pattern, its header and segment table, and a matching CRC-32 over
/// all of its bytes (RFC 3533 §6): the bytes are checked before any packet is handed out.
enum OggPageCheck: Equatable {
    /// No capture pattern at the position (or not one that can still complete).
    case notAPage
    /// This many bytes from the position are needed to decide.
    case incomplete(needed: Int)
    /// A whole page whose checksum does not match.
    case checksumMismatch(stored: UInt32, computed: UInt32)
    /// A valid page of `size` bytes.
    case page(OggPageHeader, size: Int)

    init(_ window: InputWindow) {
        var header = OggPageHeader.empty
        switch Self.check(window, into: &header) {
        case .notAPage: self = .notAPage
        case .incomplete(let needed): self = .incomplete(needed: needed)
        case .checksumMismatch(let stored, let computed): self = .checksumMismatch(stored: stored, computed: computed)
        case .page(let size): self = .page(header, size: size)
        }
    }

    /// The check without the header in the result (a copy of ~300 bytes per page): on `.page`, `header`
    /// holds it.
    enum Outcome: Equatable {
        case notAPage
        case incomplete(needed: Int)
        case checksumMismatch(stored: UInt32, computed: UInt32)
        case page(size: Int)
    }

    /// What `init(_:)` decides, with the header read into `header`.
    static func check(_ window: InputWindow, into header: inout OggPageHeader) -> Outcome {
        let capture = OggParser.capturePattern
        guard window.matches(capture, at: 0) else {
            return window.readable < 4 && window.couldMatch(capture, at: 0) ? .incomplete(needed: 4) : .notAPage
        }
        guard window.readable >= OggPageHeader.fixedSize else {
            return .incomplete(needed: OggPageHeader.fixedSize)
        }
        guard OggPageHeader.read(window, into: &header) else {
            return .incomplete(needed: OggPageHeader.fixedSize + Int(window.peekUInt8(at: 26) ?? 0))
        }
        let size = header.headerSize + header.bodySize
        guard window.readable >= size else { return .incomplete(needed: size) }
        let computed = OggPageHeader.computeChecksum(window, pageSize: size)
        return computed == header.checksum
            ? .page(size: size) : .checksumMismatch(stored: header.checksum, computed: computed)
    }
}
