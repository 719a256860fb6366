/// URI references in playlists (RFC 8216 section 4.1: relative to the playlist's URI, RFC 3986 section 5.2).
/// Works on text, for `http(s)://` URLs and for local file paths alike (a base without a scheme is a path).
public enum HLSURL {
    /// `reference` resolved against `base` (the URL or path of the playlist that contains it).
    ///
    /// - An absolute reference (`scheme:`) is returned as is; `//host/…` takes the base's scheme; `/path`
    ///   takes the base's scheme and authority (or is a path when the base has none); anything else replaces
    ///   the base's last path segment. Query and fragment of the base are dropped, `.` and `..` segments
    ///   removed (never above the root).
    public static func resolve(_ reference: String, against base: String) -> String {
        if hasScheme(reference) { return reference }
        let (prefix, basePath) = splitAuthority(base)
        if reference.hasPrefix("//") {
            guard let colon = prefix.firstIndex(of: ":") else { return reference }
            return String(prefix[...colon]) + reference
        }
        if reference.hasPrefix("/") { return prefix + removingDotSegments(reference) }
        var path = basePath
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        return prefix + removingDotSegments(directory + reference)
    }

    /// True when `text` starts with an RFC 3986 scheme and a colon (`http:`, `https:`, `file:`, `data:`).
    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        return scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    /// `("http://host:80", "/a/b.m3u8")` for a URL, `("", path)` for a path.
    private static func splitAuthority(_ base: String) -> (String, String) {
        guard hasScheme(base), let colon = base.firstIndex(of: ":"), base[colon...].hasPrefix("://") else {
            return ("", base)
        }
        let authority = base.index(colon, offsetBy: 3)
        let afterAuthority = base[authority...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" })
        guard let afterAuthority else { return (base, "/") }
        return (String(base[..<afterAuthority]), String(base[afterAuthority...]))
    }

    /// RFC 3986 section 5.2.4 on a path (a query after `?` is kept as is).
    static func removingDotSegments(_ path: String) -> String {
        var query = ""
        var body = path[...]
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            query = String(path[q...])
            body = path[..<q]
        }
        let absolute = body.hasPrefix("/")
        var output: [Substring] = []
        let segments = body.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if !output.isEmpty, !(output.count == 1 && output[0].isEmpty && absolute) { output.removeLast() }
                if last { output.append("") }
            default: output.append(segment)
            }
        }
        var joined = output.joined(separator: "/")
        if absolute, !joined.hasPrefix("/") { joined = "/" + joined }
        return joined + query
    }
}
