/// How one family of nested, sized elements writes its element headers: MP4/QuickTime boxes
/// (`MP4BoxSyntax`) now, Matroska/WebM's EBML elements (RFC 8794) next.
///
/// The element-tree engine in this folder does everything else the same way for every syntax:
/// walking the children of a buffered element (`ElementWalker`, with the depth limit), choosing
/// what to do with a top-level element by its ID (`ElementRegistry`), skipping elements without
/// buffering and buffering the ones a format decodes (`ElementStream`). A syntax only says where a
/// header is, how long it is and how long its element is, and where an element of unknown size ends
/// (docs/architecture.md, "Element trees").
///
/// ```
///                MP4 box (ISO/IEC 14496-12 §4.2)        EBML element (RFC 8794 §4–§6)
/// ID             32-bit type (four-character code)      1–4 byte variable-length integer, marker kept
/// size           32-bit size of the whole box;          1–8 byte variable-length integer: the body's
///                1: a 64-bit largesize follows          size
/// unknown size   0: to the end of the parent (stream)   all value bits set: up to the next element that
///                                                       may not be a descendant
/// ```
protocol ElementSyntax {
    /// An element's identifier (MP4: the four-character type; EBML: the ID with its marker bits).
    associatedtype ID: Hashable & Sendable

    /// Reads the element header `offset` bytes after the start of `bytes`, without consuming anything.
    ///
    /// - Parameters:
    ///   - bytes: the input window at its position (top level), or a reader at the start of a
    ///     parent's remaining children (buffered).
    ///   - offset: where the header starts, relative to `bytes`' position.
    /// - Returns: the header; `.needMoreData(n)` when fewer than `n` bytes from `offset` are readable
    ///   (a variable-length field says how many it needs once its first byte is there); `.invalid`
    ///   when the bytes cannot be a header (a size smaller than the header, an impossible field).
    static func peekHeader(in bytes: some ElementBytes, at offset: Int) -> ElementHeaderPeek<Self>

    /// Where a child whose header declares no size ends, inside a parent held whole.
    ///
    /// MP4 (size 0): the parent's end. EBML (unknown size, RFC 8794 §6.2): the start of the first
    /// following element whose ID may not occur inside this one according to the schema (an element
    /// of the same or a higher level), found by walking the headers after `bodyStart`, or the
    /// parent's end.
    ///
    /// - Parameters:
    ///   - header: the child's header.
    ///   - bytes: the parent's buffered bytes.
    ///   - bodyStart: index in `bytes` of the child's first body byte.
    ///   - parentEnd: index in `bytes` after the parent's last byte.
    /// - Returns: an index in `bodyStart...parentEnd`.
    static func endOfUnknownSize(
        _ header: ElementHeader<Self>, in bytes: ArraySlice<UInt8>, bodyStart: Int, parentEnd: Int
    ) -> Int

    /// A printable name of an ID for messages (MP4: the four characters, `'moov'`).
    static func name(of id: ID) -> String

    /// The syntax's own reason for a header fault (`invalidFile`, prefixed with the format and
    /// element), for the formats' messages. Faults carry plain values only, so that reading headers
    /// allocates and releases nothing.
    static func error(for fault: ElementHeaderFault<Self>) -> StructureError
}

/// Bytes an element header can be read from without consuming them: the input window (the streamed
/// top level) and a `ByteReader` (children of a buffered element). Offsets count from the current
/// position.
protocol ElementBytes {
    /// The byte `offset` bytes after the position, or `nil` when it is not readable.
    func peekUInt8(at offset: Int) -> UInt8?

    /// The `byteCount`-byte big-endian unsigned integer (1…8 bytes) `offset` bytes after the position,
    /// or `nil` when not all its bytes are readable.
    func peekBigEndian(at offset: Int, byteCount: Int) -> UInt64?
}

extension InputWindow: ElementBytes {
    /// `peekInteger(at:byteCount:as:endianness:)` as a big-endian `UInt64`, for `ElementBytes`.
    @inline(__always)
    func peekBigEndian(at offset: Int, byteCount: Int) -> UInt64? {
        peekInteger(at: offset, byteCount: byteCount, as: UInt64.self, endianness: .big)
    }
}

extension ByteReader: ElementBytes {
    /// The byte `offset` bytes after the current one (`peekUInt8(ahead:)`), for `ElementBytes`.
    @inline(__always)
    func peekUInt8(at offset: Int) -> UInt8? { peekUInt8(ahead: offset) }

    /// The big-endian integer of `byteCount` bytes (1…8) `offset` bytes after the current one, read
    /// in one bounds check (an element walk reads a header per child), for `ElementBytes`.
    @inline(__always)
    func peekBigEndian(at offset: Int, byteCount: Int) -> UInt64? {
        guard offset >= 0, byteCount >= 1, byteCount <= 8, offset <= remaining - byteCount else { return nil }
        var value: UInt64 = 0
        var at = index + offset
        let end = at + byteCount
        while at < end {
            value = value << 8 | UInt64(bytes[at])
            at += 1
        }
        return value
    }
}
