/// The movie extends header box `mehd` (ISO/IEC 14496-12 §8.8.2, in `moov`/`mvex`, optional): the
/// duration of the whole presentation, movie fragments included, in the movie timescale.
///
/// ```
/// offset  size  field
///      0     1  version (0 or 1)
///      1     3  flags
///      4   4|8  fragment_duration   UInt32 (version 0) or UInt64 (version 1)
/// ```
///
/// Used at the end of a fragmented stream for its valid frame count: an edit list written with the
/// `moov` may describe the `moov`'s own samples only (`MP4Parser+Finish.swift`).
struct MP4MovieExtendsHeaderBox: Equatable {
    var fragmentDuration: UInt64

    /// Decodes a `mehd` body.
    ///
    /// - Throws: `invalidFile` when the body ends before fragment_duration.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4MovieExtendsHeaderBox {
        var r = ByteReader(body)
        guard let (version, _) = r.versionAndFlags() else { throw Structure.mp4("mehd").invalid("box too short") }
        let duration: UInt64?
        if version == 1 {
            duration = r.readInteger(as: UInt64.self, endianness: .big)
        } else {
            duration = r.readInteger(as: UInt32.self, endianness: .big).map(UInt64.init)
        }
        guard let duration else { throw Structure.mp4("mehd").invalid("box too short") }
        return MP4MovieExtendsHeaderBox(fragmentDuration: duration)
    }
}
