/// A movie fragment (`moof`, ISO/IEC 14496-12 §8.8.4), buffered whole: the parsed track's samples in it.
///
/// ```
/// tfhd (§8.8.7)  FullBox (flags below); track_ID UInt32;
///                [base_data_offset UInt64 (0x000001)] [sample_description_index UInt32 (0x000002)]
///                [default_sample_duration UInt32 (0x000008)] [default_sample_size UInt32 (0x000010)]
///                [default_sample_flags UInt32 (0x000020)]
///                0x010000 duration-is-empty; 0x020000 default-base-is-moof
/// trun (§8.8.8)  FullBox (flags below); sample_count UInt32; [data_offset Int32 (0x000001)]
///                [first_sample_flags UInt32 (0x000004)]; sample_count × {
///                  [sample_duration UInt32 (0x000100)] [sample_size UInt32 (0x000200)]
///                  [sample_flags UInt32 (0x000400)] [sample_composition_time_offset 32 bits (0x000800)] }
/// ```
///
/// Base data offset (§8.8.7.1): `base_data_offset` when present; else the `moof` start when
/// default-base-is-moof is set or for the first `traf`; else where the previous `traf`'s data ended. A
/// `trun` with `data_offset` starts there from the base; without, right after the previous `trun`'s data
/// (the base for the first). A `trun`'s sample count is checked against its real size when it spells out
/// per-sample fields; the total against `ParserLimits.maxPacketTableEntries`.
enum MP4MovieFragment {
    static func decode(
        _ bytes: ArraySlice<UInt8>, moofOffset: Int64, trackID: UInt32, trackExtends: MP4TrackExtends?,
        into list: inout MP4SampleList, limits: ParserLimits, diagnostics: inout [String]
    ) throws(MP4BoxError) {
        let headerSize: Int
        switch MP4BoxHeader.read(bytes, at: bytes.startIndex) {
        case .header(let h): headerSize = h.headerSize
        default: throw MP4BoxError(code: .invalidFile, reason: "mp4 (moof): bad header")
        }
        let children = try MP4BoxTree.children(
            bytes, in: (bytes.startIndex + headerSize)..<bytes.endIndex, parent: "moof", depth: 1, limits: limits,
            diagnostics: &diagnostics)
        var previousTrafEnd: Int64?
        for traf in children where traf.type == MP4BoxType.traf {
            let boxes = try MP4BoxTree.children(
                bytes, in: traf.body, parent: "traf", depth: 2, limits: limits, diagnostics: &diagnostics)
            guard let tfhd = boxes.first(MP4BoxType.tfhd) else {
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (traf): no track fragment header (tfhd)")
            }
            var r = ByteReader(bytes, tfhd.body)
            guard let (_, flags) = r.versionAndFlags(), let id = r.readInteger(as: UInt32.self, endianness: .big) else {
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (tfhd): box too short")
            }
            let isOurs = id == trackID
            var base: Int64
            if flags & 0x1 != 0 {
                guard let b = r.readInteger(as: UInt64.self, endianness: .big), b <= UInt64(Int64.max) else {
                    throw MP4BoxError(code: .invalidFile, reason: "mp4 (tfhd): base_data_offset missing or too large")
                }
                base = Int64(b)
            } else if flags & 0x20000 != 0 {
                base = moofOffset
            } else {
                base = previousTrafEnd ?? moofOffset
            }
            if flags & 0x2 != 0 { _ = r.readInteger(as: UInt32.self, endianness: .big) }
            var defaultDuration = trackExtends?.defaultDuration ?? 0
            var defaultSize = trackExtends?.defaultSize ?? 0
            if flags & 0x8 != 0 {
                guard let d = r.readInteger(as: UInt32.self, endianness: .big) else {
                    throw MP4BoxError(code: .invalidFile, reason: "mp4 (tfhd): box too short")
                }
                defaultDuration = d
            }
            if flags & 0x10 != 0 {
                guard let s = r.readInteger(as: UInt32.self, endianness: .big) else {
                    throw MP4BoxError(code: .invalidFile, reason: "mp4 (tfhd): box too short")
                }
                defaultSize = s
            }
            var dataEnd = base
            for trun in boxes where trun.type == MP4BoxType.trun {
                var r = ByteReader(bytes, trun.body)
                guard let (_, tflags) = r.versionAndFlags(),
                    let count32 = r.readInteger(as: UInt32.self, endianness: .big)
                else {
                    throw MP4BoxError(code: .invalidFile, reason: "mp4 (trun): box too short")
                }
                var start = dataEnd
                if tflags & 0x1 != 0 {
                    guard let raw = r.readInteger(as: UInt32.self, endianness: .big) else {
                        throw MP4BoxError(code: .invalidFile, reason: "mp4 (trun): box too short")
                    }
                    let (s, o) = base.addingReportingOverflow(Int64(Int32(bitPattern: raw)))
                    guard !o, s >= 0 else {
                        throw MP4BoxError(code: .invalidFile, reason: "mp4 (trun): data_offset outside the stream")
                    }
                    start = s
                }
                if tflags & 0x4 != 0 { _ = r.readInteger(as: UInt32.self, endianness: .big) }
                let count = Int(count32)
                let fields = [0x100, 0x200, 0x400, 0x800].filter { tflags & UInt32($0) != 0 }.count
                if fields > 0 {
                    guard count <= r.remaining / (4 * fields) else {
                        throw MP4BoxError(
                            code: .invalidFile,
                            reason: "mp4 (trun): \(count) samples declared, the box holds \(r.remaining / (4 * fields))"
                        )
                    }
                }
                if isOurs && list.count + count > limits.maxPacketTableEntries {
                    throw MP4BoxError(
                        code: .limitExceeded, reason: "mp4 (trun): more samples than maxPacketTableEntries")
                }
                let sizeBase = list.sizes.count
                let durationBase = list.durations.count
                var bytesInRun: Int64 = 0
                if fields == 0 {
                    bytesInRun = Int64(count) * Int64(defaultSize)
                } else {
                    for _ in 0..<count {
                        var duration = defaultDuration
                        var size = defaultSize
                        if tflags & 0x100 != 0 { duration = r.readInteger(as: UInt32.self, endianness: .big) ?? 0 }
                        if tflags & 0x200 != 0 { size = r.readInteger(as: UInt32.self, endianness: .big) ?? 0 }
                        if tflags & 0x400 != 0 { _ = r.readInteger(as: UInt32.self, endianness: .big) }
                        if tflags & 0x800 != 0 { _ = r.readInteger(as: UInt32.self, endianness: .big) }
                        bytesInRun += Int64(size)
                        if isOurs {
                            if tflags & 0x100 != 0 { list.durations.append(duration) }
                            if tflags & 0x200 != 0 { list.sizes.append(size) }
                        }
                    }
                }
                let (end, o) = start.addingReportingOverflow(bytesInRun)
                guard !o else {
                    throw MP4BoxError(code: .invalidFile, reason: "mp4 (trun): samples run past any offset")
                }
                dataEnd = end
                if isOurs && count > 0 {
                    list.runs.append(
                        MP4SampleRun(
                            offset: start, count: count, firstSample: list.count,
                            size: tflags & 0x200 != 0 ? .table(base: sizeBase) : .constant(defaultSize),
                            duration: tflags & 0x100 != 0 ? .table(base: durationBase) : .constant(defaultDuration)))
                    list.count += count
                }
            }
            previousTrafEnd = dataEnd
        }
    }
}
