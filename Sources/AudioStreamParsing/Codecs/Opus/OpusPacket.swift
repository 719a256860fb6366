/// Opus packet durations from the TOC byte (RFC 6716 §3.1).
///
/// ```
///  0 1 2 3 4 5 6 7
/// +-+-+-+-+-+-+-+-+
/// | config  |s| c |
/// +-+-+-+-+-+-+-+-+
/// ```
///
/// config 0-11 SILK-only (10, 20, 40, 60 ms), 12-15 Hybrid (10, 20 ms), 16-31 CELT-only (2.5, 5, 10,
/// 20 ms); c = 0: one frame, 1 and 2: two frames, 3: an arbitrary number, given in the low 6 bits of
/// the second byte (§3.2.5).
enum OpusPacket {
    /// Samples per frame at 48 kHz for a TOC config.
    @inline(__always)
    static func frameSize(config: UInt8) -> Int64 {
        // CELT-only: 2.5, 5, 10, 20 ms.
        if config >= 16 { return 120 << Int64(config & 3) }
        // Hybrid: 10, 20 ms.
        if config >= 12 { return 480 << Int64(config & 1) }
        // SILK-only: 10, 20, 40, 60 ms.
        return config & 3 == 3 ? 2880 : 480 << Int64(config & 3)
    }

    /// The packet's duration in 48 kHz samples, from its first two bytes; 0 for an empty or unreadable
    /// packet (a code-3 packet without its count byte).
    static func frames(toc: UInt8?, second: UInt8?) -> Int64 {
        guard let toc else { return 0 }
        return frames(size: second == nil ? 1 : 2, toc: toc, second: second ?? 0)
    }

    /// ``frames(toc:second:)`` for a packet of `size` bytes whose first two bytes are `toc` and `second`
    /// (`second` is ignored when `size` < 2): code 0 one frame, codes 1 and 2 two, code 3 the count in
    /// the second byte's low 6 bits; for a per-packet fast path.
    @inline(__always)
    static func frames(size: Int, toc: UInt8, second: UInt8) -> Int64 {
        guard size > 0 else { return 0 }
        let code = toc & 3
        if code == 0 { return frameSize(config: toc >> 3) }
        if code != 3 { return 2 * frameSize(config: toc >> 3) }
        return size > 1 ? Int64(second & 0x3F) * frameSize(config: toc >> 3) : 0
    }
}
