/// SHA-256 (FIPS 180-4), for the `sha256` of embedded artwork in a document: scanners compare pictures
/// by hash instead of carrying their bytes.
///
/// Hand-written instead of a package (swift-crypto) so that `audioinspect` links nothing but the Swift
/// runtime and the library (its start-up and memory stay those of a small C program; docs/performance.md).
/// Tested against the FIPS 180-4 examples and `sha256sum` (`SHA256Tests`).
struct SHA256 {
    /// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// FIPS 180-4 §5.3.3: the initial hash value.
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )

    /// The digest of `bytes` (32 bytes).
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var state = SHA256()
        let count = bytes.count
        let whole = count / 64 * 64
        bytes.withUnsafeBytes { raw in
            var w = [UInt32](repeating: 0, count: 64)
            w.withUnsafeMutableBufferPointer { schedule in
                var offset = 0
                while offset < whole {
                    state.compress(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + 64)]), schedule)
                    offset += 64
                }
                // FIPS 180-4 §5.1.1: 0x80, zeros, the message length in bits as a 64-bit big-endian integer.
                var tail = Array(raw[whole...])
                tail.append(0x80)
                while tail.count % 64 != 56 { tail.append(0) }
                let bits = UInt64(count) &* 8
                for shift in stride(from: 56, through: 0, by: -8) {
                    tail.append(UInt8(truncatingIfNeeded: bits >> shift))
                }
                tail.withUnsafeBytes { last in
                    var start = 0
                    while start < last.count {
                        state.compress(UnsafeRawBufferPointer(rebasing: last[start..<(start + 64)]), schedule)
                        start += 64
                    }
                }
            }
        }
        let words = [state.h.0, state.h.1, state.h.2, state.h.3, state.h.4, state.h.5, state.h.6, state.h.7]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }

    /// The digest of `bytes` as 64 lower-case hex digits.
    static func hexDigest(_ bytes: [UInt8]) -> String {
        InspectionReport.hex(digest(bytes))
    }

    /// FIPS 180-4 §6.2.2: processes one 64-byte block (`w`: room for the 64-word message schedule).
    private mutating func compress(_ block: UnsafeRawBufferPointer, _ w: UnsafeMutableBufferPointer<UInt32>) {
        for t in 0..<16 {
            let i = 4 * t
            w[t] =
                UInt32(block[i]) << 24 | UInt32(block[i + 1]) << 16 | UInt32(block[i + 2]) << 8 | UInt32(block[i + 3])
        }
        for t in 16..<64 {
            let x = w[t - 15]
            let y = w[t - 2]
            let s0 = x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x >> 3)
            let s1 = y.rotatedRight(17) ^ y.rotatedRight(19) ^ (y >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = h
        for t in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let ch = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ ch &+ Self.k[t] &+ w[t]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            hh = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
    }
}

extension UInt32 {
    /// `ROTR^n(x)` (FIPS 180-4 §3.2).
    @inline(__always)
    fileprivate func rotatedRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}

/// Base64 (RFC 4648 §4, with padding), for `--artwork`'s picture bytes.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encoded(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int((n >> 18) & 63)])
            out.append(alphabet[Int((n >> 12) & 63)])
            out.append(rest == 2 ? alphabet[Int((n >> 6) & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
