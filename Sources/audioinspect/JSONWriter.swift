import AudioInspectCommon
import AudioStreamParsing

/// A JSON value whose object members keep the order they were given in (so documents are
/// deterministic and keys appear in the documented order).
enum JSONValue {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    /// Written as Swift's shortest round-trip `description` (`8000.0`, `0.3`, `1e-05`); NaN and
    /// infinities, which JSON cannot represent, are written as `null`.
    case double(Double)
    case string(String)
    /// A string of the bytes' lower-case hex digits (magic cookies, SHA-256 digests), written straight into
    /// the document (no `String` in between, nothing to escape).
    case hex([UInt8])
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// An array whose elements are produced while it is written (long packet lists are never
    /// materialised).
    case lazyArray(() -> AnyIterator<JSONValue>)

    var isContainer: Bool {
        switch self {
        case .array, .object, .lazyArray: return true
        default: return false
        }
    }
}

/// Writes `JSONValue`s deterministically: two-space indentation; object members one per line;
/// arrays of scalars on one line; arrays of containers one element per line, each element on one
/// line. Output goes to any `TextOutputStream` (a `String` in tests, buffered standard output in the
/// tool).
///
/// A document is assembled as UTF-8 bytes and handed to `output` once, as one string: appending many
/// small strings to a `String` cost most of a library scan's time (callgrind: 70 % of the instructions
/// of a scan of small files went to string appends and escaping).
struct JSONWriter<Output: TextOutputStream> {
    var output: Output
    private var bytes: [UInt8] = []

    init(output: Output) {
        self.output = output
    }

    /// Writes `value` followed by a newline.
    mutating func write(_ value: JSONValue) {
        write(value, depth: 0, compact: false)
        bytes.append(0x0A)
        flush()
    }

    /// Writes `value` on one line (members and elements separated by `, `, keys by `: `), then a newline.
    mutating func writeLine(_ value: JSONValue) {
        write(value, depth: 0, compact: true)
        bytes.append(0x0A)
        flush()
    }

    private mutating func flush() {
        output.write(String(decoding: bytes, as: UTF8.self))
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func write(_ value: JSONValue, depth: Int, compact: Bool) {
        if compact {
            writeCompact(value)
            return
        }
        switch value {
        case .object(let members): writeObject(members, depth: depth)
        case .array(let elements):
            var iterator = elements.makeIterator()
            writeArray(&iterator, depth: depth, scalarsInline: !elements.contains { $0.isContainer })
        case .lazyArray(let make):
            var iterator = make()
            writeArray(&iterator, depth: depth, scalarsInline: false)
        default: writeScalar(value)
        }
    }

    /// A value on one line (members and elements separated by `, `, keys by `: `): the JSON Lines record,
    /// and the elements of the pretty writer's arrays of containers.
    private mutating func writeCompact(_ value: JSONValue) {
        switch value {
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for member in members {
                if !first { append(", ") }
                first = false
                JSONEscaping.appendQuoted(member.0, to: &bytes)
                append(": ")
                writeCompact(member.1)
            }
            bytes.append(UInt8(ascii: "}"))
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { append(", ") }
                writeCompact(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .lazyArray(let make):
            bytes.append(UInt8(ascii: "["))
            var first = true
            for element in make() {
                if !first { append(", ") }
                first = false
                writeCompact(element)
            }
            bytes.append(UInt8(ascii: "]"))
        default: writeScalar(value)
        }
    }

    private mutating func writeScalar(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let b):
            if b { append("true") } else { append("false") }
        case .int(let i):
            if i < 0 { bytes.append(UInt8(ascii: "-")) }
            appendDecimal(i.magnitude)
        case .uint(let u): appendDecimal(u)
        case .double(let d):
            if d.isFinite { bytes.append(contentsOf: d.description.utf8) } else { append("null") }
        case .string(let s): JSONEscaping.appendQuoted(s, to: &bytes)
        case .hex(let data): JSONEscaping.appendQuotedHex(data, to: &bytes)
        case .object, .array, .lazyArray: writeCompact(value)
        }
    }

    /// The decimal digits of `value` (as `String(value)` writes them).
    private mutating func appendDecimal(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: 0x30 &+ value))
            return
        }
        var digits = 1
        var power: UInt64 = 10
        while digits < 20 && value >= power {
            digits += 1
            power = power &* 10
        }
        let end = bytes.count + digits
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        bytes.withUnsafeMutableBufferPointer { out in
            var v = value
            var k = end
            while v > 0 {
                k -= 1
                out[k] = UInt8(truncatingIfNeeded: 0x30 &+ v % 10)
                v /= 10
            }
        }
    }

    private mutating func writeObject(_ members: [(String, JSONValue)], depth: Int) {
        if members.isEmpty {
            append("{}")
            return
        }
        append("{\n")
        for (i, (key, value)) in members.enumerated() {
            indent(depth + 1)
            JSONEscaping.appendQuoted(key, to: &bytes)
            append(": ")
            write(value, depth: depth + 1, compact: false)
            if i + 1 < members.count { append(",\n") } else { append("\n") }
        }
        indent(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func writeArray(
        _ elements: inout some IteratorProtocol<JSONValue>, depth: Int, scalarsInline: Bool
    ) {
        guard let first = elements.next() else {
            append("[]")
            return
        }
        if scalarsInline {
            bytes.append(UInt8(ascii: "["))
            write(first, depth: depth, compact: true)
            while let next = elements.next() {
                append(", ")
                write(next, depth: depth, compact: true)
            }
            bytes.append(UInt8(ascii: "]"))
            return
        }
        append("[\n")
        indent(depth + 1)
        write(first, depth: depth + 1, compact: true)
        while let next = elements.next() {
            append(",\n")
            indent(depth + 1)
            write(next, depth: depth + 1, compact: true)
        }
        bytes.append(0x0A)
        indent(depth)
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func indent(_ depth: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }
}

extension JSONWriter where Output == String {
    /// `value` on one line followed by a newline (`writeLine`), as UTF-8 bytes: a scan writes them as they
    /// are, without a string in between.
    static func lineBytes(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(output: "")
        writer.bytes.reserveCapacity(4096)  // most documents fit: no regrowth and copy while writing
        writer.write(value, depth: 0, compact: true)
        writer.bytes.append(0x0A)
        return writer.bytes
    }
}

// MARK: The audioinspect/1 document

extension InspectionReport {
    /// The schema identifier written as `schema`.
    static let schema = "audioinspect/1"

    /// The `audioinspect/1` document, keys in the documented order (`docs/cli.md`), every key.
    var json: JSONValue { json(DocumentOptions()) }

    /// The `audioinspect/1` document with the keys `options` selects (`--fields`; `schema`, `source` and
    /// `error` always), keys in the documented order. A member not selected is not computed (artwork
    /// hashes, tag lists).
    func json(_ options: DocumentOptions) -> JSONValue {
        var members: [(String, JSONValue)] = [("schema", .string(Self.schema)), ("source", .string(source))]
        func add(_ key: String, _ value: @autoclosure () -> JSONValue) {
            if options.includes(key) { members.append((key, value())) }
        }
        add("fileType", fileType.map { .string($0.description) } ?? .null)
        add("dataFormat", dataFormat.map { .object(Self.members(of: $0)) } ?? .null)
        add(
            "formatList",
            formatList.map { list in
                .array(
                    list.map {
                        .object(
                            Self.members(of: $0.streamDescription) + [
                                ("channelLayoutTag", .uint(UInt64($0.channelLayoutTag.rawValue)))
                            ])
                    })
            } ?? .null)
        add("magicCookie", magicCookie.map { .hex($0) } ?? .null)
        add(
            "channelLayout",
            channelLayout.map { layout in
                .object([
                    ("tag", .uint(UInt64(layout.tag.rawValue))),
                    ("tagName", .string(layout.tag.name)),
                    ("bitmap", .uint(UInt64(layout.bitmap))),
                    ("channelLabels", .array(layout.channelLabels.map { .uint(UInt64($0)) })),
                ])
            } ?? .null)
        add("dataOffset", dataOffset.map { .int($0) } ?? .null)
        add("audioDataByteCount", audioDataByteCount.map { .uint($0) } ?? .null)
        add("audioDataPacketCount", audioDataPacketCount.map { .uint($0) } ?? .null)
        add("maximumPacketSize", maximumPacketSize.map { .uint(UInt64($0)) } ?? .null)
        add("packetSizeUpperBound", packetSizeUpperBound.map { .uint(UInt64($0)) } ?? .null)
        add("averageBytesPerPacket", averageBytesPerPacket.map { .double($0) } ?? .null)
        add("bitRate", bitRate.map { .uint(UInt64($0)) } ?? .null)
        add(
            "packetTableInfo",
            packetTableInfo.map { info in
                .object([
                    ("validFrames", .int(info.numberValidFrames)),
                    ("primingFrames", .int(Int64(info.primingFrames))),
                    ("remainderFrames", .int(Int64(info.remainderFrames))),
                ])
            } ?? .null)
        add(
            "duration",
            duration.map { d in
                .object([
                    ("seconds", d.seconds.map { .double($0) } ?? .null),
                    ("frames", .int(d.frames)),
                    ("estimated", .bool(d.isEstimated)),
                ])
            } ?? .null)
        add(
            "parsed",
            .object([
                ("packets", .int(parsedPackets)),
                ("bytes", .int(parsedBytes)),
                ("frames", .int(parsedFrames)),
            ]))
        let m = metadata ?? AudioMetadata()
        if options.includes("metadata") {
            let info: [(String, JSONValue)] = m.info.map { ($0.key.rawValue, .string($0.value)) }
            add("metadata", .object(info.sorted { Self.byteOrder($0.0, $1.0) }))
        }
        add(
            "tags",
            .array(
                m.tags.map {
                    .object([("source", .string($0.source)), ("key", .string($0.key)), ("value", .string($0.value))])
                }))
        add("artwork", .array(m.artwork.map { Self.artworkMembers($0, data: options.artworkData) }))
        add(
            "chapters",
            .array(
                m.chapters.map {
                    .object([
                        ("title", .string($0.title)),
                        ("startSeconds", .double($0.startSeconds)),
                        ("endSeconds", $0.endSeconds.map { .double($0) } ?? .null),
                    ])
                }))
        add("packets", packets.map { runs in .lazyArray { Self.packetElements(runs) } } ?? .null)
        add(
            "diagnostics",
            .array(diagnostics.map { .object([("offset", .int($0.byteOffset)), ("message", .string($0.message))]) }))
        if !tracks.isEmpty {
            add(
                "tracks",
                .array(
                    tracks.map { t in
                        .object([
                            ("id", .uint(UInt64(t.id))), ("handlerType", .string(t.handlerType)),
                            ("sampleEntryType", t.sampleEntryType.map { .string($0) } ?? .null),
                            ("timescale", .uint(UInt64(t.timescale))), ("duration", .uint(t.duration)),
                            ("sampleCount", .int(t.sampleCount)),
                            ("language", t.language.map { .string($0) } ?? .null),
                            ("parsed", .bool(t.isSelected)), ("chapters", .bool(t.isChapterTrack)),
                        ])
                    }))
        }
        if !links.isEmpty {
            add(
                "links",
                .array(
                    links.map { link in
                        .object([
                            ("offset", .int(link.offset)), ("firstPacket", .int(link.firstPacketIndex)),
                            ("dataFormat", .object(Self.members(of: link.streamDescription))),
                            ("durationSeconds", link.duration.map { .double($0) } ?? .null),
                            ("validFrames", link.packetTableInfo.map { .int($0.numberValidFrames) } ?? .null),
                            (
                                "tags",
                                .array(
                                    (link.metadata?.tags ?? []).map {
                                        .object([
                                            ("source", .string($0.source)), ("key", .string($0.key)),
                                            ("value", .string($0.value)),
                                        ])
                                    })
                            ),
                        ])
                    }))
        }
        if let failure {
            members.append(
                (
                    "error",
                    .object([
                        ("code", .string(failure.code)),
                        ("offset", failure.offset.map { .int($0) } ?? .null),
                        ("message", .string(failure.message)),
                    ])
                ))
        }
        return .object(members)
    }

    /// An `artwork` element: MIME type, picture type, size and SHA-256 of the picture's bytes; with
    /// `data` (`--artwork`) also the bytes, base64.
    static func artworkMembers(_ picture: AudioMetadata.Artwork, data: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("mimeType", .string(picture.mimeType)),
            ("pictureType", .uint(UInt64(picture.pictureType))),
            ("bytes", .int(Int64(picture.data.count))),
            ("sha256", .hex(SHA256.digest(picture.data))),
        ]
        if data { members.append(("data", .string(Base64.encoded(picture.data)))) }
        return .object(members)
    }

    /// The members of a `StreamDescription`, in the documented order.
    static func members(of d: StreamDescription) -> [(String, JSONValue)] {
        [
            ("formatID", .string(d.formatID.description)),
            ("sampleRate", .double(d.sampleRate)),
            ("channelsPerFrame", .uint(UInt64(d.channelsPerFrame))),
            ("framesPerPacket", .uint(UInt64(d.framesPerPacket))),
            ("bytesPerPacket", .uint(UInt64(d.bytesPerPacket))),
            ("bytesPerFrame", .uint(UInt64(d.bytesPerFrame))),
            ("bitsPerChannel", .uint(UInt64(d.bitsPerChannel))),
            ("formatFlags", .uint(UInt64(d.formatFlags))),
        ]
    }

    /// Every packet of `runs`, one `{offset, size, frames}` object each, produced on demand.
    static func packetElements(_ runs: [PacketRun]) -> AnyIterator<JSONValue> {
        var run = 0
        var index: Int64 = 0
        return AnyIterator {
            while run < runs.count && index >= runs[run].count {
                run += 1
                index = 0
            }
            guard run < runs.count else { return nil }
            let r = runs[run]
            defer { index += 1 }
            return .object([
                ("offset", .int(r.offset + index * r.size)), ("size", .int(r.size)), ("frames", .int(r.frames)),
            ])
        }
    }

    /// Lower-case hex digits.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 2 * bytes.count) { out in
            digits.withUTF8Buffer { digit in
                for (i, b) in bytes.enumerated() {
                    out[2 * i] = digit[Int(b >> 4)]
                    out[2 * i + 1] = digit[Int(b & 0xF)]
                }
            }
            return 2 * bytes.count
        }
    }

    /// Orders strings by their UTF-8 bytes (locale-independent).
    static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// The document as text.
    var jsonText: String {
        var writer = JSONWriter(output: "")
        writer.write(json)
        return writer.output
    }

    /// The document on one line (a JSON Lines record, `--jsonl`): the same members and values as
    /// `jsonText`, without the line breaks and indentation, followed by a newline.
    func jsonLine(_ options: DocumentOptions = DocumentOptions()) -> String {
        var writer = JSONWriter(output: "")
        writer.writeLine(json(options))
        return writer.output
    }
}

/// JSON string escaping shared by the pretty document writer and the JSON Lines writer.
enum JSONEscaping {
    /// A JSON string (RFC 8259 §7): `"` and `\` escaped, C0 controls as `\n`, `\t` … or `\u00XX`;
    /// also escaped as `\uXXXX`, although RFC 8259 allows them raw: DEL, the C1 controls (U+0080–U+009F)
    /// and the bidirectional and line-separator controls `TerminalText` escapes (U+061C, U+200E, U+200F,
    /// U+2028–U+202E, U+2066–U+2069), so that a document shown in a terminal or a browser cannot act on
    /// it or reorder it. Everything else as UTF-8. (A parser reads back the same string.)
    static func quoted(_ s: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `quoted(s)`'s UTF-8 bytes to `bytes`, walking the UTF-8 bytes: runs of bytes that need no
    /// escape are copied whole; a scalar outside ASCII is decoded only to ask `TerminalText.needsEscape`
    /// (a scan writes megabytes of tags, and a walk scalar by scalar cost 27 instructions a byte).
    static func appendQuoted(_ s: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        if s.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &bytes) }) == nil {
            var text = s
            text.withUTF8 { appendEscaped($0, to: &bytes) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The body of `appendQuoted`: the escaped bytes of `utf8`, valid UTF-8.
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        let raw = UnsafeRawBufferPointer(utf8)
        var run = 0  // start of the bytes not copied yet
        var i = 0
        while i < utf8.count {
            if i + 8 <= utf8.count, isPlain(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                i += 8
                continue
            }
            let b = utf8[i]
            if b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C {
                i += 1
                continue
            }
            let length: Int
            let scalar: UInt32
            if b < 0x80 {
                length = 1
                scalar = UInt32(b)
            } else {
                // A valid sequence (a `String`'s bytes): its length from the lead byte.
                length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
                var v = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for k in 1..<length { v = v << 6 | UInt32(utf8[i + k] & 0x3F) }
                scalar = v
                guard TerminalText.needsEscape(Unicode.Scalar(v) ?? " ") else {
                    i += length
                    continue
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
            appendEscape(scalar, to: &bytes)
            i += length
            run = i
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
    }

    /// True when none of the 8 bytes of `word` needs a look: no byte below 0x20, none at or above 0x7F, no
    /// `"` and no `\` (word-at-a-time tests: a byte below n sets its high bit in `(w − n·0x01…) & ~w`).
    @inline(__always)
    private static func isPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        guard word & high == 0 else { return false }  // a byte ≥ 0x80
        let below20 = (word &- 0x20 &* ones) & ~word & high
        let is7F = (word &+ ones) & high  // every byte < 0x80: only 0x7F reaches the high bit
        let quote = word ^ (0x22 &* ones)
        let backslash = word ^ (0x5C &* ones)
        let zero = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & high
        return below20 | is7F | zero == 0
    }

    /// The escape of one scalar that `appendQuoted` does not copy as it is.
    private static func appendEscape(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case 0x22: appendASCII("\\\"", to: &bytes)
        case 0x5C: appendASCII("\\\\", to: &bytes)
        case 0x0A: appendASCII("\\n", to: &bytes)
        case 0x0D: appendASCII("\\r", to: &bytes)
        case 0x09: appendASCII("\\t", to: &bytes)
        case 0x08: appendASCII("\\b", to: &bytes)
        case 0x0C: appendASCII("\\f", to: &bytes)
        default:
            appendASCII("\\u", to: &bytes)
            for shift in stride(from: 12, through: 0, by: -4) {
                bytes.append(hexDigits[Int((scalar >> UInt32(shift)) & 0xF)])
            }
        }
    }

    /// Lower-case hex digits, by value.
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `data` as a JSON string of lower-case hex digits, two per byte.
    static func appendQuotedHex(_ data: [UInt8], to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "\""), count: 2 * data.count + 2))
        bytes.withUnsafeMutableBufferPointer { out in
            hexDigits.withUnsafeBufferPointer { digit in
                var k = start + 1
                for b in data {
                    out[k] = digit[Int(b >> 4)]
                    out[k + 1] = digit[Int(b & 0xF)]
                    k += 2
                }
            }
        }
    }

    private static func appendASCII(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
