import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// WAVE, RIFX, RF64 and BW64: fixtures against the committed ffprobe oracle, format fields derived by
/// hand from each file's `fmt ` chunk and CoreAudio's ASBD rules (audiofilestream.md §3.1), and
/// hand-built edge cases.
@Suite("WAVE")
struct WAVETests {
    // MARK: Fixtures vs oracle

    /// The format of each fixture, derived by hand from its `fmt ` bytes: LPCM flags Float(0x1) |
    /// BigEndian(0x2, RIFX only) | SignedInteger(0x4, not for unsigned 8-bit WAVE PCM) | Packed(0x8);
    /// G.711 flags 0, 8 bits, one byte per sample; ADPCM: one block per packet, samples per block
    /// from the fmt extension (IMA: (blockAlign − 4·ch)/(4·ch)·8 + 1; MS: (blockAlign − 7·ch)·2/ch + 2).
    struct Expected: Sendable {
        var fileType: AudioFileType = .wave
        var format: AudioFormat
        var flags: UInt32
        var bytesPerPacket: UInt32
        var framesPerPacket: UInt32 = 1
        var bits: UInt32
        /// `ChannelLayout.tag` and bitmap: the extensible channel mask, or mono/stereo.
        var layoutTag: ChannelLayout.Tag
        var bitmap: UInt32 = 0
    }

    static let mono = ChannelLayout.Tag.mono
    static let stereo = ChannelLayout.Tag.stereo
    static let bitmap = ChannelLayout.Tag.useChannelBitmap
    static let s16 = Expected(format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 4, bits: 16, layoutTag: stereo)
    static let s16mono = Expected(format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 2, bits: 16, layoutTag: mono)

    static let expectedFormats: [String: Expected] = [
        "adpcm_ima_wav-22050-1ch.wav": Expected(
            format: .dviIntelIMA, flags: 0, bytesPerPacket: 1024, framesPerPacket: 2041, bits: 0, layoutTag: mono),
        "adpcm_ima_wav-44100-2ch.wav": Expected(
            format: .dviIntelIMA, flags: 0, bytesPerPacket: 1024, framesPerPacket: 1017, bits: 0, layoutTag: stereo),
        "adpcm_ima_wav-8000-1ch-sox.wav": Expected(
            format: .dviIntelIMA, flags: 0, bytesPerPacket: 256, framesPerPacket: 505, bits: 0, layoutTag: mono),
        "adpcm_ms-22050-1ch.wav": Expected(
            format: .microsoftADPCM, flags: 0, bytesPerPacket: 1024, framesPerPacket: 2036, bits: 0, layoutTag: mono),
        "adpcm_ms-44100-2ch.wav": Expected(
            format: .microsoftADPCM, flags: 0, bytesPerPacket: 1024, framesPerPacket: 1012, bits: 0, layoutTag: stereo),
        "adpcm_ms-8000-1ch-sox.wav": Expected(
            format: .microsoftADPCM, flags: 0, bytesPerPacket: 256, framesPerPacket: 500, bits: 0, layoutTag: mono),
        "pcm_alaw-8000-1ch.wav": Expected(format: .aLaw, flags: 0, bytesPerPacket: 1, bits: 8, layoutTag: mono),
        "pcm_mulaw-8000-1ch.wav": Expected(format: .uLaw, flags: 0, bytesPerPacket: 1, bits: 8, layoutTag: mono),
        "pcm_f32le-44100-2ch.wav": Expected(
            format: .linearPCM, flags: 0x1 | 0x8, bytesPerPacket: 8, bits: 32, layoutTag: bitmap, bitmap: 0x3),
        "pcm_f32le-48000-1ch-sox.wav": Expected(
            format: .linearPCM, flags: 0x1 | 0x8, bytesPerPacket: 4, bits: 32, layoutTag: mono),
        "pcm_f64le-44100-1ch.wav": Expected(
            format: .linearPCM, flags: 0x1 | 0x8, bytesPerPacket: 8, bits: 64, layoutTag: bitmap, bitmap: 0x4),
        "pcm_s16be-44100-2ch-rifx.wav": Expected(
            format: .linearPCM, flags: 0x2 | 0x4 | 0x8, bytesPerPacket: 4, bits: 16, layoutTag: stereo),
        "pcm_s16le-22050-1ch-list-after-data.wav": s16mono,
        "pcm_s16le-22050-1ch-oddchunk.wav": s16mono,
        "pcm_s16le-22050-1ch-sndfile-info-after-data.wav": s16mono,
        "pcm_s16le-44100-2ch-bw64.wav": Expected(
            fileType: .bw64, format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 4, bits: 16, layoutTag: stereo),
        "pcm_s16le-44100-2ch-datasize0.wav": s16,
        "pcm_s16le-44100-2ch-empty.wav": s16,
        "pcm_s16le-44100-2ch-id3.wav": s16,
        "pcm_s16le-44100-2ch-info.wav": s16,
        "pcm_s16le-44100-2ch-peak.wav": s16,
        "pcm_s16le-44100-2ch-pipe.wav": s16,
        "pcm_s16le-44100-2ch-rf64-pipe.wav": Expected(
            fileType: .rf64, format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 4, bits: 16, layoutTag: stereo),
        "pcm_s16le-44100-2ch-rf64.wav": Expected(
            fileType: .rf64, format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 4, bits: 16, layoutTag: stereo),
        "pcm_s16le-44100-2ch.wav": s16,
        "pcm_s16le-48000-2ch-bext.wav": s16,
        "pcm_s16le-48000-6ch.wav": Expected(
            format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 12, bits: 16, layoutTag: bitmap, bitmap: 0x3F),
        "pcm_s16le-8000-1ch-rf64-sndfile.wav": Expected(
            fileType: .rf64, format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 2, bits: 16, layoutTag: bitmap,
            bitmap: 0x4),
        "pcm_s16le-8000-1ch-sox-pipe.wav": s16mono,
        "pcm_s16le-8000-1ch.wav": s16mono,
        "pcm_s16le-96000-2ch.wav": Expected(
            format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 4, bits: 16, layoutTag: bitmap, bitmap: 0x3),
        "pcm_s24le-44100-2ch.wav": Expected(
            format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 6, bits: 24, layoutTag: bitmap, bitmap: 0x3),
        "pcm_s24le-48000-2ch-plainfmt.wav": Expected(
            format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 6, bits: 24, layoutTag: stereo),
        "pcm_s32le-48000-2ch.wav": Expected(
            format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 8, bits: 32, layoutTag: bitmap, bitmap: 0x3),
        "pcm_u8-22050-1ch-odd.wav": Expected(
            format: .linearPCM, flags: 0x8, bytesPerPacket: 1, bits: 8, layoutTag: mono),
        "pcm_u8-8000-1ch.wav": Expected(format: .linearPCM, flags: 0x8, bytesPerPacket: 1, bits: 8, layoutTag: mono),
        // Wave64: the same fmt rules inside GUID chunks.
        "pcm_s16le-44100-2ch.w64": Expected(
            fileType: .wave64, format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 4, bits: 16, layoutTag: stereo),
        "pcm_s16le-44100-2ch-sndfile.w64": Expected(
            fileType: .wave64, format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 4, bits: 16, layoutTag: stereo),
        "pcm_s24le-44100-2ch-sox.w64": Expected(
            fileType: .wave64, format: .linearPCM, flags: 0x4 | 0x8, bytesPerPacket: 6, bits: 24, layoutTag: stereo),
        "adpcm_ms-8000-1ch.w64": Expected(
            fileType: .wave64, format: .microsoftADPCM, flags: 0, bytesPerPacket: 1024, framesPerPacket: 2036, bits: 0,
            layoutTag: mono),
        // GSM 6.10: nBlockAlign 65, wSamplesPerBlock 320 (fmt extension).
        "gsm_ms-8000-1ch.wav": Expected(
            format: .microsoftGSM, flags: 0, bytesPerPacket: 65, framesPerPacket: 320, bits: 0, layoutTag: mono),
        // ITU-T ADPCM bitstreams: nBlockAlign × 8 / (wBitsPerSample × channels) frames per packet.
        "g726-8000-1ch-32k.wav": Expected(
            format: .microsoftACM(tag: 0x45), flags: 0, bytesPerPacket: 1, framesPerPacket: 2, bits: 0, layoutTag: mono),
        "g726-8000-1ch-16k.wav": Expected(
            format: .microsoftACM(tag: 0x45), flags: 0, bytesPerPacket: 1, framesPerPacket: 4, bits: 0, layoutTag: mono),
        "g722-16000-1ch.wav": Expected(
            format: .microsoftACM(tag: 0x28F), flags: 0, bytesPerPacket: 1, framesPerPacket: 2, bits: 0, layoutTag: mono
        ),
        // Opaque tags: G.723.1 (0x42) frames from nAvgBytesPerSec (24 × 8000 / 800 = 240); Yamaha ADPCM (0x20)
        // from wBitsPerSample (1024 × 8 / 4 = 2048).
        "g723_1-8000-1ch.wav": Expected(
            format: .microsoftACM(tag: 0x42), flags: 0, bytesPerPacket: 24, framesPerPacket: 240, bits: 0,
            layoutTag: mono),
        "adpcm_yamaha-22050-1ch.wav": Expected(
            format: .microsoftACM(tag: 0x20), flags: 0, bytesPerPacket: 1024, framesPerPacket: 2048, bits: 0,
            layoutTag: mono),
    ]

    /// Where the oracle cannot speak, values derived by hand (fixture provenance notes):
    /// ffprobe 5.1 reads a zeroed ds64 as 0 data bytes; the data runs to the end of the file (17640
    /// bytes after the 80-byte header, 4410 frames). The empty file has no first packet; its data
    /// chunk starts at 44.
    static let handOverrides: [String: (dataOffset: Int64, bytes: UInt64, frames: UInt64)] = [
        "pcm_s16le-44100-2ch-rf64-pipe.wav": (80, 17640, 4410),
        "pcm_s16le-44100-2ch-empty.wav": (44, 0, 0),
    ]

    static var fixtureNames: [String] { expectedFormats.keys.sorted() }

    @Test("fixture matches the ffprobe oracle and the hand-derived format", arguments: fixtureNames)
    func fixtureMatchesOracle(_ name: String) throws {
        let bytes = try WAVEFixtures.bytes("wav/\(name)")
        let oracle = try WAVEFixtures.oracle("wav/\(name)")
        let stream = try #require(oracle["stream"] as? [String: Any])
        let summary = try #require(oracle["summary"] as? [String: Any])
        let expected = try #require(Self.expectedFormats[name])
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error == nil)
        let values = log.lastValues

        let dataOffset: Int64
        let byteCount: UInt64
        let frameCount: UInt64
        if let hand = Self.handOverrides[name] {
            (dataOffset, byteCount, frameCount) = hand
        } else {
            dataOffset = Int64(try #require(summary["first_pos"] as? Int))
            byteCount = UInt64(try #require(summary["bytes"] as? Int))
            frameCount = UInt64(try #require(summary["duration_sum"] as? Int))
        }
        #expect(values[.fileFormat] == .fileFormat(expected.fileType))
        #expect(values[.dataOffset] == .dataOffset(dataOffset))
        #expect(values[.audioDataByteCount] == .audioDataByteCount(byteCount))
        // For ADPCM the oracle's duration counts whole blocks (ffprobe ignores fact), as packets ×
        // framesPerPacket does; the fact trim is in packetTableInfo.
        let packets = UInt64(log.packetCount)
        #expect(values[.audioDataPacketCount] == .audioDataPacketCount(packets))
        #expect(packets * UInt64(expected.framesPerPacket) == frameCount)

        guard case .dataFormat(let format)? = values[.dataFormat] else {
            Issue.record("no data format")
            return
        }
        #expect(format.sampleRate == Double(try #require(stream["sample_rate"] as? Int)))
        #expect(format.channelsPerFrame == UInt32(try #require(stream["channels"] as? Int)))
        #expect(format.formatID == expected.format)
        #expect(format.formatFlags == expected.flags)
        #expect(format.bytesPerPacket == expected.bytesPerPacket)
        #expect(format.framesPerPacket == expected.framesPerPacket)
        #expect(format.bitsPerChannel == expected.bits)
        #expect(format.bytesPerFrame == (expected.framesPerPacket == 1 ? expected.bytesPerPacket : 0))
        if expected.format == .linearPCM || expected.format == .uLaw || expected.format == .aLaw {
            #expect(Int(format.bytesPerFrame) == (stream["block_align"] as? Int))
            #expect(UInt32(try #require(stream["bits_per_sample"] as? Int)) == expected.bits)
            #expect(values[.bitRate] == .bitRate(UInt32(format.sampleRate) * format.bytesPerFrame * 8))
        }
        #expect(
            values[.channelLayout] == .channelLayout(ChannelLayout(tag: expected.layoutTag, bitmap: expected.bitmap)))
        #expect(values[.maximumPacketSize] == .maximumPacketSize(expected.bytesPerPacket))
        #expect(values[.restrictsRandomAccess] == .restrictsRandomAccess(false))

        // Packets are back to back from the data offset, all the same size.
        let list = log.packets
        if let first = list.first {
            #expect(first.offset == dataOffset)
            #expect(list.allSatisfy { $0.size == Int(expected.bytesPerPacket) && $0.frames == 0 })
            #expect(zip(list, list.dropFirst()).allSatisfy { $0.offset + Int64($0.size) == $1.offset })
        }

        // Tags: where ffprobe shows them, ours agree.
        let tags = oracle["format_tags"] as? [String: String] ?? [:]
        var metadata = AudioMetadata()
        if case .metadata(let m)? = values[.infoDictionary] { metadata = m }
        for (key, value) in tags {
            #expect(Self.value(ofOracleKey: key, in: metadata) == value, "tag \(key)")
        }
    }

    /// Where an ffprobe tag key lives in our metadata: INFO and ID3 keys in the info dictionary, the
    /// bext fields FFmpeg renames in the raw `bext` tags.
    static func value(ofOracleKey key: String, in metadata: AudioMetadata) -> String? {
        func raw(_ source: String, _ key: String) -> String? {
            metadata.tags.first { $0.source == source && $0.key == key }?.value
        }
        switch key {
        case "title", "artist", "album", "genre", "copyright": return metadata.info[InfoKey(rawValue: key)]
        case "comment": return metadata.info[InfoKey.comments]
        case "track": return metadata.info[InfoKey.trackNumber]
        case "date": return metadata.info[InfoKey.recordedDate] ?? raw("bext", "originationDate")
        case "encoded_by": return raw("bext", "originator")
        case "creation_time": return raw("bext", "originationTime")
        case "originator_reference": return raw("bext", "originatorReference")
        case "time_reference": return raw("bext", "timeReference")
        case "coding_history": return raw("bext", "codingHistory")
        case "umid": return raw("bext", "umid").map { "0x" + $0 }
        default: return nil
        }
    }

    @Test(
        "every fixture gives the same events in every chunking",
        arguments: fixtureNames + ["mp3-44100-2ch.wav", "mp2-44100-2ch.wav", "mp3-44100-2ch.w64"])
    func fixtureIsChunkingInvariant(_ name: String) throws {
        let result = ChunkingVerifier.verify(try WAVEFixtures.bytes("wav/\(name)"))
        #expect(result.failures.isEmpty, "\(result.failures)")
    }

    @Test("MPEG audio in WAVE and Wave64: one packet per frame, as ffprobe's packet list")
    func mpegInWave() throws {
        for name in ["wav/mp3-44100-2ch.wav", "wav/mp2-44100-2ch.wav", "wav/mp3-44100-2ch.w64"] {
            let oracle = try WAVEFixtures.oracle(name)
            let expected = try #require(oracle["packets"] as? [[Int]])
            let log = ParseRunner.run(try WAVEFixtures.bytes(name), chunking: .whole)
            #expect(log.error == nil, "\(name)")
            #expect(log.packets.map { [Int($0.offset), $0.size] } == expected.map { [$0[0], $0[1]] }, "\(name)")
            #expect(log.diagnostics.isEmpty, "\(name): \(log.diagnostics)")
        }
    }

    @Test("MS ADPCM's magic cookie is the fmt extension (ffprobe's extradata)")
    func msADPCMCookie() throws {
        for name in ["adpcm_ms-22050-1ch.wav", "adpcm_ms-8000-1ch-sox.wav"] {
            let oracle = try WAVEFixtures.oracle("wav/\(name)")
            let hex = try #require((oracle["stream"] as? [String: Any])?["extradata_hex"] as? String)
            let log = ParseRunner.run(try WAVEFixtures.bytes("wav/\(name)"), chunking: .whole)
            guard case .magicCookie(let cookie)? = log.lastValues[.magicCookieData] else {
                Issue.record("no cookie")
                continue
            }
            #expect(cookie.map { String(format: "%02x", $0) }.joined() == hex)
        }
        let ima = ParseRunner.run(try WAVEFixtures.bytes("wav/adpcm_ima_wav-22050-1ch.wav"), chunking: .whole)
        #expect(ima.lastValues[.magicCookieData] == nil)
    }

    @Test("fact trims the last ADPCM block: packetTableInfo when fact < packets × samples per block")
    func factGivesPacketTableInfo() throws {
        // sox IMA: fact 0x960 = 2400 frames, 5 blocks × 505 = 2525 → remainder 125.
        // sox MS: fact 2400, 5 blocks × 500 = 2500 → remainder 100.
        // ffmpeg IMA 22050: fact 0x1FE4 = 8164 = 4 × 2041 → no trim, no packetTableInfo.
        let cases: [(String, PacketTableInfo?)] = [
            (
                "adpcm_ima_wav-8000-1ch-sox.wav",
                PacketTableInfo(numberValidFrames: 2400, primingFrames: 0, remainderFrames: 125)
            ),
            (
                "adpcm_ms-8000-1ch-sox.wav",
                PacketTableInfo(numberValidFrames: 2400, primingFrames: 0, remainderFrames: 100)
            ),
            ("adpcm_ima_wav-22050-1ch.wav", nil),
            ("pcm_alaw-8000-1ch.wav", nil),
        ]
        for (name, expected) in cases {
            let log = ParseRunner.run(try WAVEFixtures.bytes("wav/\(name)"), chunking: .whole)
            #expect(log.lastValues[.packetTableInfo] == expected.map { .packetTableInfo($0) }, "\(name)")
        }
    }

    @Test("listener order follows Apple's; metadata before data is part of the header")
    func listenerOrder() throws {
        let log = ParseRunner.run(try WAVEFixtures.bytes("wav/pcm_s16le-44100-2ch-info.wav"), chunking: .whole)
        #expect(
            log.propertyOrder == [
                .fileFormat, .dataFormat, .formatList, .channelLayout, .audioDataByteCount, .audioDataPacketCount,
                .maximumPacketSize, .packetSizeUpperBound, .averageBytesPerPacket, .bitRate, .infoDictionary,
                .restrictsRandomAccess, .dataOffset, .readyToProducePackets,
            ])
    }

    @Test("RIFF INFO: raw tags as written, info keys, year from ICRD")
    func riffInfo() throws {
        let log = ParseRunner.run(try WAVEFixtures.bytes("wav/pcm_s16le-44100-2ch-info.wav"), chunking: .whole)
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(m.tags.map(\.key) == ["IART", "ICMT", "ICOP", "ICRD", "IGNR", "INAM", "IPRD", "IPRT"])
        #expect(m.tags.allSatisfy { $0.source == "riff-info" })
        #expect(
            m.info == [
                "artist": "Test Artist", "comments": "A comment", "copyright": "CC0", "recorded date": "2024-05-06",
                "year": "2024", "genre": "Electronic", "title": "Test Title", "album": "Test Album",
                "track number": "3",
            ])
    }

    @Test("bext: every field as a raw tag; the description is the comment")
    func broadcastExtension() throws {
        let log = ParseRunner.run(try WAVEFixtures.bytes("wav/pcm_s16le-48000-2ch-bext.wav"), chunking: .whole)
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        let raw = Dictionary(uniqueKeysWithValues: m.tags.map { ($0.key, $0.value) })
        #expect(m.tags.allSatisfy { $0.source == "bext" })
        #expect(raw["description"] == "Bext description")
        #expect(raw["originator"] == "Fixtures")
        #expect(raw["originatorReference"] == "REF0001")
        #expect(raw["originationDate"] == "2024-05-06")
        #expect(raw["originationTime"] == "12:34:56")
        #expect(raw["timeReference"] == "12345")
        #expect(raw["codingHistory"] == "A=PCM,F=48000,W=16,M=stereo,T=ffmpeg")
        #expect(m.info == ["comments": "Bext description"])
    }

    @Test(
        "tags after the data are announced after the packets",
        arguments: [
            "pcm_s16le-22050-1ch-list-after-data.wav", "pcm_s16le-22050-1ch-sndfile-info-after-data.wav",
            "pcm_s16le-44100-2ch-id3.wav",
        ])
    func tagsAfterData(_ name: String) throws {
        let log = ParseRunner.run(try WAVEFixtures.bytes("wav/\(name)"), chunking: .whole)
        let lastPackets = try #require(log.entries.lastIndex { if case .packets = $0 { true } else { false } })
        let metadata = try #require(
            log.entries.firstIndex { if case .property(.metadata) = $0 { true } else { false } })
        #expect(metadata > lastPackets)
        #expect(!log.propertyOrder.prefix { $0 != .readyToProducePackets }.contains(.infoDictionary))
    }

    @Test(
        "unknown data size (pipe): no counts in the header, exact counts at finish",
        arguments: [
            "pcm_s16le-44100-2ch-pipe.wav", "pcm_s16le-44100-2ch-datasize0.wav", "pcm_s16le-44100-2ch-rf64-pipe.wav",
        ])
    func pipeCountsAtFinish(_ name: String) throws {
        let log = ParseRunner.run(try WAVEFixtures.bytes("wav/\(name)"), chunking: .whole)
        let order = log.propertyOrder
        let ready = try #require(order.firstIndex(of: .readyToProducePackets))
        #expect(!order[..<ready].contains(.audioDataByteCount))
        #expect(!order[..<ready].contains(.audioDataPacketCount))
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(17640))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(4410))
        #expect(log.diagnostics.contains { $0.kind == .sizeCorrected })  // the data runs to the end of the stream
    }

    @Test("a chunk after the data is skipped with a diagnostic naming it")
    func chunkAfterDataSkipped() throws {
        let log = ParseRunner.run(try WAVEFixtures.bytes("wav/pcm_s16le-44100-2ch-peak.wav"), chunking: .whole)
        #expect(log.error == nil)
        #expect(log.diagnostics.contains { $0.kind == .unknownStructure && $0.message.contains("'levl'") })
    }

    // MARK: Seek and discontinuity

    @Test(
        "seek: feeding from the returned offset resumes the packets of the full parse",
        arguments: [
            "pcm_s16le-44100-2ch.wav", "adpcm_ima_wav-44100-2ch.wav", "pcm_s24le-44100-2ch.wav",
            "pcm_s16le-22050-1ch-list-after-data.wav",
        ])
    func seekResumes(_ name: String) throws {
        let bytes = try WAVEFixtures.bytes("wav/\(name)")
        let full = ParseRunner.run(bytes, chunking: .whole).packets
        let parser = AudioStreamParser()
        var seen: [(index: Int64, offset: Int64, size: Int)] = []
        parser.packetsHandler = { batch in
            for (i, d) in batch.descriptions.enumerated() {
                seen.append((batch.firstPacketIndex + Int64(i), batch.fileOffset + d.startOffset, Int(d.dataByteSize)))
            }
        }
        try parser.parse(Array(bytes.prefix(200)))
        let dataOffset = try #require(parser.dataOffset)
        let size = Int64(try #require(parser.dataFormat).bytesPerPacket)
        for target in [full.count - 1, 0, full.count / 2, 3] {
            let seek = try parser.seek(toPacket: Int64(target))
            #expect(
                seek
                    == SeekTarget(
                        byteOffset: Int64(target) * size, isEstimated: false,
                        absoluteOffset: dataOffset + Int64(target) * size))
            seen.removeAll()
            let start = Int(seek.absoluteOffset)
            try parser.parse(Array(bytes[start..<min(bytes.count, start + 3000)]), flags: .discontinuity)
            let first = try #require(seen.first)
            #expect(first.index == Int64(target))
            #expect(first.offset == full[target].offset)
            for packet in seen {
                #expect(full[Int(packet.index)].offset == packet.offset && full[Int(packet.index)].size == packet.size)
            }
        }
        // From packet 0 to the end of the file, then finish: every packet once, in order.
        _ = try parser.seek(toPacket: 0)
        seen.removeAll()
        try parser.parse(Array(bytes[Int(dataOffset)...]), flags: .discontinuity)
        try parser.finish()
        #expect(seen.map(\.offset) == full.map(\.offset))
        // Tags after the data were walked twice but are there once.
        let reference = ParseRunner.run(bytes, chunking: .whole).lastValues[.infoDictionary]
        #expect(parser.metadata.map { .metadata($0) } == reference)
        // After finish, the exact packet count bounds seeking.
        let end = try parser.seek(toPacket: Int64(full.count))
        #expect(end.absoluteOffset == dataOffset + Int64(full.count) * size)
        #expect(throws: AudioStreamError.self) { try parser.seek(toPacket: Int64(full.count + 1)) }
    }

    @Test("seek before the data chunk is reached: more")
    func seekBeforeData() throws {
        let parser = AudioStreamParser()
        try parser.parse(Array(try WAVEFixtures.bytes("wav/pcm_s16le-44100-2ch.wav").prefix(30)))
        #expect(throws: AudioStreamError.self) { try parser.seek(toPacket: 1) }
    }

    @Test("a discontinuity inside the data realigns to the next frame boundary")
    func discontinuityRealigns() throws {
        let file = WAVEBuilder.file([
            WAVEBuilder.chunk("fmt ", WAVEBuilder.format(channels: 1, bits: 24)),
            WAVEBuilder.chunk("data", [UInt8](repeating: 1, count: 30)),
        ])
        let parser = AudioStreamParser()
        var offsets: [Int64] = []
        parser.packetsHandler = { batch in
            for d in batch.descriptions { offsets.append(batch.fileOffset + d.startOffset) }
        }
        try parser.parse(Array(file.prefix(51)))  // 2 frames + 1 byte
        try parser.parse(Array(file[51...]), flags: .discontinuity)
        try parser.finish()
        // The next bytes are taken to continue at 51; the partial frame is skipped up to 44 + 3 × 3.
        #expect(offsets.prefix(3) == [44, 47, 53])
    }

    @Test("a discontinuity before the data cannot be recovered")
    func discontinuityBeforeData() throws {
        let file = try WAVEFixtures.bytes("wav/pcm_s16le-44100-2ch.wav")
        let parser = AudioStreamParser()
        try parser.parse(Array(file.prefix(20)))
        #expect(throws: AudioStreamError.self) { try parser.parse(Array(file[30...]), flags: .discontinuity) }
    }
}

/// Fixture access for the WAVE tests.
enum WAVEFixtures {
    static var root: URL { URL(fileURLWithPath: FixtureCatalog.fixturesRoot) }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }

    static func oracle(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent(path + ".ffprobe.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// Hand-built RIFF/WAVE bytes.
enum WAVEBuilder {
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
    static func be32(_ v: UInt32) -> [UInt8] { le32(v).reversed() }

    /// A chunk: ID, size (the body's unless given), body, and a pad byte when the size is odd and
    /// `pad` is true.
    static func chunk(
        _ id: String, _ body: [UInt8], size: UInt32? = nil, pad: Bool = true, bigEndian: Bool = false
    ) -> [UInt8] {
        let declared = size ?? UInt32(body.count)
        var out = Array(id.utf8) + (bigEndian ? be32(declared) : le32(declared)) + body
        if pad && body.count % 2 == 1 { out.append(0) }
        return out
    }

    /// A WAVEFORMATEX body (16 bytes, or 18 + extension when `extension` is given).
    static func format(
        tag: UInt16 = 1, channels: UInt16 = 2, rate: UInt32 = 8000, bits: UInt16 = 16, blockAlign: UInt16? = nil,
        averageBytes: UInt32? = nil, extension ext: [UInt8]? = nil
    ) -> [UInt8] {
        let align = blockAlign ?? channels * ((bits + 7) / 8)
        var out =
            le16(tag) + le16(channels) + le32(rate) + le32(averageBytes ?? rate * UInt32(align)) + le16(align)
            + le16(bits)
        if let ext { out += le16(UInt16(ext.count)) + ext }
        return out
    }

    /// The 22-byte WAVE_FORMAT_EXTENSIBLE extension with a KSDATAFORMAT_SUBTYPE GUID for `subFormat`.
    static func extensible(validBits: UInt16, mask: UInt32, subFormat: UInt16, guidTail: [UInt8]? = nil) -> [UInt8] {
        le16(validBits) + le32(mask) + le16(subFormat) + [0, 0, 0, 0, 0x10, 0x00]
            + (guidTail ?? [0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71])
    }

    /// `RIFF` size `WAVE` + chunks; the size is computed unless given.
    static func file(_ chunks: [[UInt8]], riffSize: UInt32? = nil, magic: String = "RIFF") -> [UInt8] {
        let body = chunks.flatMap { $0 }
        let size = riffSize ?? UInt32(4 + body.count)
        return Array(magic.utf8) + (magic == "RIFX" ? be32(size) : le32(size)) + Array("WAVE".utf8) + body
    }
}
