/// The movie header box `mvhd` (ISO/IEC 14496-12 §8.2.2): the movie's timescale (the unit of edit
/// list segment durations).
///
/// ```
/// offset  v0  v1  field
///      0   1   1  version (0 or 1)
///      1   3   3  flags
///      4   4   8  creation_time
///      …   4   8  modification_time
///      …   4   4  timescale        UInt32, units per second
///      …   4   8  duration
///      …          rate, volume, matrix, next_track_ID (not needed)
/// ```
struct MP4MovieHeaderBox: Equatable {
    var timescale: UInt32

    /// Decodes an `mvhd` body.
    ///
    /// - Throws: `invalidFile` when the body ends before the timescale.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4MovieHeaderBox {
        var r = ByteReader(body)
        guard let (version, _) = r.versionAndFlags(), r.skip(version == 1 ? 16 : 8),
            let timescale = r.readInteger(as: UInt32.self, endianness: .big)
        else { throw Structure.mp4("mvhd").invalid("box too short") }
        return MP4MovieHeaderBox(timescale: timescale)
    }
}
