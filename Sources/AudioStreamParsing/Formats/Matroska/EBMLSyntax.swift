/// The EBML element header (RFC 8794 §4–§6), the `ElementSyntax` of the element-tree engine for
/// Matroska and WebM.
///
/// ```
///  Element ID          1–4 bytes, a variable-length integer whose marker bits are kept (§5):
///                      1xxxxxxx | 01xxxxxx xxxxxxxx | 001xxxxx … | 0001xxxx …
///                      the count of leading zero bits of the first byte + 1 is the length
///  Element Data Size   1–8 bytes, a variable-length integer (§4, §6): the marker bit removed, the
///                      value bits are the body's size; all value bits set = unknown size (§6.2)
///  Element Data        the body
/// ```
///
/// IDs are written as the schema writes them, marker included (`0x1A45DFA3` EBML, `0x18538067`
/// Segment, `0x1F43B675` Cluster). A first byte of 0x00 (an ID longer than 4 bytes, or a size longer
/// than 8) is malformed. An unknown size ends where the next element that may not be a descendant
/// starts (`MatroskaElementID.level`), which `endOfUnknownSize` finds inside a buffered parent and
/// `MatroskaParser` at the streamed top level.
enum EBMLSyntax: ElementSyntax {
    typealias ID = UInt32

    /// The shortest header: a 1-byte ID and a 1-byte size.
    static let smallestHeader = 2

    /// The length of a variable-length integer from its first byte (1…8), or `nil` for 0x00.
    @inline(__always)
    static func vintLength(_ first: UInt8) -> Int? {
        first == 0 ? nil : first.leadingZeroBitCount + 1
    }

    /// Reads an element header (nothing consumed).
    ///
    /// - Returns: `.invalid` with `.malformedField` for an ID longer than 4 bytes or a size longer
    ///   than 8 (a 0x00 first byte), or an ID whose value bits are all one (reserved, §5);
    ///   `.sizeBeyondOffsets` for a size no stream offset can reach.
    static func peekHeader(in bytes: some ElementBytes, at offset: Int) -> ElementHeaderPeek<EBMLSyntax> {
        guard let first = bytes.peekUInt8(at: offset) else { return .needMoreData(1) }
        guard let idLength = vintLength(first), idLength <= 4 else {
            return .invalid(ElementHeaderFault(problem: .malformedField, id: nil, declaredSize: 0, headerSize: 1))
        }
        guard let id64 = bytes.peekBigEndian(at: offset, byteCount: idLength) else { return .needMoreData(idLength) }
        let id = UInt32(truncatingIfNeeded: id64)
        let valueBits = UInt64(7 * idLength)
        let idValue = id64 & (1 << valueBits - 1)
        // All value bits set is reserved (§5). All zero is too, but Matroska's ChapterDisplay is 0x80
        // (RFC 9559 §5.1.7.1.4.9), so it is read.
        if idValue == 1 << valueBits - 1 {
            return .invalid(
                ElementHeaderFault(problem: .malformedField, id: id, declaredSize: 0, headerSize: idLength))
        }
        guard let sizeFirst = bytes.peekUInt8(at: offset + idLength) else { return .needMoreData(idLength + 1) }
        guard let sizeLength = vintLength(sizeFirst) else {
            return .invalid(
                ElementHeaderFault(problem: .malformedField, id: id, declaredSize: 0, headerSize: idLength + 1))
        }
        let headerSize = idLength + sizeLength
        guard let raw = bytes.peekBigEndian(at: offset + idLength, byteCount: sizeLength) else {
            return .needMoreData(headerSize)
        }
        let bits = UInt64(7 * sizeLength)
        let value = raw & (1 << bits - 1)
        if value == 1 << bits - 1 { return .header(ElementHeader(id: id, headerSize: headerSize, bodySize: nil)) }
        guard value <= UInt64(Int64.max) - UInt64(headerSize) else {
            return .invalid(
                ElementHeaderFault(problem: .sizeBeyondOffsets, id: id, declaredSize: value, headerSize: headerSize))
        }
        return .header(ElementHeader(id: id, headerSize: headerSize, bodySize: Int64(value)))
    }

    /// Inside a buffered parent: the first following element whose level is the unknown-size
    /// element's or higher (it cannot be a descendant) starts where the element ends; else the
    /// parent's end (RFC 8794 §6.2).
    static func endOfUnknownSize(
        _ header: ElementHeader<EBMLSyntax>, in bytes: ArraySlice<UInt8>, bodyStart: Int, parentEnd: Int
    ) -> Int {
        guard let level = MatroskaElementID.level(of: header.id) else { return parentEnd }
        var walker = ElementWalker(bytes, in: bodyStart..<parentEnd)
        while true {
            let at = walker.position
            switch walker.next(EBMLSyntax.self) {
            case .element(let child):
                if let childLevel = MatroskaElementID.level(of: child.id), childLevel <= level { return at }
            default:
                return parentEnd
            }
        }
    }

    /// The schema name (`Cluster`), or `0x` and the ID's hex digits for an ID the schema table lacks.
    static func name(of id: UInt32) -> String { MatroskaElementID.name(of: id) }

    /// "malformed element header", "element size N runs past the largest stream offset", prefixed
    /// with the element.
    static func error(for fault: ElementHeaderFault<EBMLSyntax>) -> StructureError {
        let element = Structure.mkv(fault.id.map(name(of:)) ?? "element")
        switch fault.problem {
        case .sizeBeyondOffsets:
            return element.invalid("element size \(fault.declaredSize) runs past the largest stream offset")
        case .sizeBelowHeader, .malformedField:
            return element.invalid("malformed element header (a variable-length integer without a marker bit)")
        }
    }
}

/// An EBML element header (`EBMLSyntax`).
typealias EBMLHeader = ElementHeader<EBMLSyntax>

extension Structure {
    /// Matroska and WebM: `mkv: …`; `Structure.mkv("Tracks")` names an element, `mkv (Tracks): …`.
    static let mkv = Structure("mkv")
}
