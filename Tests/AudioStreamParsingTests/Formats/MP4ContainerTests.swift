import AudioStreamParsing
import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// The MP4 container: box walker, sample tables, interleaved tracks, moov after mdat, fragments, track
/// selection and seeking. Expected values come from the hand-built files' layouts (`MP4TestFiles.swift`).
@Suite("MP4 container")
struct MP4ContainerTests {
    // MARK: Probe and file types

    @Test(arguments: [
        ("M4A ", "m4af"), ("M4B ", "m4bf"), ("isom", "mp4f"), ("mp42", "mp4f"), ("3gp4", "3gpp"), ("3g2a", "3gp2"),
        ("qt  ", "qt  "),
    ])
    func majorBrandGivesFileType(_ brand: String, _ type: String) {
        let movie = InterleavedMovie(brand: brand)
        let log = ParseRunner.run(movie.bytes, chunking: .whole)
        #expect(log.error == nil)
        guard case .fileFormat(let t)? = log.lastValues[.fileFormat] else {
            Issue.record("no fileFormat")
            return
        }
        #expect(t.description == type)
    }

    @Test func fileWithoutFileTypeBoxIsQuickTime() {
        let movie = InterleavedMovie()
        let noFtyp = Array(movie.bytes.dropFirst(MP4Build.ftyp("qt  ").count))
        let log = ParseRunner.run(noFtyp, chunking: .whole, checkBytes: false)
        #expect(log.lastValues[.fileFormat] == .fileFormat(.quickTime), "\(String(describing: log.error))")
    }

    // MARK: Interleaved tracks

    @Test func interleavedVideoBytesAreSkippedAndAudioChunksEmitted() {
        let movie = InterleavedMovie()
        let (log, failures) = ChunkingVerifier.verify(movie.bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil, "\(String(describing: log.error))")
        let got = log.packets.map { ($0.offset, $0.size) }
        #expect(got.elementsEqual(movie.audioPackets, by: ==), "\(got)")
        #expect(log.lastValues[.dataOffset] == .dataOffset(movie.audioChunks[0].offset))
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(32))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(16))
    }

    @Test func trackListNamesEveryTrackAndTheSelectedOne() throws {
        let parser = AudioStreamParser()
        try parser.parse(InterleavedMovie().bytes)
        try parser.finish()
        let tracks = parser.tracks
        #expect(tracks.map(\.id) == [1, 2])
        #expect(tracks.map(\.handlerType) == ["soun", "vide"])
        #expect(tracks.map(\.isSelected) == [true, false])
        #expect(tracks.map(\.sampleCount) == [16, 3])
        #expect(tracks[0].timescale == 8000)
        #expect(tracks[0].language == "und")
    }

    @Test func choosingANonAudioTrackThrowsUnsupportedDataFormat() {
        let log = ParseRunner.run(InterleavedMovie().bytes, chunking: .whole, options: ParserOptions(trackID: 2))
        #expect(log.error?.code == .unsupportedDataFormat)
        let missing = ParseRunner.run(InterleavedMovie().bytes, chunking: .whole, options: ParserOptions(trackID: 9))
        #expect(missing.error?.code == .unsupportedDataFormat)
    }

    @Test func choosingTheAudioTrackByIDParsesIt() {
        let log = ParseRunner.run(InterleavedMovie().bytes, chunking: .whole, options: ParserOptions(trackID: 1))
        #expect(log.error == nil)
        #expect(log.packetCount == 16)
    }

    // MARK: Seeking and translations

    @Test func seekGivesTheSampleTablesExactOffset() throws {
        let movie = InterleavedMovie()
        let parser = AudioStreamParser()
        try parser.parse(movie.bytes)
        try parser.finish()
        let dataOffset = try #require(parser.dataOffset)
        // Packet 12 is the third frame of the second audio chunk.
        let target = try parser.seek(toPacket: 12)
        #expect(!target.isEstimated)
        #expect(target.absoluteOffset == movie.audioChunks[1].offset + 4)
        #expect(target.byteOffset == target.absoluteOffset - dataOffset)
        #expect(parser.packetToFrame(12) == Translation(value: 12, isEstimated: false))
        #expect(parser.byteToPacket(target.byteOffset)?.value.packet == 12)
        var offsets: [Int64] = []
        parser.packetsHandler = { batch in
            for (i, d) in batch.descriptions.enumerated() {
                offsets.append(batch.fileOffset + d.startOffset + Int64(i * 0))
            }
        }
        try parser.parse(Array(movie.bytes[Int(target.absoluteOffset)...]), flags: .discontinuity)
        try parser.finish()
        #expect(offsets.first == target.absoluteOffset)
        #expect(parser.parsedPacketCount == 4)
    }

    // MARK: moov after mdat

    @Test func movieAfterMediaIsNotOptimizedByDefault() {
        let movie = InterleavedMovie(movieLast: true)
        let (log, failures) = ChunkingVerifier.verify(movie.bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error?.code == .notOptimized)
        #expect(log.error?.byteOffset == movie.moovStart)
        #expect(log.packetCount == 0)
    }

    @Test func bufferedMediaGivesEveryPacketOnceTheMovieArrives() {
        let movie = InterleavedMovie(movieLast: true)
        let options = ParserOptions(bufferUnparsedMediaUpTo: 1 << 20)
        let (log, failures) = ChunkingVerifier.verify(movie.bytes, options: options)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil, "\(String(describing: log.error))")
        #expect(log.packets.map { ($0.offset, $0.size) }.elementsEqual(movie.audioPackets, by: ==))
    }

    @Test func mediaBeyondTheBufferBoundIsNotOptimizedWithTheMovieOffset() {
        let movie = InterleavedMovie(movieLast: true)
        let log = ParseRunner.run(movie.bytes, chunking: .whole, options: ParserOptions(bufferUnparsedMediaUpTo: 16))
        #expect(log.error?.code == .notOptimized)
        #expect(log.error?.byteOffset == movie.moovStart)
    }

    @Test func rangeRequestsFetchTheMovieThenTheMedia() {
        let movie = InterleavedMovie(movieLast: true)
        let options = ParserOptions(allowsByteRangeRequests: true)
        let (log, jumps, failures) = RangeRequestRunner.verify(movie.bytes, options: options)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil, "\(String(describing: log.error))")
        // The whole input reaches the moov by skipping (the forward request), so only the second is a jump.
        #expect(jumps == [movie.mdatStart])
        let requests = log.entries.compactMap { e -> Int64? in
            if case .property(.requestedByteOffset(let o)) = e { return o } else { return nil }
        }
        #expect(requests == [movie.moovStart, movie.mdatStart])
        #expect(log.packets.map { ($0.offset, $0.size) }.elementsEqual(movie.audioPackets, by: ==))
    }

    @Test func heldMediaBeyondTheBoundFallsBackToRangeRequests() {
        let movie = InterleavedMovie(movieLast: true)
        let options = ParserOptions(allowsByteRangeRequests: true, bufferUnparsedMediaUpTo: 16)
        let (log, jumps, failures) = RangeRequestRunner.verify(movie.bytes, options: options)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil, "\(String(describing: log.error))")
        #expect(jumps == [movie.mdatStart])
        #expect(log.packets.map { ($0.offset, $0.size) }.elementsEqual(movie.audioPackets, by: ==))
    }

    @Test func aCallerThatDoesNotGoBackGetsNotOptimized() {
        let movie = InterleavedMovie(movieLast: true)
        let log = ParseRunner.run(movie.bytes, chunking: .whole, options: ParserOptions(allowsByteRangeRequests: true))
        #expect(log.error?.code == .notOptimized)
        #expect(log.packetCount == 0)
    }

    // MARK: Box walker and tables

    @Test func largesizeBoxesAreRead() {
        // The same movie with its mdat written with a 64-bit largesize (16-byte header).
        let movie = InterleavedMovie(largeMediaHeader: true)
        let (log, failures) = ChunkingVerifier.verify(movie.bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil, "\(String(describing: log.error))")
        #expect(log.packets.map { ($0.offset, $0.size) }.elementsEqual(movie.audioPackets, by: ==))
    }

    @Test func childEndingPastItsParentIsInvalid() throws {
        var notes: [DiagnosticNote] = []
        let parent = MP4Build.box("udta", MP4Build.u32(100) + MP4Build.code("free"))
        #expect(throws: StructureError.self) {
            _ = try MP4BoxTree.children(
                parent[...], in: 8..<parent.count, parent: "udta", depth: 1, limits: ParserLimits(), notes: &notes
            )
        }
    }

    @Test func childOfSizeZeroRunsToTheEndOfItsParent() throws {
        var notes: [DiagnosticNote] = []
        let parent = MP4Build.box("udta", MP4Build.u32(0) + MP4Build.code("free") + [1, 2, 3])
        let children = try MP4BoxTree.children(
            parent[...], in: 8..<parent.count, parent: "udta", depth: 1, limits: ParserLimits(), notes: &notes)
        #expect(children.count == 1)
        #expect(children.first?.end == parent.count)
    }

    @Test func quickTimeZeroTerminatorIsIgnored() throws {
        var notes: [DiagnosticNote] = []
        let parent = MP4Build.box("udta", MP4Build.box("free", []) + [0, 0, 0, 0])
        let children = try MP4BoxTree.children(
            parent[...], in: 8..<parent.count, parent: "udta", depth: 1, limits: ParserLimits(), notes: &notes)
        #expect(children.count == 1)
        #expect(notes.isEmpty)
    }

    @Test func nestingBeyondTheLimitIsLimitExceeded() {
        var notes: [DiagnosticNote] = []
        let parent = MP4Build.box("udta", [])
        var limits = ParserLimits()
        limits.maxNestingDepth = 2
        #expect(throws: StructureError.self) {
            _ = try MP4BoxTree.children(
                parent[...], in: 8..<parent.count, parent: "udta", depth: 3, limits: limits, notes: &notes)
        }
    }

    /// stsc (1, 3), (3, 1) over four chunks: chunks 1–2 hold 3 samples, chunks 3–4 one (ISO/IEC 14496-12
    /// §8.7.4: an entry applies from first_chunk until the next entry's).
    @Test func sampleToChunkRunsExpandPerChunk() throws {
        let boxes =
            MP4Build.stsz([10, 11, 12, 13, 14, 15, 16, 17]) + MP4Build.stsc([(1, 3), (3, 1)])
            + MP4Build.co64([1000, 2000, 3000, 4000]) + MP4Build.stts([(8, 1024)])
        let list = try decodeTables(boxes)
        #expect(list.runs.map(\.offset) == [1000, 2000, 3000, 4000])
        #expect(list.runs.map(\.count) == [3, 3, 1, 1])
        #expect(list.count == 8)
        #expect(list.size(list.runs[1], 2) == 15)
        #expect(list.duration(list.runs[3], 0) == 1024)
    }

    /// stz2 with 4-bit fields: 0x12 0x30 → sizes 1, 2, 3 (§8.7.3.3: high nibble first).
    @Test func compactSampleSizesWithFourBitFields() throws {
        let stz2 = MP4Build.full("stz2", [0, 0, 0, 4] + MP4Build.u32(3) + [0x12, 0x30])
        let list = try decodeTables(stz2 + MP4Build.stsc([(1, 3)]) + MP4Build.stco([500]) + MP4Build.stts([(3, 1)]))
        #expect(list.sizes == [1, 2, 3])
    }

    @Test func sampleSizeCountLargerThanTheBoxIsInvalid() {
        let stsz = MP4Build.full("stsz", MP4Build.u32(0) + MP4Build.u32(1000) + MP4Build.u32(5))
        #expect(throws: StructureError.self) {
            _ = try decodeTables(stsz + MP4Build.stsc([(1, 1)]) + MP4Build.stco([8]))
        }
    }

    @Test func constantSampleCountAboveTheTableLimitIsLimitExceeded() {
        let stsz = MP4Build.stsz(constant: 2, count: 0xFFFF_FFFF)
        do {
            _ = try decodeTables(stsz + MP4Build.stsc([(1, 1)]) + MP4Build.stco([8]))
            Issue.record("no error")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }

    @Test func chunkOffsetCountLargerThanTheBoxIsInvalid() {
        let stco = MP4Build.full("stco", MP4Build.u32(0x4000_0000) + MP4Build.u32(8))
        #expect(throws: StructureError.self) {
            _ = try decodeTables(MP4Build.stsz(constant: 2, count: 1) + MP4Build.stsc([(1, 1)]) + stco)
        }
    }

    private func decodeTables(_ boxes: [UInt8]) throws(StructureError) -> MP4SampleList {
        var notes: [DiagnosticNote] = []
        let stbl = MP4Build.box("stbl", boxes)
        let children = try MP4BoxTree.children(
            stbl[...], in: 8..<stbl.count, parent: "stbl", depth: 1, limits: ParserLimits(), notes: &notes)
        return try MP4SampleTable.decode(stbl[...], stbl: children, limits: ParserLimits(), notes: &notes)
    }

    // MARK: Fragments

    /// Two trafs in one moof without base_data_offset and without default-base-is-moof: the first's base is the
    /// moof, the second's the end of the first's data (§8.8.7.1).
    @Test func trackFragmentBaseOffsetsFollowTheRules() throws {
        let trunA = MP4Build.full(
            "trun", flags: 0x201, MP4Build.u32(2) + MP4Build.u32(100) + MP4Build.u32(5) + MP4Build.u32(6))
        let trafA = MP4Build.box(
            "traf", MP4Build.full("tfhd", flags: 0x8, MP4Build.u32(2) + MP4Build.u32(1024)) + trunA)
        let trunB = MP4Build.full(
            "trun", flags: 0x300,
            MP4Build.u32(2) + MP4Build.u32(512) + MP4Build.u32(7) + MP4Build.u32(512) + MP4Build.u32(8))
        let trafB = MP4Build.box("traf", MP4Build.full("tfhd", MP4Build.u32(1)) + trunB)
        let moof = MP4Build.box("moof", trafA + trafB)
        var list = MP4SampleList()
        var notes: [DiagnosticNote] = []
        try MP4MovieFragment.decode(
            moof[...], moofOffset: 5000, trackID: 1, trackExtends: nil, into: &list, limits: ParserLimits(),
            notes: &notes)
        // Track 2's data: 5000 + 100, 11 bytes; track 1 starts right after it.
        #expect(list.runs.map(\.offset) == [5111])
        #expect(list.sizes == [7, 8])
        #expect(list.durations == [512, 512])
    }

    @Test func trunSampleCountLargerThanTheBoxIsInvalid() {
        let trun = MP4Build.full("trun", flags: 0x200, MP4Build.u32(0x1000_0000) + MP4Build.u32(5))
        let moof = MP4Build.box(
            "moof", MP4Build.box("traf", MP4Build.full("tfhd", flags: 0x20000, MP4Build.u32(1)) + trun))
        var list = MP4SampleList()
        var notes: [DiagnosticNote] = []
        #expect(throws: StructureError.self) {
            try MP4MovieFragment.decode(
                moof[...], moofOffset: 0, trackID: 1, trackExtends: nil, into: &list, limits: ParserLimits(),
                notes: &notes)
        }
    }

    @Test func trunWithOnlyDefaultsIsBoundedByTheTableLimit() {
        let trun = MP4Build.full("trun", MP4Build.u32(0xFFFF_FFFF))
        let moof = MP4Build.box(
            "moof",
            MP4Build.box("traf", MP4Build.full("tfhd", flags: 0x20010, MP4Build.u32(1) + MP4Build.u32(4)) + trun))
        var list = MP4SampleList()
        var notes: [DiagnosticNote] = []
        do {
            try MP4MovieFragment.decode(
                moof[...], moofOffset: 0, trackID: 1, trackExtends: nil, into: &list, limits: ParserLimits(),
                notes: &notes)
            Issue.record("no error")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }

    /// Appends one moof + mdat pair per entry of `frameCounts` (16-bit mono PCM, track 1): tfhd
    /// (default-base-is-moof) + trun with data_offset = moof size + 8 (the mdat header). Returns every
    /// packet's (offset, size).
    static func appendFragments(_ frameCounts: [Int], to file: inout [UInt8]) -> [(Int64, Int)] {
        var packets: [(Int64, Int)] = []
        for frames in frameCounts {
            func moof(_ dataOffset: UInt32) -> [UInt8] {
                MP4Build.box(
                    "moof",
                    MP4Build.box(
                        "traf",
                        MP4Build.full("tfhd", flags: 0x20000, MP4Build.u32(1))
                            + MP4Build.full("trun", flags: 0x1, MP4Build.u32(UInt32(frames)) + MP4Build.u32(dataOffset))
                    ))
            }
            file += moof(UInt32(moof(0).count + 8))
            let payloadStart = file.count + 8
            file += MP4Build.box("mdat", (0..<(2 * frames)).map { MP4Build.pattern(payloadStart + $0) })
            for f in 0..<frames { packets.append((Int64(payloadStart + 2 * f), 2)) }
        }
        return packets
    }

    /// A fragmented version of the PCM track: moov with mvex/trex and empty tables, then two moof + mdat pairs.
    @Test func fragmentsEmitPacketsAsTheyArrive() {
        let entry = MP4Build.soundEntry(channels: 1, bits: 16, rate: 8000)
        let empty = MP4Build.stts([]) + MP4Build.stsc([]) + MP4Build.stsz(constant: 0, count: 0) + MP4Build.stco([])
        let trak = MP4Build.trak(id: 1, handler: "soun", timescale: 8000, entry: entry, tables: empty)
        let mvex = MP4Build.box(
            "mvex",
            MP4Build.full(
                "trex", MP4Build.u32(1) + MP4Build.u32(1) + MP4Build.u32(1) + MP4Build.u32(2) + MP4Build.u32(0)))
        var file = MP4Build.ftyp("iso5") + MP4Build.box("moov", MP4Build.mvhd(timescale: 1000) + trak + mvex)
        let expected = Self.appendFragments([5, 3], to: &file)
        let (log, failures) = ChunkingVerifier.verify(file)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil, "\(String(describing: log.error))")
        #expect(log.packets.map { ($0.offset, $0.size) }.elementsEqual(expected, by: ==))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(8))
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(16))
    }

    /// A fragmented movie whose edit list was written with the moov (it covers 2 of the 8 frames the fragments
    /// bring) and whose `mehd` gives the whole presentation (8 frames at 8000 Hz, movie timescale 8000):
    /// at the end, the valid frames are mehd's (ISO/IEC 14496-12 §8.8.2), not the stale edit's; without the
    /// `mehd`, the edit list stands (2 valid frames, 6 remainder).
    @Test(arguments: [true, false])
    func fragmentedGaplessUsesTheMovieExtendsHeader(_ withMehd: Bool) {
        let entry = MP4Build.soundEntry(channels: 1, bits: 16, rate: 8000)
        let empty = MP4Build.stts([]) + MP4Build.stsc([]) + MP4Build.stsz(constant: 0, count: 0) + MP4Build.stco([])
        // elst v0: one entry, segment_duration 2 (movie timescale), media_time 0, rate 1.0.
        let elst = MP4Build.full(
            "elst", MP4Build.u32(1) + MP4Build.u32(2) + MP4Build.u32(0) + MP4Build.u32(0x0001_0000))
        let trak = MP4Build.trak(
            id: 1, handler: "soun", timescale: 8000, entry: entry, tables: empty, extra: MP4Build.box("edts", elst))
        // mehd v1: fragment_duration 8 as a 64-bit value.
        let mehd = MP4Build.box("mehd", [1, 0, 0, 0] + MP4Build.u64(8))
        let trex = MP4Build.full(
            "trex", MP4Build.u32(1) + MP4Build.u32(1) + MP4Build.u32(1) + MP4Build.u32(2) + MP4Build.u32(0))
        let mvex = MP4Build.box("mvex", (withMehd ? mehd : []) + trex)
        var file = MP4Build.ftyp("iso5") + MP4Build.box("moov", MP4Build.mvhd(timescale: 8000) + trak + mvex)
        _ = Self.appendFragments([5, 3], to: &file)
        let (log, failures) = ChunkingVerifier.verify(file)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil, "\(String(describing: log.error))")
        #expect(log.packetCount == 8)
        let expected =
            withMehd
            ? PacketTableInfo(numberValidFrames: 8, primingFrames: 0, remainderFrames: 0)
            : PacketTableInfo(numberValidFrames: 2, primingFrames: 0, remainderFrames: 6)
        #expect(log.lastValues[.packetTableInfo] == .packetTableInfo(expected))
    }
}
