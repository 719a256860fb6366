/// The one sanitizer for text `audioinspect` writes to a terminal: the human summary, `--follow` text
/// lines and every error line (docs/cli.md, "Text that reaches a terminal").
///
/// Strings from the input (tags, ICY `StreamTitle` and `icy-name`, redirect targets, file names,
/// parser reasons that quote input bytes) may hold characters a terminal acts on: C0 controls (ESC
/// starts the sequences that clear the screen, set the window title or make hyperlinks; CR and BS
/// overwrite what was printed), DEL, C1 controls (U+0080–U+009F: CSI, OSC and ST as single
/// characters) and the Unicode bidirectional overrides and isolates, which reorder what a line shows.
/// Each is written as a visible escape instead:
///
/// | character | written as |
/// | --- | --- |
/// | LF, CR, TAB | `\n`, `\r`, `\t` |
/// | other C0 (U+0000–U+001F), DEL (U+007F) | `\x1B`, `\x7F` (two upper-case hex digits) |
/// | C1 (U+0080–U+009F) | `\u{9B}` |
/// | bidi controls U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069; U+2028, U+2029 | `\u{202E}` … |
///
/// Everything else (printable ASCII, other Unicode text) is written as it is.
package enum TerminalText {
    /// `text` with every control character escaped visibly (table above), on one line.
    package static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            let escape: String
            switch scalar {
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            default:
                if scalar.value < 0x80 {
                    escape = "\\x" + hex(scalar.value, digits: 2)
                } else {
                    escape = "\\u{" + hex(scalar.value, digits: 2) + "}"
                }
            }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    /// True for the characters `sanitized` escapes.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return true }
        return isBidiOrLineControl(v)
    }

    /// The bidirectional formatting characters (Unicode UAX #9: ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO,
    /// LRI, RLI, FSI, PDI) and the line and paragraph separators (U+2028, U+2029).
    package static func isBidiOrLineControl(_ v: UInt32) -> Bool {
        v == 0x061C || v == 0x200E || v == 0x200F || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// Bytes that should be UTF-8 (a file name from the command line) as a string: valid sequences
    /// decoded, every byte of an invalid one written as `\xNN`, so that the name stays recognisable (a
    /// Latin-1 `café.wav` shows as `caf\xE9.wav`). The result may still hold controls: print it through
    /// `sanitized`.
    package static func decodingInvalidBytes(_ bytes: [UInt8]) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            let length = validSequenceLength(bytes, at: i)
            if length > 0, let text = String(validating: bytes[i..<(i + length)], as: UTF8.self) {
                out.append(contentsOf: text.unicodeScalars)
                i += length
            } else {
                out.append(contentsOf: ("\\x" + hex(UInt32(bytes[i]), digits: 2)).unicodeScalars)
                i += 1
            }
        }
        return String(out)
    }

    /// The length of the well-formed UTF-8 sequence starting at `i` (RFC 3629 §4), or 0.
    private static func validSequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let lead = bytes[i]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard i + length <= bytes.count else { return 0 }
        for k in 1..<length where bytes[i + k] & 0xC0 != 0x80 { return 0 }
        return length
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
