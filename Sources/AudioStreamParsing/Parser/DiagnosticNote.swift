/// A recoverable oddity found by a decoder that works on bytes held in memory (a chunk or box body,
/// a tag, a comment block), before it is placed in the stream: the kind and the message, prefixed
/// with the format and structure like every message.
///
/// Such decoders do not see the stream, so they collect notes; the format parser that called them
/// reports each one with `context.diagnose(note, at:)` at the offset of the structure it read (the
/// chunk, the element, the tag, the page). One type for every family — chunk decoders, element
/// decoders, the tag readers (ID3v2, APEv2, Vorbis comments, `ilst`) — so the kind chosen where the
/// oddity is found reaches the ``ParserDiagnostic`` unchanged.
struct DiagnosticNote: Hashable, Sendable {
    /// What kind of oddity it is.
    var kind: ParserDiagnostic.Kind
    /// The message, prefixed with the format and structure (`Structure.message`):
    /// `"wave (fmt ): cbSize 30 exceeds the chunk; 22 extension bytes read"`.
    var message: String

    /// A note with an already prefixed message.
    init(_ kind: ParserDiagnostic.Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A note about `structure`: `text` prefixed with it.
    init(_ kind: ParserDiagnostic.Kind, _ structure: Structure, _ text: String) {
        self.init(kind, structure.message(text))
    }

    /// A note that reports `error` instead of throwing it (an optional structure that could not be
    /// decoded): its reason, and the kind ``kind(of:whenInvalid:)`` gives.
    init(_ error: StructureError, whenInvalid kind: ParserDiagnostic.Kind) {
        self.init(Self.kind(of: error, whenInvalid: kind), error.reason)
    }

    /// The kind of a diagnostic that reports `error` instead of throwing it: a `ParserLimits` cap is
    /// `.limitExceeded`, a valid but unsupported feature `.unsupportedFeature`, malformed bytes
    /// `whenInvalid` (what was done with them: `.damagedMetadata`, `.structureSkipped`, …).
    static func kind(of error: StructureError, whenInvalid kind: ParserDiagnostic.Kind) -> ParserDiagnostic.Kind {
        switch error.code {
        case .limitExceeded: .limitExceeded
        case .unsupportedDataFormat: .unsupportedFeature
        default: kind
        }
    }
}

extension ParseContext {
    /// Reports `note` at `offset`: the position of the structure it was read from (or the current
    /// position).
    mutating func diagnose(_ note: DiagnosticNote, at offset: Int64? = nil) {
        diagnose(note.kind, at: offset, note.message)
    }
}
