/// The media header box `mdhd` (ISO/IEC 14496-12 §8.4.2): the media timescale (the unit of sample
/// durations and edit media times), the duration and the language.
///
/// ```
/// offset  v0  v1  field
///      0   1   1  version (0 or 1)
///      1   3   3  flags
///      4   4   8  creation_time
///      …   4   8  modification_time
///      …   4   4  timescale          UInt32, units per second
///      …   4   8  duration           in the timescale
///      …   2   2  pad (1 bit), language (3 × 5 bits: ISO 639-2/T letters − 0x60)
///      …   2   2  pre_defined
/// ```
struct MP4MediaHeaderBox: Equatable {
    var timescale: UInt32
    var duration: UInt64
    /// The three-letter language code; `nil` when the field is 0 or not three letters.
    var language: String?

    /// Decodes an `mdhd` body.
    ///
    /// - Throws: `invalidFile` when the body ends before the language.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4MediaHeaderBox {
        var r = ByteReader(body)
        guard let (version, _) = r.versionAndFlags(), r.skip(version == 1 ? 16 : 8),
            let timescale = r.readInteger(as: UInt32.self, endianness: .big),
            let duration = version == 1
                ? r.readInteger(as: UInt64.self, endianness: .big)
                : r.readInteger(as: UInt32.self, endianness: .big).map({ UInt64($0) }),
            let lang = r.readInteger(as: UInt16.self, endianness: .big)
        else { throw Structure.mp4("mdhd").invalid("box too short") }
        var box = MP4MediaHeaderBox(timescale: timescale, duration: duration, language: nil)
        let chars = [(lang >> 10) & 31, (lang >> 5) & 31, lang & 31]
        if lang != 0, chars.allSatisfy({ $0 >= 1 && $0 <= 26 }) {
            box.language = String(decoding: chars.map { UInt8($0 + 0x60) }, as: UTF8.self)
        }
        return box
    }
}
