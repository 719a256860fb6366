/// ID3v2 text encodings (ID3v2.4.0 main structure §4; 2.2 and 2.3 have only the first two):
///
/// ```
///  byte  encoding                                   terminator
///  0     ISO-8859-1                                 00
///  1     UTF-16 with byte order mark (each string)  00 00
///  2     UTF-16BE without byte order mark (2.4)     00 00
///  3     UTF-8 (2.4)                                00
/// ```
///
/// Decoding never fails on bad bytes: invalid UTF-8 and unpaired surrogates become U+FFFD, an odd
/// trailing byte of UTF-16 is dropped.
enum ID3v2Text {
    /// Whether `encoding` is one of the four defined encodings.
    static func isKnown(_ encoding: UInt8) -> Bool { encoding <= 3 }

    /// The size of one code unit (and of the terminator) in `encoding`.
    static func unitSize(_ encoding: UInt8) -> Int { encoding == 1 || encoding == 2 ? 2 : 1 }

    /// Decodes NUL-separated strings. `nil` for an unknown encoding. A trailing terminator yields a
    /// final empty string, which callers usually drop.
    static func strings(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> [String]? {
        switch encoding {
        case 0:
            return bytes.split(separator: 0, omittingEmptySubsequences: false).map { latin1($0) }
        case 3:
            return bytes.split(separator: 0, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
        case 1, 2:
            return utf16(bytes, bigEndianDefault: encoding == 2, honoursBOM: encoding == 1)
        default:
            return nil
        }
    }

    /// The non-empty strings of a text field (a text frame's value after its encoding byte).
    static func values(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> [String]? {
        strings(bytes, encoding: encoding)?.filter { !$0.isEmpty }
    }

    /// Splits `bytes` at the first terminator of `encoding`: the string before it and the bytes after
    /// it (empty when there is no terminator). UTF-16 terminators are two NUL bytes at an even offset.
    static func splitTerminated(
        _ bytes: ArraySlice<UInt8>, encoding: UInt8
    ) -> (string: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        let unit = unitSize(encoding)
        var i = bytes.startIndex
        while bytes.endIndex - i >= unit {
            if bytes[i] == 0 && (unit == 1 || bytes[i + 1] == 0) {
                return (bytes[bytes.startIndex..<i], bytes[(i + unit)...])
            }
            i += unit
        }
        return (bytes, bytes[bytes.endIndex...])
    }

    /// One terminated string in `encoding` and the bytes after it; `nil` for an unknown encoding.
    static func terminatedString(
        _ bytes: ArraySlice<UInt8>, encoding: UInt8
    ) -> (String, rest: ArraySlice<UInt8>)? {
        let (string, rest) = splitTerminated(bytes, encoding: encoding)
        guard let decoded = strings(string, encoding: encoding) else { return nil }
        return (decoded.joined(), rest)
    }

    /// ISO-8859-1: every byte is the code point of the same value.
    static func latin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var s = ""
        s.unicodeScalars.reserveCapacity(bytes.count)
        for b in bytes { s.unicodeScalars.append(Unicode.Scalar(b)) }
        return s
    }

    /// UTF-16 strings separated by U+0000, in `bigEndianDefault` order. With `honoursBOM` (encoding
    /// 1) each string may start with a byte order mark that sets the order for it and the strings
    /// after it; encoding 1 without any BOM (a writer error) is read little-endian, as the Windows
    /// writers that omit it produce it.
    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndianDefault: Bool, honoursBOM: Bool) -> [String] {
        var strings: [String] = []
        var units: [UInt16] = []
        var bigEndian = bigEndianDefault
        var atStart = true
        var i = bytes.startIndex
        while bytes.endIndex - i >= 2 {
            let b0 = bytes[i]
            let b1 = bytes[i + 1]
            i += 2
            if atStart && honoursBOM {
                atStart = false
                if b0 == 0xFE && b1 == 0xFF {
                    bigEndian = true
                    continue
                }
                if b0 == 0xFF && b1 == 0xFE {
                    bigEndian = false
                    continue
                }
            }
            atStart = false
            let unit = bigEndian ? UInt16(b0) << 8 | UInt16(b1) : UInt16(b1) << 8 | UInt16(b0)
            if unit == 0 {
                strings.append(String(decoding: units, as: UTF16.self))
                units.removeAll(keepingCapacity: true)
                atStart = true
            } else {
                units.append(unit)
            }
        }
        strings.append(String(decoding: units, as: UTF16.self))
        return strings
    }
}

/// Hex text for binary values kept as raw tags.
enum HexText {
    /// The most bytes written out in full; longer values end with "… (N bytes)".
    static let maxBytes = 4096

    /// Lower-case hex of `bytes`, at most `maxBytes` of them.
    static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, maxBytes) * 2)
        for b in bytes.prefix(maxBytes) {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        var s = String(decoding: out, as: UTF8.self)
        if bytes.count > maxBytes { s += "… (\(bytes.count) bytes)" }
        return s
    }
}
