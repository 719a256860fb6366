/// Small hand-built container files for tests that need exact control over the bytes.
///
/// Layouts follow the specifications directly: RIFF/WAVE (Microsoft/IBM "Multimedia Programming
/// Interface and Data Specifications 1.0", WAVE form: `'RIFF' size 'WAVE'`, then `'fmt '` with
/// wFormatTag, nChannels, nSamplesPerSec, nAvgBytesPerSec, nBlockAlign, wBitsPerSample, little-endian),
/// and NeXT/Sun `.au` (`.snd`, data offset, data size, encoding, sample rate, channels; big-endian).
package enum SyntheticFiles {
    /// A chunk for a RIFF file: four-character ID, little-endian size, body, pad byte when odd.
    package static func riffChunk(_ id: String, _ body: [UInt8], declaredSize: UInt32? = nil) -> [UInt8] {
        var out = Array(id.utf8.prefix(4))
        out += le32(declaredSize ?? UInt32(body.count))
        out += body
        if body.count % 2 == 1 { out.append(0) }
        return out
    }

    /// A PCM `fmt ` body (16 bytes, wFormatTag 1), plus `extra` bytes (the chunk is then larger).
    package static func pcmFormatBody(channels: UInt16, sampleRate: UInt32, bits: UInt16, extra: [UInt8] = [])
        -> [UInt8]
    {
        let blockAlign = channels * (bits / 8)
        return le16(1) + le16(channels) + le32(sampleRate) + le32(sampleRate * UInt32(blockAlign)) + le16(blockAlign)
            + le16(bits) + extra
    }

    /// A PCM WAVE file: `fmt `, then `chunksBeforeData`, then `data` with `frames` frames of a ramp
    /// (byte i of the data is `i & 0xFF`), then `chunksAfterData`.
    package static func wave(
        channels: UInt16 = 2, sampleRate: UInt32 = 8000, bits: UInt16 = 16, frames: Int = 100,
        formatExtra: [UInt8] = [], chunksBeforeData: [[UInt8]] = [], chunksAfterData: [[UInt8]] = []
    ) -> [UInt8] {
        let dataBytes = frames * Int(channels) * Int(bits / 8)
        var body = Array("WAVE".utf8)
        body += riffChunk(
            "fmt ", pcmFormatBody(channels: channels, sampleRate: sampleRate, bits: bits, extra: formatExtra))
        for c in chunksBeforeData { body += c }
        body += riffChunk("data", ramp(dataBytes))
        for c in chunksAfterData { body += c }
        return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
    }

    /// The data offset of `wave(...)` without extra chunks and without `formatExtra`: 12 + 24 + 8.
    package static let plainWaveDataOffset = 44

    /// A NeXT/Sun `.au` file: 24-byte header (no annotation), encoding 3 (16-bit linear PCM) by default,
    /// `frames` frames of a ramp.
    package static func au(channels: UInt32 = 1, sampleRate: UInt32 = 8000, encoding: UInt32 = 3, frames: Int = 100)
        -> [UInt8]
    {
        let bytesPerSample: Int = [1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 4, 7: 8, 27: 1][encoding] ?? 1
        let dataBytes = frames * Int(channels) * bytesPerSample
        return Array(".snd".utf8) + be32(24) + be32(UInt32(dataBytes)) + be32(encoding) + be32(sampleRate)
            + be32(channels) + ramp(dataBytes)
    }

    /// `count` bytes 0, 1, 2, … (mod 256).
    package static func ramp(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0) } }

    package static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    package static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    package static func be32(_ v: UInt32) -> [UInt8] {
        (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
    }
}
