import Foundation

/// The normalized ffprobe oracle for one fixture (`<file>.ffprobe.json`, written by
/// `Fixtures/make-oracle.sh`).
///
/// Schema (see `/work/shared/reference/ffprobe-oracle.md` and `docs/testing.md`):
///
/// ```
/// { file, ok, format_name, format_tags {k: v},
///   stream { codec_name, sample_rate, channels, bits_per_sample, block_align, … },
///   summary { packets, first_pos, bytes, duration_sum, last_end },
///   packets [[pos, size, duration]], errors [String] }
/// ```
///
/// Decoding is deliberately tolerant of representation (ffprobe prints many numbers as strings,
/// and `N/A` or `null` where it does not know): every numeric field accepts a JSON number, a numeric
/// string, or `null`/absent (then `nil`). It is strict about structure: a file that is not a JSON
/// object, or packets that are not arrays, fail to load.
package struct Oracle: Sendable, Equatable {
    /// The oracle's audio stream (the lowest-index audio stream ffprobe found).
    package struct Stream: Sendable, Equatable {
        package var codecName: String?
        package var sampleRate: Int?
        package var channels: Int?
        package var bitsPerSample: Int?
        package var blockAlign: Int?
        /// Every field as written, for checks this struct does not name.
        package var fields: [String: JSONValue]
    }

    /// Totals over the oracle's packets.
    package struct Summary: Sendable, Equatable {
        /// Number of demuxer packets.
        package var packets: Int?
        /// Absolute offset of the first packet (the counterpart of our `dataOffset`).
        package var firstPos: Int64?
        /// Sum of packet sizes (the counterpart of our `audioDataByteCount`).
        package var bytes: Int64?
        /// Sum of packet durations in sample frames.
        package var durationSum: Int64?
        /// End of the last packet (`pos + size`).
        package var lastEnd: Int64?
        /// Every key of the summary (`skip_samples`, `discard_padding` when ffprobe reports them).
        package var fields: [String: JSONValue] = [:]
    }

    /// One demuxer packet.
    package struct Packet: Sendable, Equatable {
        package var pos: Int64?
        package var size: Int64
        package var duration: Int64?
    }

    package var file: String?
    /// False when ffprobe failed or found no stream.
    package var ok: Bool
    package var formatName: String?
    package var formatTags: [String: String]
    package var stream: Stream?
    package var summary: Summary?
    package var packets: [Packet]
    package var errors: [String]

    /// Loads an oracle file.
    package static func load(_ url: URL) throws -> Oracle {
        let data = try Data(contentsOf: url)
        let json = try JSONDecoder().decode(JSONValue.self, from: data)
        return try Oracle(json: json, source: url.lastPathComponent)
    }

    /// Builds an oracle from decoded JSON.
    package init(json: JSONValue, source: String = "oracle") throws {
        guard case .object(let root) = json else { throw OracleError.malformed(source, "root is not an object") }
        file = root["file"]?.string
        ok = root["ok"]?.bool ?? false
        formatName = root["format_name"]?.string
        var tags: [String: String] = [:]
        if case .object(let t)? = root["format_tags"] {
            for (k, v) in t { tags[k] = v.string ?? v.description }
        }
        formatTags = tags
        if case .object(let s)? = root["stream"] {
            stream = Stream(
                codecName: s["codec_name"]?.string, sampleRate: s["sample_rate"]?.int.map(Int.init),
                channels: s["channels"]?.int.map(Int.init), bitsPerSample: s["bits_per_sample"]?.int.map(Int.init),
                blockAlign: s["block_align"]?.int.map(Int.init), fields: s)
        }
        if case .object(let s)? = root["summary"] {
            summary = Summary(
                packets: s["packets"]?.int.map(Int.init), firstPos: s["first_pos"]?.int, bytes: s["bytes"]?.int,
                durationSum: s["duration_sum"]?.int, lastEnd: s["last_end"]?.int, fields: s)
        }
        var list: [Packet] = []
        switch root["packets"] {
        case .array(let items)?:
            for (i, item) in items.enumerated() {
                switch item {
                case .array(let cells) where cells.count >= 2:
                    guard let size = cells[1].int else {
                        throw OracleError.malformed(source, "packet \(i) has no size")
                    }
                    list.append(Packet(pos: cells[0].int, size: size, duration: cells.count > 2 ? cells[2].int : nil))
                case .object(let o):
                    guard let size = o["size"]?.int else {
                        throw OracleError.malformed(source, "packet \(i) has no size")
                    }
                    list.append(Packet(pos: o["pos"]?.int, size: size, duration: o["duration"]?.int))
                default:
                    throw OracleError.malformed(source, "packet \(i) is neither [pos, size, duration] nor an object")
                }
            }
        case nil, .null?:
            break
        default:
            throw OracleError.malformed(source, "packets is not an array")
        }
        packets = list
        if case .array(let e)? = root["errors"] {
            errors = e.map { $0.string ?? $0.description }
        } else {
            errors = []
        }
    }
}

/// An oracle file that could not be read.
package enum OracleError: Error, CustomStringConvertible {
    case malformed(String, String)
    package var description: String {
        switch self {
        case .malformed(let file, let why): return "\(file): \(why)"
        }
    }
}

/// A JSON value, decoded without a fixed schema.
package enum JSONValue: Sendable, Equatable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double, exactInteger: Int64?)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .number(Double(i), exactInteger: i)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d, exactInteger: nil)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// A string value (numbers are not converted).
    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A Boolean (also `"true"`/`"false"`, `1`/`0`).
    package var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(_, let i?): return i != 0
        case .string("true"): return true
        case .string("false"): return false
        default: return nil
        }
    }

    /// An integer: an integral JSON number or a string holding one (ffprobe's `"44100"`); `nil` for
    /// `null`, `"N/A"` and non-integral values.
    package var int: Int64? {
        switch self {
        case .number(_, let i?): return i
        case .number(let d, nil):
            guard d.rounded() == d, abs(d) < 9.0e18 else { return nil }
            return Int64(d)
        case .string(let s): return Int64(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// A floating-point number (also from a numeric string).
    package var double: Double? {
        switch self {
        case .number(let d, _): return d
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    package var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .number(let d, let i): return i.map(String.init) ?? String(d)
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .object(let o):
            return "{" + o.keys.sorted().map { "\"\($0)\": \(o[$0]?.description ?? "null")" }.joined(separator: ", ")
                + "}"
        }
    }
}
