import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// MPEG audio: every fixture against the committed ffprobe oracle (absolute packet offsets and
/// sizes), gapless values against the LAME tag decoded by hand in this file, chunking invariance,
/// tags, junk, free format, truncation and the malformed corpus.
@Suite("MPEG audio")
struct MPEGAudioTests {
    // MARK: Fixtures vs oracle

    /// Fixtures with a usable oracle (ffprobe 5.1 fails on free format).
    static let oracleFixtures = [
        "mp2-24000-2ch-ffmpeg.mp2", "mp2-32000-2ch-twolame-crc.mp2", "mp2-44100-2ch-ffmpeg.mp2",
        "mp2-44100-2ch-twolame-vbr.mp2", "mp2-48000-1ch-ffmpeg.mp2", "mp2-48000-2ch-twolame.mp2",
        "mp3-11025-2ch-lame-mpeg25.mp3", "mp3-12000-1ch-lame-mpeg25-notag.mp3", "mp3-16000-2ch-lame-lsf-notag.mp3",
        "mp3-22050-2ch-lame-lsf.mp3", "mp3-24000-1ch-lame-lsf.mp3", "mp3-44100-1ch-ffmpeg-xing.mp3",
        "mp3-44100-1ch-lame-cbr64-crc.mp3", "mp3-44100-2ch-apev2-id3v1.mp3", "mp3-44100-2ch-concat.mp3",
        "mp3-44100-2ch-ffmpeg-noxing.mp3", "mp3-44100-2ch-ffmpeg-vbr.mp3", "mp3-44100-2ch-id3v23-apic-id3v1.mp3",
        "mp3-44100-2ch-id3v24-eyed3.mp3", "mp3-44100-2ch-junk.mp3", "mp3-44100-2ch-lame-abr96.mp3",
        "mp3-44100-2ch-lame-cbr128.mp3", "mp3-44100-2ch-lame-nogap1.mp3", "mp3-44100-2ch-lame-nogap2.mp3",
        "mp3-44100-2ch-lame-notag.mp3", "mp3-44100-2ch-lame-v0.mp3", "mp3-44100-2ch-lame-v5.mp3",
        "mp3-44100-2ch-two-id3v2.mp3", "mp3-48000-2ch-lame-cbr320.mp3", "mp3-8000-1ch-lame-mpeg25.mp3",
    ]
    static let freeFormatFixtures = ["mp3-44100-2ch-lame-free.mp3", "mp2-44100-2ch-twolame-free.mp2"]
    static var allFixtures: [String] { oracleFixtures + freeFormatFixtures }

    @Test("packets equal ffprobe's packet list (absolute offset and size)", arguments: oracleFixtures)
    func packetsMatchOracle(_ name: String) throws {
        let bytes = try MPEGFixtures.bytes("mpeg/\(name)")
        let oracle = try MPEGFixtures.oracle("mpeg/\(name)")
        let summary = try #require(oracle["summary"] as? [String: Any])
        let expected = try #require(oracle["packets"] as? [[Int]])
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error == nil)
        let ours = log.packets
        try #require(ours.count == expected.count, "\(ours.count) packets, oracle \(expected.count)")
        // Between frames, ffprobe puts junk in front of the next frame's packet; our packet is the
        // frame alone and the junk is a diagnostic at the junk's offset (ffprobe's packet position).
        let junk = Dictionary(
            log.diagnostics.compactMap { d in MPEGFixtures.junkCount(d).map { (d.byteOffset, $0) } },
            uniquingKeysWith: { a, _ in a })
        for (i, (packet, oracle)) in zip(ours, expected).enumerated() {
            let skipped = Int(packet.offset) - oracle[0]
            if skipped != 0 {
                #expect(junk[Int64(oracle[0])] == skipped, "packet \(i): \(skipped) bytes of junk in ffprobe's packet")
            }
            #expect(packet.size == oracle[1] - skipped, "packet \(i) size")
            #expect(packet.frames == 0)
        }
        let values = log.lastValues
        let firstPos = Int64(try #require(summary["first_pos"] as? Int))
        let lastEnd = Int64(try #require(summary["last_end"] as? Int))
        #expect(values[.dataOffset] == .dataOffset(firstPos))
        #expect(values[.audioDataPacketCount] == .audioDataPacketCount(UInt64(expected.count)))
        #expect(values[.audioDataByteCount] == .audioDataByteCount(UInt64(lastEnd - firstPos)))

        // Data format: the oracle's rate, channels and codec; frames per packet from the oracle's
        // packet durations (converted to samples by the normalizer).
        guard case .dataFormat(let format)? = values[.dataFormat] else {
            Issue.record("no data format")
            return
        }
        let stream = try #require(oracle["stream"] as? [String: Any])
        #expect(format.sampleRate == Double(try #require(stream["sample_rate"] as? Int)))
        #expect(format.channelsPerFrame == UInt32(try #require(stream["channels"] as? Int)))
        let codec = try #require(stream["codec_name"] as? String)
        #expect(format.formatID == (codec == "mp2" ? .mpegLayer2 : .mpegLayer3))
        #expect(values[.fileFormat] == .fileFormat(codec == "mp2" ? .mp2 : .mp3))
        #expect(format.bytesPerPacket == 0 && format.bytesPerFrame == 0 && format.bitsPerChannel == 0)
        for packet in expected { #expect(packet[2] == Int(format.framesPerPacket)) }
        #expect(values[.restrictsRandomAccess] == .restrictsRandomAccess(false))

        // Packet sizes: the largest frame, and an upper bound announced before the first packet.
        let largest = ours.map(\.size).max() ?? 0
        #expect(values[.maximumPacketSize] == .maximumPacketSize(UInt32(largest)))
        let firstPacket = try #require(log.entries.firstIndex { if case .packets = $0 { true } else { false } })
        let bound = log.entries[..<firstPacket].compactMap { e -> UInt32? in
            if case .property(.packetSizeUpperBound(let v)) = e { return v } else { return nil }
        }.first
        #expect(bound.map { Int($0) >= largest } == true)
    }

    @Test(
        "gapless values follow the LAME tag (decoded by hand) and ffprobe's skip/discard side data",
        arguments: oracleFixtures)
    func gaplessMatchesLAMETagAndOracle(_ name: String) throws {
        let bytes = try MPEGFixtures.bytes("mpeg/\(name)")
        let oracle = try MPEGFixtures.oracle("mpeg/\(name)")
        let summary = try #require(oracle["summary"] as? [String: Any])
        let log = ParseRunner.run(bytes, chunking: .whole)
        let info: PacketTableInfo? = {
            if case .packetTableInfo(let i)? = log.lastValues[.packetTableInfo] { return i } else { return nil }
        }()
        let tag = MPEGFixtures.InfoTag.decode(bytes)
        // Only streams that start with their Info tag (junk in front hides it from ffprobe).
        guard let tag, let lame = tag.lame, tag.frameOffset == MPEGFixtures.id3v2Length(bytes) else {
            #expect(info == nil)
            #expect(summary["skip_samples"] == nil)
            return
        }
        // Decoder delay convention: priming = encoder delay + 529, remainder = padding − 529.
        let priming = lame.delay + 529
        #expect(summary["skip_samples"] as? Int == priming)
        let packets = log.packetCount
        let remainder = packets == tag.frames ? max(0, lame.padding - 529) : 0
        if let discard = summary["discard_padding"] as? Int {
            #expect(discard == lame.padding - 529)
        }
        let frames = packets * Int(MPEGFixtures.samplesPerFrame(bytes, at: tag.frameOffset))
        #expect(
            info
                == PacketTableInfo(
                    numberValidFrames: Int64(frames - priming - remainder), primingFrames: Int32(priming),
                    remainderFrames: Int32(remainder)))
        if tag.frames == packets {
            // The Xing frame count is the audio frame count, the Info frame excluded, and is announced
            // with the header.
            let header = log.entries.prefix { if case .packets = $0 { false } else { true } }
            #expect(header.contains(.property(.audioDataPacketCount(UInt64(tag.frames)))))
        }
    }

    @Test("LAME tags of the plain 1-second encodes: 44100 valid frames, the original sample count")
    func lameValidFramesAreTheInputLength() throws {
        for name in ["mp3-44100-2ch-lame-cbr128.mp3", "mp3-44100-2ch-lame-v5.mp3", "mp3-44100-1ch-lame-cbr64-crc.mp3"] {
            let log = ParseRunner.run(try MPEGFixtures.bytes("mpeg/\(name)"), chunking: .whole)
            #expect(
                log.lastValues[.packetTableInfo]
                    == .packetTableInfo(
                        PacketTableInfo(numberValidFrames: 44_100, primingFrames: 1_105, remainderFrames: 875)),
                "\(name)")
        }
    }

    @Test("every fixture gives the same events in every chunking", arguments: allFixtures)
    func fixtureIsChunkingInvariant(_ name: String) throws {
        let result = ChunkingVerifier.verify(try MPEGFixtures.bytes("mpeg/\(name)"))
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(result.reference.error == nil)
    }

    @Test("listener order: header values, then dataOffset and ready, then packets")
    func listenerOrder() throws {
        let log = ParseRunner.run(try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-v5.mp3"), chunking: .whole)
        #expect(
            Array(log.propertyOrder.prefix(13)) == [
                .fileFormat, .dataFormat, .formatList, .audioDataByteCount, .audioDataPacketCount,
                .maximumPacketSize, .packetSizeUpperBound, .averageBytesPerPacket, .bitRate, .packetTableInfo,
                .restrictsRandomAccess, .dataOffset, .readyToProducePackets,
            ])
        // Xing VBR: bytes × 8 / duration from the tag (6,790 audio bytes, 40 × 1152 samples at 44.1 kHz).
        let header = log.entries.prefix { if case .packets = $0 { false } else { true } }
        #expect(header.contains(.property(.bitRate(UInt32((6_790.0 * 8 * 44_100 / (40 * 1_152)).rounded())))))
        #expect(header.contains(.property(.audioDataByteCount(6_790))))
    }

    @Test("CBR without a tag: nominal bit rate, running average bytes per packet, exact counts at finish")
    func runningValuesWithoutTag() throws {
        let log = ParseRunner.run(try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-notag.mp3"), chunking: .whole)
        let header = log.entries.prefix { if case .packets = $0 { false } else { true } }
        #expect(!header.contains { if case .property(.audioDataPacketCount) = $0 { true } else { false } })
        #expect(header.contains(.property(.bitRate(128_000))))
        #expect(log.lastValues[.bitRate] == .bitRate(128_000))
        // 40 frames of 417 or 418 bytes: 16,718 bytes.
        #expect(log.lastValues[.averageBytesPerPacket] == .averageBytesPerPacket(16_718.0 / 40))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(40))
        // Packet sizes: 417 (no padding) and 418; the upper bound is 320 kbit/s + padding = 1045.
        #expect(log.lastValues[.maximumPacketSize] == .maximumPacketSize(418))
        #expect(log.lastValues[.packetSizeUpperBound] == .packetSizeUpperBound(1_045))
    }

    // MARK: Free format

    @Test("free-format Layer III: frames measured by the distance to the next sync (ffprobe cannot)")
    func freeFormatLayerIII() throws {
        let bytes = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-free.mp3")
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error == nil)
        let tag = try #require(MPEGFixtures.InfoTag.decode(bytes))
        // The Info frame is a 200 kbit/s free-format frame: 144 × 200000 / 44100 = 653 bytes (+ padding).
        #expect(tag.frameOffset == 0)
        #expect(log.lastValues[.dataOffset] == .dataOffset(653))
        #expect(log.packetCount == tag.frames)
        var expectedOffset: Int64 = 653
        for packet in log.packets {
            #expect(packet.offset == expectedOffset)
            let b2 = bytes[Int(packet.offset) + 2]
            #expect(b2 >> 4 == 0, "bitrate_index 0")
            #expect(packet.size == 653 + Int(b2 >> 1 & 1), "653 bytes plus the padding slot")
            expectedOffset += Int64(packet.size)
        }
        #expect(expectedOffset == Int64(bytes.count))
        #expect(log.lastValues[.packetSizeUpperBound] == .packetSizeUpperBound(654))
    }

    @Test("free-format Layer II from TwoLAME: 39 frames of 653 bytes, the whole file")
    func freeFormatLayerII() throws {
        let bytes = try MPEGFixtures.bytes("mpeg/mp2-44100-2ch-twolame-free.mp2")
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error == nil)
        #expect(bytes.count == 39 * 653)
        #expect(log.packets.map(\.size) == Array(repeating: 653, count: 39))
        #expect(log.packets.first?.offset == 0)
        #expect(log.lastValues[.fileFormat] == .fileFormat(.mp2))
        #expect(log.diagnostics.isEmpty)
    }

    // MARK: Junk, tags, truncation

    @Test("junk before and between frames: one diagnostic per run with its length, never a packet")
    func junkRuns() throws {
        let log = ParseRunner.run(try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-junk.mp3"), chunking: .bytewise)
        let runs = log.diagnostics.compactMap(MPEGFixtures.junkCount)
        #expect(runs == [1_000, 300, 3])
        #expect(log.packetCount == 40)
        // Each run is reported where it starts: offset 0, and right after frames 10 and 20.
        let packets = log.packets
        try #require(packets.count == 40)
        let end = { (i: Int) in packets[i].offset + Int64(packets[i].size) }
        #expect(log.diagnostics.map(\.byteOffset) == [0, end(10), end(20)])
        #expect(packets[11].offset == end(10) + 300 && packets[21].offset == end(20) + 3)
        #expect(log.lastValues[.dataOffset] == .dataOffset(1_000))
    }

    @Test("tags after the frames (APEv2 + ID3v1, ID3v1) are not junk")
    func trailingTagsAreRecognised() throws {
        for name in [
            "mp3-44100-2ch-apev2-id3v1.mp3", "mp3-44100-2ch-id3v23-apic-id3v1.mp3", "mp3-44100-2ch-id3v24-eyed3.mp3",
        ] {
            let bytes = try MPEGFixtures.bytes("mpeg/\(name)")
            let result = ChunkingVerifier.verify(bytes, chunkings: [.bytewise, .fixed(100)])
            #expect(result.failures.isEmpty)
            #expect(result.reference.diagnostics.isEmpty, "\(name): \(result.reference.diagnostics)")
            #expect(result.reference.packetCount == 40)
        }
    }

    @Test("trailing tags are recognised also after junk at the end of the stream")
    func trailingTagsAfterJunk() throws {
        let bytes = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-apev2-id3v1.mp3")
        // 50 zero bytes between the last frame and the APEv2 tag (which, with ID3v1, is 128 + 160 bytes).
        let tags = 128 + 32 + 80 + 32
        let file = Array(bytes.dropLast(tags)) + [UInt8](repeating: 0, count: 50) + Array(bytes.suffix(tags))
        let log = ParseRunner.run(file, chunking: .whole)
        #expect(log.packetCount == 40)
        #expect(log.diagnostics.compactMap(MPEGFixtures.junkCount) == [50])
    }

    @Test("a partial last frame is dropped with a diagnostic; counts are what arrived")
    func truncatedLastFrame() throws {
        let log = ParseRunner.run(try MPEGFixtures.bytes("malformed/mpeg-trunc-mid-frame.mp3"), chunking: .whole)
        #expect(log.error == nil)
        #expect(log.packetCount == 10)
        #expect(
            log.diagnostics.map(\.message) == [
                "mpeg: stream ends inside a frame; partial frame of 100 of 418 bytes dropped"
            ])
        #expect(log.diagnostics.map(\.kind) == [.truncated])
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(10))
    }

    @Test("a frame cut short in the middle of the stream is junk; the frame that starts inside it is kept")
    func frameCutInTheMiddle() throws {
        let name = "mpeg/mp3-44100-2ch-lame-notag.mp3"
        let bytes = try MPEGFixtures.bytes(name)
        let oracle = try #require(try MPEGFixtures.oracle(name)["packets"] as? [[Int]])
        // Keep 200 bytes of frame 10, then frames 11 … 39.
        let cut = oracle[10][0] + 200
        let file = Array(bytes[..<cut]) + Array(bytes[oracle[11][0]...])
        let result = ChunkingVerifier.verify(file)
        #expect(result.failures.isEmpty)
        let log = result.reference
        let removed = Int64(oracle[11][0] - cut)
        let expected = oracle.enumerated().filter { $0.offset != 10 }.map {
            $0.offset < 10 ? Int64($0.element[0]) : Int64($0.element[0]) - removed
        }
        #expect(log.packets.map(\.offset) == expected)
        #expect(
            log.diagnostics == [
                ParserDiagnostic(
                    .junkSkipped, at: Int64(oracle[10][0]), "mpeg: 200 bytes of junk skipped between frames")
            ])
    }

    @Test("a cut last frame followed by an ID3v1 tag: the partial frame is dropped, the tag is recognised")
    func cutLastFrameBeforeID3v1() throws {
        let bytes = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-id3v23-apic-id3v1.mp3")
        let oracle = try #require(
            try MPEGFixtures.oracle("mpeg/mp3-44100-2ch-id3v23-apic-id3v1.mp3")["packets"] as? [[Int]])
        let last = try #require(oracle.last)
        // The last frame keeps 100 bytes; the 128-byte ID3v1 tag follows.
        let file = Array(bytes[..<(last[0] + 100)]) + Array(bytes.suffix(128))
        let log = ParseRunner.run(file, chunking: .whole)
        #expect(log.packetCount == oracle.count - 1)
        #expect(
            log.diagnostics.map(\.message) == [
                "mpeg: stream ends inside a frame; partial frame of 100 of \(last[1]) bytes dropped",
                "mpeg: the Xing/VBRI header declares 40 frames; the stream has 39",
            ])
        #expect(log.diagnostics.map(\.kind) == [.truncated, .inconsistentValues])
    }

    @Test("an Info tag that declares more frames than the stream has: exact count at finish, no remainder")
    func xingCountExceedsStream() throws {
        let log = ParseRunner.run(
            try MPEGFixtures.bytes("malformed/mpeg-xing-count-exceeds-stream.mp3"), chunking: .whole)
        #expect(log.packetCount == 14)
        let header = log.entries.prefix { if case .packets = $0 { false } else { true } }
        #expect(header.contains(.property(.audioDataPacketCount(40))))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(14))
        #expect(
            log.lastValues[.packetTableInfo]
                == .packetTableInfo(
                    PacketTableInfo(numberValidFrames: 14 * 1_152 - 1_105, primingFrames: 1_105, remainderFrames: 0)))
        #expect(log.diagnostics.map(\.message) == ["mpeg: the Xing/VBRI header declares 40 frames; the stream has 14"])
        #expect(log.diagnostics.map(\.kind) == [.inconsistentValues])
    }

    @Test("a Xing frame count of 0 (never filled in) declares nothing; the count comes at finish")
    func zeroXingFrameCount() throws {
        var bytes = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-cbr128.mp3")
        // MPEG-1 stereo: "Info" at 36, flags at 40, frames at 44…47.
        #expect(Array(bytes[36..<40]) == Array("Info".utf8))
        bytes.replaceSubrange(44..<48, with: [0, 0, 0, 0])
        let log = ParseRunner.run(bytes, chunking: .whole)
        let header = log.entries.prefix { if case .packets = $0 { false } else { true } }
        #expect(!header.contains { if case .property(.audioDataPacketCount) = $0 { true } else { false } })
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(40))
        #expect(
            log.lastValues[.packetTableInfo]
                == .packetTableInfo(
                    PacketTableInfo(numberValidFrames: 44_100, primingFrames: 1_105, remainderFrames: 875)))
    }

    @Test("the second stream's Info frame in a concatenation is an ordinary packet")
    func concatenatedStreams() throws {
        let bytes = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-concat.mp3")
        let log = ParseRunner.run(bytes, chunking: .whole)
        // 17,135 bytes of the first file: the Info frame of the second is packet 40 at that offset.
        let packets = log.packets
        #expect(packets.count == 81)
        #expect(packets[40].offset == 17_135)
        #expect(Array(bytes[17_135 + 36..<17_135 + 40]) == Array("Xing".utf8))
    }

    @Test("a stream of a single frame is recognised at finish (the end of the data confirms it)")
    func singleFrameStream() throws {
        let bytes = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-lame-notag.mp3")
        let result = ChunkingVerifier.verify(Array(bytes.prefix(417)))
        #expect(result.failures.isEmpty)
        #expect(result.reference.error == nil)
        #expect(result.reference.packets.map(\.size) == [417])
    }

    // MARK: Leading ID3v2

    @Test("a leading ID3v2 tag is streamed frame by frame: a picture over the limit is skipped, the audio is unchanged")
    func largeLeadingTagIsSkipped() throws {
        let bytes = try MPEGFixtures.bytes("mpeg/mp3-44100-2ch-id3v23-apic-id3v1.mp3")
        var options = ParserOptions()
        options.limits.maxTagBytes = 100
        options.limits.maxArtworkBytes = 50
        let result = ChunkingVerifier.verify(
            bytes, chunkings: [.bytewise, .random(seed: 7, maxSize: 300)], options: options)
        #expect(result.failures.isEmpty)
        let log = result.reference
        #expect(log.lastValues[.dataOffset] == .dataOffset(632))
        #expect(log.packetCount == 40)
        // The ID3v2.3 tag (215 bytes; the Info frame follows it) holds a 100-byte PNG; the 128-byte
        // ID3v1 tag at the end is over maxTagBytes.
        #expect(
            log.diagnostics.map(\.message) == [
                "id3v2 (APIC): picture of 100 bytes exceeds maxArtworkBytes (50); skipped",
                "mpeg (ID3v1): 128-byte tag exceeds maxTagBytes; skipped",
            ])
        guard case .metadata(let metadata)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(metadata.info[InfoKey.title] == "MPEG Title" && metadata.artwork.isEmpty)
    }

    @Test(
        "leading ID3v2 tags reach the info dictionary with the header, as ffprobe shows them",
        arguments: [
            "mp3-44100-2ch-id3v23-apic-id3v1.mp3", "mp3-44100-2ch-id3v24-eyed3.mp3", "mp3-44100-2ch-two-id3v2.mp3",
        ])
    func leadingTagsInTheHeader(_ name: String) throws {
        let log = ParseRunner.run(try MPEGFixtures.bytes("mpeg/\(name)"), chunking: .bytewise)
        let tags = try #require(try MPEGFixtures.oracle("mpeg/\(name)")["format_tags"] as? [String: String])
        let header = log.entries.prefix { if case .property(.dataOffset) = $0 { false } else { true } }
        let metadata = header.compactMap { e -> AudioMetadata? in
            if case .property(.metadata(let m)) = e { return m } else { return nil }
        }.last
        for key in [InfoKey.title, InfoKey.artist, InfoKey.album] {
            #expect(metadata?.info[key] == tags[key.rawValue], "\(key)")
        }
        #expect(metadata?.tags.allSatisfy { $0.source == "id3v2" } == true)
        // The cover (a 100-byte PNG, as written by the generator; one per tag) is artwork in the header.
        let tagCount = name.contains("two-id3v2") ? 2 : 1
        #expect(metadata?.artwork.map(\.mimeType) == Array(repeating: "image/png", count: tagCount))
        #expect(
            metadata?.artwork.allSatisfy { $0.data.count == 100 && $0.data.prefix(4) == [0x89, 0x50, 0x4E, 0x47] }
                == true)
    }

    @Test("trailing APEv2 and ID3v1 tags are a metadata update at finish, APEv2 first")
    func trailingTagsAreRead() throws {
        let name = "mp3-44100-2ch-apev2-id3v1.mp3"
        let log = ParseRunner.run(try MPEGFixtures.bytes("mpeg/\(name)"), chunking: .bytewise)
        let header = log.entries.prefix { if case .packets = $0 { false } else { true } }
        #expect(!header.contains { if case .property(.metadata) = $0 { true } else { false } })
        guard case .metadata(let metadata)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        // ffprobe 5.1 shows the ID3v1 tag only (it does not read APEv2 in MP3).
        let oracle = try #require(try MPEGFixtures.oracle("mpeg/\(name)")["format_tags"] as? [String: String])
        let id3v1 = Dictionary(
            metadata.tags.filter { $0.source == "id3v1" }.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(id3v1["title"] == oracle["title"] && id3v1["genre"] == oracle["genre"])
        // The generator's mutagen items.
        #expect(metadata.tags.filter { $0.source == "ape" }.map(\.value) == ["APE Title", "APE Artist"])
        #expect(metadata.info[InfoKey.title] == "APE Title" && metadata.info[InfoKey.artist] == "APE Artist")
        #expect(metadata.info[InfoKey.genre] == "Other")
    }

    @Test("MPEG frames inside an ID3v2 tag are never packets")
    func syncInsideTag() throws {
        let bytes = try MPEGFixtures.bytes("malformed/mpeg-sync-in-id3.mp3")
        let tagLength = MPEGFixtures.id3v2Length(bytes)
        let result = ChunkingVerifier.verify(bytes)
        #expect(result.failures.isEmpty)
        #expect(result.reference.lastValues[.dataOffset] == .dataOffset(Int64(tagLength)))
        #expect(result.reference.packetCount == 12)
        #expect(result.reference.packets.allSatisfy { $0.offset >= Int64(tagLength) })
    }

    // MARK: Malformed

    static let malformed: [(String, AudioStreamError.Code?)] = [
        ("mpeg-bitrate-index-15.mp3", nil),
        ("mpeg-id3v2-only.mp3", .unsupportedFileType),
        ("mpeg-id3v2-size-256mb.mp3", .invalidFile),
        ("mpeg-junk-only.mp3", .unsupportedFileType),
        ("mpeg-lame-delay-exceeds-stream.mp3", nil),
        ("mpeg-samplerate-index-3.mp3", nil),
        ("mpeg-sync-in-id3.mp3", nil),
        ("mpeg-trunc-in-header.mp3", .unsupportedFileType),
        ("mpeg-trunc-in-id3v2.mp3", .invalidFile),
        ("mpeg-trunc-mid-frame.mp3", nil),
        ("mpeg-xing-count-exceeds-stream.mp3", nil),
    ]

    @Test("malformed MPEG files give the documented outcome in every chunking", arguments: malformed)
    func malformedFile(_ name: String, _ code: AudioStreamError.Code?) throws {
        let result = ChunkingVerifier.verify(try MPEGFixtures.bytes("malformed/\(name)"))
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(result.reference.error?.code == code, "\(String(describing: result.reference.error))")
    }

    @Test("a forbidden bit rate or reserved sampling frequency turns one frame into junk")
    func invalidHeaderIsJunk() throws {
        // The source's frame 5, from its oracle, becomes junk; the other 14 frames stay.
        let source = try #require(try MPEGFixtures.oracle("mpeg/mp3-44100-2ch-lame-notag.mp3")["packets"] as? [[Int]])
        for name in ["mpeg-bitrate-index-15.mp3", "mpeg-samplerate-index-3.mp3"] {
            let log = ParseRunner.run(try MPEGFixtures.bytes("malformed/\(name)"), chunking: .whole)
            #expect(log.packetCount == 14)
            #expect(
                log.packets.map(\.offset)
                    == source.prefix(15).enumerated().filter { $0.offset != 5 }.map { Int64($0.element[0]) })
            #expect(
                log.diagnostics == [
                    ParserDiagnostic(
                        .junkSkipped, at: Int64(source[5][0]),
                        "mpeg: \(source[5][1]) bytes of junk skipped between frames")
                ])
        }
    }

    @Test("LAME delay and padding larger than the stream: packet table info clamped to the stream, diagnosed")
    func lameDelayExceedsStream() throws {
        let log = ParseRunner.run(
            try MPEGFixtures.bytes("malformed/mpeg-lame-delay-exceeds-stream.mp3"), chunking: .whole)
        #expect(log.packetCount == 1)
        // Info declares 1 frame (1152 samples); delay 4095 + 529 = 4624 > 1152: all priming, padding
        // 4095 − 529 = 3566 has no room left (LAME "Mp3 Info Tag rev 1": delay/padding 12 bits each).
        #expect(
            log.lastValues[.packetTableInfo]
                == .packetTableInfo(PacketTableInfo(numberValidFrames: 0, primingFrames: 1152, remainderFrames: 0)))
        #expect(log.diagnostics.filter { $0.kind == .sizeCorrected }.count == 1)
    }
}

extension EventLog {
    /// The diagnostics, in order.
    var diagnostics: [ParserDiagnostic] {
        entries.compactMap { if case .diagnostic(let d) = $0 { return d } else { return nil } }
    }
}

/// Fixture access and hand decoding (from the specifications, independent of the parser) for the
/// MPEG tests.
enum MPEGFixtures {
    static var root: URL { URL(fileURLWithPath: FixtureCatalog.fixturesRoot) }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }

    static func oracle(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent(path + ".ffprobe.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The byte count of a junk diagnostic ("mpeg: N bytes of junk skipped …"), else `nil`.
    static func junkCount(_ d: ParserDiagnostic) -> Int? {
        guard d.kind == .junkSkipped, d.message.hasPrefix("mpeg: ") else { return nil }
        return Int(d.message.dropFirst(6).prefix { $0 != " " })
    }

    /// The length of the leading ID3v2 tags: each is 10 + its syncsafe size (4 × 7 bits), + 10 with
    /// a v2.4 footer.
    static func id3v2Length(_ b: [UInt8]) -> Int {
        var start = 0
        while b.count >= start + 10, b[start] == 0x49, b[start + 1] == 0x44, b[start + 2] == 0x33 {
            let size = Int(b[start + 6]) << 21 | Int(b[start + 7]) << 14 | Int(b[start + 8]) << 7 | Int(b[start + 9])
            start += 10 + size + (b[start + 3] == 4 && b[start + 5] & 0x10 != 0 ? 10 : 0)
        }
        return start
    }

    /// Samples per frame from the header at `offset`: Layer I 384, Layer II 1152, Layer III 1152
    /// (MPEG-1, version bits 11) or 576 (MPEG-2/2.5).
    static func samplesPerFrame(_ b: [UInt8], at offset: Int) -> Int {
        let version = b[offset + 1] >> 3 & 3
        switch b[offset + 1] >> 1 & 3 {
        case 3: return 384
        case 2: return 1_152
        default: return version == 3 ? 1_152 : 576
        }
    }

    /// A Xing/Info tag and its LAME extension, decoded by hand from the LAME "Mp3 Info Tag rev 1"
    /// layout: after the 4-byte header and the Layer III side information (11172-3 §2.4.1.7: 32 bytes
    /// stereo, 17 mono in MPEG-1; 17 and 9 in MPEG-2/2.5) come "Xing"/"Info", flags, frames (flag 1),
    /// bytes (2), TOC (4), quality (8), then the 36-byte LAME extension whose bytes 21…23 hold the
    /// encoder delay (12 bits) and padding (12 bits).
    struct InfoTag {
        var frameOffset: Int
        var frames: Int
        var lame: (delay: Int, padding: Int)?

        static func decode(_ b: [UInt8]) -> InfoTag? {
            let start = id3v2Length(b)
            guard b.count > start + 200, b[start] == 0xFF, b[start + 1] & 0xE0 == 0xE0 else { return nil }
            let mpeg1 = b[start + 1] >> 3 & 3 == 3
            let mono = b[start + 3] >> 6 == 3
            let x = start + 4 + (mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17))
            let magic = String(decoding: b[x..<(x + 4)], as: UTF8.self)
            guard magic == "Xing" || magic == "Info" else { return nil }
            let be32 = { (i: Int) in Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
            let flags = be32(x + 4)
            var p = x + 8
            var frames = 0
            if flags & 1 != 0 {
                frames = be32(p)
                p += 4
            }
            if flags & 2 != 0 { p += 4 }
            if flags & 4 != 0 { p += 100 }
            if flags & 8 != 0 { p += 4 }
            let version = String(decoding: b[p..<(p + 4)], as: UTF8.self)
            var lame: (Int, Int)?
            if version == "LAME" || version == "Lavf" || version == "Lavc" {
                lame = (Int(b[p + 21]) << 4 | Int(b[p + 22]) >> 4, Int(b[p + 22] & 0xF) << 8 | Int(b[p + 23]))
            }
            return InfoTag(frameOffset: start, frames: frames, lame: lame)
        }
    }
}
