import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// Tags at frame boundaries of MPEG audio and ADTS streams: trailing ID3v1/APEv2 tags announced at
/// the end, ID3v2 tags between frames announced at their packet position (replacing the stream's
/// metadata), read by the full ID3v2 reader (artwork, chapters). Streams are built here from
/// committed fixtures; expected values are the ones `Fixtures/generate.sh` gave the taggers and
/// encoders, and frame positions come from the fixtures' ffprobe oracles.
@Suite("Tags between and after frames (MPEG, ADTS)")
struct FramedStreamTagTests {
    /// Every `metadata` announcement with the number of packets delivered before it.
    static func metadataEvents(_ log: EventLog) -> [(packetsBefore: Int64, metadata: AudioMetadata)] {
        var packets: Int64 = 0
        var out: [(Int64, AudioMetadata)] = []
        for entry in log.entries {
            switch entry {
            case .packets(let run): packets = run.firstPacketIndex + Int64(run.count)
            case .property(.metadata(let metadata)): out.append((packets, metadata))
            default: break
            }
        }
        return out
    }

    /// A 128-byte ID3v1.1 tag laid out by hand (id3.org "ID3v1"): "TAG", title 30, artist 30,
    /// album 30, year 4, comment 28, 0, track, genre.
    static func id3v1(title: String, artist: String, track: UInt8, genre: UInt8) -> [UInt8] {
        func field(_ s: String, _ n: Int) -> [UInt8] {
            Array((Array(s.utf8) + [UInt8](repeating: 0, count: n)).prefix(n))
        }
        let tag =
            Array("TAG".utf8) + field(title, 30) + field(artist, 30) + field("", 30) + field("2001", 4)
            + field("", 28) + [0, track, genre]
        precondition(tag.count == 128)
        return tag
    }

    /// The ID3v2 tag that starts `bytes` (10 + syncsafe size, + 10 with a v2.4 footer).
    static func leadingTag(_ bytes: [UInt8]) -> [UInt8] { Array(bytes[0..<MPEGFixtures.id3v2Length(bytes)]) }

    // MARK: ADTS

    @Test("ADTS: an APEv2 tag after the last frame is read and announced at the end, not reported as junk")
    func adtsTrailingAPE() throws {
        let path = "adts/aac-44100-2ch-apetag.aac"
        let (log, failures) = ChunkingVerifier.verify(try ADTSFixtures.bytes(path))
        #expect(failures.isEmpty, "\(failures)")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle(path))
        #expect(log.packetCount == frames.count)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        let events = Self.metadataEvents(log)
        // generate.sh: ffmpeg -write_apetag 1 -metadata title='APE Title'.
        #expect(events.count == 1)
        #expect(events.last?.packetsBefore == Int64(frames.count))
        #expect(events.last?.metadata.info[InfoKey.title] == "APE Title")
        #expect(events.last?.metadata.tags.allSatisfy { $0.source == "ape" } == true)
    }

    @Test("ADTS: APEv2 then ID3v1 after the last frame: both read, APEv2 first (first value wins)")
    func adtsTrailingAPEAndID3v1() throws {
        let path = "adts/aac-44100-2ch-apetag.aac"
        let bytes =
            try ADTSFixtures.bytes(path) + Self.id3v1(title: "V1 Title", artist: "V1 Artist", track: 4, genre: 13)
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.packetCount == (try ADTSFixtures.packets(try ADTSFixtures.oracle(path))).count)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        guard case .metadata(let metadata)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(metadata.info[InfoKey.title] == "APE Title")
        #expect(metadata.info[InfoKey.artist] == "V1 Artist")
        #expect(metadata.info[InfoKey.trackNumber] == "4")
        #expect(Set(metadata.tags.map(\.source)) == ["ape", "id3v1"])
    }

    /// An APEv2 tag without header (APEv2 specification, wiki.hydrogenaud.io): items (value size
    /// 4 LE, flags 4 LE, key, 0, value), then the 32-byte footer "APETAGEX", version 2000, size
    /// (items + footer), item count, flags 0 (no header; this is the footer), 8 reserved bytes.
    static func apeFooterOnly(_ items: [(String, String)]) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        var body: [UInt8] = []
        for (key, value) in items {
            body += le32(value.utf8.count) + le32(0) + Array(key.utf8) + [0] + Array(value.utf8)
        }
        let footer =
            Array("APETAGEX".utf8) + le32(2000) + le32(body.count + 32) + le32(items.count) + le32(0)
            + [UInt8](repeating: 0, count: 8)
        return body + footer
    }

    @Test("ADTS: junk, then a header-less APEv2 tag and ID3v1 at the end: tags found in the held-back tail")
    func adtsTrailingTagsAfterJunk() throws {
        let base = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch.aac"))
        let junk = Array("junk after the last frame".utf8)
        let ape = Self.apeFooterOnly([("Title", "Footer Title"), ("Artist", "Footer Artist")])
        let v1 = Self.id3v1(title: "V1 Title", artist: "V1 Artist", track: 2, genre: 0)
        let (log, failures) = ChunkingVerifier.verify(base + junk + ape + v1)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.packets.map(\.offset) == frames.map { $0.pos + 7 })
        // Only the junk is reported; the tags are not junk.
        #expect(log.diagnostics.map(\.byteOffset) == [Int64(base.count)])
        #expect(log.diagnostics.map(\.kind) == [.junkSkipped])
        #expect(log.diagnostics.first?.message.contains("\(junk.count) bytes") == true)
        let events = Self.metadataEvents(log)
        #expect(events.count == 1)
        #expect(events.first?.packetsBefore == Int64(frames.count))
        #expect(events.first?.metadata.info[InfoKey.title] == "Footer Title")
        #expect(events.first?.metadata.info[InfoKey.artist] == "Footer Artist")
        #expect(events.first?.metadata.info[InfoKey.trackNumber] == "2")
        #expect(Set(events.first?.metadata.tags.map(\.source) ?? []) == ["ape", "id3v1"])
    }

    @Test("ADTS: an ID3v1 tag between two streams ends the first part: reported, the frames after it kept")
    func adtsID3v1BetweenFrames() throws {
        let first = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch.aac"))
        let tag = Self.id3v1(title: "Part One", artist: "A", track: 1, genre: 0)
        let (log, failures) = ChunkingVerifier.verify(first + tag + first)
        #expect(failures.isEmpty, "\(failures)")
        let shift = Int64(first.count + tag.count)
        let wanted = frames.map { $0.pos + 7 } + frames.map { $0.pos + 7 + shift }
        #expect(log.packets.map(\.offset) == wanted)
        #expect(
            log.diagnostics == [
                ParserDiagnostic(
                    .structureSkipped, at: Int64(first.count), "adts: tag(s) between frames skipped (ID3v1)")
            ]
        )
        #expect(Self.metadataEvents(log).isEmpty)
    }

    @Test("ADTS: a timed ID3v2 tag keeps its artwork and chapters (the full ID3v2 reader)")
    func adtsTimedTagWithArtworkAndChapters() throws {
        let base = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch.aac"))
        let tag = Self.leadingTag(try MPEGFixtures.bytes("tags/id3v24-mutagen-chapters.mp3"))
        let at = Int(frames[20].pos)
        let (log, failures) = ChunkingVerifier.verify(Array(base[..<at]) + tag + Array(base[at...]))
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.packetCount == frames.count)
        let events = Self.metadataEvents(log)
        #expect(events.count == 1)
        #expect(events.first?.packetsBefore == 20)
        let metadata = try #require(events.first?.metadata)
        // generate.sh / tools/metadata_tags.py: a CTOC with three CHAP frames, one PNG front cover.
        #expect(metadata.chapters.map(\.title) == ["Intro", "Middle", "End"])
        #expect(metadata.artwork.map(\.mimeType) == ["image/png"])
        #expect(metadata.artwork.first?.pictureType == 3)
    }

    @Test("ADTS: a timed ID3v2 tag replaces the leading tag's metadata from its packet on")
    func adtsTimedTagReplacesLeadingMetadata() throws {
        let path = "adts/aac-44100-2ch-id3v2.aac"
        let bytes = try ADTSFixtures.bytes(path)
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle(path))
        let between = try ADTSFixtures.bytes("adts/aac-44100-2ch-id3-between.aac")
        let baseFrames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch.aac"))
        let timedAt = Int(baseFrames[20].pos)
        let timed = Self.leadingTag(Array(between[timedAt...]))
        let at = Int(frames[10].pos)
        let (log, failures) = ChunkingVerifier.verify(Array(bytes[..<at]) + timed + Array(bytes[at...]))
        #expect(failures.isEmpty, "\(failures)")
        let events = Self.metadataEvents(log)
        // The header's metadata: ffmpeg -metadata title='ADTS Title' artist='ADTS Artist'; then the timed tag's.
        #expect(events.map(\.packetsBefore) == [0, 10])
        #expect(events.first?.metadata.info == [InfoKey.title: "ADTS Title", InfoKey.artist: "ADTS Artist"])
        #expect(events.last?.metadata.info == [InfoKey.title: "Timed Title", InfoKey.artist: "Timed Artist"])
    }

    // MARK: MPEG audio

    @Test("MP3: the next file's ID3v2 tag between frames is announced at its packet; the ID3v1 before it is reported")
    func mp3ConcatenatedTaggedFiles() throws {
        // id3lib: ID3v2.3 + LAME frames + ID3v1.1; eyeD3: ID3v2.4 (UTF-16BE text, PNG cover) + LAME frames.
        let a = try MPEGFixtures.bytes("tags/id3v23-id3lib-id3v1.mp3")
        let b = try MPEGFixtures.bytes("tags/id3v24-eyed3-utf16be-apic.mp3")
        let packetsA = try #require(try MPEGFixtures.oracle("tags/id3v23-id3lib-id3v1.mp3")["packets"] as? [[Int]])
        let packetsB = try #require(
            try MPEGFixtures.oracle("tags/id3v24-eyed3-utf16be-apic.mp3")["packets"] as? [[Int]])
        let (log, failures) = ChunkingVerifier.verify(a + b)
        #expect(failures.isEmpty, "\(failures)")
        // B's Info frame is an ordinary frame in the middle of the stream: one packet more.
        let infoB = MPEGFixtures.id3v2Length(b)
        let wanted =
            packetsA.map { Int64($0[0]) } + [Int64(a.count + infoB)] + packetsB.map { Int64(a.count + $0[0]) }
        #expect(log.packets.map(\.offset) == wanted)
        // The first file's Info tag declares its own frame count, not the whole stream's.
        #expect(
            log.diagnostics.map(\.message) == [
                "mpeg: tag(s) between frames skipped (ID3v1)",
                "mpeg: the Xing/VBRI header declares \(packetsA.count) frames; the stream has \(wanted.count)",
            ])
        #expect(log.diagnostics.map(\.kind) == [.structureSkipped, .inconsistentValues])
        #expect(log.diagnostics.first?.byteOffset == Int64(a.count - 128))
        let events = Self.metadataEvents(log)
        #expect(events.map(\.packetsBefore) == [0, Int64(packetsA.count)])
        #expect(events.first?.metadata.info[InfoKey.title] == "Id3lib Title")
        let second = try #require(events.last?.metadata)
        #expect(second.info[InfoKey.title] == "Eye Tïtle")
        #expect(second.info[InfoKey.artist] == "Eye Ärtist")
        // Replaced, not merged: nothing of the first file's tags remains.
        #expect(second.info[InfoKey.composer] == nil)
        #expect(second.artwork.map(\.mimeType) == ["image/png"])
        #expect(second.tags.allSatisfy { $0.source == "id3v2" })
    }

    @Test("MP3: an ID3v2 tag after junk between frames is found in the junk, read and announced at its packet")
    func mp3TagAfterJunkBetweenFrames() throws {
        let a = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-notag.mp3")
        let packetsA = try #require(try MPEGFixtures.oracle("mpeg/mp3-44100-2ch-lame-notag.mp3")["packets"] as? [[Int]])
        let b = try MPEGFixtures.bytes("tags/id3v24-eyed3-utf16be-apic.mp3")
        let junk = [UInt8](repeating: 0, count: 20) + Array("Intermission: not a tag. ".utf8) + [0xFF, 0xFB, 0x00]
        let (log, failures) = ChunkingVerifier.verify(a + junk + b)
        #expect(failures.isEmpty, "\(failures)")
        #expect(
            log.diagnostics
                == [
                    ParserDiagnostic(
                        .junkSkipped, at: Int64(a.count), "mpeg: \(junk.count) bytes of junk skipped between frames")
                ])
        let events = Self.metadataEvents(log)
        #expect(events.map(\.packetsBefore) == [Int64(packetsA.count)])
        #expect(events.first?.metadata.info[InfoKey.title] == "Eye Tïtle")
        #expect(events.first?.metadata.artwork.count == 1)
        // B's Info frame follows the tag: the first packet after the tag.
        let first = log.packets.dropFirst(packetsA.count).first?.offset
        #expect(first == Int64(a.count + junk.count + MPEGFixtures.id3v2Length(b)))
    }

    @Test("MP3 and ADTS: a between-frame ID3v2 tag larger than maxTagBytes is streamed; its picture is kept")
    func largeTagBetweenFramesIsStreamed() throws {
        // eyeD3's tag: small text frames and a 100-byte PNG in an APIC frame. With maxTagBytes 64 the tag
        // as a whole is over the limit, but every frame is within its own bound (text 64, pictures
        // maxArtworkBytes): read frame by frame, nothing is lost.
        var options = ParserOptions()
        options.limits.maxTagBytes = 64
        let eyed3 = try MPEGFixtures.bytes("tags/id3v24-eyed3-utf16be-apic.mp3")
        let tag = Self.leadingTag(eyed3)
        #expect(tag.count > 64)
        let mp3 = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-notag.mp3")
        let adts = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let adtsFrames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch.aac"))
        let adtsAt = Int(adtsFrames[5].pos)
        for bytes in [mp3 + eyed3, Array(adts[..<adtsAt]) + tag + Array(adts[adtsAt...])] {
            let (log, failures) = ChunkingVerifier.verify(bytes, options: options)
            #expect(failures.isEmpty, "\(failures)")
            let events = Self.metadataEvents(log)
            #expect(events.count == 1)
            #expect(events.first?.metadata.info[InfoKey.title] == "Eye Tïtle")
            #expect(events.first?.metadata.artwork.map(\.data.count) == [100])
        }
    }

    @Test("MP3: trailing ID3v1 after a stream whose ID3v2 tag came between frames is merged after that tag")
    func mp3TrailingTagFollowsTimedTag() throws {
        let a = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-notag.mp3")
        let b = try MPEGFixtures.bytes("tags/id3v23-id3lib-id3v1.mp3")
        let (log, failures) = ChunkingVerifier.verify(a + b)
        #expect(failures.isEmpty, "\(failures)")
        guard case .metadata(let metadata)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        // generate.sh: id3v2 -t "Id3lib Title" … -T 3/12 writes both tags; ID3v2 first, so its values win.
        #expect(metadata.info[InfoKey.title] == "Id3lib Title")
        #expect(metadata.info[InfoKey.composer] == "Id3lib Composer")
        #expect(Set(metadata.tags.map(\.source)) == ["id3v2", "id3v1"])
    }

    // MARK: LAME gapless values larger than the stream

    /// CRC-16 as the LAME tag uses it (polynomial 0x8005 reflected, 0xA001; initial value 0).
    static func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    /// The LAME CBR fixture cut to its Info frame and two audio frames, with the Info tag declaring
    /// 2 frames and the LAME extension's delay and padding replaced (tag CRC recomputed): offsets
    /// from the "Mp3 Info Tag rev 1" layout (MPEG-1 stereo: "Info" at 36, frames at 44; the LAME
    /// extension after flags-selected fields; delay|padding at +21, tag CRC at +34).
    static func lameStream(delay: Int, padding: Int) throws -> [UInt8] {
        let source = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-cbr128.mp3")
        let packets = try #require(try MPEGFixtures.oracle("mpeg/mp3-44100-2ch-lame-cbr128.mp3")["packets"] as? [[Int]])
        var b = Array(source[..<(packets[1][0] + packets[1][1])])
        #expect(String(decoding: b[36..<40], as: UTF8.self) == "Info")
        let flags = Int(b[43])
        b[44..<48] = [0, 0, 0, 2]
        var lame = 44 + (flags & 1 != 0 ? 4 : 0) + (flags & 2 != 0 ? 4 : 0) + (flags & 4 != 0 ? 100 : 0)
        lame += flags & 8 != 0 ? 4 : 0
        #expect(String(decoding: b[lame..<(lame + 4)], as: UTF8.self) == "LAME")
        let packed = delay << 12 | padding
        b[(lame + 21)..<(lame + 24)] = [UInt8(packed >> 16), UInt8(packed >> 8 & 0xFF), UInt8(packed & 0xFF)]
        let crc = crc16(b[0..<(lame + 34)])
        b[(lame + 34)..<(lame + 36)] = [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        return b
    }

    @Test("LAME delay + padding larger than the stream: packetTableInfo clamped to the stream, one diagnostic")
    func lameGaplessClamped() throws {
        let (log, failures) = ChunkingVerifier.verify(try Self.lameStream(delay: 1500, padding: 1000))
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.packetCount == 2)
        // 2 × 1152 = 2304 frames; priming 1500 + 529 = 2029; remainder 1000 − 529 = 471, only 275 left.
        #expect(
            log.lastValues[.packetTableInfo]
                == .packetTableInfo(PacketTableInfo(numberValidFrames: 0, primingFrames: 2029, remainderFrames: 275)))
        let clamped = log.diagnostics.filter { $0.kind == .sizeCorrected }
        #expect(clamped.count == 1)
        #expect(clamped.first?.byteOffset == 0)
        #expect(!log.diagnostics.contains { $0.kind == .checksumMismatch })
    }

    @Test("LAME delay + padding within the stream: the values as the LAME spec gives them")
    func lameGaplessFits() throws {
        let log = ParseRunner.run(try Self.lameStream(delay: 576, padding: 1000), chunking: .whole)
        // 2304 frames; priming 576 + 529 = 1105; remainder 1000 − 529 = 471; valid 2304 − 1576 = 728.
        #expect(
            log.lastValues[.packetTableInfo]
                == .packetTableInfo(PacketTableInfo(numberValidFrames: 728, primingFrames: 1105, remainderFrames: 471)))
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
    }
}
