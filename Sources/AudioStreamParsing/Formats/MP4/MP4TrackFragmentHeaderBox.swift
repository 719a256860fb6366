/// The track fragment header box `tfhd` (ISO/IEC 14496-12 §8.8.7): which track a `traf` describes,
/// where its data is based, and its sample defaults.
///
/// ```
/// offset  size  field                       present when (tf_flags)
///      0     1  version (0)
///      1     3  tf_flags
///      4     4  track_ID                    always
///      …     8  base_data_offset  UInt64    0x000001 base-data-offset-present
///      …     4  sample_description_index    0x000002
///      …     4  default_sample_duration     0x000008
///      …     4  default_sample_size         0x000010
///      …     4  default_sample_flags        0x000020
///                                           0x010000 duration-is-empty; 0x020000 default-base-is-moof
/// ```
///
/// The fields are read in this order as far as the flags say; a field the body does not hold throws,
/// except sample_description_index, which is not needed (when it is missing, the next field is read
/// where it would have been).
struct MP4TrackFragmentHeaderBox: Equatable {
    /// The track the fragment belongs to.
    var trackID: UInt32
    /// The explicit base_data_offset.
    var baseDataOffset: Int64?
    /// default-base-is-moof (§8.8.7.1): the base is the `moof`'s first byte.
    var isDefaultBaseMoof: Bool
    /// default_sample_duration, when present (else the track's `trex` default).
    var defaultSampleDuration: UInt32?
    /// default_sample_size, when present (else the track's `trex` default).
    var defaultSampleSize: UInt32?

    /// Decodes a `tfhd` body.
    ///
    /// - Throws: `invalidFile` when the body is shorter than a field its flags announce, or
    ///   base_data_offset is above `Int64.max`.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4TrackFragmentHeaderBox {
        let tfhd = Structure.mp4("tfhd")
        var r = ByteReader(body)
        guard let (_, flags) = r.versionAndFlags(), let id = r.readInteger(as: UInt32.self, endianness: .big) else {
            throw tfhd.invalid("box too short")
        }
        var box = MP4TrackFragmentHeaderBox(
            trackID: id, baseDataOffset: nil, isDefaultBaseMoof: flags & 0x20000 != 0, defaultSampleDuration: nil,
            defaultSampleSize: nil)
        if flags & 0x1 != 0 {
            guard let b = r.readInteger(as: UInt64.self, endianness: .big), b <= UInt64(Int64.max) else {
                throw tfhd.invalid("base_data_offset missing or too large")
            }
            box.baseDataOffset = Int64(b)
        }
        if flags & 0x2 != 0 { _ = r.readInteger(as: UInt32.self, endianness: .big) }
        if flags & 0x8 != 0 {
            guard let d = r.readInteger(as: UInt32.self, endianness: .big) else { throw tfhd.invalid("box too short") }
            box.defaultSampleDuration = d
        }
        if flags & 0x10 != 0 {
            guard let s = r.readInteger(as: UInt32.self, endianness: .big) else { throw tfhd.invalid("box too short") }
            box.defaultSampleSize = s
        }
        return box
    }
}
