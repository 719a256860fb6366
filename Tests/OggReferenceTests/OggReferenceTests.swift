import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// The Ogg parser against libogg, the reference implementation of Ogg framing (RFC 3533): for every Ogg
/// fixture, whole and in random chunkings, after junk, with corrupted pages and after a discontinuity,
/// our pages (offsets, sizes, serials, sequence numbers, granule positions, flags) and the audio packets
/// we deliver (every byte) equal what `ogg_sync_pageseek` and `ogg_stream_packetout` produce.
@Suite("Ogg against libogg", .timeLimit(.minutes(5)))
struct OggReferenceTests {
    static let fixtures: [String] =
        FixtureCatalog.all.filter { $0.folder == "ogg" }.map(\.path)
        + FixtureCatalog.malformed.map(\.file).filter { $0.hasPrefix("ogg/") && !$0.contains("missing-bos") }
        .map { "malformed/" + $0 }

    static func bytes(_ path: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: FixtureCatalog.fixturesRoot).appendingPathComponent(path)
        return [UInt8](try Data(contentsOf: url))
    }

    static let chunkings: [Chunking] = [
        .whole, .bytewise, .fixed(4096), .random(seed: 1, maxSize: 300), .random(seed: 7, maxSize: 5000),
    ]

    // MARK: Pages

    /// Our page layer (`OggPageCheck` over an `InputWindow` fed chunk by chunk, resynchronising like the
    /// parser: past a failed capture pattern to the next 'O', one byte past a page with a bad CRC).
    static func ourPages(_ bytes: [UInt8], chunking: Chunking) -> [LiboggPage] {
        var window = InputWindow()
        var pages: [LiboggPage] = []
        for range in chunking.ranges(count: bytes.count) {
            bytes[range].withUnsafeBytes { raw in
                window.beginChunk(BorrowedBytes(raw))
                scan: while true {
                    switch OggPageCheck(window) {
                    case .incomplete:
                        break scan
                    case .notAPage:
                        window.consume(window.firstIndex(of: 0x4F, from: 1, to: window.readable) ?? window.readable)
                        if window.readable == 0 { break scan }
                    case .checksumMismatch:
                        window.consume(1)
                    case .page(let h, let size):
                        let head = window.peekBytes(at: h.headerSize, count: min(16, h.bodySize)) ?? []
                        pages.append(
                            LiboggPage(
                                offset: window.position, size: size, serial: h.serialNumber,
                                sequence: h.sequenceNumber, granule: h.granulePosition,
                                isBeginning: h.isBeginningOfStream, isEnd: h.isEndOfStream,
                                isContinued: h.isContinued, head: head))
                        window.consume(size)
                    }
                }
                window.endChunk()
            }
        }
        return pages
    }

    @Test(arguments: fixtures)
    func pagesEqualLibogg(_ path: String) throws {
        let bytes = try Self.bytes(path)
        let reference = Libogg.read(bytes).pages
        #expect(!reference.isEmpty, "\(path): libogg found no page")
        for chunking in Self.chunkings {
            #expect(Libogg.read(bytes, chunking: chunking).pages == reference, "\(path) \(chunking): libogg itself")
            let ours = Self.ourPages(bytes, chunking: chunking)
            if ours != reference {
                let i =
                    (0..<min(ours.count, reference.count)).first { ours[$0] != reference[$0] }
                    ?? min(ours.count, reference.count)
                let mine = i < ours.count ? "\(ours[i])" : "none"
                let theirs = i < reference.count ? "\(reference[i])" : "none"
                Issue.record("\(path) \(chunking): page \(i): ours \(mine), libogg \(theirs)")
            }
        }
    }

    // MARK: Packets

    /// The audio packets the public parser delivers (bytes copied), and its error.
    static func ourPackets(
        _ bytes: [UInt8], chunking: Chunking, options: ParserOptions = ParserOptions(),
        discontinuityAt cut: Int? = nil, resumeAt resume: Int? = nil
    ) -> (packets: [[UInt8]], error: AudioStreamError?) {
        let parser = AudioStreamParser(options: options)
        var packets: [[UInt8]] = []
        parser.packetsHandler = { batch in
            for i in 0..<batch.packetCount { packets.append(Array(batch.packetBytes(at: i))) }
        }
        do {
            if let cut, let resume {
                for r in chunking.ranges(count: cut) { try parser.parse(bytes[r]) }
                let rest = Array(bytes[resume...])
                var first = true
                for r in chunking.ranges(count: rest.count) {
                    try parser.parse(rest[r], flags: first ? .discontinuity : [])
                    first = false
                }
            } else {
                for r in chunking.ranges(count: bytes.count) { try parser.parse(bytes[r]) }
            }
            try parser.finish()
        } catch {
            return (packets, error)
        }
        return (packets, nil)
    }

    @Test(arguments: fixtures)
    func packetsEqualLibogg(_ path: String) throws {
        let bytes = try Self.bytes(path)
        // Zero bytes after the end let libogg give up a page that claims more bytes than are left, as our
        // parser does at the end of the stream (see corruptedCopiesEqualLibogg).
        let expected = Libogg.expectedAudioPackets(bytes + [UInt8](repeating: 0, count: OggPageHeader.maxPageSize))
        #expect(!expected.isEmpty, "\(path): libogg found no audio packet")
        for chunking in Self.chunkings {
            let (ours, error) = Self.ourPackets(bytes, chunking: chunking)
            #expect(error == nil, "\(path) \(chunking): \(String(describing: error))")
            Self.compare(ours, expected, "\(path) \(chunking)")
        }
    }

    /// Each logical stream of the multiplexed file, picked by serial number and by audio-stream index.
    @Test func multiplexedStreamsBySelection() throws {
        let path = "ogg/multiplexed-opus-vorbis.ogg"
        let bytes = try Self.bytes(path)
        let (pages, _) = Libogg.read(bytes)
        let audio = pages.filter { $0.isBeginning && Libogg.Codec($0.head) != nil }
        #expect(audio.count == 2, "\(path): \(audio)")
        for (index, bos) in audio.enumerated() {
            let expected = Libogg.expectedAudioPackets(bytes) { group in group.first { $0.serial == bos.serial }?.serial
            }
            var bySerial = ParserOptions()
            bySerial.oggStreamSelection = .serialNumber(bos.serial)
            var byIndex = ParserOptions()
            byIndex.oggStreamSelection = .audioStream(index: index)
            for options in [bySerial, byIndex] {
                for chunking in [Chunking.whole, .random(seed: 3, maxSize: 700)] {
                    let (ours, error) = Self.ourPackets(bytes, chunking: chunking, options: options)
                    #expect(error == nil)
                    Self.compare(ours, expected, "\(path) \(options.oggStreamSelection) \(chunking)")
                }
            }
        }
    }

    // MARK: Damaged input

    /// Random bytes of page bodies flipped (each page with a flipped byte fails its CRC) and junk inserted
    /// between pages: the pages libogg still finds, and the packets it still returns, are ours.
    @Test(arguments: fixtures.filter { $0.hasPrefix("ogg/") })
    func corruptedCopiesEqualLibogg(_ path: String) throws {
        let original = try Self.bytes(path)
        let pages = Libogg.read(original).pages
        // Leave the header pages alone: without its headers a stream has no format.
        guard let firstAudioPage = Self.firstAudioPageIndex(pages, original) else { return }
        var rng = SplitMix(seed: UInt64(path.utf8.count) &* 7919 &+ 20_261_122)
        for round in 0..<6 {
            var bytes = original
            var inserted = 0
            // Audio pages only (granule position not 0): a later link's header pages stay intact too.
            for page in pages[firstAudioPage...].reversed() where page.granule != 0 && rng.next() % 3 == 0 {
                if rng.next() % 2 == 0, page.size > 64 {
                    // A body byte: the page fails its CRC.
                    let at = Int(page.offset) + page.size - 1 - Int(rng.next() % UInt64(page.size / 2))
                    bytes[at] ^= UInt8(1 + rng.next() % 255)
                } else {
                    // Junk (with a capture pattern in it) before the page.
                    let junk = (0..<(5 + Int(rng.next() % 200))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    bytes.insert(contentsOf: junk + Array("OggS".utf8), at: Int(page.offset))
                    inserted += 1
                }
            }
            // A capture pattern in the junk can make a page header claim more bytes than the stream has
            // left: libogg then waits for them forever, while our parser, told the stream has ended, gives
            // the claimed page up and resynchronises after it. Zero bytes (no capture pattern, no page) after
            // the end let libogg reach the same point: the claimed page fails its CRC and libogg resyncs.
            let padded = bytes + [UInt8](repeating: 0, count: OggPageHeader.maxPageSize)
            let reference = Libogg.read(padded).pages
            let ours = Self.ourPages(padded, chunking: .random(seed: UInt64(round), maxSize: 999))
            #expect(ours == reference, "\(path) round \(round): pages differ (\(ours.count) vs \(reference.count))")
            let expected = Libogg.expectedAudioPackets(padded)
            let (packets, error) = Self.ourPackets(bytes, chunking: .random(seed: UInt64(round), maxSize: 999))
            #expect(error == nil, "\(path) round \(round): \(String(describing: error))")
            if packets != expected {
                let log = ParseRunner.run(bytes, chunking: .whole)
                Issue.record(
                    "\(path) round \(round): diagnostics \(log.diagnostics.map { "\($0.byteOffset): \($0.message)" })")
            }
            Self.compare(packets, expected, "\(path) round \(round)")
        }
    }

    /// Feed stops in the middle of the stream and resumes later with `.discontinuity`: the parser drops the
    /// partial packet and resynchronises, as libogg does when it is given the rest of the stream alone.
    @Test(arguments: fixtures.filter { $0.hasPrefix("ogg/") && !$0.contains("chained") })
    func discontinuityEqualsLiboggOnTheRest(_ path: String) throws {
        let bytes = try Self.bytes(path)
        let pages = Libogg.read(bytes).pages
        guard let firstAudioPage = Self.firstAudioPageIndex(pages, bytes), firstAudioPage + 1 < pages.count else {
            return
        }
        let audioStart = Int(pages[firstAudioPage].offset)
        for (cutNumerator, resumeNumerator) in [(1, 2), (1, 3), (2, 3)] {
            let cut = audioStart + (bytes.count - audioStart) * cutNumerator / 5
            let resume = audioStart + (bytes.count - audioStart) * resumeNumerator / 5 + 7
            // Before the cut: what the parser delivered from the prefix alone; after: libogg's packets of
            // the serial in the rest (it starts in the middle of a page, so the partial packet is dropped).
            let (prefix, _) = Self.ourPackets(Array(bytes[..<cut]), chunking: .whole)
            let serial = Libogg.firstAudio(pages.filter(\.isBeginning)) ?? 0
            let rest = Libogg.read(Array(bytes[resume...])).packets[serial] ?? []
            let expectedTail = rest.filter { !$0.isEmpty }
            for chunking in [Chunking.whole, .random(seed: 11, maxSize: 400)] {
                let (ours, error) = Self.ourPackets(bytes, chunking: chunking, discontinuityAt: cut, resumeAt: resume)
                #expect(error == nil, "\(path): \(String(describing: error))")
                // The prefix's last packet may be incomplete at the cut: compare the delivered prefix only.
                #expect(Array(ours.prefix(prefix.count)) == prefix, "\(path) \(chunking): packets before the cut")
                Self.compare(Array(ours.dropFirst(prefix.count)), expectedTail, "\(path) \(chunking) after the cut")
            }
        }
    }

    // MARK: Helpers

    /// The first page at or after the data offset the parser announces (header pages come before it).
    static func firstAudioPageIndex(_ pages: [LiboggPage], _ bytes: [UInt8]) -> Int? {
        let parser = AudioStreamParser()
        try? parser.parse(bytes)
        guard let dataOffset = parser.dataOffset else { return nil }
        return pages.firstIndex { $0.offset >= dataOffset }
    }

    static func compare(_ ours: [[UInt8]], _ expected: [[UInt8]], _ what: String) {
        if ours == expected { return }
        let i =
            (0..<min(ours.count, expected.count)).first { ours[$0] != expected[$0] } ?? min(ours.count, expected.count)
        let mine = i < ours.count ? ours[i].count : -1
        let theirs = i < expected.count ? expected[i].count : -1
        let where_ = "first difference at packet \(i) (sizes \(mine) vs \(theirs))"
        Issue.record("\(what): \(ours.count) packets, libogg \(expected.count); \(where_)")
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
