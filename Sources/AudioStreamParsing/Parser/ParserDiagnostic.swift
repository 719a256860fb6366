/// A recoverable oddity the parser noticed and worked around (skipped junk, an unknown chunk, a size
/// that was corrected, a truncated last packet).
///
/// `kind` says what happened in a form a program can match; `message` explains it for a person,
/// prefixed with the format and structure (`"wave: unknown chunk 'junk' (12 bytes) skipped"`). The
/// message text may be reworded between versions; the kinds are stable.
public struct ParserDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// What kind of oddity a diagnostic reports.
    ///
    /// A code set over stable strings, like the other code sets of the library. New kinds may be
    /// added; treat an unknown one as ``other``.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable name, e.g. `"junkSkipped"`.
        public var rawValue: String
        /// Wraps a raw name.
        public init(rawValue: String) { self.rawValue = rawValue }
        private init(_ name: String) { self.rawValue = name }

        /// Bytes that belong to no structure were skipped: junk before or between frames, a lost
        /// sync, zero padding, bytes at the end that are not a whole chunk or box.
        public static let junkSkipped = Self("junkSkipped")
        /// A structure of a type this library does not read (a chunk, box, metadata block) was
        /// skipped.
        public static let unknownStructure = Self("unknownStructure")
        /// A second copy of a structure that may appear once was ignored.
        public static let duplicateStructure = Self("duplicateStructure")
        /// A valid structure was skipped because it is not used: tags between frames, a logical
        /// stream or track that was not selected, data after the end of the container.
        public static let structureSkipped = Self("structureSkipped")
        /// A declared size or count could not be used as written (zero, -1, past the end of the
        /// container or stream) and was corrected; the correction is in the message.
        public static let sizeCorrected = Self("sizeCorrected")
        /// Two values of the stream disagree (a declared frame count and the frames found); the one
        /// used is in the message.
        public static let inconsistentValues = Self("inconsistentValues")
        /// The stream ends inside a structure or packet; what was incomplete is dropped.
        public static let truncated = Self("truncated")
        /// A checksum (CRC) does not match its data.
        public static let checksumMismatch = Self("checksumMismatch")
        /// A structure was skipped because it exceeds a ``ParserLimits`` cap.
        public static let limitExceeded = Self("limitExceeded")
        /// A metadata structure (tag, comment, picture, chapter list) is damaged; what could be read
        /// is kept.
        public static let damagedMetadata = Self("damagedMetadata")
        /// The continuity of the stream is broken (a caller's discontinuity, a gap in sequence or
        /// frame numbers); what could not be placed is dropped.
        public static let discontinuity = Self("discontinuity")
        /// The audio format changes in the middle of the stream.
        public static let formatChange = Self("formatChange")
        /// The position of packets after a seek was corrected once the stream told where they are.
        public static let positionCorrected = Self("positionCorrected")
        /// A valid feature this library does not support was ignored.
        public static let unsupportedFeature = Self("unsupportedFeature")
        /// None of the kinds above. The library classifies every diagnostic it reports and never
        /// reports this kind; it stays for source compatibility (a diagnostic created with
        /// ``ParserDiagnostic/init(_:at:_:)`` without a kind) and for programs to map kinds they do
        /// not know to.
        public static let other = Self("other")

        /// Every kind, for tables and tests.
        public static let all: [Kind] = [
            .junkSkipped, .unknownStructure, .duplicateStructure, .structureSkipped, .sizeCorrected,
            .inconsistentValues, .truncated, .checksumMismatch, .limitExceeded, .damagedMetadata,
            .discontinuity, .formatChange, .positionCorrected, .unsupportedFeature, .other,
        ]

        /// The raw name.
        public var description: String { rawValue }
    }

    /// What kind of oddity this is.
    public var kind: Kind
    /// The absolute stream offset the message is about.
    public var byteOffset: Int64
    /// A fixed explanation prefixed with the format and chunk or box.
    public var message: String

    /// Creates a diagnostic (of kind ``Kind/other`` when no kind is given, as before kinds existed).
    public init(_ kind: Kind = .other, at byteOffset: Int64, _ message: String) {
        self.kind = kind
        self.byteOffset = byteOffset
        self.message = message
    }

    /// `"at 1234: wave: unknown chunk 'junk' skipped"`.
    public var description: String { "at \(byteOffset): \(message)" }
}
