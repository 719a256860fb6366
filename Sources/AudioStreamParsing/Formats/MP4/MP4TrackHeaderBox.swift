/// The track header box `tkhd` (ISO/IEC 14496-12 §8.3.2): the track's ID.
///
/// ```
/// offset  v0  v1  field
///      0   1   1  version (0 or 1)
///      1   3   3  flags (enabled, in movie, in preview)
///      4   4   8  creation_time
///      …   4   8  modification_time
///      …   4   4  track_ID          UInt32, unique in the movie, not 0
///      …          reserved, duration, layer, volume, matrix, width, height (not needed)
/// ```
struct MP4TrackHeaderBox: Equatable {
    var trackID: UInt32

    /// Decodes a `tkhd` body.
    ///
    /// - Throws: `invalidFile` when the body ends before track_ID.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4TrackHeaderBox {
        var r = ByteReader(body)
        guard let (version, _) = r.versionAndFlags(), r.skip(version == 1 ? 16 : 8),
            let id = r.readInteger(as: UInt32.self, endianness: .big)
        else { throw Structure.mp4("tkhd").invalid("box too short") }
        return MP4TrackHeaderBox(trackID: id)
    }
}
