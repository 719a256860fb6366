/// One chunk header, decoded by its container's `ChunkLayout` (the layouts and their spec sections
/// are drawn there):
///
/// ```
///  offset         size                      field
///  0              layout.idByteCount        identifier (ChunkID)
///  idByteCount    layout.sizeByteCount      size, in layout.sizeEndianness
///  headerBytes    size (− headerBytes)      body, then layout.padding(afterBodyOf:) pad bytes
/// ```
///
/// The header keeps the size field as written and the body sizes derived from it: `declaredSize` is
/// what the chunk claims (after a container's size table, RF64's `ds64`), `size` what is read or
/// skipped once the container's rules cut it at the container end.
struct ChunkHeader: Hashable, Sendable {
    /// The identifier.
    let id: ChunkID
    /// Absolute offset of the header.
    let offset: Int64
    /// The size field as written (a signed field's two's-complement bits).
    let sizeField: UInt64
    // The sizes below, stored compactly: the header travels in parser states and events.
    private var declared: UInt64
    private var cut: UInt64
    private var runsToEnd: Bool
    private let headerBytes: UInt8

    /// The width of the header (the layout's).
    var headerByteCount: Int { Int(headerBytes) }
    /// The body bytes the chunk declares, or `nil` when it runs to the end of the stream (a CAF
    /// `data` chunk of size -1).
    var declaredSize: UInt64? {
        get { runsToEnd ? nil : declared }
        set {
            runsToEnd = newValue == nil
            declared = newValue ?? 0
            cut = declared
        }
    }
    /// The body bytes to read or skip: `declaredSize`, unless the container end cut it (setting
    /// `declaredSize` resets it).
    var size: UInt64? {
        get { runsToEnd ? nil : cut }
        set { cut = newValue ?? declared }
    }

    /// A header; the body sizes start as `declaredSize`.
    init(id: ChunkID, offset: Int64, headerByteCount: Int, sizeField: UInt64, declaredSize: UInt64?) {
        self.id = id
        self.offset = offset
        self.sizeField = sizeField
        self.headerBytes = UInt8(truncatingIfNeeded: headerByteCount)
        self.runsToEnd = declaredSize == nil
        self.declared = declaredSize ?? 0
        self.cut = self.declared
    }

    /// The identifier as text, for messages (`'fmt '` is `fmt `).
    var name: String { id.description }
    /// The size field as a signed integer (CAF's `mChunkSize`).
    var signedSizeField: Int64 { Int64(bitPattern: sizeField) }
    /// Absolute offset of the body.
    var bodyStart: Int64 { offset + Int64(headerByteCount) }
    /// Absolute offset after the body (before any pad byte); the largest offset for a body that runs
    /// to the end of the stream or past the largest offset.
    var bodyEnd: Int64 {
        guard let size, size <= UInt64(Int64.max - bodyStart) else { return Int64.max }
        return bodyStart + Int64(size)
    }

    /// Decodes the header `ahead` bytes after the window's position (default: at it), or `nil` while not
    /// all of it is readable. The body sizes are the size field's plain reading (checked and adjusted by
    /// `ChunkWalker`).
    static func peek(_ window: InputWindow, at ahead: Int = 0, _ layout: ChunkLayout) -> ChunkHeader? {
        guard let id = peekID(window, at: ahead, layout) else { return nil }
        let field: UInt64
        if layout.sizeByteCount == 4 {
            guard
                let size = window.peekInteger(
                    at: ahead + layout.idByteCount, as: UInt32.self, endianness: layout.sizeEndianness)
            else { return nil }
            field = UInt64(size)
        } else {
            guard
                let size = window.peekInteger(
                    at: ahead + layout.idByteCount, as: UInt64.self, endianness: layout.sizeEndianness)
            else { return nil }
            field = size
        }
        var body: UInt64? = field
        if layout.sizeIsSigned && Int64(bitPattern: field) < 0 {
            body = nil
        } else if layout.sizeIncludesHeader {
            body = field >= UInt64(layout.headerByteCount) ? field - UInt64(layout.headerByteCount) : nil
        }
        return ChunkHeader(
            id: id, offset: window.position + Int64(ahead), headerByteCount: layout.headerByteCount, sizeField: field,
            declaredSize: body)
    }

    /// The identifier `offset` bytes after the window's position, or `nil` while not readable.
    static func peekID(_ window: InputWindow, at offset: Int, _ layout: ChunkLayout) -> ChunkID? {
        guard let code = window.peekInteger(at: offset, as: UInt32.self, endianness: .big) else { return nil }
        switch layout.identifier {
        case .fourCharCode:
            return ChunkID(code: code)
        case .guid(let suffix):
            guard let high = window.peekInteger(at: offset + 4, as: UInt64.self, endianness: .big),
                let low = window.peekInteger(at: offset + 12, as: UInt32.self, endianness: .big)
            else { return nil }
            let tail = ChunkID.GUIDTail(high: high, low: low)
            return tail == suffix ? ChunkID(code: code) : ChunkID(code: code, guidTail: tail)
        }
    }
}
