/// The sample description box `stsd` (ISO/IEC 14496-12 §8.5.2): the track's sample entries
/// (`MP4AudioSampleEntry` decodes an audio one).
///
/// ```
/// offset  size  field
///      0     1  version (0)
///      1     3  flags
///      4     4  entry_count     UInt32 (the entries are walked as boxes to the end of the body)
///      8     …  sample entries  boxes: 'mp4a', 'alac', 'Opus', 'twos', …
/// ```
struct MP4SampleDescriptionBox {
    /// The sample entry boxes, in order.
    var entries: [MP4Box]

    /// Locates the sample entries of the `stsd` box `stsd` in `bytes`.
    ///
    /// - Parameters:
    ///   - depth: the depth of `stsd` (its entries are walked at this depth).
    /// - Throws: `invalidFile` when the body is shorter than its fields or an entry is malformed as a box;
    ///   `limitExceeded` past `maxNestingDepth`.
    static func decode(
        _ bytes: ArraySlice<UInt8>, _ stsd: MP4Box, depth: Int, limits: ParserLimits, notes: inout [DiagnosticNote]
    ) throws(StructureError) -> MP4SampleDescriptionBox {
        guard stsd.body.count >= 8 else { throw Structure.mp4("stsd").invalid("box too short") }
        let entries = try MP4BoxTree.children(
            bytes, in: (stsd.bodyStart + 8)..<stsd.end, parent: "stsd", depth: depth, limits: limits, notes: &notes)
        return MP4SampleDescriptionBox(entries: entries)
    }
}
