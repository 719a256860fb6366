import Testing

@testable import AudioInspectCommon
@testable import audioinspect

/// The one terminal sanitizer (`TerminalText`) and the JSON escaping of controls (issue 21, defect 5).
@Suite("audioinspect terminal sanitizer and JSON escaping")
struct TerminalTextTests {
    @Test("C0, DEL, C1 and bidi controls are escaped visibly; other text is kept")
    func sanitized() {
        #expect(TerminalText.sanitized("Plain title — ü 😀") == "Plain title — ü 😀")
        #expect(TerminalText.sanitized("a\u{1B}]0;pwned\u{07}b") == "a\\x1B]0;pwned\\x07b")
        #expect(TerminalText.sanitized("x\u{1B}[2Jy\u{7F}\u{0}") == "x\\x1B[2Jy\\x7F\\x00")
        #expect(TerminalText.sanitized("line\nnext\r\t") == "line\\nnext\\r\\t")
        #expect(TerminalText.sanitized("\u{9B}31m\u{85}") == "\\u{9B}31m\\u{85}")
        #expect(
            TerminalText.sanitized("\u{202E}exe.txt\u{2066}\u{2069}\u{200F}\u{61C}")
                == "\\u{202E}exe.txt\\u{2066}\\u{2069}\\u{200F}\\u{61C}")
        #expect(TerminalText.sanitized("\u{2028}\u{2029}") == "\\u{2028}\\u{2029}")
        // Characters next to the escaped ranges stay as they are.
        #expect(
            TerminalText.sanitized("\u{A0}\u{2027}\u{202F}\u{2065}\u{206A}") == "\u{A0}\u{2027}\u{202F}\u{2065}\u{206A}"
        )
    }

    @Test("bytes that are not UTF-8 are shown as \\xNN, valid sequences decoded")
    func invalidBytes() {
        #expect(TerminalText.decodingInvalidBytes(Array("café.wav".utf8)) == "café.wav")
        #expect(TerminalText.decodingInvalidBytes([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x77]) == "caf\\xE9.w")
        #expect(TerminalText.decodingInvalidBytes([0xC3, 0xA9, 0xFF, 0xC3]) == "é\\xFF\\xC3")
        #expect(TerminalText.decodingInvalidBytes([0xED, 0xA0, 0x80]) == "\\xED\\xA0\\x80")  // a surrogate
    }

    @Test("JSON escapes C0, DEL, C1, bidi and line-separator controls as \\uXXXX")
    func json() {
        #expect(
            JSONEscaping.quoted("a\u{1B}b\u{7F}\u{9B}\u{202E}\u{2066}\u{2028}é")
                == "\"a\\u001bb\\u007f\\u009b\\u202e\\u2066\\u2028é\"")
        #expect(JSONEscaping.quoted("\u{A0}\u{80}") == "\"\u{A0}\\u0080\"")
    }

    @Test("JSON: the short escapes of RFC 8259 §7, runs between escapes, scalars of 2 to 4 bytes")
    func jsonRuns() {
        #expect(JSONEscaping.quoted("") == "\"\"")
        #expect(JSONEscaping.quoted("plain text") == "\"plain text\"")
        #expect(
            JSONEscaping.quoted("say \"hi\"\\ \n\r\t\u{08}\u{0C}end")
                == "\"say \\\"hi\\\"\\\\ \\n\\r\\t\\b\\fend\"")
        // U+061C (2 bytes, escaped), U+00E9 (2 bytes), U+20AC (3 bytes), U+1F3B5 (4 bytes), U+200F (3, escaped).
        #expect(
            JSONEscaping.quoted("a\u{061C}é€🎵\u{200F}z") == "\"a\\u061cé€🎵\\u200fz\"")
        #expect(JSONEscaping.quoted("\u{1F}") == "\"\\u001f\"")
    }
}
