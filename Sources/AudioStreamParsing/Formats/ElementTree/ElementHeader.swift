/// One element header as its syntax decoded it: the ID, the header's length and the declared size.
struct ElementHeader<Syntax: ElementSyntax>: Equatable {
    /// The element's ID.
    var id: Syntax.ID
    /// The header's length in bytes (MP4: 8, or 16 with a largesize): at least 1, and never more than
    /// the bytes the header was read from.
    var headerSize: Int
    /// The body's length in bytes; `nil` when the header declares an unknown size (MP4 size 0, EBML
    /// all value bits set). A syntax guarantees `headerSize + bodySize <= Int64.max`.
    var bodySize: Int64?

    /// The whole element's length, header included, when its size is known.
    var size: Int64? { bodySize.map { Int64(headerSize) + $0 } }

    /// The ID's printable name (`Syntax.name(of:)`).
    var name: String { Syntax.name(of: id) }
}

/// What reading an element header gave.
enum ElementHeaderPeek<Syntax: ElementSyntax> {
    /// A whole, plausible header.
    case header(ElementHeader<Syntax>)
    /// This many bytes, counted from the header's start, must be readable first.
    case needMoreData(Int)
    /// The bytes cannot be a header.
    case invalid(ElementHeaderFault<Syntax>)
}

/// Why a header cannot be right, with what the format needs to word it (plain values: the syntax
/// words its reason with `ElementSyntax.error(for:)`, each format its own messages).
///
/// The engine never words a message itself: an MP4 box walker inside a sample entry says "child box
/// … below its header", the top level "box size … is below 8".
struct ElementHeaderFault<Syntax: ElementSyntax>: Equatable {
    /// What is wrong.
    enum Problem: Equatable {
        /// The declared size is smaller than the header itself.
        case sizeBelowHeader
        /// The declared size is larger than any stream offset.
        case sizeBeyondOffsets
        /// A field is malformed (EBML: a variable-length integer without a marker bit).
        case malformedField
    }

    var problem: Problem
    /// The ID, when it could be read.
    var id: Syntax.ID?
    /// The size field as written (MP4: the 32-bit size or the largesize).
    var declaredSize: UInt64
    /// The length of the header the size field belongs to (MP4: 8, or 16 for a largesize).
    var headerSize: Int

    /// The syntax's reason (`invalidFile`).
    var error: StructureError { Syntax.error(for: self) }
}
