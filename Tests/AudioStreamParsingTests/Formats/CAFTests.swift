import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

// Expected values come from Apple's "Core Audio Format Specification" (worked out by hand in the
// comments) or from the committed ffprobe oracle next to each fixture, never from this parser.

private typealias B = CAFBuilder

private func run(_ bytes: [UInt8], options: ParserOptions = ParserOptions()) -> EventLog {
    ParseRunner.run(bytes, chunking: .whole, options: options)
}

private func dataFormat(_ log: EventLog) -> StreamDescription? {
    guard case .dataFormat(let v)? = log.lastValues[.dataFormat] else { return nil }
    return v
}
private func dataOffset(_ log: EventLog) -> Int64? {
    guard case .dataOffset(let v)? = log.lastValues[.dataOffset] else { return nil }
    return v
}
private func byteCount(_ log: EventLog) -> UInt64? {
    guard case .audioDataByteCount(let v)? = log.lastValues[.audioDataByteCount] else { return nil }
    return v
}
private func packetCount(_ log: EventLog) -> UInt64? {
    guard case .audioDataPacketCount(let v)? = log.lastValues[.audioDataPacketCount] else { return nil }
    return v
}
private func cookie(_ log: EventLog) -> [UInt8]? {
    guard case .magicCookie(let v)? = log.lastValues[.magicCookieData] else { return nil }
    return v
}
private func packetTableInfo(_ log: EventLog) -> PacketTableInfo? {
    guard case .packetTableInfo(let v)? = log.lastValues[.packetTableInfo] else { return nil }
    return v
}
private func metadata(_ log: EventLog) -> AudioMetadata? {
    guard case .metadata(let v)? = log.lastValues[.infoDictionary] else { return nil }
    return v
}
private func layout(_ log: EventLog) -> ChannelLayout? {
    guard case .channelLayout(let v)? = log.lastValues[.channelLayout] else { return nil }
    return v
}
private func uint32(_ log: EventLog, _ id: AudioStreamPropertyID) -> UInt32? {
    switch log.lastValues[id] {
    case .maximumPacketSize(let v)?, .packetSizeUpperBound(let v)?, .bitRate(let v)?: return v
    default: return nil
    }
}

/// ASBD flags by hand (CoreAudio values): float 0x1, big-endian 0x2, signed 0x4, packed 0x8.
private let signedPacked: UInt32 = 0x4 | 0x8  // little-endian, or 1-byte samples
private let signedPackedBE: UInt32 = 0x4 | 0x2 | 0x8
private let floatPackedLE: UInt32 = 0x1 | 0x8

@Suite("CAF fixtures: constant-size formats")
struct CAFConstantFixtureTests {
    struct Case: CustomStringConvertible, Sendable {
        var file: String
        var format: StreamDescription
        var description: String { file }
    }

    // desc fields read from each file's 'desc' chunk (see Fixtures/README.md), flags translated by hand:
    // CAF lpcm flags 2 (little-endian) → signed | packed; 0 → signed | big-endian | packed (but no
    // big-endian flag for 1-byte samples, where byte order means nothing); 3 → float | packed.
    static let cases: [Case] = [
        Case(
            file: "caf/pcm_s16le-44100-2ch.caf",
            format: .init(
                sampleRate: 44100, formatID: .linearPCM, formatFlags: signedPacked, bytesPerPacket: 4,
                framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 2, bitsPerChannel: 16)),
        Case(
            file: "caf/pcm_s24le-48000-2ch.caf",
            format: .init(
                sampleRate: 48000, formatID: .linearPCM, formatFlags: signedPacked, bytesPerPacket: 6,
                framesPerPacket: 1, bytesPerFrame: 6, channelsPerFrame: 2, bitsPerChannel: 24)),
        Case(
            file: "caf/pcm_f32le-44100-1ch.caf",
            format: .init(
                sampleRate: 44100, formatID: .linearPCM, formatFlags: floatPackedLE, bytesPerPacket: 4,
                framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 1, bitsPerChannel: 32)),
        Case(
            file: "caf/pcm_s8-8000-1ch.caf",
            format: .init(
                sampleRate: 8000, formatID: .linearPCM, formatFlags: signedPacked, bytesPerPacket: 1,
                framesPerPacket: 1, bytesPerFrame: 1, channelsPerFrame: 1, bitsPerChannel: 8)),
        Case(
            file: "caf/pcm_s16le-48000-6ch.caf",
            format: .init(
                sampleRate: 48000, formatID: .linearPCM, formatFlags: signedPacked, bytesPerPacket: 12,
                framesPerPacket: 1, bytesPerFrame: 12, channelsPerFrame: 6, bitsPerChannel: 16)),
        Case(
            file: "caf/pcm_s16be-8000-1ch-free.caf",
            format: .init(
                sampleRate: 8000, formatID: .linearPCM, formatFlags: signedPackedBE, bytesPerPacket: 2,
                framesPerPacket: 1, bytesPerFrame: 2, channelsPerFrame: 1, bitsPerChannel: 16)),
        Case(
            file: "caf/pcm_s16be-22050-1ch-sndfile-info.caf",
            format: .init(
                sampleRate: 22050, formatID: .linearPCM, formatFlags: signedPackedBE, bytesPerPacket: 2,
                framesPerPacket: 1, bytesPerFrame: 2, channelsPerFrame: 1, bitsPerChannel: 16)),
        Case(
            file: "caf/pcm_s16le-44100-2ch-info.caf",
            format: .init(
                sampleRate: 44100, formatID: .linearPCM, formatFlags: signedPacked, bytesPerPacket: 4,
                framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 2, bitsPerChannel: 16)),
        Case(
            file: "caf/pcm_s16le-44100-2ch-pipe.caf",
            format: .init(
                sampleRate: 44100, formatID: .linearPCM, formatFlags: signedPacked, bytesPerPacket: 4,
                framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 2, bitsPerChannel: 16)),
        // µ-law / A-law: passed through; one byte per frame per channel.
        Case(
            file: "caf/pcm_mulaw-8000-1ch.caf",
            format: .init(
                sampleRate: 8000, formatID: .uLaw, formatFlags: 0, bytesPerPacket: 1,
                framesPerPacket: 1, bytesPerFrame: 1, channelsPerFrame: 1, bitsPerChannel: 8)),
        Case(
            file: "caf/pcm_alaw-8000-1ch.caf",
            format: .init(
                sampleRate: 8000, formatID: .aLaw, formatFlags: 0, bytesPerPacket: 1,
                framesPerPacket: 1, bytesPerFrame: 1, channelsPerFrame: 1, bitsPerChannel: 8)),
        // IMA4: 34 bytes per channel per 64-frame packet; compressed, so bytesPerFrame 0.
        Case(
            file: "caf/adpcm_ima_qt-44100-2ch.caf",
            format: .init(
                sampleRate: 44100, formatID: .appleIMA4, formatFlags: 0, bytesPerPacket: 68,
                framesPerPacket: 64, bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 4)),
    ]

    @Test("format, data offset, byte and frame totals match the oracle", arguments: cases)
    func matchesOracle(_ c: Case) throws {
        let bytes = try CAFFixtures.bytes(c.file)
        let oracle = try CAFOracle(c.file)
        let log = cafVerified(bytes)
        #expect(log.error == nil)
        #expect(dataFormat(log) == c.format)
        #expect(dataOffset(log) == oracle.firstPos)
        #expect(byteCount(log) == UInt64(oracle.bytes))
        let packets = log.packets
        #expect(packets.first?.offset == oracle.firstPos)
        #expect(Int64(packets.reduce(0) { $0 + $1.size }) == oracle.bytes)
        // ffprobe's duration_sum is in frames; our packets hold framesPerPacket frames each.
        let frames = Int64(packets.count) * Int64(c.format.framesPerPacket)
        #expect(frames == oracle.durationSum)
        #expect(packetCount(log) == UInt64(packets.count))
        #expect(uint32(log, .maximumPacketSize) == c.format.bytesPerPacket)
        // Constant bit rate: bytesPerPacket × 8 × rate / framesPerPacket.
        let rate = Double(c.format.bytesPerPacket) * 8 * c.format.sampleRate / Double(c.format.framesPerPacket)
        #expect(uint32(log, .bitRate) == UInt32(rate.rounded()))
    }

    @Test func ima4PacketsEqualTheOraclePacketList() throws {
        let file = "caf/adpcm_ima_qt-44100-2ch.caf"
        let oracle = try CAFOracle(file)
        let log = run(try CAFFixtures.bytes(file))
        // ffprobe reports IMA4 as one 68-byte packet (64 frames) per entry, like this parser.
        #expect(log.packets.map { $0.offset } == oracle.packets.map { $0.pos })
        #expect(log.packets.map { $0.size } == oracle.packets.map { $0.size })
    }

    @Test func stereoAnd51LayoutsComeFromTheChanChunk() throws {
        let stereo = run(try CAFFixtures.bytes("caf/pcm_s16le-44100-2ch.caf"))
        // kAudioChannelLayoutTag_Stereo = (101 << 16) | 2.
        #expect(layout(stereo) == ChannelLayout(tag: .init(rawValue: 101 << 16 | 2)))
        let six = run(try CAFFixtures.bytes("caf/pcm_s16le-48000-6ch.caf"))
        // kAudioChannelLayoutTag_MPEG_5_1_A = (121 << 16) | 6.
        #expect(layout(six) == ChannelLayout(tag: .init(rawValue: 121 << 16 | 6)))
    }

    @Test func dataOfUnknownSizeHasNoCountsUntilFinish() throws {
        let file = "caf/pcm_s16le-44100-2ch-pipe.caf"
        let oracle = try CAFOracle(file)
        let log = run(try CAFFixtures.bytes(file))
        // Before redy: no byte or packet count (the data chunk size is -1).
        let beforeReady = log.entries.prefix { if case .property(.readyToProducePackets) = $0 { false } else { true } }
        #expect(!beforeReady.contains { if case .property(.audioDataByteCount) = $0 { true } else { false } })
        // At finish: the exact counts.
        #expect(byteCount(log) == UInt64(oracle.bytes))
        #expect(packetCount(log) == oracle.durationSum.map { UInt64($0) })
    }

    @Test func infoChunkBecomesMetadata() throws {
        let file = "caf/pcm_s16le-44100-2ch-info.caf"
        let oracle = try CAFOracle(file)
        let meta = try #require(metadata(run(try CAFFixtures.bytes(file))))
        // Raw tags: exactly the pairs ffprobe shows.
        #expect(meta.tags.allSatisfy { $0.source == "caf-info" })
        var raw: [String: String] = [:]
        for t in meta.tags { raw[t.key] = t.value }
        #expect(raw == oracle.formatTags)
        // Info dictionary: Apple keys; ffmpeg's "comment"/"date" also fill "comments"/"recorded date".
        #expect(meta.info[InfoKey.title] == "Test Title")
        #expect(meta.info[InfoKey.artist] == "Test Artist")
        #expect(meta.info[InfoKey.album] == "Test Album")
        #expect(meta.info[InfoKey.genre] == "Electronic")
        #expect(meta.info[InfoKey.comments] == "A comment")
        #expect(meta.info[InfoKey.recordedDate] == "2024")
    }

    @Test func libsndfileInfoChunkBecomesMetadata() throws {
        let file = "caf/pcm_s16be-22050-1ch-sndfile-info.caf"
        let oracle = try CAFOracle(file)
        let meta = try #require(metadata(run(try CAFFixtures.bytes(file))))
        var raw: [String: String] = [:]
        for t in meta.tags { raw[t.key] = t.value }
        #expect(raw == oracle.formatTags)
        #expect(meta.info[InfoKey.copyright] == "Public domain")
    }
}

@Suite("CAF fixtures: variable-size formats")
struct CAFVariableFixtureTests {
    static let ffmpegFiles = [
        "caf/alac-44100-2ch.caf", "caf/alac-8000-1ch-silence.caf", "caf/opus-48000-1ch.caf",
        "caf/opus-48000-2ch.caf", "caf/mp3-44100-2ch.caf",
    ]

    @Test(
        "ffmpeg writes pakt after data: optm at the end of the data chunk, format announced first",
        arguments: ffmpegFiles)
    func packetTableAfterDataIsNotOptimized(_ file: String) throws {
        let oracle = try CAFOracle(file)
        let log = cafVerified(try CAFFixtures.bytes(file))
        let error = try #require(log.error)
        #expect(error.code == .notOptimized)
        // At the end of the data chunk, where the table is needed: the first audio byte + the audio bytes.
        #expect(error.byteOffset == oracle.firstPos + oracle.bytes)
        #expect(dataFormat(log) != nil)
        #expect(!log.entries.contains { if case .property(.readyToProducePackets) = $0 { true } else { false } })
        #expect(log.packetCount == 0)
    }

    @Test("with pakt moved before data, every packet equals the oracle's", arguments: ffmpegFiles)
    func packetsEqualOracleWhenTableComesFirst(_ file: String) throws {
        let oracle = try CAFOracle(file)
        let (bytes, shift) = CAFFixtures.movingPacketTableBeforeData(try CAFFixtures.bytes(file))
        #expect(shift > 0)
        let log = cafVerified(bytes)
        #expect(log.error == nil)
        #expect(dataOffset(log) == oracle.firstPos + Int64(shift))
        #expect(log.packets.map { $0.offset } == oracle.packets.map { $0.pos + Int64(shift) })
        #expect(log.packets.map { $0.size } == oracle.packets.map { $0.size })
        #expect(byteCount(log) == UInt64(oracle.bytes))
        #expect(packetCount(log) == UInt64(oracle.packetCount))
        #expect(uint32(log, .maximumPacketSize) == UInt32(oracle.packets.map { $0.size }.max() ?? 0))
        // ffmpeg's CAF muxer writes mNumberValidFrames = packets × framesPerPacket, priming and remainder 0.
        let format = try #require(dataFormat(log))
        let info = try #require(packetTableInfo(log))
        #expect(info.primingFrames == 0 && info.remainderFrames == 0)
        #expect(info.numberValidFrames == Int64(oracle.packetCount) * Int64(format.framesPerPacket))
    }

    @Test func ffmpegALACCookieWrapsTheOracleAtomInAFrmaAtom() throws {
        let file = "caf/alac-44100-2ch.caf"
        let oracle = try CAFOracle(file)
        let log = run(CAFFixtures.movingPacketTableBeforeData(try CAFFixtures.bytes(file)).bytes)
        let kuki = try #require(cookie(log))
        // Old layout: 12-byte 'frma' atom naming 'alac', then the 36-byte 'alac' atom = ffmpeg's extradata.
        #expect(kuki.count == 48)
        #expect(Array(kuki[0..<12]) == B.be32(12) + B.fourCC("frma") + B.fourCC("alac"))
        #expect(Array(kuki[12...]) == oracle.extradata)
        // ALAC desc: variable sizes, 4096 frames per packet; flags 0 (ffmpeg leaves the bit-depth code out).
        #expect(
            dataFormat(log)
                == StreamDescription(
                    sampleRate: 44100, formatID: .appleLossless, formatFlags: 0, bytesPerPacket: 0,
                    framesPerPacket: 4096,
                    bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0))
    }

    @Test func libsndfileALACHasTableFirstAndExactPackets() throws {
        let file = "caf/alac-44100-2ch-sndfile.caf"
        let oracle = try CAFOracle(file)
        let log = cafVerified(try CAFFixtures.bytes(file))
        #expect(log.error == nil)
        // ALAC flags 1 = kAppleLosslessFormatFlag_16BitSourceData.
        #expect(
            dataFormat(log)
                == StreamDescription(
                    sampleRate: 44100, formatID: .appleLossless, formatFlags: 1, bytesPerPacket: 0,
                    framesPerPacket: 4096,
                    bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0))
        #expect(dataOffset(log) == oracle.firstPos)
        #expect(log.packets.map { $0.offset } == oracle.packets.map { $0.pos })
        #expect(log.packets.map { $0.size } == oracle.packets.map { $0.size })
        #expect(log.packets.allSatisfy { $0.frames == 0 })  // framesPerPacket is constant
        #expect(cafDiagnostics(log).isEmpty)  // libsndfile's 2 zero bytes after the entries are padding
        #expect(byteCount(log) == UInt64(oracle.bytes))
        // New layout: the bare 24-byte ALACSpecificConfig, the tail of ffmpeg's 36-byte atom.
        let extradata = try #require(oracle.extradata)
        #expect(cookie(log) == Array(extradata[12...]))
        // 0.2 s at 44100 Hz = 8820 valid frames; ALAC has no encoder delay; 3 × 4096 − 8820 = 3468.
        let info = try #require(packetTableInfo(log))
        #expect(info == PacketTableInfo(numberValidFrames: 8820, primingFrames: 0, remainderFrames: 3468))
        #expect(
            Int64(oracle.packetCount) * 4096 - Int64(info.primingFrames) - Int64(info.remainderFrames)
                == info.numberValidFrames)
        // Bit rate from the table: bytes × 8 × rate / (packets × 4096).
        let expected = (Double(oracle.bytes) * 8 * 44100 / Double(oracle.packetCount * 4096)).rounded()
        #expect(uint32(log, .bitRate) == UInt32(expected))
    }

    @Test func seekingInTheTableLandsOnExactOffsets() throws {
        let file = "caf/alac-44100-2ch-sndfile.caf"
        let oracle = try CAFOracle(file)
        let bytes = try CAFFixtures.bytes(file)
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: bytes)
        try parser.parse(bytes)
        try parser.finish()
        // Translations from the table: exact.
        let p2 = oracle.packets[2].pos - oracle.firstPos
        #expect(parser.packetToByte(2) == Translation(value: p2, isEstimated: false))
        #expect(
            parser.byteToPacket(p2 + 5)
                == Translation(
                    value: PacketPosition(packet: 2, offsetInPacket: 5), isEstimated: false))
        #expect(parser.packetToFrame(2) == Translation(value: 8192, isEstimated: false))
        #expect(
            parser.frameToPacket(5000)
                == Translation(
                    value: PacketPosition(packet: 1, offsetInPacket: 904), isEstimated: false))
        // Seek to packet 2 and feed from the returned offset.
        let target = try parser.seek(toPacket: 2)
        #expect(target == SeekTarget(byteOffset: p2, isEstimated: false, absoluteOffset: oracle.packets[2].pos))
        recorder.log = EventLog()
        try parser.parse(bytes[Int(target.absoluteOffset)...], flags: .discontinuity)
        try parser.finish()
        #expect(recorder.log.packets.map { $0.offset } == [oracle.packets[2].pos])
        #expect(recorder.log.packets.map { $0.size } == [oracle.packets[2].size])
        #expect(recorder.log.bytesMismatches.isEmpty)
        #expect(cafDiagnostics(recorder.log).isEmpty)
    }

    @Test func discontinuityInsideAPacketResumesAtTheNextOne() throws {
        let file = "caf/alac-44100-2ch-sndfile.caf"
        let oracle = try CAFOracle(file)
        let bytes = try CAFFixtures.bytes(file)
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: bytes)
        // Packet 1 is cut off 100 bytes in (packet 0 was delivered); the next bytes are flagged as not
        // following: the rest of packet 1 is dropped, packets resume with packet 2.
        let cut = Int(oracle.packets[1].pos) + 100
        try parser.parse(bytes[0..<cut])
        try parser.parse(bytes[cut...], flags: .discontinuity)
        try parser.finish()
        #expect(recorder.log.packets.map { $0.offset } == [oracle.packets[0].pos, oracle.packets[2].pos])
        let indices = recorder.log.entries.compactMap {
            if case .packets(let r) = $0 { r.firstPacketIndex } else { nil }
        }
        #expect(indices == [0, 2])
        #expect(recorder.log.bytesMismatches.isEmpty)
    }

    /// Before any packet was produced a discontinuity has nothing to be discontinuous with (the habit of
    /// flagging every call until the first packet arrives): the cut packet 0 is delivered whole.
    @Test func discontinuityBeforeTheFirstPacketDropsNothing() throws {
        let file = "caf/alac-44100-2ch-sndfile.caf"
        let oracle = try CAFOracle(file)
        let bytes = try CAFFixtures.bytes(file)
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: bytes)
        try parser.parse(bytes[0..<3000], flags: .discontinuity)
        try parser.parse(bytes[3000...], flags: .discontinuity)
        try parser.finish()
        #expect(recorder.log.packets.map { $0.offset } == oracle.packets.map(\.pos))
        #expect(recorder.log.bytesMismatches.isEmpty)
    }
}

@Suite("CAF: constant-size data")
struct CAFConstantDataTests {
    @Test func discontinuityRealignsToTheNextFrame() throws {
        let file = "caf/pcm_s16le-44100-2ch.caf"
        let bytes = try CAFFixtures.bytes(file)
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: bytes)
        // Data starts at 92 with 4-byte frames: 1001 bytes = 227 frames + 1 byte. The next bytes are
        // taken to start at 1001, so the next whole frame starts at 92 + 228 × 4 = 1004.
        try parser.parse(bytes[0..<1001])
        try parser.parse(bytes[1001...], flags: .discontinuity)
        try parser.finish()
        let runs = recorder.log.entries.compactMap { if case .packets(let r) = $0 { r } else { nil } }
        #expect(runs.count == 2)
        #expect(runs.last?.fileOffset == 1004)
        #expect(runs.last?.firstPacketIndex == 228)
        #expect(recorder.log.packetCount == 8820 - 1)
        #expect(recorder.log.bytesMismatches.isEmpty)
    }

    @Test func seekInPCMIsArithmetic() throws {
        let bytes = try CAFFixtures.bytes("caf/pcm_s16le-44100-2ch.caf")
        let parser = AudioStreamParser()
        try parser.parse(bytes[0..<200])
        let target = try parser.seek(toPacket: 1000)
        #expect(target == SeekTarget(byteOffset: 4000, isEstimated: false, absoluteOffset: 92 + 4000))
    }
}
