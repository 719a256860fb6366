/// The track reference box `tref` (ISO/IEC 14496-12 §8.3.3): other tracks this one refers to, by
/// reference type; the parser reads QuickTime's chapter reference `chap` (a text track holding the
/// chapter titles).
///
/// ```
/// tref
///   <reference_type>    a box per type ('chap', 'hint', 'cdsc', …), TrackReferenceTypeBox:
///     track_IDs         UInt32 × (body size / 4)
/// ```
struct MP4TrackReferenceBox {
    /// The track IDs of every `chap` reference, in order.
    var chapterTrackIDs: [UInt32]

    /// Decodes the `tref` box `tref` in `bytes`.
    ///
    /// - Parameters:
    ///   - depth: the depth of `tref` (its reference boxes are walked at this depth).
    /// - Throws: `invalidFile` when a reference box is malformed as a box; `limitExceeded` past
    ///   `maxNestingDepth`.
    static func decode(
        _ bytes: ArraySlice<UInt8>, _ tref: MP4Box, depth: Int, limits: ParserLimits, notes: inout [DiagnosticNote]
    ) throws(StructureError) -> MP4TrackReferenceBox {
        let references = try MP4BoxTree.children(
            bytes, in: tref.body, parent: "tref", depth: depth, limits: limits, notes: &notes)
        var box = MP4TrackReferenceBox(chapterTrackIDs: [])
        for chap in references where chap.type == MP4BoxType.chap {
            var r = ByteReader(bytes, chap.body)
            while let id = r.readInteger(as: UInt32.self, endianness: .big) { box.chapterTrackIDs.append(id) }
        }
        return box
    }
}
