/// The edit list box `elst` (ISO/IEC 14496-12 §8.6.6, in `trak`/`edts`): which part of the media
/// timeline is presented, and when. The parser uses it for gapless information (`MP4Gapless`).
///
/// ```
/// offset  v0  v1  field
///      0   1   1  version (0 or 1)
///      1   3   3  flags
///      4   4   4  entry_count            UInt32
///      8          entry_count × {
///              4   8  segment_duration   in the MOVIE timescale (mvhd)
///              4   8  media_time         signed, in the MEDIA timescale (mdhd); −1 = empty edit
///              2   2  media_rate_integer 1 for a normal edit
///              2   2  media_rate_fraction }
/// ```
///
/// The count is checked against the bytes the body holds before anything is allocated.
struct MP4EditListBox: Equatable {
    /// One edit.
    struct Entry: Equatable {
        var segmentDuration: UInt64
        var mediaTime: Int64
        var rateInteger: UInt16
    }

    /// 0 or 1: the width of the entries' first two fields.
    var version: UInt8
    /// The edits (entry_count), all held by `entryBytes`.
    var count: Int
    /// The entries' bytes (nothing is copied: an entry is read when asked for).
    private var entryBytes: ArraySlice<UInt8>

    /// Decodes an `elst` body.
    ///
    /// - Throws: `invalidFile` for a version above 1, a body shorter than its fields, or more entries
    ///   than it holds.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4EditListBox {
        let elst = Structure.mp4("elst")
        var r = ByteReader(body)
        guard let version = r.readUInt8(), r.skip(3), let count = r.readInteger(as: UInt32.self, endianness: .big)
        else { throw elst.invalid("box too short") }
        guard version <= 1 else { throw elst.invalid("version \(version) is not 0 or 1") }
        let entrySize = version == 1 ? 20 : 12
        guard Int64(count) * Int64(entrySize) <= Int64(r.remaining) else {
            throw elst.invalid("\(count) entries declared, the box holds \(r.remaining / entrySize)")
        }
        return MP4EditListBox(version: version, count: Int(count), entryBytes: r.readRemainingBytes())
    }

    /// Edit `index` (0 ..< `count`).
    subscript(index: Int) -> Entry {
        let wide = version == 1
        let size = wide ? 20 : 12
        // `decode` checked that `count` entries fit; an index outside them reads as zeros, never traps.
        guard index >= 0, index < count else { return Entry(segmentDuration: 0, mediaTime: 0, rateInteger: 0) }
        let r = ByteReader(entryBytes.dropFirst(index * size).prefix(size))
        let field = wide ? 8 : 4
        let segment = r.peekInteger(at: 0, byteCount: field, as: UInt64.self, endianness: .big) ?? 0
        let time = r.peekInteger(at: field, byteCount: field, as: UInt64.self, endianness: .big) ?? 0
        let mediaTime = wide ? Int64(bitPattern: time) : Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: time)))
        let rate = r.peekInteger(at: 2 * field, as: UInt16.self, endianness: .big) ?? 0
        return Entry(segmentDuration: segment, mediaTime: mediaTime, rateInteger: rate)
    }
}
