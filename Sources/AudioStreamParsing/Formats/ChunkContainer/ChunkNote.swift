/// An oddity a chunk decoder worked around, for the parser to report as a diagnostic at the chunk:
/// the kind and the message, prefixed with the format and chunk like every message.
struct ChunkNote: Hashable, Sendable {
    /// What kind of oddity it is.
    var kind: ParserDiagnostic.Kind
    /// The message (`"wave (fmt ): cbSize 30 exceeds the chunk; 22 extension bytes read"`).
    var message: String

    init(_ kind: ParserDiagnostic.Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
