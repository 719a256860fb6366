/// The track run box `trun` (ISO/IEC 14496-12 §8.8.8): a run of a track fragment's samples, stored
/// back to back.
///
/// ```
/// offset  size  field                                   present when (tr_flags)
///      0     1  version (0: unsigned composition offsets; 1: signed)
///      1     3  tr_flags
///      4     4  sample_count             UInt32         always
///      …     4  data_offset              Int32          0x000001 data-offset-present
///      …     4  first_sample_flags                      0x000004
///      …        sample_count × {
///               4  sample_duration       UInt32         0x000100
///               4  sample_size           UInt32         0x000200
///               4  sample_flags                         0x000400
///               4  sample_composition_time_offset       0x000800 }
/// ```
///
/// The run starts at the base data offset plus data_offset, or, without data_offset, where the
/// previous run's data ended (§8.8.8.1). A run that spells out per-sample fields is checked against
/// the bytes of its body before anything is appended; a run of defaults only costs one entry whatever
/// its count.
struct MP4TrackRunBox: Equatable {
    /// Absolute offset of the run's first sample.
    var dataStart: Int64
    /// Absolute offset after the run's last sample.
    var dataEnd: Int64
    /// The samples in the run.
    var sampleCount: Int

    /// The values a run takes from its track fragment.
    struct Context {
        /// The base data offset of the `traf` (§8.8.7.1).
        var base: Int64
        /// Where the previous run of the `traf` ended (the base for its first run).
        var previousEnd: Int64
        /// The sample duration and size for samples that do not spell them out (`tfhd`, else `trex`).
        var defaultDuration: UInt32
        var defaultSize: UInt32
        /// The run belongs to the parsed track: its samples are appended to the list.
        var isParsedTrack: Bool
    }

    /// Decodes a `trun` body; for the parsed track, appends the run (and its spelled-out sizes and
    /// durations) to `list`.
    ///
    /// - Throws: `invalidFile` for a body shorter than its fields or than its samples' fields, a
    ///   data_offset before the start of the stream, or samples past any offset; `limitExceeded` when the
    ///   parsed track's samples would exceed `limits.maxPacketTableEntries`.
    static func decode(
        _ body: ArraySlice<UInt8>, _ run: Context, into list: inout MP4SampleList, limits: ParserLimits
    ) throws(StructureError) -> MP4TrackRunBox {
        let trun = Structure.mp4("trun")
        var r = ByteReader(body)
        guard let (_, tflags) = r.versionAndFlags(), let count32 = r.readInteger(as: UInt32.self, endianness: .big)
        else { throw trun.invalid("box too short") }
        var start = run.previousEnd
        if tflags & 0x1 != 0 {
            guard let raw = r.readInteger(as: UInt32.self, endianness: .big) else {
                throw trun.invalid("box too short")
            }
            let (s, o) = run.base.addingReportingOverflow(Int64(Int32(bitPattern: raw)))
            guard !o, s >= 0 else { throw trun.invalid("data_offset outside the stream") }
            start = s
        }
        if tflags & 0x4 != 0 { _ = r.readInteger(as: UInt32.self, endianness: .big) }
        let count = Int(count32)
        let fields = [0x100, 0x200, 0x400, 0x800].filter { tflags & UInt32($0) != 0 }.count
        if fields > 0 {
            guard count <= r.remaining / (4 * fields) else {
                throw trun.invalid("\(count) samples declared, the box holds \(r.remaining / (4 * fields))")
            }
        }
        if run.isParsedTrack && list.count + count > limits.maxPacketTableEntries {
            throw trun.limit("more samples than maxPacketTableEntries")
        }
        let sizeBase = list.sizes.count
        let durationBase = list.durations.count
        var bytesInRun: Int64 = 0
        if fields == 0 {
            bytesInRun = Int64(count) * Int64(run.defaultSize)
        } else {
            for _ in 0..<count {
                var duration = run.defaultDuration
                var size = run.defaultSize
                if tflags & 0x100 != 0 { duration = r.readInteger(as: UInt32.self, endianness: .big) ?? 0 }
                if tflags & 0x200 != 0 { size = r.readInteger(as: UInt32.self, endianness: .big) ?? 0 }
                if tflags & 0x400 != 0 { _ = r.readInteger(as: UInt32.self, endianness: .big) }
                if tflags & 0x800 != 0 { _ = r.readInteger(as: UInt32.self, endianness: .big) }
                bytesInRun += Int64(size)
                if run.isParsedTrack {
                    if tflags & 0x100 != 0 { list.durations.append(duration) }
                    if tflags & 0x200 != 0 { list.sizes.append(size) }
                }
            }
        }
        let (end, o) = start.addingReportingOverflow(bytesInRun)
        guard !o else { throw trun.invalid("samples run past any offset") }
        if run.isParsedTrack && count > 0 {
            list.runs.append(
                MP4SampleRun(
                    offset: start, count: count, firstSample: list.count,
                    size: tflags & 0x200 != 0 ? .table(base: sizeBase) : .constant(run.defaultSize),
                    duration: tflags & 0x100 != 0 ? .table(base: durationBase) : .constant(run.defaultDuration)))
            list.count += count
        }
        return MP4TrackRunBox(dataStart: start, dataEnd: end, sampleCount: count)
    }
}
