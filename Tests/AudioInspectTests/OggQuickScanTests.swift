import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

@testable import audioinspect

/// `--quick` on Ogg: the header pages at the start, the last pages at the end, the duration from the last
/// granule position (docs/cli.md, "`--quick`"). The files are longer than the tail `--quick` reads: an Opus
/// fixture's audio page repeated with its sequence numbers, granule positions and CRC rewritten, so that
/// the expected length is known by construction (RFC 7845 §4: last granule position minus pre-skip).
@Suite("audioinspect --quick on Ogg")
struct OggQuickScanTests {
    /// A page of an Ogg stream (RFC 3533 §6), as bytes.
    struct Page {
        var bytes: [UInt8]
        var granule: Int64 {
            get { (0..<8).reduce(Int64(0)) { $0 | Int64(bytes[6 + $1]) << (8 * $1) } }
            set { for k in 0..<8 { bytes[6 + k] = UInt8(truncatingIfNeeded: newValue >> (8 * k)) } }
        }
        var flags: UInt8 {
            get { bytes[5] }
            set { bytes[5] = newValue }
        }
        mutating func set(serial: UInt32, sequence: UInt32) {
            for k in 0..<4 {
                bytes[14 + k] = UInt8(truncatingIfNeeded: serial >> (8 * k))
                bytes[18 + k] = UInt8(truncatingIfNeeded: sequence >> (8 * k))
            }
        }
        /// Writes the CRC-32 (RFC 3533 §6), computed by the test support's independent implementation.
        mutating func seal() {
            let crc = OggPageBodies.checksum(bytes[...])
            for k in 0..<4 { bytes[22 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
        }
    }

    /// The pages of `bytes`, in order.
    static func pages(_ bytes: [UInt8]) -> [Page] {
        var out: [Page] = []
        var i = 0
        while i + 27 <= bytes.count {
            let segments = Int(bytes[i + 26])
            let body = bytes[(i + 27)..<(i + 27 + segments)].reduce(0) { $0 + Int($1) }
            let end = i + 27 + segments + body
            out.append(Page(bytes: Array(bytes[i..<end])))
            i = end
        }
        return out
    }

    /// An Opus stream under serial `serial`: the fixture's two header pages, then its first audio page (50
    /// packets of 20 ms: 48,000 samples) `seconds` times, granule positions 48,000, 96,000 …, the last page
    /// with the end-of-stream flag; its length is the last granule position minus the pre-skip (RFC 7845
    /// §4.5). Returns the bytes and the pre-skip.
    static func longOpus(seconds: Int, serial: UInt32) throws -> (bytes: [UInt8], preSkip: Int64) {
        let source = Self.pages(try Fixtures.bytes("ogg/opus-48000-2ch-64k-opusenc.opus"))
        // OpusHead (RFC 7845 §5.1): the pre-skip is the little-endian 16 bits at offset 10 of the packet.
        let head = source[0].bytes
        let bodyStart = 27 + Int(head[26])
        let preSkip = Int64(head[bodyStart + 10]) | Int64(head[bodyStart + 11]) << 8
        var pages = Array(source[0..<2])
        for k in 0..<seconds {
            var page = source[2]
            page.flags = k == seconds - 1 ? 0x04 : 0
            page.granule = Int64(k + 1) * 48_000
            pages.append(page)
        }
        var out: [UInt8] = []
        for (sequence, var page) in pages.enumerated() {
            page.set(serial: serial, sequence: UInt32(sequence))
            page.seal()
            out += page.bytes
        }
        return (out, preSkip)
    }

    static func document(_ arguments: [String]) throws -> [String: Any] {
        let run = try AudioInspectTests.runBinary(["--jsonl"] + arguments, stdin: [])
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test("a long Opus stream: the duration of its last granule position, estimated; the middle skipped")
    func longStream() throws {
        let (bytes, preSkip) = try Self.longOpus(seconds: 30, serial: 0x1234)
        #expect(preSkip > 0)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("oggquick-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("long.opus")
        try Data(bytes).write(to: file)
        let exact = try Self.document([file.path])
        let quick = try Self.document(["--quick", file.path])
        let e = try #require(exact["duration"] as? [String: Any])
        let q = try #require(quick["duration"] as? [String: Any])
        // By construction: the last granule position minus the pre-skip (RFC 7845 §4.5).
        let frames = 30 * 48_000 - Int(preSkip)
        #expect(e["frames"] as? Int == frames && e["estimated"] as? Bool == false)
        #expect(q["frames"] as? Int == frames && q["estimated"] as? Bool == true)
        #expect(q["seconds"] as? Double == Double(frames) / 48_000)
        #expect(quick["fileType"] as? String == exact["fileType"] as? String)
        #expect(quick["metadata"] as? [String: String] == exact["metadata"] as? [String: String])
        let info = try #require(quick["packetTableInfo"] as? [String: Int])
        #expect(info["primingFrames"] == Int(preSkip) && info["validFrames"] == frames)
        let parsed = try #require(quick["parsed"] as? [String: Int])
        #expect(try #require(parsed["bytes"]) < bytes.count / 2, "the middle was skipped")
    }

    @Test("a chained stream whose tail is another link: read whole, as without --quick")
    func chainedStreamIsReadWhole() throws {
        let (first, preSkip) = try Self.longOpus(seconds: 20, serial: 1)
        let second = try Self.longOpus(seconds: 10, serial: 2).bytes
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("oggchain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("chained.opus")
        try Data(first + second).write(to: file)
        let exact = try Self.document([file.path])
        let quick = try Self.document(["--quick", file.path])
        let q = try #require(quick["duration"] as? [String: Any])
        // Each link: its last granule position minus its pre-skip (RFC 7845 §4.5).
        let seconds = try #require(q["seconds"] as? Double)
        #expect(abs(seconds - Double(30 * 48_000 - 2 * Int(preSkip)) / 48_000) < 1e-9)
        #expect(q["estimated"] as? Bool == false)
        #expect((quick["links"] as? [Any])?.count == 2)
        #expect(try Self.canonical(quick) == Self.canonical(exact))
    }

    static func canonical(_ document: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]), as: UTF8.self)
    }
}
