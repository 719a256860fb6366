/// Where a track's chunks start: the chunk offset box `stco`, or `co64` with 64-bit offsets
/// (ISO/IEC 14496-12 §8.7.5).
///
/// ```
/// offset  size   field
///      0     1   version (0)
///      1     3   flags
///      4     4   entry_count    UInt32
///      8   4·n   chunk_offset   UInt32 × entry_count (stco)
///      8   8·n   chunk_offset   UInt64 × entry_count (co64)
/// ```
///
/// Offsets are absolute file offsets. The count is checked against the bytes the body holds before
/// anything is reserved.
struct MP4ChunkOffsetBox: Equatable {
    /// Each chunk's absolute offset, in table order.
    var offsets: [Int64]

    /// Decodes an `stco` or `co64` body.
    ///
    /// - Parameters:
    ///   - body: the box body.
    ///   - wide: the body is a `co64` (64-bit offsets).
    /// - Throws: `invalidFile` for a body shorter than its fields, more entries than it holds, or an
    ///   offset above `Int64.max`.
    static func decode(_ body: ArraySlice<UInt8>, wide: Bool) throws(StructureError) -> MP4ChunkOffsetBox {
        let box = Structure.mp4(wide ? "co64" : "stco")
        var r = ByteReader(body)
        guard r.versionAndFlags() != nil, let count = r.readInteger(as: UInt32.self, endianness: .big) else {
            throw box.invalid("box too short")
        }
        let entry = wide ? 8 : 4
        guard Int(count) <= r.remaining / entry else {
            throw box.invalid("\(count) entries declared, the box holds \(r.remaining / entry)")
        }
        var offsets: [Int64] = []
        offsets.reserveCapacity(Int(count))
        for _ in 0..<Int(count) {
            let v = r.readInteger(byteCount: entry, as: UInt64.self, endianness: .big) ?? 0
            guard v <= UInt64(Int64.max) else {
                throw Structure.mp4("co64").invalid("chunk offset past the largest offset")
            }
            offsets.append(Int64(v))
        }
        return MP4ChunkOffsetBox(offsets: offsets)
    }
}
