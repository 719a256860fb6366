/// A small, bounded base64 decoder (RFC 4648 §4, standard alphabet) for Vorbis comment pictures.
///
/// ```
///  text:   4 characters → 3 bytes; 'A'–'Z' 0–25, 'a'–'z' 26–51, '0'–'9' 52–61, '+' 62, '/' 63
///  end:    "xx==" → 1 byte, "xxx=" → 2 bytes; missing padding is accepted
/// ```
///
/// Spaces, tabs, CR and LF are skipped. Contract: returns `nil` for any other character, for
/// padding before the end, for a dangling single character, or when the output would exceed
/// `maxDecodedBytes` (checked before every append, so no more than the cap is ever held). Never traps.
enum Base64 {
    /// Decodes `text`; see the type's contract.
    static func decode<C: Collection>(_ text: C, maxDecodedBytes: Int) -> [UInt8]? where C.Element == UInt8 {
        var out: [UInt8] = []
        // Never more than the text can give (3 bytes per 4 characters), nor than the cap.
        out.reserveCapacity(max(0, min(text.count / 4 * 3 + 2, maxDecodedBytes)))
        var accumulator: UInt32 = 0
        var pending = 0
        var padding = 0
        for character in text {
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="):
                padding += 1
                guard padding <= 2 else { return nil }
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                continue
            default:
                return nil
            }
            guard padding == 0 else { return nil }  // data after padding
            accumulator = accumulator << 6 | value
            pending += 1
            if pending == 4 {
                guard out.count + 3 <= maxDecodedBytes else { return nil }
                out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                out.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                out.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                pending = 0
            }
        }
        switch pending {
        case 0: break
        case 2: out.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            out.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            out.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default: return nil
        }
        return out.count <= maxDecodedBytes ? out : nil
    }
}
