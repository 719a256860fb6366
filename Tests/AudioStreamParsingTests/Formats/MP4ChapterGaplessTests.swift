import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

// Chapters (Nero chpl, QuickTime chapter text samples) and gapless information (elst, iTunSMPB) from
// the fixtures, found by MP4TestBoxes.swift. Expected values: the chapter file generate.sh feeds to
// ffmpeg (what ffprobe -show_chapters prints back), the ffprobe oracles (packet durations, the
// stream's duration_ts) and hand-built boxes worked out from ISO/IEC 14496-12 §8.6.6.

@Suite("MP4: chapters")
struct MP4ChapterTests {
    static let book = "mp4/aac-22050-1ch-chapters.m4b"
    /// generate.sh's ffmetadata chapters (TIMEBASE 1/1000): 0–700, 700–1400, 1400–2000.
    static let titles = ["Chapter One", "Chapter Two", "Chapter Three"]

    @Test func neroChapterList() throws {
        let file = try MP4TestFile(Self.book)
        let chpl = try #require(MP4TestBox.find(["moov", "udta", "chpl"], in: file.bytes).first)
        let chapters = try MP4Chapters.decodeNero(chpl: chpl.whole)
        #expect(chapters.map(\.title) == Self.titles)
        #expect(chapters.map(\.startSeconds) == [0, 0.7, 1.4])
        #expect(chapters.map(\.endSeconds) == [0.7, 1.4, nil])
    }

    /// The chapter track's samples (stsz sizes, stsc/stco placement): one title each.
    @Test func quickTimeChapterTrackSamples() throws {
        let file = try MP4TestFile(Self.book)
        let stbl = try #require(file.stbl("text"))
        let samples = MP4SampleLocator.samples(stbl: stbl, in: file.bytes)
        #expect(samples.count == 3)
        #expect(samples.map { MP4Chapters.decodeTextSample(file.bytes[$0]) } == Self.titles)
    }

    /// Version 0 (no reserved field), a UTF-16 text sample, and malformed lists.
    @Test func handBuiltChapters() throws {
        let v0 = MP4TestBox.box("chpl", [0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0x98, 0x96, 0x80, 2] + Array("Hi".utf8))
        let one = try MP4Chapters.decodeNero(chpl: v0[...])
        #expect(one == [AudioMetadata.Chapter(title: "Hi", startSeconds: 1, endSeconds: nil)])
        let cut = MP4TestBox.box("chpl", [0, 0, 0, 0, 2] + [0, 0, 0, 0, 0, 0, 0, 0, 2] + Array("Hi".utf8))
        #expect(throws: StructureError.self) { try MP4Chapters.decodeNero(chpl: cut[...]) }
        let v2 = MP4TestBox.box("chpl", [2, 0, 0, 0, 0])
        #expect(throws: StructureError.self) { try MP4Chapters.decodeNero(chpl: v2[...]) }
        #expect(MP4Chapters.decodeTextSample([0, 6, 0xFE, 0xFF, 0, 0x41, 0, 0xE9][...]) == "Aé")
        #expect(MP4Chapters.decodeTextSample([0, 9, 0x41][...]) == nil)
        #expect(MP4Chapters.decodeTextSample([0, 0][...]) == nil)
    }
}

@Suite("MP4: gapless (elst, iTunSMPB)")
struct MP4GaplessTests {
    struct Track {
        var elst: ArraySlice<UInt8>
        var movieTimescale: UInt32
        var mediaTimescale: UInt32
    }

    static func track(_ file: MP4TestFile) throws -> Track {
        let mvhd = try #require(MP4TestBox.find(["moov", "mvhd"], in: file.bytes).first)
        let trak = try #require(file.track("soun"))
        let elst = try #require(trak.child("edts", in: file.bytes)?.child("elst", in: file.bytes))
        let mdhd = try #require(trak.child("mdia", in: file.bytes)?.child("mdhd", in: file.bytes))
        // mvhd/mdhd version 0: version/flags 4, creation 4, modification 4, timescale 4.
        return Track(
            elst: elst.whole, movieTimescale: MP4TestBox.be32(file.bytes, mvhd.bodyStart + 12),
            mediaTimescale: MP4TestBox.be32(file.bytes, mdhd.bodyStart + 12))
    }

    /// ffmpeg's AAC: media_time 1024 (priming), segment_duration = the input's length. Every packet
    /// decodes to 1024 frames (ffmpeg trims the last sample's stts duration instead, so the total is
    /// packets × 1024, as CoreAudio counts it); ffprobe's stream duration_ts is the valid frames.
    @Test(arguments: [
        "mp4/aac-44100-2ch-faststart.m4a", "mp4/aac-44100-2ch-moov-end.m4a", "mp4/aac-22050-1ch-chapters.m4b",
        "mp4/aac-48000-6ch.m4a", "mp4/aac-16000-1ch.3gp", "mp4/aac-44100-2ch.mov",
    ])
    func editListMatchesTheOracle(_ path: String) throws {
        let file = try MP4TestFile(path)
        let oracle = try FixtureCatalog.fixture(path).oracle()
        let t = try Self.track(file)
        let total = Int64(try #require(oracle.summary?.packets)) * 1024
        let rate = Double(try #require(oracle.stream?.sampleRate))
        let info = try #require(
            MP4Gapless.fromEditList(
                t.elst, movieTimescale: t.movieTimescale, mediaTimescale: t.mediaTimescale, sampleRate: rate,
                totalFrames: total))
        let valid = try #require(oracle.stream?.fields["duration_ts"]?.int)
        #expect(info.primingFrames == 1024)
        #expect(info.numberValidFrames == valid)
        #expect(Int64(info.primingFrames) + info.numberValidFrames + Int64(info.remainderFrames) == total)
    }

    /// ALAC has no priming: media_time 0 and the whole track, an identity edit.
    @Test func identityEditList() throws {
        let file = try MP4TestFile("mp4/alac-44100-2ch.m4a")
        let t = try Self.track(file)
        let info = MP4Gapless.fromEditList(
            t.elst, movieTimescale: t.movieTimescale, mediaTimescale: t.mediaTimescale, sampleRate: 44100,
            totalFrames: 44100)
        #expect(info == PacketTableInfo(numberValidFrames: 44100, primingFrames: 0, remainderFrames: 0))
        let smpb = PacketTableInfo(numberValidFrames: 44000, primingFrames: 100, remainderFrames: 0)
        #expect(MP4Gapless.combine(editList: info, iTunSMPB: smpb) == smpb)
    }

    /// The iTunes fixture's iTunSMPB (tag_mp4.py): priming 0x400, remainder 0x3BC, 0xAC44 valid frames;
    /// it agrees with the edit list, so combine keeps it.
    @Test func iTunSMPBFromTheTag() throws {
        let path = "mp4/aac-44100-2ch-itunes.m4a"
        let oracle = try FixtureCatalog.fixture(path).oracle()
        let value = try #require(oracle.formatTags["iTunSMPB"])
        let smpb = try #require(MP4Gapless.fromITunSMPB(value))
        #expect(smpb == PacketTableInfo(numberValidFrames: 44100, primingFrames: 1024, remainderFrames: 956))
        let file = try MP4TestFile(path)
        let t = try Self.track(file)
        let edit = MP4Gapless.fromEditList(
            t.elst, movieTimescale: t.movieTimescale, mediaTimescale: t.mediaTimescale, sampleRate: 44100,
            totalFrames: Int64(try #require(oracle.summary?.packets)) * 1024)
        #expect(edit == smpb)
        #expect(MP4Gapless.combine(editList: edit, iTunSMPB: smpb) == smpb)
    }

    static func elst(version: UInt8, _ entries: [(UInt64, Int64, UInt16)]) -> [UInt8] {
        var body: [UInt8] = [version, 0, 0, 0] + MP4TestBox.be(UInt64(entries.count), 4)
        for (duration, time, rate) in entries {
            let width = version == 1 ? 8 : 4
            body += MP4TestBox.be(duration, width) + MP4TestBox.be(UInt64(bitPattern: time), width)
            body += MP4TestBox.be(UInt64(rate), 2) + [0, 0]
        }
        return MP4TestBox.box("elst", body)
    }

    /// Hand-worked edit lists: movie timescale 600, media timescale 48000, 48 kHz, 10 × 1024 frames.
    @Test func handBuiltEditLists() {
        func info(_ bytes: [UInt8], media: UInt32 = 48000, total: Int64 = 10240) -> PacketTableInfo? {
            MP4Gapless.fromEditList(
                bytes[...], movieTimescale: 600, mediaTimescale: media, sampleRate: 48000,
                totalFrames: total)
        }
        // 2112 priming, 1.0 s = 600 movie units → 48000 frames: more than is left, so clamped to 8128.
        #expect(
            info(Self.elst(version: 0, [(600, 2112, 1)]))
                == PacketTableInfo(numberValidFrames: 8128, primingFrames: 2112, remainderFrames: 0))
        // 0.1 s = 60 units → 4800 valid frames; remainder 10240 − 2112 − 4800 = 3328. Version 1 alike.
        let expected = PacketTableInfo(numberValidFrames: 4800, primingFrames: 2112, remainderFrames: 3328)
        #expect(info(Self.elst(version: 0, [(60, 2112, 1)])) == expected)
        #expect(info(Self.elst(version: 1, [(60, 2112, 1)])) == expected)
        // A leading empty edit (a delay) is ignored.
        #expect(info(Self.elst(version: 0, [(30, -1, 1), (60, 2112, 1)])) == expected)
        // media_time in a 90 kHz media timescale: 3960 / 90000 s = 2112 frames at 48 kHz.
        #expect(info(Self.elst(version: 0, [(60, 3960, 1)]), media: 90000) == expected)
        // Two contiguous edits (0.05 s each: the second starts 2400 frames later) are one window.
        #expect(info(Self.elst(version: 0, [(30, 2112, 1), (30, 4512, 1)])) == expected)
        // Not one window, a rate other than 1, an empty edit after a real one, priming past the end.
        #expect(info(Self.elst(version: 0, [(30, 2112, 1), (30, 9000, 1)])) == nil)
        #expect(info(Self.elst(version: 0, [(60, 2112, 2)])) == nil)
        #expect(info(Self.elst(version: 0, [(60, 2112, 1), (30, -1, 1)])) == nil)
        #expect(info(Self.elst(version: 0, [(60, 20000, 1)])) == nil)
        // Cut short, no entries, zero timescales, huge values: nil, never a trap.
        let whole = Self.elst(version: 1, [(60, 2112, 1)])
        for length in 0..<whole.count { #expect(info(Array(whole[0..<length])) == nil) }
        #expect(info(Self.elst(version: 0, [])) == nil)
        #expect(
            MP4Gapless.fromEditList(whole[...], movieTimescale: 0, mediaTimescale: 1, sampleRate: 1, totalFrames: 1)
                == nil)
        #expect(info(Self.elst(version: 1, [(UInt64.max, Int64.max, 1)]), total: Int64.max) == nil)
        #expect(info(Self.elst(version: 1, [(UInt64.max, 0, 1)]), total: Int64.max - 1) == nil)
    }

    @Test func iTunSMPBParsing() {
        #expect(
            MP4Gapless.fromITunSMPB(" 00000000 00000840 000001CA 00000000003F31F6 00000000")
                == PacketTableInfo(numberValidFrames: 0x3F31F6, primingFrames: 0x840, remainderFrames: 0x1CA))
        #expect(MP4Gapless.fromITunSMPB("00000000 00000840 000001CA") == nil)
        #expect(MP4Gapless.fromITunSMPB(" 00000000 0000084G 000001CA 00000000003F31F6") == nil)
        #expect(MP4Gapless.fromITunSMPB(" 00000000 FFFFFFFF 000001CA 00000000003F31F6") == nil)
    }

    /// docs/formats/mp4.md, "Gapless": which wins.
    @Test func combineRules() {
        let edit = PacketTableInfo(numberValidFrames: 44090, primingFrames: 1024, remainderFrames: 966)
        let exact = PacketTableInfo(numberValidFrames: 44100, primingFrames: 1024, remainderFrames: 956)
        let stale = PacketTableInfo(numberValidFrames: 88200, primingFrames: 2112, remainderFrames: 0)
        #expect(MP4Gapless.combine(editList: nil, iTunSMPB: nil) == nil)
        #expect(MP4Gapless.combine(editList: edit, iTunSMPB: nil) == edit)
        #expect(MP4Gapless.combine(editList: nil, iTunSMPB: stale) == stale)
        #expect(MP4Gapless.combine(editList: edit, iTunSMPB: exact) == exact)  // same priming and total
        #expect(MP4Gapless.combine(editList: edit, iTunSMPB: stale) == edit)  // disagreeing tag
    }
}

/// Sample byte ranges of a track from stsz, stsc and stco (ISO/IEC 14496-12 §8.7.3–8.7.5), for tests.
enum MP4SampleLocator {
    static func samples(stbl: MP4TestBox, in bytes: [UInt8]) -> [Range<Int>] {
        guard let stsz = stbl.child("stsz", in: bytes), let stsc = stbl.child("stsc", in: bytes),
            let stco = stbl.child("stco", in: bytes)
        else { return [] }
        let be = { (i: Int) in Int(MP4TestBox.be32(bytes, i)) }
        let constant = be(stsz.bodyStart + 4)
        let count = be(stsz.bodyStart + 8)
        let sizes = (0..<count).map { constant != 0 ? constant : be(stsz.bodyStart + 12 + 4 * $0) }
        let chunks = (0..<be(stco.bodyStart + 4)).map { be(stco.bodyStart + 8 + 4 * $0) }
        let runs = (0..<be(stsc.bodyStart + 4)).map {
            (be(stsc.bodyStart + 8 + 12 * $0), be(stsc.bodyStart + 12 + 12 * $0))
        }
        var result: [Range<Int>] = []
        var sample = 0
        for (index, offset) in chunks.enumerated() {
            let perChunk = runs.last { $0.0 <= index + 1 }?.1 ?? 0
            var position = offset
            for _ in 0..<perChunk where sample < sizes.count {
                result.append(position..<(position + sizes[sample]))
                position += sizes[sample]
                sample += 1
            }
        }
        return result
    }
}
