/// Which `ParserLimits` cap bounds an element that is buffered whole.
enum ElementBufferLimit: Equatable, Sendable {
    /// `ParserLimits.maxHeaderChunkBytes`: small header elements (MP4 `ftyp`, EBML `EBML` header).
    case headerChunk
    /// `ParserLimits.maxBufferedBytes`: large tree elements (MP4 `moov`, `moof`).
    case buffered

    /// The cap in bytes.
    func bytes(in limits: ParserLimits) -> Int {
        switch self {
        case .headerChunk: return limits.maxHeaderChunkBytes
        case .buffered: return limits.maxBufferedBytes
        }
    }
}

/// What a format does with one element type met in the stream.
///
/// `Decoder` is unconstrained (its `Equatable` and `Sendable` conformances are conditional), so that
/// the registry's storage needs no protocol conformance looked up at run time.
enum ElementRole<Decoder> {
    /// A container (master) element, buffered whole up to `limit` and decoded by `decoder` as a tree
    /// of children (MP4 `moov`, `moof`).
    case container(Decoder, limit: ElementBufferLimit)
    /// A leaf element, buffered whole up to `limit` and decoded by `decoder` (MP4 `ftyp`).
    case leaf(Decoder, limit: ElementBufferLimit)
    /// An element whose body the format reads as it streams past, never buffered whole (MP4 `mdat`;
    /// EBML `Segment` and `Cluster`, whose children are then read as elements of the stream).
    case streamed(Decoder)
    /// Known and not needed: skipped without buffering and without a diagnostic (MP4 `free`, `sidx`).
    case skipped
}

extension ElementRole: Equatable where Decoder: Equatable {}

extension ElementRole: Sendable where Decoder: Sendable {}

/// The element types a format knows, as data: ID → role (style rule 10, "Registries are data").
///
/// A type that is not registered is unknown: the format skips it without buffering and reports it
/// (`ParserDiagnostic.Kind.unknownStructure`). Registering an ID twice keeps the first role and
/// records the ID in `duplicates`, which a unit test requires to be empty.
///
/// A registry is a short table read once per top-level element: it keeps its entries as written and
/// searches them in order (a dictionary of a generic value type would cost more to set up, at run
/// time, than every lookup of a stream).
struct ElementRegistry<Syntax: ElementSyntax, Decoder> {
    private let entries: [(id: Syntax.ID, role: ElementRole<Decoder>)]
    /// IDs registered more than once (a table error; tests check it is empty).
    let duplicates: [Syntax.ID]

    /// A registry of `entries`, in the order written.
    init(_ entries: [(id: Syntax.ID, role: ElementRole<Decoder>)]) {
        var duplicates: [Syntax.ID] = []
        for (i, entry) in entries.enumerated() where entries[..<i].contains(where: { $0.id == entry.id }) {
            duplicates.append(entry.id)
        }
        self.entries = entries
        self.duplicates = duplicates
    }

    /// The role of `id` (its first registration); `nil` for an unknown type.
    subscript(id: Syntax.ID) -> ElementRole<Decoder>? {
        for entry in entries where entry.id == id { return entry.role }
        return nil
    }
}

extension ElementRegistry: Sendable where Decoder: Sendable {}
