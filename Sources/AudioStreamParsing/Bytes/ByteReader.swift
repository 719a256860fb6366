/// A bounds-checked reader over a fully buffered structure (a chunk body, a header).
///
/// `read*` advance, `peek*` do not; every read returns `nil` when the bytes run out, never traps.
/// Endianness is stated at every call site (`bigEndian:`), with no default: WAVE is little-endian,
/// AIFF, CAF and NeXT are big-endian.
struct ByteReader {
    /// The bytes being read.
    let bytes: [UInt8]
    /// The index of the next byte.
    private(set) var offset: Int = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Bytes left to read.
    var remaining: Int { bytes.count - offset }

    mutating func readUInt8() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readUInt16(bigEndian: Bool) -> UInt16? { readInteger(2, bigEndian: bigEndian).map { UInt16($0) } }
    mutating func readUInt24(bigEndian: Bool) -> UInt32? { readInteger(3, bigEndian: bigEndian).map { UInt32($0) } }
    mutating func readUInt32(bigEndian: Bool) -> UInt32? { readInteger(4, bigEndian: bigEndian).map { UInt32($0) } }
    mutating func readUInt64(bigEndian: Bool) -> UInt64? { readInteger(8, bigEndian: bigEndian) }

    /// A four-character code (always big-endian byte order, as written).
    mutating func readFourCC() -> UInt32? { readInteger(4, bigEndian: true).map { UInt32($0) } }

    /// The next `count` bytes.
    mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// Skips `count` bytes; false (and no move) when fewer remain.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        offset += count
        return true
    }

    /// The byte `ahead` bytes after the current one, without moving.
    func peekUInt8(ahead: Int = 0) -> UInt8? {
        let i = offset + ahead
        guard ahead >= 0, i < bytes.count else { return nil }
        return bytes[i]
    }

    private mutating func readInteger(_ size: Int, bigEndian: Bool) -> UInt64? {
        guard size <= remaining else { return nil }
        var value: UInt64 = 0
        for i in 0..<size {
            let b = UInt64(bytes[offset + i])
            value |= bigEndian ? b << (8 * UInt64(size - 1 - i)) : b << (8 * UInt64(i))
        }
        offset += size
        return value
    }
}

/// Text decoding helpers for tag values.
enum TextDecoding {
    /// Decodes bytes as UTF-8 (invalid sequences replaced), stopping at the first NUL and trimming
    /// trailing spaces.
    static func nulTerminated<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let upToNul = bytes.prefix { $0 != 0 }
        var s = String(decoding: upToNul, as: UTF8.self)
        while s.last == " " { s.removeLast() }
        return s
    }

    /// Decodes ISO-8859-1 (Latin-1) bytes, stopping at the first NUL.
    static func latin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var s = ""
        for b in bytes {
            if b == 0 { break }
            s.unicodeScalars.append(Unicode.Scalar(b))
        }
        return s
    }
}
