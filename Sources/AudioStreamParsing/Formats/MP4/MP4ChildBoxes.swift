/// The boxes directly inside a fully buffered box body (ISO/IEC 14496-12 §4.2), for the decoders in
/// this folder (sample entries, `wave`, `meta`/`ilst`), on the element-tree engine (`ElementWalker`,
/// `MP4BoxSyntax`). Stricter than the container's walk (`MP4BoxTree`): a cut header throws.
///
/// ```
///  size        4   32-bit box size including this header; 1: a 64-bit largesize follows;
///                  0: the box runs to the end of its parent
///  type        4   four-character code
///  [largesize  8]
///  body        size − header
/// ```
///
/// A QuickTime terminator (a 4-byte zero, or an 8-byte box of size 8 and type 0, as ffmpeg writes
/// at the end of `wave`) ends the list.
struct MP4ChildBoxes {
    /// One child box.
    struct Box {
        /// The four-character type.
        var type: UInt32
        /// The body (after the header), indices relative to the parent's bytes.
        var body: ArraySlice<UInt8>
        /// The whole box (header and body).
        var whole: ArraySlice<UInt8>
    }

    /// The boxes in order.
    private(set) var boxes: [Box] = []

    /// Splits `bytes` into boxes.
    ///
    /// - Parameters:
    ///   - bytes: the parent's body (or the part of it that holds child boxes).
    ///   - parent: the parent's name for error reasons, e.g. `"mp4a"`.
    /// - Throws: `invalidFile` when a box header is cut, a size is smaller than its header, or a box
    ///   ends past its parent.
    init(_ bytes: ArraySlice<UInt8>, parent: String) throws(StructureError) {
        let structure = Structure.mp4(parent)
        var walker = ElementWalker(bytes, in: bytes.indices)
        while true {
            switch walker.next(MP4BoxSyntax.self) {
            case .element(let box):
                let header = box.header
                let isTerminator =
                    box.id == 0 && header.headerSize == MP4BoxSyntax.compactHeaderSize
                    && (header.bodySize == nil || header.bodySize == 0)
                if isTerminator { return }  // QuickTime terminator: size 8 (or 0) and type 0
                boxes.append(Box(type: box.id, body: bytes[box.body], whole: bytes[box.start..<box.end]))
            case .end, .tooDeep:
                return
            case .partialHeader(let tail, let needed):
                // A 4-byte zero terminator (QuickTime); anything else is a cut header.
                if needed > MP4BoxSyntax.compactHeaderSize { throw structure.invalid("child box largesize cut short") }
                if bytes[tail].allSatisfy({ $0 == 0 }) { return }
                throw structure.invalid("child box header cut short")
            case .invalid(let fault, _):
                let name = FourCharCode.string(fault.id ?? 0)
                guard fault.problem == .sizeBelowHeader else {
                    throw structure.invalid("child box '\(name)' ends past its parent")
                }
                throw structure.invalid("child box '\(name)' size \(fault.declaredSize) below its header")
            case .pastParent(let header, _, _):
                throw structure.invalid("child box '\(header.name)' ends past its parent")
            }
        }
    }

    /// The first child of `type`.
    func first(_ type: UInt32) -> Box? { boxes.first { $0.type == type } }

    /// The big-endian `UInt32` at index `i` of `bytes` (for the codec configuration decoders).
    ///
    /// - Precondition: `bytes` holds indices `i..<i + 4` (checked by the caller).
    static func uint32(_ bytes: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }
}
