import Testing

@testable import AudioStreamParsing

/// Opus packet durations (RFC 6716 §3.1), worked out by hand from the TOC byte's config (Table 2: the
/// frame sizes of each mode) and frame count code (§3.2.1–§3.2.5).
struct OpusPacketTests {
    /// Table 2 of RFC 6716: configs 0–11 SILK-only 10/20/40/60 ms, 12–15 Hybrid 10/20 ms, 16–31
    /// CELT-only 2.5/5/10/20 ms, in 48 kHz samples.
    static let table2: [Int64] =
        [480, 960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 480, 960]
        + [120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960]

    @Test("frame sizes of every config")
    func frameSizes() {
        for config in 0..<32 {
            #expect(OpusPacket.frameSize(config: UInt8(config)) == Self.table2[config], "config \(config)")
        }
    }

    /// Code 0: one frame; codes 1 and 2: two; code 3: the count in the second byte's low 6 bits (a
    /// code-3 packet without that byte, and an empty packet, have no duration). The fast path's form
    /// (size and both bytes) agrees with the optional form for every TOC, second byte and short size.
    @Test("durations from the TOC and count byte, both forms")
    func durations() {
        for toc in 0...255 {
            let size = Self.table2[toc >> 3]
            let expected: [Int64] = [size, 2 * size, 2 * size, 5 * size]
            let second: UInt8 = 0xC5  // count 5 (the top two bits are the VBR and padding flags)
            #expect(OpusPacket.frames(toc: UInt8(toc), second: second) == expected[toc & 3])
            #expect(OpusPacket.frames(size: 2, toc: UInt8(toc), second: second) == expected[toc & 3])
            #expect(
                OpusPacket.frames(size: 1, toc: UInt8(toc), second: second) == (toc & 3 == 3 ? 0 : expected[toc & 3]))
            #expect(OpusPacket.frames(toc: UInt8(toc), second: nil) == (toc & 3 == 3 ? 0 : expected[toc & 3]))
            #expect(OpusPacket.frames(size: 0, toc: UInt8(toc), second: second) == 0)
        }
        #expect(OpusPacket.frames(toc: nil, second: nil) == 0)
    }
}
