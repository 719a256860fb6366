/// An `http://` or `https://` URL, parsed without Foundation: `scheme://host[:port][/path][?query]`
/// (RFC 3986 §3; user info and fragments are not used by `audioinspect`: a fragment is dropped).
package struct WebURL: Equatable, Sendable, CustomStringConvertible {
    /// The URL as given (or as resolved from a redirect).
    package let absoluteString: String
    /// `http` or `https`, lowercased.
    package let scheme: String
    /// The host name or address (IPv6 literals without their brackets).
    package let host: String
    /// The port when the URL names one.
    package let port: Int?
    /// The path, `/` when empty.
    package let path: String
    /// The query without its `?`.
    package let query: String?

    package var description: String { absoluteString }
    /// The path and query, as sent in a request line.
    package var pathAndQuery: String { query.map { path + "?" + $0 } ?? path }
    /// `host[:port]` for the `Host` header.
    package var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(name):\($0)" } ?? name
    }

    /// Parses `text`; nil unless it is an absolute http(s) URL with a host (see `problem(with:)`).
    package init?(string text: String) {
        guard Self.problem(with: text) == nil, let url = Self.parse(text) else { return nil }
        self = url
    }

    /// Why `text` is not a URL `audioinspect` fetches, or `nil` when it is one: it must be made of
    /// printable ASCII only (no space, no control character, no DEL, nothing above U+007E: such a
    /// character could end the request line or start a header in the request), name the `http` or
    /// `https` scheme, and have a valid host (a name of letters, digits, `-`, `.`, `_`, `~`, or an IP
    /// literal) and port (0–65535).
    package static func problem(with text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text.utf8.contains(where: { $0 < 0x21 || $0 > 0x7E }) {
            return "contains a space, a control character or a non-ASCII character"
        }
        guard let scheme = schemeName(of: text) else { return "is not an absolute http:// or https:// URL" }
        guard scheme == "http" || scheme == "https" else {
            return "uses the scheme '\(scheme)' (only http and https are fetched)"
        }
        guard text.utf8.dropFirst(scheme.utf8.count).starts(with: "://".utf8) else {
            return "is not an absolute http:// or https:// URL"
        }
        return parse(text) == nil ? "has no valid host or port" : nil
    }

    /// The scheme of an absolute URI reference (`scheme ":"`, RFC 3986 §3.1), lowercased, or `nil`
    /// when `text` does not start with one (a relative reference).
    package static func schemeName(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            name.unicodeScalars.allSatisfy(isSchemeCharacter)
        else { return nil }
        return name.lowercased()
    }

    private static func isSchemeCharacter(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "+" || c == "-"
            || c == "."
    }

    private static func isHostCharacter(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "-" || c == "."
            || c == "_" || c == "~"
    }

    /// The URL's parts; `text` has been checked to be printable ASCII with an http(s) scheme.
    private static func parse(_ text: String) -> WebURL? {
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
            guard host.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()), (0...65535).contains(p) else { return nil }
                port = p
            } else if !after.isEmpty {
                return nil
            }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                let digits = authority[authority.index(after: colon)...]
                if !digits.isEmpty {
                    guard digits.utf8.count <= 5, let p = Int(digits), (0...65535).contains(p) else { return nil }
                    port = p
                }
            } else {
                host = authority
            }
            guard host.unicodeScalars.allSatisfy(isHostCharacter) else { return nil }
        }
        guard !host.isEmpty else { return nil }
        let pathAndQuery = rest[authorityEnd...]
        var path = pathAndQuery
        var query: Substring?
        if let mark = pathAndQuery.firstIndex(of: "?") {
            path = pathAndQuery[..<mark]
            query = pathAndQuery[pathAndQuery.index(after: mark)...]
        }
        return WebURL(
            absoluteString: String(text[..<(text.firstIndex(of: "#") ?? text.endIndex)]), scheme: scheme,
            host: String(host), port: port, path: path.isEmpty ? "/" : String(path), query: query.map(String.init))
    }

    private init(absoluteString: String, scheme: String, host: String, port: Int?, path: String, query: String?) {
        (self.absoluteString, self.scheme, self.host, self.port) = (absoluteString, scheme, host, port)
        (self.path, self.query) = (path, query)
    }

    /// The URL sent to the HTTP client: `scheme://host[:port]/path[?query]`, without user information
    /// (never sent) or fragment.
    package var requestString: String { scheme + "://" + hostHeader + pathAndQuery }

    /// The target of a redirect's `Location` (RFC 9110 §10.2.2, RFC 3986 §5.2): an absolute URL, a
    /// network-path reference (`//host/…`), an absolute path, or a path relative to this URL's directory.
    /// Fails with the reason when the target is not one `audioinspect` follows (`problem(with:)`: another
    /// scheme such as `file:` or `ftp:`, a space or a control character, a bad host).
    package func resolving(_ location: String) -> Result<WebURL, RedirectRefused> {
        if location.utf8.contains(where: { $0 < 0x21 || $0 > 0x7E }) || location.isEmpty {
            return .failure(RedirectRefused(reason: Self.problem(with: location) ?? "is not a URL"))
        }
        let absolute: String
        if Self.schemeName(of: location) != nil {
            absolute = location
        } else if location.hasPrefix("//") {
            absolute = scheme + ":" + location
        } else if location.hasPrefix("/") {
            absolute = scheme + "://" + hostHeader + location
        } else {
            let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
            absolute = scheme + "://" + hostHeader + directory + location
        }
        if let problem = Self.problem(with: absolute) { return .failure(RedirectRefused(reason: problem)) }
        guard let url = WebURL(string: absolute) else { return .failure(RedirectRefused(reason: "is not a URL")) }
        return .success(url)
    }
}

/// Why a redirect target is not followed (`WebURL.resolving`).
package struct RedirectRefused: Error, Equatable {
    /// E.g. "uses the scheme 'file' (only http and https are fetched)".
    package var reason: String
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
