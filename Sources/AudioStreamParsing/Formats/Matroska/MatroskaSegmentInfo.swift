/// `Info` (RFC 9559 §5.1.2): the segment's time scale, duration and titles.
///
/// ```
///  Info
///  ├─ TimestampScale  uint   nanoseconds per timestamp unit (default 1,000,000: milliseconds)
///  ├─ Duration        float  in TimestampScale units
///  ├─ Title           utf-8
///  ├─ MuxingApp       utf-8
///  └─ WritingApp      utf-8
/// ```
struct MatroskaSegmentInfo: Equatable {
    /// Nanoseconds per timestamp unit.
    var timestampScale: UInt64 = 1_000_000
    /// The duration in timestamp units, when given.
    var duration: Double?
    var title: String?
    var muxingApp: String?
    var writingApp: String?

    static let structure = Structure.mkv("Info")

    /// Decodes the children of `Info`.
    ///
    /// - Throws: `invalidFile` for a TimestampScale of 0.
    static func decode(_ info: EBMLMaster) throws(StructureError) -> MatroskaSegmentInfo {
        var result = MatroskaSegmentInfo()
        if let scale = info.unsigned(MatroskaElementID.timestampScale) {
            guard scale > 0 else { throw structure.invalid("TimestampScale is 0") }
            result.timestampScale = scale
        }
        if let duration = info.float(MatroskaElementID.duration), duration.isFinite, duration >= 0 {
            result.duration = duration
        }
        result.title = info.string(MatroskaElementID.title)
        result.muxingApp = info.string(MatroskaElementID.muxingApp)
        result.writingApp = info.string(MatroskaElementID.writingApp)
        return result
    }

    /// The duration in seconds, when given.
    var durationSeconds: Double? { duration.map { $0 * Double(timestampScale) / 1e9 } }
}
