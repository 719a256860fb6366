/// What `audioinspect-http` (the HTTP stack, in its own process) writes on its standard output for
/// `audioinspect` to read (docs/cli.md, "The HTTP stack"):
///
/// ```
/// audioinspect-http/1 <status> <final URL>\n     after redirects; the status is 2xx
/// <Name>: <value>\n                              one line per response header field, in order
/// \n                                             the end of the head
/// <body bytes>                                   as they arrive, until the end of the body
/// ```
///
/// Exit status 0 at the regular end of the body; 1 when the request or the transfer failed, with the
/// reason as one line on standard error (sanitized for a terminal); 2 on a usage error.
package enum HelperProtocol {
    /// The helper's executable name.
    package static let helperName = "audioinspect-http"
    /// The first word of the head.
    package static let version = "audioinspect-http/1"
    /// The longest head accepted (the HTTP decoder allows 80 KiB of header fields).
    package static let maxHeadBytes = 256 * 1024

    /// A response head.
    package struct Head: Equatable, Sendable {
        package var status: Int
        /// The URL that answered (the last redirect target).
        package var url: String
        package var headers: [Header]

        package init(status: Int, url: String, headers: [Header]) {
            (self.status, self.url, self.headers) = (status, url, headers)
        }
    }

    /// One header field.
    package struct Header: Equatable, Sendable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) { (self.name, self.value) = (name, value) }
    }

    /// The head as written (a CR or LF inside a name or value, which the HTTP decoder does not let
    /// through anyway, is written as a space).
    package static func encode(_ head: Head) -> [UInt8] {
        func line(_ text: String) -> String { String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 }) + "\n" }
        var text = line("\(version) \(head.status) \(head.url)")
        for header in head.headers { text += line("\(header.name): \(header.value)") }
        return Array((text + "\n").utf8)
    }

    /// Reads a head from the start of `bytes`: the head and the number of bytes it took (the body
    /// follows), `nil` when the empty line has not arrived yet; fails when the bytes are not a head.
    package static func decode(_ bytes: ArraySlice<UInt8>) -> Result<(Head, Int), HeadError>? {
        var lines: [String] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x0A {
                if index == start {
                    guard let first = lines.first else { return .failure(HeadError()) }
                    let words = first.split(separator: " ", maxSplits: 2)
                    guard words.count == 3, words[0] == version, let status = Int(words[1]) else {
                        return .failure(HeadError())
                    }
                    let headers = lines.dropFirst().compactMap { line -> Header? in
                        guard let colon = line.firstIndex(of: ":") else { return nil }
                        return Header(
                            line[..<colon].trimmingSpaces(), line[line.index(after: colon)...].trimmingSpaces())
                    }
                    let head = Head(status: status, url: String(words[2]), headers: headers)
                    return .success((head, index + 1 - bytes.startIndex))
                }
                lines.append(String(decoding: bytes[start..<index], as: UTF8.self))
                start = index + 1
            }
            index += 1
        }
        return bytes.count > maxHeadBytes ? .failure(HeadError()) : nil
    }

    /// Output that is not a head.
    package struct HeadError: Error {}
}
