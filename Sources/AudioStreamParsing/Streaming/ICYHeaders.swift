/// Helpers for the HTTP response headers of an ICY (Shoutcast/Icecast) stream.
///
/// A client asks for interleaved metadata with the request header `Icy-MetaData: 1`; a server that
/// agrees answers with `icy-metaint: N` (audio bytes between metadata blocks) and may add `icy-name`,
/// `icy-genre`, `icy-br`, `icy-url`, `icy-description`. HTTP header names are case-insensitive
/// (RFC 9110 §5.1): servers send `icy-metaint`, `Icy-MetaInt` or `ICY-METAINT`.
public enum ICYHeaders {
    /// The request header that asks for metadata: name.
    public static let requestHeaderName = "Icy-MetaData"
    /// The request header that asks for metadata: value.
    public static let requestHeaderValue = "1"

    /// The value of header `name` (ASCII case-insensitive); the first one when repeated.
    public static func value(named name: String, in headers: some Sequence<(String, String)>) -> String? {
        let wanted = asciiLowercased(name)
        for (key, value) in headers where asciiLowercased(key) == wanted { return value }
        return nil
    }

    /// The value of header `name` (ASCII case-insensitive) in a dictionary of headers.
    public static func value(named name: String, in headers: [String: String]) -> String? {
        value(named: name, in: headers.lazy.map { ($0.key, $0.value) })
    }

    /// The `icy-metaint` interval: a positive decimal number of audio bytes, or `nil` when the header
    /// is missing or malformed (then the body has no metadata blocks).
    public static func metaInterval(in headers: some Sequence<(String, String)>) -> Int? {
        guard let text = value(named: "icy-metaint", in: headers) else { return nil }
        return parseInterval(text)
    }

    /// The `icy-metaint` interval from a dictionary of headers.
    public static func metaInterval(in headers: [String: String]) -> Int? {
        metaInterval(in: headers.lazy.map { ($0.key, $0.value) })
    }

    static func parseInterval(_ text: String) -> Int? {
        let trimmed = text.utf8.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
        let digits = Array(trimmed.reversed())
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let n = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return n > 0 ? n : nil
    }

    static func asciiLowercased(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
