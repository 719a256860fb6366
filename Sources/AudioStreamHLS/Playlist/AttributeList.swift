/// An attribute list (RFC 8216 section 4.2): `NAME=value` pairs separated by commas, where a value is a
/// decimal-integer, a hexadecimal-sequence (`0x…`), a decimal-floating-point, a quoted-string (`"…"`, no
/// comma or line break inside is special), an enumerated-string or a decimal-resolution (`640x360`).
///
/// ```
/// METHOD=AES-128,URI="key.bin",IV=0x000102030405060708090a0b0c0d0e0f
/// └─name─┘└value┘ └name┘└─quoted─┘ └┘└──────── hexadecimal ───────────┘
/// ```
///
/// Tolerant like players: spaces around names and values are ignored, a missing closing quote runs to the
/// end of the line, a later duplicate name replaces the earlier value (the RFC forbids duplicates).
struct AttributeList {
    private(set) var values: [String: String] = [:]

    /// Parses the text after the tag's colon.
    init(_ text: Substring) {
        var rest = text[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = String(rest[..<equals]).trimmedOfBlanks()
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                if let close = body.firstIndex(of: "\"") {
                    value = body[..<close]
                    rest = body[body.index(after: close)...]
                    if let comma = rest.firstIndex(of: ",") {
                        rest = rest[rest.index(after: comma)...]
                    } else {
                        rest = ""
                    }
                } else {
                    value = body
                    rest = ""
                }
            } else if let comma = rest.firstIndex(of: ",") {
                value = rest[..<comma]
                rest = rest[rest.index(after: comma)...]
            } else {
                value = rest
                rest = ""
            }
            if !name.isEmpty { values[name] = String(value).trimmedOfBlanks() }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// A decimal-integer attribute.
    func integer(_ name: String) -> Int? { values[name].flatMap { Int($0) } }

    /// A `YES`/`NO` enumerated-string attribute.
    func flag(_ name: String) -> Bool { values[name] == "YES" }

    /// A hexadecimal-sequence attribute (`0x` or `0X` and an even or odd number of hex digits), as bytes.
    func hexadecimal(_ name: String) -> [UInt8]? {
        guard let text = values[name], text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        var digits = Array(text.utf8.dropFirst(2))
        if digits.count % 2 == 1 { digits.insert(UInt8(ascii: "0"), at: 0) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    func trimmedOfBlanks() -> String {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start, self[index(before: end)] == " " || self[index(before: end)] == "\t" {
            end = index(before: end)
        }
        return String(self[start..<end])
    }
}
