/// The sample table boxes of a track (`stbl`, ISO/IEC 14496-12 §8.5–8.7) assembled into an
/// `MP4SampleList`: one run of samples per chunk.
///
/// ```
/// stbl
///   stsz | stz2   sizes                 MP4SampleSizeBox       (required)
///   stco | co64   chunk offsets         MP4ChunkOffsetBox      (required when there are samples)
///   stsc          samples per chunk     MP4SampleToChunkBox    (required when there are samples)
///   stts          durations             MP4TimeToSampleBox
/// ```
///
/// Each box is decoded by its own type (every count checked against the bytes its box really has
/// before anything is allocated, the sample count against `ParserLimits.maxPacketTableEntries`).
/// Inconsistent tables (chunks holding fewer or more samples than `stsz` lists, `stts` covering a
/// different count) are trimmed to what all tables agree on, with a diagnostic; chunks out of file
/// order are sorted.
enum MP4SampleTable {
    /// Decodes a track's sample tables.
    ///
    /// - Parameters:
    ///   - bytes: the buffer holding the boxes.
    ///   - stbl: the children of `stbl`.
    ///   - notes: receives what was trimmed or sorted.
    /// - Throws: what the boxes' decoders throw; `invalidFile` when a required box is missing.
    static func decode(
        _ bytes: ArraySlice<UInt8>, stbl: [MP4Box], limits: ParserLimits, notes: inout [DiagnosticNote]
    ) throws(StructureError) -> MP4SampleList {
        var list = MP4SampleList()
        let sizes: MP4SampleSizeBox
        if let stsz = stbl.first(MP4BoxType.stsz) {
            sizes = try MP4SampleSizeBox.decode(bytes[stsz.body], compact: false, limits: limits, into: &list.sizes)
        } else if let stz2 = stbl.first(MP4BoxType.stz2) {
            sizes = try MP4SampleSizeBox.decode(bytes[stz2.body], compact: true, limits: limits, into: &list.sizes)
        } else {
            throw Structure.mp4("stbl").invalid("no sample size box (stsz or stz2)")
        }
        let sampleCount = sizes.sampleCount

        var chunkOffsets: [Int64] = []
        if let box = stbl.first(MP4BoxType.stco) ?? stbl.first(MP4BoxType.co64) {
            chunkOffsets = try MP4ChunkOffsetBox.decode(bytes[box.body], wide: box.type == MP4BoxType.co64).offsets
        } else if sampleCount > 0 {
            throw Structure.mp4("stbl").invalid("no chunk offset box (stco or co64)")
        }

        var stsc: [MP4SampleToChunkBox.Entry] = []
        if let box = stbl.first(MP4BoxType.stsc) {
            let decoded = try MP4SampleToChunkBox.decode(bytes[box.body])
            stsc = decoded.entries
            if decoded.usesOtherDescriptions {
                notes.append(
                    DiagnosticNote(
                        .unsupportedFeature, .mp4("stsc"),
                        "chunks use more than one sample description; all are read as the first"))
            }
        } else if sampleCount > 0 {
            throw Structure.mp4("stbl").invalid("no sample-to-chunk box (stsc)")
        }

        if let box = stbl.first(MP4BoxType.stts) {
            list.timeToSample = try MP4TimeToSampleBox.decode(bytes[box.body])
        }
        if sampleCount > 0 && list.timeToSample.sampleCount != sampleCount {
            notes.append(
                DiagnosticNote(
                    .inconsistentValues, .mp4("stts"),
                    "durations for \(list.timeToSample.sampleCount) samples, stsz lists \(sampleCount); "
                        + "the last duration is repeated"))
        }
        assembleRuns(&list, chunkOffsets: chunkOffsets, stsc: stsc, sizes: sizes, notes: &notes)
        return list
    }

    /// Chunks → runs: chunk `c` (1-based) holds the samples_per_chunk of the last `stsc` entry whose
    /// first_chunk is at most `c`; the runs stop at the sample count `stsz` lists.
    private static func assembleRuns(
        _ list: inout MP4SampleList, chunkOffsets: [Int64], stsc: [MP4SampleToChunkBox.Entry],
        sizes: MP4SampleSizeBox, notes: inout [DiagnosticNote]
    ) {
        let sampleCount = sizes.sampleCount
        var sample = 0
        var entry = 0
        for (c, offset) in chunkOffsets.enumerated() {
            if sample >= sampleCount { break }
            while entry + 1 < stsc.count && stsc[entry + 1].firstChunk <= c + 1 { entry += 1 }
            guard entry < stsc.count, stsc[entry].firstChunk <= c + 1 else { continue }
            let n = min(stsc[entry].samplesPerChunk, sampleCount - sample)
            if n == 0 { continue }
            list.runs.append(
                MP4SampleRun(
                    offset: offset, count: n, firstSample: sample,
                    size: sizes.constantSize.map { .constant($0) } ?? .table(base: sample), duration: .timeToSample))
            sample += n
        }
        if sample < sampleCount {
            let text = "the chunks hold \(sample) samples, stsz lists \(sampleCount)"
            notes.append(DiagnosticNote(.inconsistentValues, .mp4("stsc"), text))
        }
        list.count = sample
        // File order: a stable sort by offset (writers put a track's chunks in ascending order already).
        if zip(list.runs, list.runs.dropFirst()).contains(where: { $0.offset > $1.offset }) {
            notes.append(
                DiagnosticNote(
                    .inconsistentValues, .mp4("stco"),
                    "chunks are not in file order; packets are numbered in file order"))
            list.runs = list.runs.enumerated().sorted {
                ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset)
            }
            .map(\.element)
        }
    }
}
