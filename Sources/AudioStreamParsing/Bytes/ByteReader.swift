/// A bounds-checked reader over a structure held whole in memory (a chunk or box body, a codec
/// header, a tag frame).
///
/// `read…` advance, `peek…` do not; every read returns `nil` when the bytes run out and never traps.
/// Integers name their byte order (`readInteger(as:endianness:)`, swift-nio's vocabulary); there is
/// no default. The reader views an `ArraySlice` without copying it: `offset` counts from the start
/// of the slice (or of the `range` it was made with), not from the start of the underlying array.
struct ByteReader {
    /// The bytes being read (indices are the underlying array's).
    let bytes: ArraySlice<UInt8>
    /// The index in `bytes` of the next byte.
    private(set) var index: Int
    /// The index in `bytes` one past the last readable byte.
    let endIndex: Int
    /// Where reading started (`offset` counts from here).
    let startIndex: Int

    /// A reader over all of `bytes`.
    init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// A reader over all of `bytes` (no copy).
    init(_ bytes: ArraySlice<UInt8>) {
        self.init(bytes, bytes.indices)
    }

    /// A reader over `range` of `bytes` (indices of the underlying array); the range is clamped to
    /// the slice.
    init(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>) {
        self.bytes = bytes
        let clamped = range.clamped(to: bytes.indices)
        self.startIndex = clamped.lowerBound
        self.index = clamped.lowerBound
        self.endIndex = clamped.upperBound
    }

    /// Bytes read so far.
    var offset: Int { index - startIndex }
    /// Bytes left to read.
    var remaining: Int { endIndex - index }

    // MARK: Integers

    /// The next integer of `T`'s width in `endianness` order, or `nil` when fewer bytes remain.
    mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(
        as type: T.Type = T.self, endianness: Endianness
    ) -> T? {
        readInteger(byteCount: MemoryLayout<T>.size, as: type, endianness: endianness)
    }

    /// The next `byteCount`-byte unsigned integer (1 … `T`'s width; 3 for 24-bit fields), or `nil`
    /// when fewer bytes remain.
    mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(
        byteCount: Int, as type: T.Type = T.self, endianness: Endianness
    ) -> T? {
        guard let value = peekInteger(at: 0, byteCount: byteCount, as: type, endianness: endianness) else { return nil }
        index += byteCount
        return value
    }

    /// The integer of `T`'s width `ahead` bytes after the current one, without moving.
    func peekInteger<T: FixedWidthInteger & UnsignedInteger>(
        at ahead: Int = 0, as type: T.Type = T.self, endianness: Endianness
    ) -> T? {
        peekInteger(at: ahead, byteCount: MemoryLayout<T>.size, as: type, endianness: endianness)
    }

    /// The `byteCount`-byte unsigned integer `ahead` bytes after the current one, without moving.
    func peekInteger<T: FixedWidthInteger & UnsignedInteger>(
        at ahead: Int = 0, byteCount: Int, as type: T.Type = T.self, endianness: Endianness
    ) -> T? {
        guard ahead >= 0, byteCount >= 1, byteCount <= MemoryLayout<T>.size, ahead <= remaining - byteCount
        else { return nil }
        let start = index + ahead
        var value: T = 0
        switch endianness {
        case .big:
            for i in start..<(start + byteCount) { value = value << 8 | T(bytes[i]) }
        case .little:
            for i in (start..<(start + byteCount)).reversed() { value = value << 8 | T(bytes[i]) }
        }
        return value
    }

    /// The next byte.
    mutating func readUInt8() -> UInt8? {
        guard index < endIndex else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// The byte `ahead` bytes after the current one, without moving.
    func peekUInt8(ahead: Int = 0) -> UInt8? {
        guard ahead >= 0, ahead < remaining else { return nil }
        return bytes[index + ahead]
    }

    /// A four-character code (always in the order written, big-endian).
    mutating func readFourCC() -> UInt32? { readInteger(as: UInt32.self, endianness: .big) }

    // MARK: Bytes

    /// The next `count` bytes, without copying.
    mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { index += count }
        return bytes[index..<(index + count)]
    }

    /// Every byte left, without copying.
    mutating func readRemainingBytes() -> ArraySlice<UInt8> {
        defer { index = endIndex }
        return bytes[index..<endIndex]
    }

    /// Skips `count` bytes; false (and no move) when fewer remain.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        index += count
        return true
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
