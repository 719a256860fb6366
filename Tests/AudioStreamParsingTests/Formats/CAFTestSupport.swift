import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// Builds CAF byte streams by hand, field by field from Apple's "Core Audio Format Specification"
/// (big-endian everywhere, 12-byte chunk headers with a signed 64-bit size, no padding).
enum CAFBuilder {
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    static func be64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
    static func fourCC(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// `caff`, version, flags 0.
    static func fileHeader(version: UInt16 = 1) -> [UInt8] { fourCC("caff") + be16(version) + be16(0) }

    /// A chunk: type, size (the body's length unless given), body.
    static func chunk(_ type: String, _ body: [UInt8], size: Int64? = nil) -> [UInt8] {
        fourCC(type) + be64(UInt64(bitPattern: size ?? Int64(body.count))) + body
    }

    /// A `desc` body.
    static func desc(
        rate: Double, format: String, flags: UInt32 = 0, bytesPerPacket: UInt32, framesPerPacket: UInt32,
        channels: UInt32, bits: UInt32
    ) -> [UInt8] {
        be64(rate.bitPattern) + fourCC(format) + be32(flags) + be32(bytesPerPacket) + be32(framesPerPacket)
            + be32(channels) + be32(bits)
    }

    /// A `pakt` body: the 24-byte header, then the entry bytes as given.
    static func pakt(packets: Int64, valid: Int64, priming: Int32, remainder: Int32, entries: [UInt8]) -> [UInt8] {
        be64(UInt64(bitPattern: packets)) + be64(UInt64(bitPattern: valid)) + be32(UInt32(bitPattern: priming))
            + be32(UInt32(bitPattern: remainder)) + entries
    }

    /// A base-128 variable-length integer, most significant group first, high bit on all but the last.
    static func varint(_ value: UInt64) -> [UInt8] {
        var groups: [UInt8] = [UInt8(value & 0x7F)]
        var v = value >> 7
        while v > 0 {
            groups.insert(UInt8(v & 0x7F) | 0x80, at: 0)
            v >>= 7
        }
        return groups
    }

    /// A `data` body: edit count, then the audio.
    static func data(_ audio: [UInt8], editCount: UInt32 = 0) -> [UInt8] { be32(editCount) + audio }

    /// An `info` body.
    static func info(_ pairs: [(String, String)]) -> [UInt8] {
        var out = be32(UInt32(pairs.count))
        for (k, v) in pairs { out += Array(k.utf8) + [0] + Array(v.utf8) + [0] }
        return out
    }

    /// `count` bytes of a recognisable pattern.
    static func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
    }
}

/// One chunk found in a CAF file (for tests that derive inputs from fixtures).
struct CAFTestChunk {
    var type: String
    var offset: Int
    var size: Int64
    var body: ArraySlice<UInt8>
}

enum CAFFixtures {
    /// The package root (this file is Tests/AudioStreamParsingTests/Formats/…).
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ path: String) -> URL { root.appendingPathComponent("Fixtures").appendingPathComponent(path) }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: url(path))) }

    /// The chunks of a CAF file (stops at a size of -1).
    static func chunks(_ bytes: [UInt8]) -> [CAFTestChunk] {
        var out: [CAFTestChunk] = []
        var o = 8
        while o + 12 <= bytes.count {
            let type = String(decoding: bytes[o..<(o + 4)], as: UTF8.self)
            var size: UInt64 = 0
            for b in bytes[(o + 4)..<(o + 12)] { size = size << 8 | UInt64(b) }
            let signed = Int64(bitPattern: size)
            let end = signed < 0 || signed > Int64(bytes.count - o - 12) ? bytes.count : o + 12 + Int(signed)
            out.append(CAFTestChunk(type: type, offset: o, size: signed, body: bytes[(o + 12)..<end]))
            if signed < 0 { break }
            o = end
        }
        return out
    }

    /// The file with its `pakt` chunk moved right before its `data` chunk (everything else in order).
    /// Returns the new bytes and how far the data moved (the `pakt` chunk's total size).
    static func movingPacketTableBeforeData(_ bytes: [UInt8]) -> (bytes: [UInt8], shift: Int) {
        let chunks = chunks(bytes)
        guard let pakt = chunks.first(where: { $0.type == "pakt" }) else { return (bytes, 0) }
        var out = Array(bytes[0..<8])
        let paktBytes = Array(bytes[pakt.offset..<(pakt.offset + 12 + pakt.body.count)])
        for c in chunks where c.type != "pakt" {
            if c.type == "data" { out += paktBytes }
            out += bytes[c.offset..<(c.offset + 12 + c.body.count)]
        }
        return (out, paktBytes.count)
    }
}

/// The parts of a committed ffprobe oracle (`<fixture>.ffprobe.json`) the tests use.
struct CAFOracle {
    var firstPos: Int64
    var bytes: Int64
    var durationSum: Int64?
    var packetCount: Int
    /// (pos, size) of every packet.
    var packets: [(pos: Int64, size: Int)]
    var extradata: [UInt8]?
    var formatTags: [String: String]

    init(_ fixture: String) throws {
        let data = try Data(contentsOf: CAFFixtures.url(fixture + ".ffprobe.json"))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let summary = json["summary"] as? [String: Any] ?? [:]
        firstPos = (summary["first_pos"] as? NSNumber)?.int64Value ?? -1
        bytes = (summary["bytes"] as? NSNumber)?.int64Value ?? -1
        durationSum = (summary["duration_sum"] as? NSNumber)?.int64Value
        packetCount = (summary["packets"] as? NSNumber)?.intValue ?? -1
        let list = json["packets"] as? [[Any]] ?? []
        packets = list.map { (pos: ($0[0] as? NSNumber)?.int64Value ?? -1, size: ($0[1] as? NSNumber)?.intValue ?? -1) }
        let stream = json["stream"] as? [String: Any] ?? [:]
        extradata = (stream["extradata_hex"] as? String).map(CAFOracle.hex)
        formatTags = json["format_tags"] as? [String: String] ?? [:]
    }

    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex, let j = s.index(i, offsetBy: 2, limitedBy: s.endIndex) {
            out.append(UInt8(s[i..<j], radix: 16) ?? 0)
            i = j
        }
        return out
    }
}

// MARK: Shared checks

/// Parses `bytes` whole and in every standard chunking; records an issue when the logs differ.
func cafVerified(
    _ bytes: [UInt8], options: ParserOptions = ParserOptions(), sourceLocation: SourceLocation = #_sourceLocation
) -> EventLog {
    let (log, failures) = ChunkingVerifier.verify(bytes, options: options)
    #expect(failures.isEmpty, "\(failures)", sourceLocation: sourceLocation)
    return log
}

/// The last announced value of a property.
func cafLast(_ log: EventLog, _ id: AudioStreamPropertyID) -> AudioStreamPropertyValue? { log.lastValues[id] }

/// The diagnostics' messages.
func cafDiagnostics(_ log: EventLog) -> [String] {
    log.entries.compactMap { if case .diagnostic(let d) = $0 { d.message } else { nil } }
}

/// 'caff' v1 + desc (8 + 12 + 32 = 52 bytes).
func cafHead(_ desc: [UInt8]) -> [UInt8] { CAFBuilder.fileHeader() + CAFBuilder.chunk("desc", desc) }

extension CAFBuilder {
    /// 16-bit stereo little-endian LPCM at 44100 Hz.
    static let pcmDesc = desc(
        rate: 44100, format: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16)
    /// AAC-LC (object type 2 in the flags), 1024 frames per packet, variable sizes.
    static let aacDesc = desc(
        rate: 44100, format: "aac ", flags: 2, bytesPerPacket: 0, framesPerPacket: 1024, channels: 2, bits: 0)
}
