/// An `http://` or `https://` URL, parsed without Foundation: `scheme://host[:port][/path][?query]`
/// (RFC 3986 §3; user info and fragments are not used by `audioinspect`: a fragment is dropped).
struct WebURL: Equatable, CustomStringConvertible {
    /// The URL as given (or as resolved from a redirect).
    let absoluteString: String
    /// `http` or `https`, lowercased.
    let scheme: String
    /// The host name or address (IPv6 literals without their brackets).
    let host: String
    /// The port when the URL names one.
    let port: Int?
    /// The path, `/` when empty.
    let path: String
    /// The query without its `?`.
    let query: String?

    var description: String { absoluteString }
    /// The path and query, as sent in a request line.
    var pathAndQuery: String { query.map { path + "?" + $0 } ?? path }
    /// `host[:port]` for the `Host` header.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(name):\($0)" } ?? name
    }

    /// Parses `text`; nil unless it is an absolute http(s) URL with a host.
    init?(string text: String) {
        guard let schemeEnd = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var rest = text[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        var port: Int?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()), (0...65535).contains(p) else { return nil }
                port = p
            } else if !after.isEmpty {
                return nil
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            let digits = authority[authority.index(after: colon)...]
            if !digits.isEmpty {
                guard let p = Int(digits), (0...65535).contains(p) else { return nil }
                port = p
            }
        } else {
            host = authority
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " }) else { return nil }
        let pathAndQuery = rest[authorityEnd...]
        var path = pathAndQuery
        var query: Substring?
        if let mark = pathAndQuery.firstIndex(of: "?") {
            path = pathAndQuery[..<mark]
            query = pathAndQuery[pathAndQuery.index(after: mark)...]
        }
        self.absoluteString = String(text[..<(text.firstIndex(of: "#") ?? text.endIndex)])
        self.scheme = scheme
        self.host = String(host)
        self.port = port
        self.path = path.isEmpty ? "/" : String(path)
        self.query = query.map(String.init)
    }

    /// The target of a redirect's `Location` (RFC 9110 §10.2.2, RFC 3986 §5.2): an absolute URL, a
    /// network-path reference (`//host/…`), an absolute path, or a path relative to this URL's directory.
    func resolving(_ location: String) -> WebURL? {
        if location.contains("://") { return WebURL(string: location) }
        if location.hasPrefix("//") { return WebURL(string: scheme + ":" + location) }
        let origin = scheme + "://" + hostHeader
        if location.hasPrefix("/") { return WebURL(string: origin + location) }
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
        return WebURL(string: origin + directory + location)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension Array where Element == UInt8 {
    /// The range of the first occurrence of `needle` (a short delimiter such as CRLF CRLF), searched from
    /// the start; a plain loop over the bytes, for response heads of at most a few hundred KiB.
    func range(ofDelimiter needle: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, count >= needle.count else { return nil }
        var i = 0
        while i + needle.count <= count {
            if self[i] == needle[0] && self[i..<(i + needle.count)].elementsEqual(needle) {
                return i..<(i + needle.count)
            }
            i += 1
        }
        return nil
    }
}
