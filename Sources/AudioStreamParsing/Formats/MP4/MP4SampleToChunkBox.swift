/// How many samples each chunk holds: the sample-to-chunk box `stsc` (ISO/IEC 14496-12 §8.7.4).
///
/// ```
/// offset  size    field
///      0     1    version (0)
///      1     3    flags
///      4     4    entry_count                UInt32
///      8   12·n   entry_count × {
///                   first_chunk              UInt32, 1-based; strictly increasing
///                   samples_per_chunk        UInt32
///                   sample_description_index UInt32, 1-based }
/// ```
///
/// An entry applies from its first chunk until the next entry's first chunk (the last one to the last
/// chunk). The count is checked against the bytes the body holds.
struct MP4SampleToChunkBox: Equatable {
    /// One table entry.
    struct Entry: Equatable {
        /// The first chunk the entry applies to (1-based).
        var firstChunk: Int
        /// The samples in each of those chunks.
        var samplesPerChunk: Int
    }

    /// The entries in table order.
    var entries: [Entry]
    /// Some entry names a sample description other than the first (the parser reads every chunk with
    /// the first).
    var usesOtherDescriptions: Bool

    /// Decodes an `stsc` body.
    ///
    /// - Throws: `invalidFile` for a body shorter than its fields, more entries than it holds, or a
    ///   first_chunk of 0 or not above the previous entry's.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4SampleToChunkBox {
        let stsc = Structure.mp4("stsc")
        var r = ByteReader(body)
        guard r.versionAndFlags() != nil, let count = r.readInteger(as: UInt32.self, endianness: .big) else {
            throw stsc.invalid("box too short")
        }
        guard Int(count) <= r.remaining / 12 else {
            throw stsc.invalid("\(count) entries declared, the box holds \(r.remaining / 12)")
        }
        var box = MP4SampleToChunkBox(entries: [], usesOtherDescriptions: false)
        for _ in 0..<Int(count) {
            let first = Int(r.readInteger(as: UInt32.self, endianness: .big) ?? 0)
            let perChunk = Int(r.readInteger(as: UInt32.self, endianness: .big) ?? 0)
            let description = r.readInteger(as: UInt32.self, endianness: .big) ?? 1
            if description != 1 { box.usesOtherDescriptions = true }
            guard first >= 1, first > (box.entries.last?.firstChunk ?? 0) else {
                throw stsc.invalid("first_chunk \(first) is not above the previous entry")
            }
            box.entries.append(Entry(firstChunk: first, samplesPerChunk: perChunk))
        }
        return box
    }
}
