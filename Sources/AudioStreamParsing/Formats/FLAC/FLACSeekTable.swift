/// A FLAC SEEKTABLE metadata block (RFC 9639 §8.5): seek points of 18 bytes each.
///
/// ```
/// bytes  field (big-endian)
///     8  sample number of the target frame's first sample (0xFFFF_FFFF_FFFF_FFFF = placeholder)
///     8  byte offset of the target frame's header from the first frame header
///     2  samples in the target frame
/// ```
///
/// Placeholder points are dropped; the rest are kept in ascending sample order (the RFC requires it;
/// points out of order are dropped too).
struct FLACSeekTable: Hashable, Sendable {
    struct Point: Hashable, Sendable {
        /// First sample of the target frame.
        var sample: UInt64
        /// Offset of the frame header from the first frame header (the data offset).
        var offset: UInt64
        /// Samples in the target frame.
        var samples: UInt16
    }

    static let pointSize = 18
    static let placeholder = UInt64.max

    var points: [Point] = []

    /// Decodes a block body; `maxPoints` bounds what is kept.
    static func decode(_ body: [UInt8], maxPoints: Int) -> FLACSeekTable {
        var reader = ByteReader(body)
        var table = FLACSeekTable()
        while table.points.count < maxPoints, let sample = reader.readInteger(as: UInt64.self, endianness: .big),
            let offset = reader.readInteger(as: UInt64.self, endianness: .big),
            let samples = reader.readInteger(as: UInt16.self, endianness: .big)
        {
            if sample == placeholder { continue }
            if let last = table.points.last, sample <= last.sample || offset < last.offset { continue }
            table.points.append(Point(sample: sample, offset: offset, samples: samples))
        }
        return table
    }

    /// The last point at or before `sample`.
    func point(atOrBefore sample: UInt64) -> Point? {
        var lo = 0
        var hi = points.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if points[mid].sample <= sample { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? points[lo - 1] : nil
    }

    /// The last point at or before byte `offset`.
    func point(atOrBeforeOffset offset: UInt64) -> Point? {
        var lo = 0
        var hi = points.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if points[mid].offset <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? points[lo - 1] : nil
    }
}
