/// An error thrown by the parser (CoreAudio `kAudioFileStreamError_*`).
///
/// Every error says what went wrong (`code`, one of Apple's four-character error codes plus
/// ``Code/limitExceeded``), where (`byteOffset`, absolute in the stream), in which container
/// (`format`) and why (`reason`, a fixed string prefixed with the format and chunk or box, such as
/// `"wave (fmt ): channel count is zero"`). After a thrown error the parser is terminal: every
/// later `parse`, `finish` or `seek` throws the same error again.
public struct AudioStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An error code.
    ///
    /// | Swift name                 | CoreAudio constant                                   | code   |
    /// | -------------------------- | ---------------------------------------------------- | ------ |
    /// | `unsupportedFileType`      | `kAudioFileStreamError_UnsupportedFileType`          | `typ?` |
    /// | `unsupportedDataFormat`    | `kAudioFileStreamError_UnsupportedDataFormat`        | `fmt?` |
    /// | `unsupportedProperty`      | `kAudioFileStreamError_UnsupportedProperty`          | `pty?` |
    /// | `badPropertySize`          | `kAudioFileStreamError_BadPropertySize`              | `!siz` |
    /// | `notOptimized`             | `kAudioFileStreamError_NotOptimized`                 | `optm` |
    /// | `invalidPacketOffset`      | `kAudioFileStreamError_InvalidPacketOffset`          | `pck?` |
    /// | `invalidFile`              | `kAudioFileStreamError_InvalidFile`                  | `dta?` |
    /// | `valueUnknown`             | `kAudioFileStreamError_ValueUnknown`                 | `unk?` |
    /// | `dataUnavailable`          | `kAudioFileStreamError_DataUnavailable`              | `more` |
    /// | `illegalOperation`         | `kAudioFileStreamError_IllegalOperation`             | `nope` |
    /// | `unspecifiedError`         | `kAudioFileStreamError_UnspecifiedError`             | `wht?` |
    /// | `discontinuityCantRecover` | `kAudioFileStreamError_DiscontinuityCantRecover`     | `dsc!` |
    /// | `limitExceeded`            | none (private to this library)                       | `lim!` |
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The four-character code as a big-endian `UInt32`.
        public var rawValue: UInt32
        /// Wraps a raw code.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        private init(_ code: StaticString) { self.rawValue = FourCharCode.value(code) }

        /// `kAudioFileStreamError_UnsupportedFileType`: the container is not recognised.
        public static let unsupportedFileType = Self("typ?")
        /// `kAudioFileStreamError_UnsupportedDataFormat`: the audio format is not supported in this container.
        public static let unsupportedDataFormat = Self("fmt?")
        /// `kAudioFileStreamError_UnsupportedProperty`: the property is not supported.
        public static let unsupportedProperty = Self("pty?")
        /// `kAudioFileStreamError_BadPropertySize`: wrong property size.
        public static let badPropertySize = Self("!siz")
        /// `kAudioFileStreamError_NotOptimized`: packets cannot be produced because the information that
        /// defines them comes after the audio data.
        public static let notOptimized = Self("optm")
        /// `kAudioFileStreamError_InvalidPacketOffset`: a packet offset is negative or past the end, or a
        /// packet size is corrupt.
        public static let invalidPacketOffset = Self("pck?")
        /// `kAudioFileStreamError_InvalidFile`: the file is malformed.
        public static let invalidFile = Self("dta?")
        /// `kAudioFileStreamError_ValueUnknown`: the property's value is not in the stream before the audio.
        public static let valueUnknown = Self("unk?")
        /// `kAudioFileStreamError_DataUnavailable`: not enough data yet.
        public static let dataUnavailable = Self("more")
        /// `kAudioFileStreamError_IllegalOperation`: the call is not allowed now (for example `parse`
        /// from inside a callback).
        public static let illegalOperation = Self("nope")
        /// `kAudioFileStreamError_UnspecifiedError`.
        public static let unspecifiedError = Self("wht?")
        /// `kAudioFileStreamError_DiscontinuityCantRecover`.
        public static let discontinuityCantRecover = Self("dsc!")
        /// A `ParserLimits` cap was exceeded (private code `'lim!'`, 0x6C696D21; CoreAudio has none).
        public static let limitExceeded = Self("lim!")

        /// Every code, for tables and tests.
        public static let all: [Code] = [
            .unsupportedFileType, .unsupportedDataFormat, .unsupportedProperty, .badPropertySize, .notOptimized,
            .invalidPacketOffset, .invalidFile, .valueUnknown, .dataUnavailable, .illegalOperation,
            .unspecifiedError, .discontinuityCantRecover, .limitExceeded,
        ]

        /// The four characters, e.g. `dta?`.
        public var description: String { FourCharCode.string(rawValue) }
    }

    /// What went wrong.
    public var code: Code
    /// The absolute stream offset of the byte where the problem was found.
    public var byteOffset: Int64
    /// The container being parsed, when known.
    public var format: AudioFileType?
    /// A fixed explanation prefixed with the format and chunk or box.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, at byteOffset: Int64, format: AudioFileType? = nil, _ reason: String) {
        self.code = code
        self.byteOffset = byteOffset
        self.format = format
        self.reason = reason
    }

    /// `"dta? at 1234: wave (fmt ): channel count is zero"`.
    public var description: String { "\(code) at \(byteOffset): \(reason)" }
}
