/// A box inside a buffered parent (`moov`, `moof`): its type and where its header and body lie, as
/// indices of the buffer the parent was read into. The parser works on these byte ranges and copies
/// nothing but the values it decodes.
struct MP4Box {
    var type: UInt32
    /// Index of the box's first header byte.
    var start: Int
    /// Index of the first body byte.
    var bodyStart: Int
    /// Index after the last byte.
    var end: Int

    var name: String { FourCharCode.string(type) }
    var body: Range<Int> { bodyStart..<end }
}

/// Walks the children of a buffered box (ISO/IEC 14496-12 §4.2).
///
/// Rules (docs/formats/mp4.md, "Box walker"):
/// - A child whose size runs past its parent's end throws `invalidFile`.
/// - A child of size 0 runs to the end of its parent (as ffmpeg reads it; ISO allows size 0 only for the
///   last top-level box).
/// - Fewer than 8 bytes left at the end of a parent are ignored (QuickTime ends `udta` lists with a 32-bit
///   zero), with a diagnostic when they are not zero.
/// - Callers descend only into the containers they need, with `depth` counted against
///   `ParserLimits.maxNestingDepth`.
enum MP4BoxTree {
    static func children(
        _ bytes: ArraySlice<UInt8>, in range: Range<Int>, parent: String, depth: Int, limits: ParserLimits,
        diagnostics: inout [String]
    ) throws(MP4BoxError) -> [MP4Box] {
        if depth > limits.maxNestingDepth {
            throw MP4BoxError(
                code: .limitExceeded, reason: "mp4 (\(parent)): boxes nested deeper than maxNestingDepth")
        }
        var out: [MP4Box] = []
        var at = range.lowerBound
        while at < range.upperBound {
            let left = range.upperBound - at
            switch MP4BoxHeader.read(bytes[at..<range.upperBound], at: at) {
            case .needMoreData:
                if bytes[at..<range.upperBound].contains(where: { $0 != 0 }) {
                    diagnostics.append("mp4 (\(parent)): \(left) trailing bytes that are not a box ignored")
                }
                return out
            case .invalid(let reason):
                throw MP4BoxError(code: .invalidFile, reason: reason + " (inside '\(parent)')")
            case .header(let h):
                let size = h.size ?? Int64(left)
                guard size <= Int64(left) else {
                    throw MP4BoxError(
                        code: .invalidFile,
                        reason: "mp4 (\(h.name)): box of \(size) bytes ends past its parent '\(parent)' "
                            + "(\(left) bytes left)")
                }
                guard size >= Int64(h.headerSize) else {
                    throw MP4BoxError(code: .invalidFile, reason: "mp4 (\(h.name)): box smaller than its header")
                }
                let end = at + Int(size)
                out.append(MP4Box(type: h.type, start: at, bodyStart: at + h.headerSize, end: end))
                at = end
            }
        }
        return out
    }
}

extension MP4BoxHeader {
    var name: String { FourCharCode.string(type) }
}

extension [MP4Box] {
    /// The first child of this type.
    func first(_ type: UInt32) -> MP4Box? { first { $0.type == type } }
}

extension ByteReader {
    /// A full box's version and flags (ISO/IEC 14496-12 §4.2 `FullBox`: 8-bit version, 24-bit flags).
    mutating func versionAndFlags() -> (version: UInt8, flags: UInt32)? {
        guard let v = readInteger(as: UInt32.self, endianness: .big) else { return nil }
        return (UInt8(v >> 24), v & 0xFF_FFFF)
    }
}
