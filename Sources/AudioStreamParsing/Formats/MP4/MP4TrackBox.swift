/// A track (`trak`, ISO/IEC 14496-12 §8.3.1), located in the buffered `moov`: its header values and
/// where its sample entries, sample tables and edit list are.
///
/// ```
/// trak
///   tkhd                   MP4TrackHeaderBox          (required: a track without it is ignored)
///   tref                   MP4TrackReferenceBox       chapter tracks
///   edts
///     elst                 MP4EditListBox             (located; read for gapless information)
///   mdia                   (required: a track without it is ignored)
///     mdhd                 MP4MediaHeaderBox
///     hdlr                 MP4HandlerBox
///     minf
///       stbl
///         stsd             MP4SampleDescriptionBox
///         stts stsc stsz stz2 stco co64   (located; MP4SampleTable decodes them)
/// ```
struct MP4Track {
    var id: UInt32
    var handlerType: UInt32
    var timescale: UInt32
    var duration: UInt64
    var language: String?
    /// The sample entries (children of `stsd`).
    var sampleEntries: [MP4Box]
    /// The children of `stbl`.
    var sampleTableBoxes: [MP4Box]
    /// Track IDs referenced by `tref/chap` (QuickTime chapter tracks).
    var chapterTrackIDs: [UInt32]
    /// The `edts/elst` box, when present.
    var editList: MP4Box?
    /// The samples listed by the sample tables.
    var declaredSampleCount: Int64

    var isAudio: Bool { handlerType == MP4BoxType.soun }

    /// Decodes the `trak` box `trak` in `bytes` (a child of `moov`: its children are at depth 2).
    ///
    /// - Returns: `nil` (with a note) for a track without `tkhd` or `mdia`.
    /// - Throws: what the boxes' decoders throw (`invalidFile`, `limitExceeded`).
    static func decode(
        _ bytes: ArraySlice<UInt8>, _ trak: MP4Box, limits: ParserLimits, notes: inout [DiagnosticNote]
    ) throws(StructureError) -> MP4Track? {
        let trakBoxes = try MP4BoxTree.children(
            bytes, in: trak.body, parent: "trak", depth: 2, limits: limits, notes: &notes)
        var track = MP4Track(
            id: 0, handlerType: 0, timescale: 0, duration: 0, language: nil, sampleEntries: [],
            sampleTableBoxes: [], chapterTrackIDs: [], editList: nil, declaredSampleCount: 0)
        guard let tkhd = trakBoxes.first(MP4BoxType.tkhd) else {
            notes.append(DiagnosticNote(.structureSkipped, .mp4("trak"), "track without a track header (tkhd) ignored"))
            return nil
        }
        let id = try MP4TrackHeaderBox.decode(bytes[tkhd.body]).trackID
        track.id = id
        if let tref = trakBoxes.first(MP4BoxType.tref) {
            track.chapterTrackIDs = try MP4TrackReferenceBox.decode(
                bytes, tref, depth: 3, limits: limits, notes: &notes
            ).chapterTrackIDs
        }
        if let edts = trakBoxes.first(MP4BoxType.edts) {
            let boxes = try MP4BoxTree.children(
                bytes, in: edts.body, parent: "edts", depth: 3, limits: limits, notes: &notes)
            track.editList = boxes.first(MP4BoxType.elst)
        }
        guard let mdia = trakBoxes.first(MP4BoxType.mdia) else {
            notes.append(
                DiagnosticNote(.structureSkipped, .mp4("trak"), "track \(id) without a media box (mdia) ignored"))
            return nil
        }
        let mdiaBoxes = try MP4BoxTree.children(
            bytes, in: mdia.body, parent: "mdia", depth: 3, limits: limits, notes: &notes)
        if let mdhd = mdiaBoxes.first(MP4BoxType.mdhd) {
            let header = try MP4MediaHeaderBox.decode(bytes[mdhd.body])
            track.timescale = header.timescale
            track.duration = header.duration
            track.language = header.language
        }
        if let hdlr = mdiaBoxes.first(MP4BoxType.hdlr), let handler = try? MP4HandlerBox.decode(bytes[hdlr.body]) {
            track.handlerType = handler.handlerType
        }
        guard let minf = mdiaBoxes.first(MP4BoxType.minf) else { return track }
        let minfBoxes = try MP4BoxTree.children(
            bytes, in: minf.body, parent: "minf", depth: 4, limits: limits, notes: &notes)
        guard let stbl = minfBoxes.first(MP4BoxType.stbl) else { return track }
        track.sampleTableBoxes = try MP4BoxTree.children(
            bytes, in: stbl.body, parent: "stbl", depth: 5, limits: limits, notes: &notes)
        if let stsd = track.sampleTableBoxes.first(MP4BoxType.stsd) {
            track.sampleEntries = try MP4SampleDescriptionBox.decode(
                bytes, stsd, depth: 6, limits: limits, notes: &notes
            ).entries
        }
        if let stsz = track.sampleTableBoxes.first(MP4BoxType.stsz) ?? track.sampleTableBoxes.first(MP4BoxType.stz2),
            let count = MP4SampleSizeBox.declaredSampleCount(bytes[stsz.body])
        {
            track.declaredSampleCount = count
        }
        return track
    }
}
