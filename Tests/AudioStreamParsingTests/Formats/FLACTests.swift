import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// Native FLAC (RFC 9639): CRCs against catalogued check values, the RFC's own example file decoded by
/// hand, frame headers built by hand for every rarely used field, and the fixtures against their
/// ffprobe oracles and `metaflac --list` (SEEKTABLE, CUESHEET).
@Suite("FLAC")
struct FLACTests {
    // MARK: CRCs

    /// Check values from the CRC catalogue ("123456789"): CRC-8/SMBUS (poly 0x07, init 0, no reflection,
    /// no xorout) = 0xF4; CRC-16/UMTS (poly 0x8005, init 0, no reflection, no xorout) = 0xFEE8 — the
    /// parameters RFC 9639 §9.1.8 and §9.3 give.
    @Test func crcCheckValues() {
        let check = Array("123456789".utf8)
        #expect(FLACCRC.crc8(check) == 0xF4)
        #expect(FLACCRC.crc16(check) == 0xFEE8)
        // Incremental CRC-16 equals the one-shot value.
        var c: UInt16 = 0
        for b in check { c = FLACCRC.crc16(c, b) }
        #expect(c == 0xFEE8)
    }

    /// RFC 9639 Appendix D.1 ("Decoding example 1"): a 57-byte file, one stereo sample at 44.1 kHz.
    /// `flac -t` decodes it and checks its MD5; ffprobe: one packet at 42, 15 bytes.
    static let rfcExample1: [UInt8] = hex(
        "664c614380000022100010000000 0f00000f0ac442f0000000013e84b41807dc690307586a3dad1a2e0f"
            + "fff869180000bf0358fd03128baa9a")

    @Test func rfcExampleFrameCRCs() {
        let frame = Array(Self.rfcExample1[42...])
        #expect(FLACCRC.crc8(frame[0..<6]) == 0xBF, "header CRC-8 is the 7th byte")
        #expect(FLACCRC.crc16(frame[0..<13]) == 0xAA9A, "footer")
        #expect(FLACCRC.crc16(frame) == 0, "CRC over the frame and its footer")
    }

    /// STREAMINFO of example 1, field by field (RFC 9639 D.1 walks through the same bits).
    @Test func rfcExampleStreamInfo() throws {
        let info = try FLACStreamInfo.decode(Self.rfcExample1[8..<42])
        #expect(info.minimumBlockSize == 4096 && info.maximumBlockSize == 4096)
        #expect(info.minimumFrameSize == 15 && info.maximumFrameSize == 15)
        #expect(info.sampleRate == 44100 && info.channels == 2 && info.bitsPerSample == 16)
        #expect(info.totalSamples == 1)
        #expect(info.md5 == hex("3e84b41807dc690307586a3dad1a2e0f"))
        // ASBD: 'flac', 16-bit source → kAppleLosslessFormatFlag_16BitSourceData (1), fixed block size.
        let asbd = info.streamDescription
        #expect(asbd.formatID == .flac && asbd.formatFlags == 1 && asbd.framesPerPacket == 4096)
        #expect(asbd.bytesPerPacket == 0 && asbd.bytesPerFrame == 0 && asbd.bitsPerChannel == 0)
        // Cookie: dfLa FullBox body = version/flags 0, block header (last, type 0, length 34), STREAMINFO.
        #expect(info.magicCookie == [0, 0, 0, 0, 0x80, 0, 0, 0x22] + Array(Self.rfcExample1[8..<42]))
    }

    @Test func rfcExampleParsesToOnePacket() throws {
        let (log, failures) = ChunkingVerifier.verify(Self.rfcExample1)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil)
        #expect(log.packets.map { [$0.offset, Int64($0.size), Int64($0.frames)] } == [[42, 15, 1]])
        let v = log.lastValues
        #expect(v[.fileFormat] == .fileFormat(.flac))
        #expect(v[.dataOffset] == .dataOffset(42))
        #expect(v[.audioDataPacketCount] == .audioDataPacketCount(1))
        #expect(v[.audioDataByteCount] == .audioDataByteCount(15))
        // 1 valid sample of a 4096-sample packet: remainder 4095.
        #expect(
            v[.packetTableInfo]
                == .packetTableInfo(PacketTableInfo(numberValidFrames: 1, primingFrames: 0, remainderFrames: 4095)))
        #expect(v[.channelLayout] == .channelLayout(ChannelLayout(tag: ChannelLayout.Tag.stereo)))
    }

    @Test func streamInfoRejectsImpossibleValues() {
        var b = Array(Self.rfcExample1[8..<42])
        let streamInfo = FLACStreamInfo.structure
        #expect(throws: streamInfo.invalid("block shorter than 34 bytes")) { try FLACStreamInfo.decode(b[0..<20]) }
        b[0] = 0
        b[1] = 8  // minimum block size 8
        #expect(throws: streamInfo.invalid("block size below 16 samples")) { try FLACStreamInfo.decode(b) }
        b = Array(Self.rfcExample1[8..<42])
        b[2] = 0x08  // maximum 2048 < minimum 4096
        #expect(throws: streamInfo.invalid("minimum block size exceeds maximum")) { try FLACStreamInfo.decode(b) }
        b = Array(Self.rfcExample1[8..<42])
        b[10] = 0; b[11] = 0; b[12] &= 0x0F  // sample rate 0
        #expect(throws: streamInfo.invalid("sample rate is zero")) { try FLACStreamInfo.decode(b) }
    }

    // MARK: Frame headers

    /// A STREAMINFO for header tests: block sizes 16...65535, 1 channel, 16 bits, `rate` Hz.
    static func streamInfo(rate: UInt32, channels: UInt32 = 1, bits: UInt32 = 16) throws -> FLACStreamInfo {
        var b: [UInt8] = [0, 16, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0]
        let packed = UInt64(rate) << 44 | UInt64(channels - 1) << 41 | UInt64(bits - 1) << 36
        for i in (0..<8).reversed() { b.append(UInt8(truncatingIfNeeded: packed >> (8 * UInt64(i)))) }
        b += [UInt8](repeating: 0, count: 16)
        return try FLACStreamInfo.decode(b)
    }

    /// Decodes `bytes` (the header without its CRC-8, which is appended) as a window.
    static func decodeHeader(
        _ bytes: [UInt8], _ info: FLACStreamInfo, variable: Bool? = nil, crc: UInt8? = nil
    ) -> FLACFrameHeader.Decoded {
        let full = bytes + [crc ?? FLACCRC.crc8(bytes)]
        var window = InputWindow()
        return full.withUnsafeBytes { raw in
            window.beginChunk(BorrowedBytes(raw))
            return FLACFrameHeader.decode(window, at: 0, streamInfo: info, variable: variable)
        }
    }

    /// RFC 9639 §9.1.1/§9.1.2: block size code 7 (16-bit uncommon size − 1 after the number) and sample
    /// rate code 13 (16-bit Hz), as in the 11025 Hz fixture: 0x03E7 + 1 = 1000, 0x2B11 = 11025.
    @Test func uncommonSixteenBitBlockSizeAndRateInHertz() throws {
        let info = try Self.streamInfo(rate: 11025)
        let h = Self.decodeHeader([0xFF, 0xF8, 0x7D, 0x08, 0x05, 0x03, 0xE7, 0x2B, 0x11], info)
        #expect(
            h
                == .valid(
                    FLACFrameHeader(
                        isVariable: false, blockSize: 1000, sampleRate: 11025, channels: 1, bitsPerSample: 16,
                        number: 5,
                        length: 10)))
    }

    /// Code 6 (8-bit size − 1: 199 → 200) and rate code 12 (kHz: 12 → 12000); code 14 (tens of Hz:
    /// 0x0EC4 = 3780 → 37800).
    @Test func uncommonEightBitBlockSizeAndRateInKiloAndDecaHertz() throws {
        let khz = Self.decodeHeader([0xFF, 0xF8, 0x6C, 0x08, 0x00, 0xC7, 0x0C], try Self.streamInfo(rate: 12000))
        guard case .valid(let a) = khz else { Issue.record("\(khz)"); return }
        #expect(a.blockSize == 200 && a.sampleRate == 12000 && a.length == 8)
        let dahz = Self.decodeHeader([0xFF, 0xF8, 0xCE, 0x08, 0x00, 0x0E, 0xC4], try Self.streamInfo(rate: 37800))
        guard case .valid(let b) = dahz else { Issue.record("\(dahz)"); return }
        #expect(b.blockSize == 4096 && b.sampleRate == 37800 && b.length == 8)
    }

    /// A variable-blocksize header with a 7-byte coded sample number (36 bits, §9.1.5): 0xFE then six
    /// continuation bytes of 6 bits: 2^35 + 5 = 0b100000…0101.
    @Test func sevenByteSampleNumber() throws {
        let info = try Self.streamInfo(rate: 44100)
        let number: UInt64 = 1 << 35 + 5
        var coded: [UInt8] = [0xFE]
        for i in (0..<6).reversed() { coded.append(0x80 | UInt8(truncatingIfNeeded: number >> (6 * UInt64(i))) & 0x3F) }
        let h = Self.decodeHeader([0xFF, 0xF9, 0xC9, 0x08] + coded, info)
        guard case .valid(let header) = h else { Issue.record("\(h)"); return }
        #expect(header.isVariable && header.number == number && header.length == 12, "4 + 7 + CRC-8")
        #expect(header.nextNumber == number + 4096)
        // The same number in a fixed-blocksize header is invalid (frame numbers have at most 31 bits).
        #expect(Self.decodeHeader([0xFF, 0xF8, 0xC9, 0x08] + coded, info) != .valid(header))
    }

    /// Reserved and forbidden values, a wrong CRC-8 and disagreements with STREAMINFO are not headers.
    @Test func invalidHeaders() throws {
        let info = try Self.streamInfo(rate: 44100)
        let good: [UInt8] = [0xFF, 0xF8, 0xC9, 0x08, 0x00]
        guard case .valid = Self.decodeHeader(good, info) else { Issue.record("good header rejected"); return }
        func rejects(_ bytes: [UInt8], crc: UInt8? = nil, variable: Bool? = nil, _ why: String) {
            if case .valid = Self.decodeHeader(bytes, info, variable: variable, crc: crc) {
                Issue.record("accepted: \(why)")
            }
        }
        rejects([0xFF, 0xFA, 0xC9, 0x08, 0x00], "reserved bit after the sync code")
        rejects([0xFF, 0xF8, 0x09, 0x08, 0x00], "block size code 0")
        rejects([0xFF, 0xF8, 0xCF, 0x08, 0x00], "sample rate code 15")
        rejects([0xFF, 0xF8, 0xC9, 0xB8, 0x00], "channel assignment 11")
        rejects([0xFF, 0xF8, 0xC9, 0x06, 0x00], "sample size code 3")
        rejects([0xFF, 0xF8, 0xC9, 0x09, 0x00], "reserved bit after the sample size")
        rejects(good, crc: FLACCRC.crc8(good) ^ 1, "CRC-8 off by one bit")
        rejects(good, variable: true, "blocking strategy differs from the stream's")
        rejects([0xFF, 0xF8, 0xCA, 0x08, 0x00], "48000 Hz in a 44100 Hz stream")
        rejects([0xFF, 0xF8, 0xC9, 0x18, 0x00], "2 channels in a mono stream")
        rejects([0xFF, 0xF8, 0xC9, 0x0C, 0x00], "24 bits in a 16-bit stream")
        rejects([0xFF, 0xF8, 0xC9, 0x08, 0x80], "continuation byte as the number's first byte")
    }

    // MARK: Fixtures

    static let fixtures = FixtureCatalog.all.filter { $0.folder == "flac" }

    @Test(arguments: fixtures)
    func everyChunkingGivesTheSameEvents(_ fixture: Fixture) throws {
        let (log, failures) = ChunkingVerifier.verify(try fixture.bytes())
        #expect(log.error == nil, "\(fixture): \(String(describing: log.error))")
        #expect(failures.isEmpty, "\(fixture): \(failures)")
        #expect(log.diagnostics.isEmpty, "\(fixture): \(log.diagnostics)")
    }

    /// Every packet's frame count equals the oracle's duration (ffprobe: one FLAC frame per packet);
    /// `mVariableFramesInPacket` is 0 exactly where the frame has the ASBD's frames per packet.
    @Test(arguments: fixtures)
    func frameCountsMatchTheOracle(_ fixture: Fixture) throws {
        let oracle = try fixture.oracle()
        let log = ParseRunner.run(try fixture.bytes(), chunking: .whole)
        guard case .dataFormat(let asbd)? = log.lastValues[.dataFormat] else {
            Issue.record("\(fixture): no dataFormat")
            return
        }
        let got = log.packets.map { $0.frames == 0 ? Int64(asbd.framesPerPacket) : Int64($0.frames) }
        if case .stream(let hand)? = HandDerived.entries[fixture.path]?.kind {
            // ffprobe has no packets (32-bit): the hand-derived total (flac --analyze).
            #expect(got.reduce(0, +) == hand.frameCount, "\(fixture)")
        } else {
            #expect(got == oracle.packets.map { $0.duration ?? -1 }, "\(fixture)")
        }
        for p in log.packets where p.frames != 0 {
            #expect(p.frames != asbd.framesPerPacket, "\(fixture): variableFrames set on a full packet")
        }
    }

    // MARK: End-of-frame search: the header chain (default) and the CRC-16

    static let verifyingCRC: ParserOptions = {
        var options = ParserOptions()
        options.verifiesFLACFrameCRC = true
        return options
    }()

    /// The header-chain search (default) and the CRC-16 search (`verifiesFLACFrameCRC`) both give the
    /// oracle's packets and the same events, in every chunking.
    @Test(arguments: fixtures)
    func bothFrameSearchesGiveTheOraclePackets(_ fixture: Fixture) throws {
        let bytes = try fixture.bytes()
        let chained = ParseRunner.run(bytes, chunking: .whole)
        let (checked, failures) = ChunkingVerifier.verify(bytes, options: Self.verifyingCRC)
        #expect(failures.isEmpty, "\(fixture): \(failures)")
        #expect(checked == chained, "\(fixture): \(checked.differences(from: chained))")
        // Positions, and sizes but the last one's (ffprobe counts an ID3v1 tag that ends the stream into
        // the last packet; `frameCountsMatchTheOracle` and the oracle suites cover the last packet).
        let oracle = try fixture.oracle().packets.compactMap { p in p.pos.map { [$0, p.size] } }
        if !oracle.isEmpty {
            let got = chained.packets.map { [$0.offset, Int64($0.size)] }
            #expect(got.map { $0[0] } == oracle.map { $0[0] }, "\(fixture)")
            #expect(got.dropLast().map { $0[1] } == oracle.dropLast().map { $0[1] }, "\(fixture)")
        }
    }

    /// `bytes` with STREAMINFO's minimum (`min`) and maximum (`max`) frame sizes (24 bits each, at
    /// bytes 12 and 15 of a file that starts with `fLaC` and STREAMINFO: RFC 9639 §8.2) replaced.
    static func withFrameSizes(_ bytes: [UInt8], min: Int? = nil, max: Int? = nil) -> [UInt8] {
        var b = bytes
        for (at, value) in [(12, min), (15, max)] {
            guard let value else { continue }
            b[at] = UInt8(value >> 16 & 0xFF)
            b[at + 1] = UInt8(value >> 8 & 0xFF)
            b[at + 2] = UInt8(value & 0xFF)
        }
        return b
    }

    /// STREAMINFO's frame sizes are hints the header chain relies on: a minimum frame size too large
    /// (the next header is skipped, a later number comes first), unknown minimum and maximum (0), or a
    /// maximum too small (no header within it) still give the oracle's packets without diagnostics —
    /// the CRC-16 takes over for the frames the chain cannot place — in every chunking.
    @Test func wrongStreamInfoFrameSizesStillGiveTheOraclePackets() throws {
        let fixture = FixtureCatalog.fixture("flac/flac-48000-6ch-s16-b1152.flac")
        let bytes = try fixture.bytes()
        #expect(Array(bytes[0..<4]) == Array("fLaC".utf8) && bytes[4] & 0x7F == 0, "STREAMINFO first")
        let expected = try fixture.oracle().packets.compactMap { p in p.pos.map { [$0, p.size] } }
        let sizes = expected.map { Int($0[1]) }
        let largest = try #require(sizes.max())
        let smallest = try #require(sizes.min())
        let variants: [(String, [UInt8])] = [
            ("minimum = largest frame", Self.withFrameSizes(bytes, min: largest)),
            ("minimum and maximum unknown", Self.withFrameSizes(bytes, min: 0, max: 0)),
            ("maximum = smallest frame", Self.withFrameSizes(bytes, min: 0, max: smallest)),
        ]
        for (name, input) in variants {
            let (log, failures) = ChunkingVerifier.verify(input)
            #expect(failures.isEmpty, "\(name): \(failures)")
            #expect(log.error == nil && log.diagnostics.isEmpty, "\(name): \(log.diagnostics)")
            #expect(log.packets.map { [$0.offset, Int64($0.size)] } == expected, "\(name)")
        }
    }

    /// A frame cut out of the middle breaks the chain (frame numbers 2 then 4): the CRC-16 finds frame 2's
    /// end, the frames around the gap are the oracle's, and the jump is diagnosed, in every chunking.
    @Test func missingFrameBreaksTheChain() throws {
        let fixture = FixtureCatalog.fixture("flac/flac-48000-6ch-s16-b1152.flac")
        let bytes = try fixture.bytes()
        let spans = try fixture.oracle().packets.compactMap { p in p.pos.map { (Int($0), Int(p.size)) } }
        try #require(spans.count > 5)
        let gap = spans[3]
        let input = Array(bytes[0..<gap.0]) + Array(bytes[(gap.0 + gap.1)...])
        let (log, failures) = ChunkingVerifier.verify(input)
        #expect(failures.isEmpty, "\(failures)")
        let expected: [[Int64]] = spans.enumerated().filter { $0.offset != 3 }.map { i, s in
            [Int64(i < 3 ? s.0 : s.0 - gap.1), Int64(s.1)]
        }
        #expect(log.packets.map { [$0.offset, Int64($0.size)] } == expected)
        #expect(
            log.diagnostics.contains {
                $0.kind == .discontinuity && $0.message.contains("frame numbers jump from 2 to 4")
            },
            "\(log.diagnostics)")
    }

    /// `malformed/flac-footer-crc16-bad.flac` (frame 2's footer CRC-16 damaged, frames intact otherwise):
    /// with `verifiesFLACFrameCRC` frame 2 is dropped (malformed/expected.json: 4 packets); by default
    /// the header chain delimits it like the others, so it is a packet (as FFmpeg's demuxer has it),
    /// exactly the bytes between frame 1 and frame 3.
    @Test func damagedFooterIsAPacketUnlessTheCRCIsVerified() throws {
        let path = (FixtureCatalog.malformedRoot as NSString).appendingPathComponent("flac-footer-crc16-bad.flac")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let checked = ParseRunner.run(bytes, chunking: .whole, options: Self.verifyingCRC)
        let (chained, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        try #require(checked.packets.count == 4)
        let frame2Start = checked.packets[1].offset + Int64(checked.packets[1].size)
        let frame2 = [frame2Start, checked.packets[2].offset - frame2Start]
        let expected = checked.packets.map { [$0.offset, Int64($0.size)] }
        #expect(chained.packets.map { [$0.offset, Int64($0.size)] } == expected[0..<2] + [frame2] + expected[2...])
        #expect(chained.diagnostics.isEmpty, "\(chained.diagnostics)")
        #expect(checked.diagnostics.contains { $0.kind == .checksumMismatch })
    }

    /// The variable-blocksize fixture: ASBD frames per packet 0, every packet carries its frame count
    /// (1152 ×3, 544, 4096, 2904, 576 ×…: the pieces tools/flac_variable.py joined).
    @Test func variableBlockSizes() throws {
        let fixture = FixtureCatalog.fixture("flac/flac-44100-2ch-s16-variable.flac")
        let log = ParseRunner.run(try fixture.bytes(), chunking: .whole)
        guard case .dataFormat(let asbd)? = log.lastValues[.dataFormat] else { Issue.record("no format"); return }
        #expect(asbd.framesPerPacket == 0)
        let frames = log.packets.map(\.frames)
        #expect(Array(frames.prefix(7)) == [1152, 1152, 1152, 544, 4096, 2904, 576])
        #expect(frames.reduce(0, +) == 26460, "0.6 s at 44.1 kHz")
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(UInt64(frames.count)))
    }

    /// CUESHEET → chapters (values from `metaflac --list`: track offsets 0, 17640, 44100 with index
    /// points 1 at +0, +5880, +0; lead-out 52920; 44100 Hz): a track starts at its index point 1.
    @Test func cueSheetChapters() throws {
        let fixture = FixtureCatalog.fixture("flac/flac-44100-2ch-s16-cuesheet.flac")
        let log = ParseRunner.run(try fixture.bytes(), chunking: .whole)
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else { Issue.record("no metadata"); return }
        #expect(
            m.chapters == [
                AudioMetadata.Chapter(title: "Track 01", startSeconds: 0, endSeconds: 23520.0 / 44100),
                AudioMetadata.Chapter(title: "Track 02", startSeconds: 23520.0 / 44100, endSeconds: 1),
                AudioMetadata.Chapter(title: "Track 03", startSeconds: 1, endSeconds: 1.2),
            ])
    }

    /// VORBIS_COMMENT and PICTURE (the values generate.sh passes to `flac -T` and `--picture`).
    @Test func commentsAndPicture() throws {
        let log = ParseRunner.run(
            try FixtureCatalog.fixture("flac/flac-44100-2ch-s16-tags-picture.flac").bytes(), chunking: .bytewise)
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else { Issue.record("no metadata"); return }
        #expect(m.info[InfoKey.title] == "Flac Tïtle")
        #expect(m.info[InfoKey.artist] == "Flac Artist")
        #expect(m.info[InfoKey.album] == "Flac Album")
        #expect(m.tags.contains { $0.key.uppercased() == "TRACKNUMBER" && $0.value == "4" })
        #expect(m.artwork.count == 1)
        #expect(m.artwork.first?.mimeType == "image/png" && m.artwork.first?.pictureType == 3)
        #expect(m.artwork.first?.data.count == 100)
    }

    /// SEEKTABLE (metaflac: points (0, 0) and (5000, 2965), one placeholder) in a fixed-blocksize
    /// stream of 1000-sample frames: packet 5 starts at sample 5000, so the seek lands on the point's
    /// offset (oracle: packet 5 at 3109 = data offset 144 + 2965), before any frame was parsed.
    @Test func seekThroughTheSeekTable() throws {
        let bytes = try FixtureCatalog.fixture("flac/flac-11025-1ch-s16-b1000-seektable.flac").bytes()
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: bytes)
        try parser.parse(bytes[0..<144])
        #expect(parser.isReadyToProducePackets && parser.dataOffset == 144)
        let target = try parser.seek(toPacket: 5)
        #expect(target.byteOffset == 2965 && target.absoluteOffset == 3109)
        try parser.parse(bytes[3109...])
        try parser.finish()
        #expect(recorder.log.indexedPackets == [LoggedPacket(index: 5, offset: 3109, size: 262, variableFrames: 513)])
        #expect(recorder.log.bytesMismatches.isEmpty)
    }

    /// An estimated seek (no seek point, no frames parsed yet) lands somewhere in the data; the first frame
    /// found there carries its frame number, which is its packet index (fixed block size), so the packets
    /// delivered have the oracle's positions and their true indices.
    @Test func estimatedSeekTakesTheIndexFromTheFrameNumber() throws {
        let fixture = FixtureCatalog.fixture("flac/flac-48000-6ch-s16-b1152.flac")
        let bytes = try fixture.bytes()
        let positions = try fixture.oracle().packets.compactMap(\.pos)
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: bytes)
        try parser.parse(bytes[0..<Int(positions[0])])
        let target = try parser.seek(toPacket: 5)
        #expect(target.isEstimated)
        try parser.parse(bytes[Int(target.absoluteOffset)...])
        try parser.finish()
        let got = recorder.log.indexedPackets
        let first = try #require(got.first)
        let index = try #require(positions.firstIndex(of: first.offset), "packet at a frame start")
        #expect(first.index == Int64(index))
        #expect(got.map(\.offset) == Array(positions[index...]))
        #expect(got.map(\.index) == Array(Int64(index)..<Int64(positions.count)))
    }

    /// An estimated seek to packet n aims at its first frame (n × block size): the frames found before it
    /// (an early landing) are skipped, so packet n is delivered first, with its index; a late landing
    /// delivers the first frame found, relabelled. Positions from the oracle.
    @Test func estimatedSeekSkipsTheFramesBeforeTheTarget() throws {
        let fixture = FixtureCatalog.fixture("flac/flac-48000-6ch-s16-b1152.flac")
        let bytes = try fixture.bytes()
        let positions = try fixture.oracle().packets.compactMap(\.pos)
        var early = 0
        for n in stride(from: 3, to: positions.count - 1, by: 2) {
            let parser = AudioStreamParser()
            let recorder = EventRecorder(parser, input: bytes)
            try parser.parse(bytes[0..<Int(positions[0])])
            let target = try parser.seek(toPacket: Int64(n))
            #expect(target.isEstimated)
            try parser.parse(bytes[Int(target.absoluteOffset)...], flags: .discontinuity)
            try parser.finish()
            let got = recorder.log.indexedPackets
            guard let j = positions.firstIndex(where: { $0 >= target.absoluteOffset }) else { continue }
            let expected = max(j, n)
            if j < n { early += 1 }
            #expect(got.map(\.offset) == Array(positions[expected...]), "seek to \(n): landing frame \(j)")
            #expect(got.map(\.index) == Array(Int64(expected)..<Int64(positions.count)), "seek to \(n)")
        }
        #expect(early > 0, "no early landing")
    }

    /// After a discontinuity in the middle of a frame, the parser finds the next frame header and goes
    /// on with the oracle's frames; the cut frame is not a packet.
    @Test func discontinuityResynchronises() throws {
        let fixture = FixtureCatalog.fixture("flac/flac-48000-6ch-s16-b1152.flac")
        let bytes = try fixture.bytes()
        let spans = try fixture.oracle().packets.compactMap { p in p.pos.map { ($0, p.size) } }
        let cut = Int(spans[2].0) + 100
        let resume = Int(spans[4].0) - 50
        // Offsets continue counting across a discontinuity: the bytes after it are numbered from `cut`.
        let fed = Array(bytes[0..<cut]) + Array(bytes[resume...])
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: fed)
        try parser.parse(fed[0..<cut])
        try parser.parse(fed[cut...], flags: .discontinuity)
        try parser.finish()
        let shift = Int64(cut - resume)
        let offsets = recorder.log.packets.map(\.offset)
        #expect(offsets == [spans[0].0, spans[1].0] + spans[4...].map { $0.0 + shift })
        #expect(recorder.log.bytesMismatches.isEmpty)
    }

    /// A leading ID3v2 tag: the file type is still `flac`, the tag's text is the metadata, and the data
    /// offset is the oracle's first packet.
    @Test func id3v2BeforeTheMarker() throws {
        let fixture = FixtureCatalog.fixture("flac/flac-44100-2ch-s16-id3v2.flac")
        let log = ParseRunner.run(try fixture.bytes(), chunking: .bytewise)
        #expect(log.lastValues[.fileFormat] == .fileFormat(.flac))
        #expect(log.lastValues[.dataOffset] == .dataOffset(try fixture.oracle().summary?.firstPos ?? -1))
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else { Issue.record("no metadata"); return }
        #expect(m.info[InfoKey.title] == "ID3 Title")
    }

    /// RFC 9639 §9.1.3 channel orders → CoreAudio layouts: tags (CoreAudioTypes.h values: Mono 100, Stereo
    /// 101, MPEG_3_0_A 113, Quadraphonic 108, MPEG_5_0_A 117, MPEG_5_1_A 121, low 16 bits = channels), and
    /// the WAVEFORMATEXTENSIBLE masks for 7 and 8 channels.
    @Test func channelLayouts() {
        let tags: [UInt32?] = (1...6).map { FLACParser.channelLayout(channels: UInt32($0))?.tag.rawValue }
        let expected: [UInt32?] = [0x0064_0001, 0x0065_0002, 0x0071_0003, 0x006C_0004, 0x0075_0005, 0x0079_0006]
        #expect(tags == expected)
        #expect(FLACParser.channelLayout(channels: 7) == ChannelLayout(tag: .init(rawValue: 1 << 16), bitmap: 0x70F))
        #expect(FLACParser.channelLayout(channels: 8) == ChannelLayout(tag: .init(rawValue: 1 << 16), bitmap: 0x63F))
        let six = ParseRunner.run(
            (try? FixtureCatalog.fixture("flac/flac-48000-6ch-s16-b1152.flac").bytes()) ?? [], chunking: .whole)
        #expect(six.lastValues[.channelLayout] == .channelLayout(ChannelLayout(tag: .init(rawValue: 121 << 16 | 6))))
    }

    // MARK: Limits

    /// A PICTURE block larger than `maxArtworkBytes` is skipped unread with a diagnostic; the comments
    /// and the packets are unaffected.
    @Test func pictureOverTheArtworkLimitIsSkipped() throws {
        let bytes = try FixtureCatalog.fixture("flac/flac-44100-2ch-s16-tags-picture.flac").bytes()
        let options = ParserOptions(limits: ParserLimits(maxArtworkBytes: 64))
        let (log, failures) = ChunkingVerifier.verify(bytes, options: options)
        #expect(failures.isEmpty, "\(failures)")
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else { Issue.record("no metadata"); return }
        #expect(m.artwork.isEmpty && m.info[InfoKey.title] == "Flac Tïtle")
        #expect(log.diagnostics.contains { $0.message.contains("PICTURE") })
        #expect(log.packetCount == ParseRunner.run(bytes, chunking: .whole).packetCount)
    }

    /// A SEEKTABLE larger than `maxHeaderChunkBytes` is skipped with a diagnostic (STREAMINFO, 34 bytes,
    /// still fits); a STREAMINFO that does not fit is `lim!`.
    @Test func metadataOverTheHeaderLimit() throws {
        let bytes = try FixtureCatalog.fixture("flac/flac-11025-1ch-s16-b1000-seektable.flac").bytes()
        let tight = ParserOptions(limits: ParserLimits(maxHeaderChunkBytes: 40))
        let skipped = ParseRunner.run(bytes, chunking: .bytewise, options: tight)
        #expect(skipped.error == nil && skipped.packetCount == 6)
        #expect(skipped.diagnostics.contains { $0.kind == .limitExceeded && $0.message.contains("SEEKTABLE") })
        let tighter = ParserOptions(limits: ParserLimits(maxHeaderChunkBytes: 20))
        let failed = ParseRunner.run(bytes, chunking: .whole, options: tighter)
        #expect(failed.error?.code == .limitExceeded)
    }

    /// Frames longer than `maxPacketBytes` (but possible for the stream) are `lim!`, never silently lost.
    @Test func frameOverThePacketLimit() throws {
        let bytes = try FixtureCatalog.fixture("flac/flac-44100-2ch-s16.flac").bytes()
        for chunking in [Chunking.whole, .bytewise] {
            let options = ParserOptions(limits: ParserLimits(maxPacketBytes: 1024))
            let log = ParseRunner.run(bytes, chunking: chunking, options: options)
            #expect(log.error?.code == .limitExceeded, "\(chunking)")
            #expect(log.packetCount == 0)
        }
    }

    /// Bits per sample → flags: 16/20/24/32 → 1/2/3/4 (ALAC's source-depth flags); 8 and 12 → 0.
    @Test func sourceDepthFlags() throws {
        for (bits, flags) in [(8, 0), (12, 0), (16, 1), (20, 2), (24, 3), (32, 4)] as [(UInt32, UInt32)] {
            #expect(try Self.streamInfo(rate: 44100, bits: bits).appleFormatFlags == flags, "\(bits) bits")
        }
    }
}

/// Bytes from hex digits (spaces ignored).
private func hex(_ s: String) -> [UInt8] {
    let digits = Array(s.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
}
