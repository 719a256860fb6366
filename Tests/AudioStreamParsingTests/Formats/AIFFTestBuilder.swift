@testable import AudioStreamParsing

/// Builds AIFF and AIFF-C byte streams by hand, field by field, for edge-case tests.
enum AIFFTestBuilder {
    /// 80-bit extended sample rates, hand-encoded (see `ExtendedFloat`).
    static let rate8000: [UInt8] = [0x40, 0x0B, 0xFA, 0, 0, 0, 0, 0, 0, 0]
    static let rate44100: [UInt8] = [0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]

    static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func u32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    static func id(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// A chunk: ID, size (`size` overrides the body's length), body and, for odd bodies, a pad byte.
    static func chunk(_ chunkID: String, _ body: [UInt8], size: UInt32? = nil, pad: Bool = true) -> [UInt8] {
        id(chunkID) + u32(size ?? UInt32(body.count)) + body + (pad && body.count % 2 == 1 ? [0] : [])
    }

    /// A FORM around `chunks` (`size` overrides the computed size).
    static func form(_ chunks: [[UInt8]], type: String = "AIFF", size: UInt32? = nil) -> [UInt8] {
        let body = chunks.flatMap { $0 }
        return id("FORM") + u32(size ?? UInt32(4 + body.count)) + id(type) + body
    }

    /// A COMM body: the 18 AIFF bytes, plus compressionType and compressionName when `compression` is set.
    static func comm(
        channels: UInt16, frames: UInt32, bits: UInt16, rate: [UInt8] = rate44100, compression: String? = nil,
        name: String = ""
    ) -> [UInt8] {
        var body = u16(channels) + u32(frames) + u16(bits) + rate
        if let compression {
            let text = Array(name.utf8)
            body += id(compression) + [UInt8(text.count)] + text
            if (1 + text.count) % 2 == 1 { body.append(0) }
        }
        return body
    }

    /// An SSND body: offset, blockSize 0, `offset` filler bytes, then `data`.
    static func ssnd(offset: UInt32 = 0, _ data: [UInt8]) -> [UInt8] {
        u32(offset) + u32(0) + [UInt8](repeating: 0xEE, count: Int(offset)) + data
    }

    /// `count` bytes 0, 1, 2, … (mod 251), so packets at different offsets differ.
    static func ramp(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }

    /// A canonical 16-bit stereo AIFF with `frames` frames.
    static func simpleAIFF(frames: Int) -> [UInt8] {
        form([
            chunk("COMM", comm(channels: 2, frames: UInt32(frames), bits: 16)),
            chunk("SSND", ssnd(ramp(frames * 4))),
        ])
    }
}
