/// The decoding times of a track: the time-to-sample box `stts` (ISO/IEC 14496-12 §8.6.1.2), kept as
/// runs of equal deltas with the index of each run's first sample for lookups.
///
/// ```
/// offset  size   field
///      0     1   version (0)
///      1     3   flags
///      4     4   entry_count       UInt32
///      8   8·n   entry_count × {
///                  sample_count    UInt32
///                  sample_delta    UInt32, in the media timescale (mdhd) }
/// ```
///
/// Entries with a sample_count of 0 are dropped. The count is checked against the bytes the body holds.
struct MP4TimeToSampleBox: Equatable {
    var counts: [UInt32] = []
    var deltas: [UInt32] = []
    /// The first sample of each run.
    var starts: [Int64] = []
    /// Samples covered.
    var sampleCount = 0

    /// Decodes an `stts` body.
    ///
    /// - Throws: `invalidFile` for a body shorter than its fields or more entries than it holds.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4TimeToSampleBox {
        let stts = Structure.mp4("stts")
        var r = ByteReader(body)
        guard r.versionAndFlags() != nil, let count = r.readInteger(as: UInt32.self, endianness: .big) else {
            throw stts.invalid("box too short")
        }
        guard Int(count) <= r.remaining / 8 else {
            throw stts.invalid("\(count) entries declared, the box holds \(r.remaining / 8)")
        }
        var box = MP4TimeToSampleBox()
        for _ in 0..<Int(count) {
            let n = r.readInteger(as: UInt32.self, endianness: .big) ?? 0
            let d = r.readInteger(as: UInt32.self, endianness: .big) ?? 0
            box.append(count: n, delta: d)
        }
        return box
    }

    mutating func append(count: UInt32, delta: UInt32) {
        guard count > 0 else { return }
        starts.append(Int64(sampleCount))
        counts.append(count)
        deltas.append(delta)
        sampleCount += Int(count)
    }

    /// The duration of decode sample `index`; past the table, the last delta (0 for an empty table).
    func delta(ofSample index: Int) -> UInt32 {
        guard !starts.isEmpty else { return 0 }
        if index >= sampleCount { return deltas[deltas.count - 1] }
        return deltas[PacketMap.lastIndex(in: starts, notAbove: Int64(index))]
    }
}
