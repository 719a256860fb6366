/// Safe operations over a range of the window's readable bytes, which may lie in one or both of its
/// segments (the carry-over buffer and the caller's chunk): copying them out and running a CRC over
/// them, without handing a pointer to the caller.
///
/// Every operation covers the part of `offset ..< offset + count` (after the position) that is
/// readable, and nothing for a negative offset or count: it never traps. A format parser checks that
/// the bytes are readable first (it has decided to read them); the clamping only keeps a mistake from
/// reading outside the window.
extension InputWindow {
    /// Appends the readable bytes of `count` at `offset` after the position to `bytes`.
    func appendBytes(at offset: Int, count: Int, to bytes: inout [UInt8]) {
        guard let count = readableCount(at: offset, count) else { return }
        withContiguousSegments(at: offset, count: count) { bytes.append(contentsOf: $0) }
    }

    /// `crc` continued over the readable bytes of `count` at `offset` after the position, with the
    /// sliced tables of `table` (two lanes of 16 bytes per step for long runs, as over a buffer).
    func crc<Word>(_ table: SlicedCRCTable<Word>, from crc: Word, at offset: Int, count: Int) -> Word {
        guard let count = readableCount(at: offset, count) else { return crc }
        var value = crc
        withContiguousSegments(at: offset, count: count) { value = table.update(value, $0) }
        return value
    }

    /// The bytes of `count` at `offset` that are readable, or `nil` when there are none.
    private func readableCount(at offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, count > 0, offset < readable else { return nil }
        return Swift.min(count, readable - offset)
    }
}
