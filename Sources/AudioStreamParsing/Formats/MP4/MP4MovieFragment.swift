/// A movie fragment (`moof`, ISO/IEC 14496-12 §8.8.4), buffered whole: the parsed track's samples in it.
///
/// ```
/// moof
///   mfhd                 (not needed)
///   traf                 one per track fragment (§8.8.6)
///     tfhd               MP4TrackFragmentHeaderBox (required)
///     tfdt               (not needed)
///     trun …             MP4TrackRunBox, in order
/// ```
///
/// Base data offset (§8.8.7.1): `base_data_offset` when present; else the `moof` start when
/// default-base-is-moof is set or for the first `traf`; else where the previous `traf`'s data ended. A
/// `trun` with `data_offset` starts there from the base; without, right after the previous `trun`'s data
/// (the base for the first). The runs of other tracks are decoded too (their data ends move the base).
enum MP4MovieFragment {
    /// Decodes a whole `moof` (header included) found at stream offset `moofOffset`, appending the runs
    /// of track `trackID` to `list`.
    ///
    /// - Throws: `invalidFile` for a malformed box or a `traf` without `tfhd`; `limitExceeded` past
    ///   `maxNestingDepth` or `maxPacketTableEntries`.
    static func decode(
        _ bytes: ArraySlice<UInt8>, moofOffset: Int64, trackID: UInt32, trackExtends: MP4TrackExtendsBox?,
        into list: inout MP4SampleList, limits: ParserLimits, notes: inout [DiagnosticNote]
    ) throws(StructureError) {
        let children = try MP4BoxTree.children(
            bytes, in: try MP4BoxTree.body(ofWholeBox: bytes, name: "moof"), parent: "moof", depth: 1,
            limits: limits, notes: &notes)
        var previousTrafEnd: Int64?
        for traf in children where traf.type == MP4BoxType.traf {
            let boxes = try MP4BoxTree.children(
                bytes, in: traf.body, parent: "traf", depth: 2, limits: limits, notes: &notes)
            guard let tfhdBox = boxes.first(MP4BoxType.tfhd) else {
                throw Structure.mp4("traf").invalid("no track fragment header (tfhd)")
            }
            let tfhd = try MP4TrackFragmentHeaderBox.decode(bytes[tfhdBox.body])
            let base: Int64
            if let explicit = tfhd.baseDataOffset {
                base = explicit
            } else if tfhd.isDefaultBaseMoof {
                base = moofOffset
            } else {
                base = previousTrafEnd ?? moofOffset
            }
            var run = MP4TrackRunBox.Context(
                base: base, previousEnd: base,
                defaultDuration: tfhd.defaultSampleDuration ?? trackExtends?.defaultDuration ?? 0,
                defaultSize: tfhd.defaultSampleSize ?? trackExtends?.defaultSize ?? 0,
                isParsedTrack: tfhd.trackID == trackID)
            for trun in boxes where trun.type == MP4BoxType.trun {
                run.previousEnd = try MP4TrackRunBox.decode(bytes[trun.body], run, into: &list, limits: limits).dataEnd
            }
            previousTrafEnd = run.previousEnd
        }
    }
}
