/// The container parser's walk over the children of a buffered box (`moov`, `moof` and the containers
/// inside them; ISO/IEC 14496-12 §4.2), on the element-tree engine (`ElementWalker`).
///
/// Rules (docs/formats/mp4.md, "Box walker"):
/// - A child whose size runs past its parent's end throws `invalidFile`.
/// - A child of size 0 runs to the end of its parent (as ffmpeg reads it; ISO allows size 0 only for the
///   last top-level box).
/// - Fewer than 8 bytes left at the end of a parent are ignored (QuickTime ends `udta` lists with a 32-bit
///   zero), with a diagnostic when they are not zero.
/// - Callers descend only into the containers they need, with `depth` counted against
///   `ParserLimits.maxNestingDepth`.
enum MP4BoxTree {
    /// The children of the box whose children lie in `range` of `bytes`.
    ///
    /// - Parameters:
    ///   - parent: the parent's type, for messages.
    ///   - depth: the parent's depth (a top-level box's children are at depth 1).
    ///   - notes: receives a `junkSkipped` note for trailing bytes that are not zero.
    /// - Throws: `limitExceeded` deeper than `limits.maxNestingDepth`; `invalidFile` for a child header
    ///   that cannot be right or a child that ends past its parent.
    static func children(
        _ bytes: ArraySlice<UInt8>, in range: Range<Int>, parent: String, depth: Int, limits: ParserLimits,
        notes: inout [DiagnosticNote]
    ) throws(StructureError) -> [MP4Box] {
        var walker = ElementWalker(bytes, in: range, depth: depth, limits: limits)
        var out: [MP4Box] = []
        while true {
            switch walker.next(MP4BoxSyntax.self) {
            case .element(let box):
                out.append(MP4Box(box))
            case .end:
                return out
            case .partialHeader(let tail, _):
                if bytes[tail].contains(where: { $0 != 0 }) {
                    let text = "\(tail.count) trailing bytes that are not a box ignored"
                    notes.append(DiagnosticNote(.junkSkipped, .mp4(parent), text))
                }
                return out
            case .invalid(let fault, _):
                throw StructureError(.invalidFile, reason: fault.error.reason + " (inside '\(parent)')")
            case .pastParent(let header, _, let left):
                throw Structure.mp4(header.name).invalid(
                    "box of \(header.size ?? 0) bytes ends past its parent '\(parent)' (\(left) bytes left)")
            case .tooDeep:
                throw Structure.mp4(parent).limit("boxes nested deeper than maxNestingDepth")
            }
        }
    }
}

extension MP4BoxTree {
    /// Where the children of a whole box held in `bytes` (header included: a `moov`, a `moof`) lie.
    ///
    /// - Throws: `invalidFile` ("bad header") when `bytes` does not start with a valid box header.
    static func body(ofWholeBox bytes: ArraySlice<UInt8>, name: String) throws(StructureError) -> Range<Int> {
        guard case .header(let header) = MP4BoxSyntax.peekHeader(in: ByteReader(bytes), at: 0) else {
            throw Structure.mp4(name).invalid("bad header")
        }
        return (bytes.startIndex + header.headerSize)..<bytes.endIndex
    }
}

extension [MP4Box] {
    /// The first child of this type.
    func first(_ type: UInt32) -> MP4Box? { first { $0.type == type } }
}

extension ByteReader {
    /// A full box's version and flags (ISO/IEC 14496-12 §4.2 `FullBox`: 8-bit version, 24-bit flags).
    mutating func versionAndFlags() -> (version: UInt8, flags: UInt32)? {
        guard let v = readInteger(as: UInt32.self, endianness: .big) else { return nil }
        return (UInt8(v >> 24), v & 0xFF_FFFF)
    }
}
