/// The MP4/QuickTime box header (ISO/IEC 14496-12 §4.2 "Object structure"; QuickTime File Format
/// "Atoms"), the `ElementSyntax` of the element-tree engine for MP4.
///
/// ```
/// offset  size  field
///      0     4  size       UInt32, big-endian: the whole box, header included
///                          (1: a 64-bit largesize follows the type; 0: the box runs to the end of the file,
///                          or of its parent)
///      4     4  type       four-character code
///      8     8  largesize  UInt64, only when size == 1
///   8|16    16  usertype   only when type == 'uuid': the extended type (§4.2 `extended_type`)
/// ```
///
/// A `uuid` box's user type stays the first 16 bytes of its body (`extendedType(of:in:)` reads it):
/// the parser skips such boxes whole, so a `uuid` box shorter than 24 bytes is skipped as any other.
enum MP4BoxSyntax: ElementSyntax {
    typealias ID = UInt32

    /// The header without a largesize.
    static let compactHeaderSize = 8
    /// The header with a largesize.
    static let largeHeaderSize = 16
    /// The user type after a `uuid` box's header.
    static let extendedTypeSize = 16

    /// Reads a box header (nothing consumed).
    ///
    /// - Returns: `.invalid` (`invalidFile`) for a 32-bit size of 2–7, a largesize below 16, or a
    ///   largesize that no stream offset can reach (above `Int64.max`); size 0 gives a header of
    ///   unknown size.
    static func peekHeader(in bytes: some ElementBytes, at offset: Int) -> ElementHeaderPeek<MP4BoxSyntax> {
        // The size and the type in one read: the high and the low 32 bits.
        guard let head = bytes.peekBigEndian(at: offset, byteCount: 8) else { return .needMoreData(compactHeaderSize) }
        let size32 = UInt32(truncatingIfNeeded: head >> 32)
        let type = UInt32(truncatingIfNeeded: head)
        if size32 == 1 {
            guard let large = bytes.peekBigEndian(at: offset + 8, byteCount: 8) else {
                return .needMoreData(largeHeaderSize)
            }
            guard large >= UInt64(largeHeaderSize) else {
                return .invalid(
                    ElementHeaderFault(
                        problem: .sizeBelowHeader, id: type, declaredSize: large, headerSize: largeHeaderSize))
            }
            guard large <= UInt64(Int64.max) else {
                return .invalid(
                    ElementHeaderFault(
                        problem: .sizeBeyondOffsets, id: type, declaredSize: large, headerSize: largeHeaderSize))
            }
            return .header(ElementHeader(id: type, headerSize: largeHeaderSize, bodySize: Int64(large) - 16))
        }
        if size32 == 0 { return .header(ElementHeader(id: type, headerSize: compactHeaderSize, bodySize: nil)) }
        guard size32 >= UInt32(compactHeaderSize) else {
            return .invalid(
                ElementHeaderFault(
                    problem: .sizeBelowHeader, id: type, declaredSize: UInt64(size32), headerSize: compactHeaderSize))
        }
        return .header(ElementHeader(id: type, headerSize: compactHeaderSize, bodySize: Int64(size32) - 8))
    }

    /// "box size N is below 8", "largesize N is below 16", "largesize N runs past the largest stream
    /// offset", prefixed with the box type.
    static func error(for fault: ElementHeaderFault<MP4BoxSyntax>) -> StructureError {
        let box = Structure.mp4(name(of: fault.id ?? 0))
        let size = fault.declaredSize
        switch (fault.problem, fault.headerSize) {
        case (.sizeBelowHeader, compactHeaderSize): return box.invalid("box size \(size) is below 8")
        case (.sizeBelowHeader, _): return box.invalid("largesize \(size) is below 16")
        default: return box.invalid("largesize \(size) runs past the largest stream offset")
        }
    }

    /// Size 0 inside a parent: the box runs to the parent's end (as ffmpeg reads it; ISO allows size 0
    /// only for the last top-level box, which then runs to the end of the file).
    static func endOfUnknownSize(
        _ header: ElementHeader<MP4BoxSyntax>, in bytes: ArraySlice<UInt8>, bodyStart: Int, parentEnd: Int
    ) -> Int {
        parentEnd
    }

    /// The four characters (`'moov'`), or `0x` and eight hex digits when they are not printable.
    static func name(of id: UInt32) -> String { FourCharCode.string(id) }

    /// The header length of the whole box at the start of `bytes` (8, or 16 when its size field is 1),
    /// read without judging the size; `nil` when `bytes` is shorter than that header. For decoders
    /// handed a whole box (`chpl`, `elst`).
    static func headerLength(ofWholeBox bytes: ArraySlice<UInt8>) -> Int? {
        var reader = ByteReader(bytes)
        guard let size = reader.readInteger(as: UInt32.self, endianness: .big), reader.skip(4) else { return nil }
        if size == 1 {
            guard reader.skip(8) else { return nil }
            return largeHeaderSize
        }
        return compactHeaderSize
    }

    /// The 16-byte user type of a `uuid` box (ISO/IEC 14496-12 §4.2), `nil` for another type or a
    /// body shorter than that.
    static func extendedType(of box: MP4Box, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard box.type == MP4BoxType.uuid, box.body.count >= extendedTypeSize else { return nil }
        return bytes[box.bodyStart..<(box.bodyStart + extendedTypeSize)]
    }
}

/// A box header (`MP4BoxSyntax`).
typealias MP4BoxHeader = ElementHeader<MP4BoxSyntax>

extension ElementHeader where Syntax == MP4BoxSyntax {
    /// The four-character type.
    var type: UInt32 { id }
}

/// A box inside a buffered parent (`moov`, `moof`): its type and where it lies, as indices of the
/// buffer the parent was read into (the container's record of a `BufferedElement`).
///
/// A plain struct rather than `BufferedElement<MP4BoxSyntax>`: the arrays that keep a movie's boxes
/// (`MP4Track.sampleTableBoxes`, …) then need no generic metadata built at run time.
struct MP4Box: Equatable {
    var type: UInt32
    /// Index of the box's first header byte.
    var start: Int
    /// Index of the first body byte.
    var bodyStart: Int
    /// Index after the last byte.
    var end: Int

    /// The box located by the element walker.
    init(_ element: BufferedElement<MP4BoxSyntax>) {
        type = element.id
        start = element.start
        bodyStart = element.bodyStart
        end = element.end
    }

    var name: String { FourCharCode.string(type) }
    var body: Range<Int> { bodyStart..<end }
}

extension Structure {
    /// The MP4 container: `mp4: …`; `Structure.mp4("stsz")` names a box, `mp4 (stsz): …`.
    static let mp4 = Structure("mp4")
}
