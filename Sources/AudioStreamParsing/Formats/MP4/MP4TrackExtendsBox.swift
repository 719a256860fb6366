/// The track extends box `trex` (ISO/IEC 14496-12 §8.8.3, in `moov`/`mvex`): a track's sample defaults
/// for its movie fragments.
///
/// ```
/// offset  size  field
///      0     1  version (0)
///      1     3  flags
///      4     4  track_ID                          UInt32
///      8     4  default_sample_description_index  UInt32 (not needed)
///     12     4  default_sample_duration           UInt32
///     16     4  default_sample_size               UInt32
///     20     4  default_sample_flags              (not needed)
/// ```
struct MP4TrackExtendsBox: Equatable {
    var trackID: UInt32
    var defaultDuration: UInt32
    var defaultSize: UInt32

    /// Decodes a `trex` body.
    ///
    /// - Throws: `invalidFile` when the body ends before default_sample_size.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4TrackExtendsBox {
        var r = ByteReader(body)
        guard r.versionAndFlags() != nil, let id = r.readInteger(as: UInt32.self, endianness: .big), r.skip(4),
            let d = r.readInteger(as: UInt32.self, endianness: .big),
            let s = r.readInteger(as: UInt32.self, endianness: .big)
        else { throw Structure.mp4("trex").invalid("box too short") }
        return MP4TrackExtendsBox(trackID: id, defaultDuration: d, defaultSize: s)
    }
}
