import AudioStreamTestSupport

/// A tiny test-only box finder over a whole MP4 file (ISO/IEC 14496-12 §4.2), independent of the
/// library's box walker: it only knows which boxes are plain containers.
struct MP4TestBox {
    var type: String
    /// The whole box (header included) and the body's start within the file.
    var whole: ArraySlice<UInt8>
    var bodyStart: Int
    var body: ArraySlice<UInt8> { whole[bodyStart..<whole.endIndex] }

    static let containers: Set<String> = [
        "moov", "trak", "mdia", "minf", "stbl", "udta", "edts", "dinf", "moof", "traf", "mvex", "tref", "ilst",
    ]

    /// The boxes directly inside `bytes[range]`.
    static func children(of bytes: [UInt8], in range: Range<Int>) -> [MP4TestBox] {
        var result: [MP4TestBox] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(be32(bytes, offset))
            var header = 8
            if size == 1 {
                size = Int(be32(bytes, offset + 8)) << 32 | Int(be32(bytes, offset + 12))
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, offset + size <= range.upperBound else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append(MP4TestBox(type: type, whole: bytes[offset..<(offset + size)], bodyStart: offset + header))
            offset += size
        }
        return result
    }

    static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    /// Every box whose path from the top matches `path` (e.g. `["moov", "trak"]`).
    static func find(_ path: [String], in bytes: [UInt8]) -> [MP4TestBox] {
        var level = children(of: bytes, in: 0..<bytes.count)
        for (i, name) in path.enumerated() {
            let matches = level.filter { $0.type == name }
            if i == path.count - 1 { return matches }
            level = matches.flatMap { children(of: bytes, in: $0.bodyStart..<$0.whole.endIndex) }
        }
        return []
    }

    /// The boxes inside this one, `skip` bytes into the body (4 for a full box like `meta`).
    func children(in bytes: [UInt8], skip: Int = 0) -> [MP4TestBox] {
        Self.children(of: bytes, in: (bodyStart + skip)..<whole.endIndex)
    }

    func child(_ type: String, in bytes: [UInt8], skip: Int = 0) -> MP4TestBox? {
        children(in: bytes, skip: skip).first { $0.type == type }
    }
}

/// The pieces of an MP4 fixture the decoder tests feed.
struct MP4TestFile {
    let bytes: [UInt8]

    init(_ path: String) throws { bytes = try FixtureCatalog.fixture(path).bytes() }

    /// The `trak` whose `hdlr` handler type is `handler` ("soun", "text").
    func track(_ handler: String) -> MP4TestBox? {
        MP4TestBox.find(["moov", "trak"], in: bytes).first { trak in
            guard let mdia = trak.child("mdia", in: bytes), let hdlr = mdia.child("hdlr", in: bytes) else {
                return false
            }
            let body = Array(hdlr.body)
            return body.count >= 12 && String(decoding: body[8..<12], as: UTF8.self) == handler
        }
    }

    func stbl(_ handler: String) -> MP4TestBox? {
        track(handler)?.child("mdia", in: bytes)?.child("minf", in: bytes)?.child("stbl", in: bytes)
    }

    /// The first sample entry of the first audio track (stsd: version/flags, entry_count, entries).
    var audioSampleEntry: ArraySlice<UInt8>? {
        guard let stsd = stbl("soun")?.child("stsd", in: bytes) else { return nil }
        return stsd.children(in: bytes, skip: 8).first?.whole
    }

    /// `ftyp` major brand `qt  ` or no `ftyp`.
    var isQuickTime: Bool {
        guard let ftyp = MP4TestBox.find(["ftyp"], in: bytes).first else { return true }
        return String(decoding: ftyp.body.prefix(4), as: UTF8.self) == "qt  "
    }
}

/// Hex helpers for the MP4 tests.
enum MP4Hex {
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var chars = hex.filter { !$0.isWhitespace }.makeIterator()
        while let a = chars.next(), let b = chars.next() {
            bytes.append(UInt8(String([a, b]), radix: 16) ?? 0)
        }
        return bytes
    }

    static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

extension MP4TestBox {
    /// A box: 32-bit size, type, body.
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        be(UInt64(8 + body.count), 4) + Array(type.utf8) + body
    }

    /// `value` as `width` big-endian bytes.
    static func be(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
