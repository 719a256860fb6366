/// The container or codec and the structure in it that an error or diagnostic is about: the prefix
/// of every reason and message (`wave (fmt )`, `mp4 (stsz)`, `vorbis (setup)`, or `mpeg` alone).
///
/// Reasons are never typed with their prefix by hand: a decoder names its structure once
/// (`let fmt = Structure("wave", "fmt ")`) and builds its errors and diagnostics from it, so every
/// message of the library has the same shape and a test can rely on it.
struct Structure: Hashable, Sendable {
    /// The container or codec, lower case (`wave`, `aiff`, `caf`, `au`, `mp4`, `ogg`, `vorbis`, …).
    let format: String
    /// The structure inside it (a chunk or box type, a header name), when there is one.
    let name: String?

    /// A structure of `format`.
    init(_ format: String, _ name: String? = nil) {
        self.format = format
        self.name = name
    }

    /// The same container, another structure.
    func callAsFunction(_ name: String) -> Structure { Structure(format, name) }

    /// `"wave (fmt )"`, or `"mpeg"` without a structure name.
    var prefix: String {
        guard let name else { return format }
        return "\(format) (\(name))"
    }

    /// `"wave (fmt ): <message>"`.
    func message(_ text: String) -> String { "\(prefix): \(text)" }

    /// An error about this structure.
    func error(_ code: AudioStreamError.Code, _ text: String) -> StructureError {
        StructureError(code, reason: message(text))
    }

    /// `invalidFile` (`dta?`): the bytes are malformed.
    func invalid(_ text: String) -> StructureError { error(.invalidFile, text) }

    /// `unsupportedDataFormat` (`fmt?`): valid, but a format this library does not read.
    func unsupported(_ text: String) -> StructureError { error(.unsupportedDataFormat, text) }

    /// `limitExceeded` (`lim!`): a `ParserLimits` cap.
    func limit(_ text: String) -> StructureError { error(.limitExceeded, text) }
}

/// A problem found while decoding one structure held in memory (a chunk or box body, a codec header,
/// a tag frame), before it is placed in the stream: the code and the prefixed reason.
///
/// Decoders throw it (`throws(StructureError)`); a format parser turns it into an `AudioStreamError`
/// at the structure's position with `context.error(error, at:)`, or into a diagnostic when the
/// structure is optional.
struct StructureError: Error, Hashable, Sendable {
    /// Apple's code: `invalidFile` for malformed bytes, `unsupportedDataFormat` for a valid but
    /// unsupported format, `limitExceeded` for a `ParserLimits` cap.
    var code: AudioStreamError.Code
    /// A fixed explanation prefixed with the format and structure (`Structure.message`).
    var reason: String

    /// An error with an already prefixed reason.
    init(_ code: AudioStreamError.Code, reason: String) {
        self.code = code
        self.reason = reason
    }
}
