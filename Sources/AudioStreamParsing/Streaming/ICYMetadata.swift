/// One ICY (Shoutcast/Icecast) metadata block: `StreamTitle='Artist - Title';StreamUrl='…';`.
///
/// Parsing is tolerant, as players must be with real stations:
/// - a value runs from `='` to the next `';` that is followed by another `Key=` or by the end of the
///   block, so quotes and semicolons inside titles (`StreamTitle='Rock 'n' Roll; Live';`) survive;
/// - a value without quotes (`Key=value;`) runs to the next `;`; a missing final `';` is accepted;
/// - trailing NUL padding (blocks are padded to a multiple of 16 bytes) is ignored;
/// - each value is decoded as UTF-8 when it is valid UTF-8, otherwise as ISO 8859-1 (Latin-1), which
///   many stations still send.
public struct ICYMetadata: Hashable, Sendable, CustomStringConvertible {
    /// Every `key='value'` pair, in block order (keys as sent).
    public var fields: [Field]

    /// One `key='value'` pair.
    public struct Field: Hashable, Sendable {
        /// The key as sent, e.g. `StreamTitle`.
        public var key: String
        /// The decoded value.
        public var value: String

        /// Creates a field.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Creates metadata from fields.
    public init(fields: [Field]) { self.fields = fields }

    /// Parses a metadata block's bytes (without its length byte; NUL padding allowed).
    public init(parsing block: some Collection<UInt8>) {
        fields = ICYMetadata.parseFields(Array(block))
    }

    /// The value of the first field named `key` (ASCII case-insensitive).
    public subscript(key: String) -> String? {
        let wanted = ICYHeaders.asciiLowercased(key)
        return fields.first { ICYHeaders.asciiLowercased($0.key) == wanted }?.value
    }

    /// `StreamTitle`, usually `Artist - Title`; `nil` when the block has none.
    public var streamTitle: String? { self["StreamTitle"] }
    /// `StreamUrl`, when the station sends one.
    public var streamURL: String? { self["StreamUrl"] }

    /// `StreamTitle='…';StreamUrl='…';` (the fields as parsed).
    public var description: String { fields.map { "\($0.key)='\($0.value)';" }.joined() }

    // MARK: Parsing

    private static let quote = UInt8(ascii: "'")
    private static let semicolon = UInt8(ascii: ";")
    private static let equals = UInt8(ascii: "=")

    private static func parseFields(_ raw: [UInt8]) -> [Field] {
        var end = raw.count
        while end > 0 && raw[end - 1] == 0 { end -= 1 }
        let bytes = raw[..<end]
        var fields: [Field] = []
        var i = 0
        while i < end {
            // Skip separators and whitespace between fields.
            while i < end && (bytes[i] == semicolon || isSpace(bytes[i])) { i += 1 }
            guard i < end, let eq = keyEnd(bytes, from: i) else { break }
            let key = decode(bytes[i..<eq])
            var j = eq + 1
            let value: ArraySlice<UInt8>
            if j < end && bytes[j] == quote {
                j += 1
                let close = quotedValueEnd(bytes, from: j)
                value = bytes[j..<close]
                i = min(end, close + 2)
            } else {
                while j < end && bytes[j] != semicolon { j += 1 }
                value = bytes[(eq + 1)..<j]
                i = j + 1
            }
            fields.append(Field(key: key, value: decode(value)))
        }
        return fields
    }

    /// The index of the `=` ending a key that starts at `start` (letters, digits, `_`, `-`), or `nil`.
    private static func keyEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var i = start
        while i < bytes.endIndex, isKeyByte(bytes[i]) { i += 1 }
        guard i > start, i < bytes.endIndex, bytes[i] == equals else { return nil }
        return i
    }

    /// Where a quoted value starting at `start` ends: the first `'` followed by `;` and then the end
    /// or another key, else the last `'` of the block, else the end.
    private static func quotedValueEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        let end = bytes.endIndex
        var lastQuote: Int?
        var i = start
        while i < end {
            if bytes[i] == quote {
                lastQuote = i
                if i + 1 < end, bytes[i + 1] == semicolon {
                    var k = i + 2
                    while k < end && isSpace(bytes[k]) { k += 1 }
                    if k == end || keyEnd(bytes, from: k) != nil { return i }
                }
            }
            i += 1
        }
        if let lastQuote, lastQuote == end - 1 { return lastQuote }
        return end
    }

    private static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    /// UTF-8 when valid, else ISO 8859-1 (every byte is the code point of the same value).
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = ""
        text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return text
    }
}
