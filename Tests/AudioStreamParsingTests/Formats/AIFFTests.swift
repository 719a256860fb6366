import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// The AIFF / AIFF-C fixtures (`Fixtures/aiff`) against their ffprobe oracles, the 80-bit float
/// converter against hand-encoded values, and seeking.
@Suite("AIFF")
struct AIFFTests {
    // MARK: 80-bit extended float

    /// Hand-encoded: for an integer rate r with n significant bits, the exponent is 16383 + n − 1 and the
    /// significand r << (64 − n) (see `ExtendedFloat`).
    @Test(arguments: [
        ([0x40, 0x0B, 0xFA, 0x00, 0, 0, 0, 0, 0, 0] as [UInt8], 8000.0),
        ([0x40, 0x0C, 0xAC, 0x44, 0, 0, 0, 0, 0, 0], 11025.0),
        ([0x40, 0x0D, 0xAC, 0x44, 0, 0, 0, 0, 0, 0], 22050.0),
        ([0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0], 44100.0),
        ([0x40, 0x0E, 0xBB, 0x80, 0, 0, 0, 0, 0, 0], 48000.0),
        ([0x40, 0x0F, 0xBB, 0x80, 0, 0, 0, 0, 0, 0], 96000.0),
        ([0x3F, 0xFF, 0x80, 0x00, 0, 0, 0, 0, 0, 0], 1.0),
        ([0xC0, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0], -44100.0),
        // The classic Macintosh rate 22254.54545 Hz (0xADDD1745D145826B / 2^49, rounded to a Double).
        ([0x40, 0x0D, 0xAD, 0xDD, 0x17, 0x45, 0xD1, 0x45, 0x82, 0x6B], 22254.54545454),
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0.0),
    ])
    func convertsExtendedFloat(bytes: [UInt8], expected: Double) throws {
        let value = try #require(ExtendedFloat(bigEndianBytes: bytes))
        #expect(value.doubleValue == expected)
        #expect(!value.isNaN && !value.isInfinite)
    }

    @Test func convertsExtendedFloatSpecialValuesWithoutTrapping() throws {
        let nan = try #require(ExtendedFloat(bigEndianBytes: [0x7F, 0xFF, 0xC0, 0, 0, 0, 0, 0, 0, 0] as [UInt8]))
        #expect(nan.isNaN && nan.doubleValue.isNaN)
        let inf = try #require(ExtendedFloat(bigEndianBytes: [0x7F, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0] as [UInt8]))
        #expect(inf.isInfinite && inf.doubleValue == .infinity)
        let negInf = try #require(ExtendedFloat(bigEndianBytes: [0xFF, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0] as [UInt8]))
        #expect(negInf.doubleValue == -.infinity)
        // Finite but beyond Double: 2^16383 saturates to infinity; the smallest denormal becomes 0.
        let huge = ExtendedFloat(isNegative: false, biasedExponent: 0x7FFE, significand: 1 << 63)
        #expect(huge.doubleValue == .infinity)
        let tiny = ExtendedFloat(isNegative: false, biasedExponent: 0, significand: 1)
        #expect(tiny.doubleValue == 0)
        // All significand bits set rounds up to the next power of two, without trapping.
        let max = ExtendedFloat(isNegative: false, biasedExponent: 0x403E, significand: .max)
        #expect(max.doubleValue == 18_446_744_073_709_551_616.0)
        #expect(ExtendedFloat(bigEndianBytes: [0x40, 0x0E] as [UInt8]) == nil)
    }

    // MARK: Fixtures

    /// The expected `dataFormat` of each fixture, written by hand from audiofilestream.md §3.1 (LPCM
    /// flags: Float 0x1, BigEndian 0x2, SignedInteger 0x4, Packed 0x8; BigEndian is not set for 1-byte
    /// samples, as in `FillOutASBDForLPCM`) and the IMA4 layout (34 bytes per channel per 64 frames).
    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var formatID: AudioFormat
        var flags: UInt32
        var bits: UInt32
        var bytesPerPacket: UInt32
        var framesPerPacket: UInt32 = 1
        /// Figures derived by hand from the generation recipe, for a file ffprobe cannot read.
        var withoutOracle: AIFFFixtures.Oracle?
        var description: String { file }
    }

    static let bigSigned: UInt32 = 0x2 | 0x4 | 0x8
    static let littleSigned: UInt32 = 0x4 | 0x8
    static let bigFloat: UInt32 = 0x1 | 0x2 | 0x8

    static let expectations: [Expected] = [
        Expected(file: "pcm_s8-8000-1ch.aiff", formatID: .linearPCM, flags: 0x4 | 0x8, bits: 8, bytesPerPacket: 1),
        Expected(file: "pcm_s8-22050-1ch-odd.aiff", formatID: .linearPCM, flags: 0x4 | 0x8, bits: 8, bytesPerPacket: 1),
        Expected(file: "pcm_s16be-44100-2ch.aiff", formatID: .linearPCM, flags: bigSigned, bits: 16, bytesPerPacket: 4),
        Expected(file: "pcm_s24be-48000-2ch.aiff", formatID: .linearPCM, flags: bigSigned, bits: 24, bytesPerPacket: 6),
        Expected(file: "pcm_s32be-96000-1ch.aiff", formatID: .linearPCM, flags: bigSigned, bits: 32, bytesPerPacket: 4),
        Expected(
            file: "pcm_s16be-22050-1ch-text.aiff", formatID: .linearPCM, flags: bigSigned, bits: 16, bytesPerPacket: 2),
        Expected(
            file: "pcm_s16be-22050-1ch-sndfile-text.aiff", formatID: .linearPCM, flags: bigSigned, bits: 16,
            bytesPerPacket: 2),
        Expected(
            file: "pcm_s16be-44100-2ch-id3.aiff", formatID: .linearPCM, flags: bigSigned, bits: 16, bytesPerPacket: 4),
        Expected(
            file: "pcm_s16be-8000-1ch-comt.aiff", formatID: .linearPCM, flags: bigSigned, bits: 16, bytesPerPacket: 2),
        // ffprobe 5.1 fails on FFmpeg's own pipe output (FORM size 0): "Invalid data found when processing
        // input". By hand: 0.1 s of 44100 Hz stereo s16 = 4410 frames = 17640 bytes, after the 12-byte FORM
        // header, COMM (8 + 18) and the SSND header and fields (8 + 8): data offset 54.
        Expected(
            file: "pcm_s16be-44100-2ch-pipe.aiff", formatID: .linearPCM, flags: bigSigned, bits: 16, bytesPerPacket: 4,
            withoutOracle: AIFFFixtures.Oracle(
                sampleRate: 44100, channels: 2, firstPos: 54, bytes: 17640, durationSum: 4410, tags: [:])),
        Expected(
            file: "pcm_s16be-8000-1ch-sox-pipe.aiff", formatID: .linearPCM, flags: bigSigned, bits: 16,
            bytesPerPacket: 2),
        Expected(
            file: "pcm_s16be-44100-2ch-none.aifc", formatID: .linearPCM, flags: bigSigned, bits: 16, bytesPerPacket: 4),
        Expected(
            file: "pcm_s16be-44100-2ch-twos.aifc", formatID: .linearPCM, flags: bigSigned, bits: 16, bytesPerPacket: 4),
        Expected(
            file: "pcm_s16le-44100-2ch-sowt.aifc", formatID: .linearPCM, flags: littleSigned, bits: 16,
            bytesPerPacket: 4),
        Expected(
            file: "pcm_f32be-44100-1ch-fl32.aifc", formatID: .linearPCM, flags: bigFloat, bits: 32, bytesPerPacket: 4),
        Expected(
            file: "pcm_f64be-44100-1ch-fl64.aifc", formatID: .linearPCM, flags: bigFloat, bits: 64, bytesPerPacket: 8),
        Expected(file: "pcm_mulaw-8000-1ch-ulaw.aifc", formatID: .uLaw, flags: 0, bits: 8, bytesPerPacket: 1),
        Expected(file: "pcm_alaw-8000-1ch-alaw.aifc", formatID: .aLaw, flags: 0, bits: 8, bytesPerPacket: 1),
        Expected(file: "pcm_u8-8000-1ch-raw.aifc", formatID: .linearPCM, flags: 0x8, bits: 8, bytesPerPacket: 1),
        Expected(
            file: "adpcm_ima_qt-22050-1ch-ima4.aifc", formatID: .appleIMA4, flags: 0, bits: 0, bytesPerPacket: 34,
            framesPerPacket: 64),
        Expected(
            file: "adpcm_ima_qt-44100-2ch-ima4.aifc", formatID: .appleIMA4, flags: 0, bits: 0, bytesPerPacket: 68,
            framesPerPacket: 64),
        Expected(
            file: "pcm_s24be-48000-2ch-none.aifc", formatID: .linearPCM, flags: bigSigned, bits: 24, bytesPerPacket: 6),
        Expected(
            file: "pcm_s24be-48000-2ch-in24.aifc", formatID: .linearPCM, flags: bigSigned, bits: 24, bytesPerPacket: 6),
        Expected(
            file: "pcm_s32be-48000-1ch-in32.aifc", formatID: .linearPCM, flags: bigSigned, bits: 32, bytesPerPacket: 4),
        Expected(
            file: "pcm_s16be-44100-2ch-nocompression.aifc", formatID: .linearPCM, flags: bigSigned, bits: 16,
            bytesPerPacket: 4),
    ]

    @Test func everyFixtureHasAnExpectation() throws {
        let files = try AIFFFixtures.files()
        #expect(!files.isEmpty, "no fixtures in Fixtures/aiff")
        #expect(Set(files) == Set(Self.expectations.map(\.file)))
    }

    @Test(arguments: expectations)
    func fixtureMatchesOracle(expected: Expected) throws {
        let bytes = try AIFFFixtures.bytes(expected.file)
        let oracle = try #require(try AIFFFixtures.oracle(expected.file) ?? expected.withoutOracle)
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let r = AIFFParsed(log)
        #expect(r.error == nil, "\(String(describing: r.error))")
        #expect(r.fileFormat == (expected.file.hasSuffix(".aifc") ? .aifc : .aiff))

        let format = try #require(r.format)
        #expect(format.formatID == expected.formatID)
        #expect(format.formatFlags == expected.flags)
        #expect(format.bitsPerChannel == expected.bits)
        #expect(format.bytesPerPacket == expected.bytesPerPacket)
        #expect(format.framesPerPacket == expected.framesPerPacket)
        #expect(format.sampleRate == Double(oracle.sampleRate))
        #expect(format.channelsPerFrame == UInt32(oracle.channels))

        #expect(r.dataOffset == oracle.firstPos)
        #expect(r.byteCount.map(Int64.init) == oracle.bytes)
        #expect(r.packetCount.map { Int64($0) * Int64(expected.framesPerPacket) } == oracle.durationSum)
        #expect(Int64(log.packetCount) * Int64(expected.framesPerPacket) == oracle.durationSum)

        for (key, value) in oracle.tags {
            guard let infoKey = AIFFFixtures.infoKey(forFFprobeTag: key) else { continue }
            if expected.file.contains("id3") && !AIFFFixtures.id3ReaderAvailable { continue }
            #expect(r.metadata?.info[infoKey] == value, "tag \(key)")
        }
    }

    @Test func sowtAndTwosFixturesDifferOnlyInByteOrder() throws {
        let sowt = AIFFParsed(
            ParseRunner.run(try AIFFFixtures.bytes("pcm_s16le-44100-2ch-sowt.aifc"), chunking: .whole))
        let twos = AIFFParsed(
            ParseRunner.run(try AIFFFixtures.bytes("pcm_s16be-44100-2ch-twos.aifc"), chunking: .whole))
        #expect(sowt.format?.formatFlags == LinearPCMFlags.isSignedInteger | LinearPCMFlags.isPacked)
        #expect(
            twos.format?.formatFlags == LinearPCMFlags.isBigEndian | LinearPCMFlags.isSignedInteger
                | LinearPCMFlags.isPacked)
    }

    // MARK: Seeking

    @Test(arguments: ["pcm_s16be-44100-2ch.aiff", "adpcm_ima_qt-44100-2ch-ima4.aifc", "pcm_s8-22050-1ch-odd.aiff"])
    func seekResumesAtThePacketsOfAFullParse(file: String) throws {
        try Self.checkSeeking(try AIFFFixtures.bytes(file))
    }

    @Test func seekResumesInAHandBuiltStream() throws {
        try Self.checkSeeking(AIFFTestBuilder.simpleAIFF(frames: 300))
    }

    /// Seeks to several packets; feeding from the returned absolute offset must give exactly the full
    /// parse's packets from there on.
    static func checkSeeking(_ bytes: [UInt8]) throws {
        let full = ParseRunner.run(bytes, chunking: .whole)
        let packets = full.packets
        let dataOffset = try #require(AIFFParsed(full).dataOffset)
        let packetSize = Int64(try #require(packets.first?.size))
        for target in [0, 1, packets.count / 3, packets.count - 1, packets.count] {
            let parser = AudioStreamParser()
            let recorder = EventRecorder(parser, input: bytes)
            try parser.parse(bytes[0..<Int(dataOffset)])
            #expect(parser.isReadyToProducePackets)
            let seek = try parser.seek(toPacket: Int64(target))
            #expect(seek.byteOffset == Int64(target) * packetSize)
            #expect(seek.absoluteOffset == dataOffset + seek.byteOffset)
            #expect(!seek.isEstimated)
            let before = recorder.log.packetCount
            try parser.parse(bytes[Int(seek.absoluteOffset)...], flags: .discontinuity)
            try parser.finish()
            let resumed = Array(recorder.log.packets.dropFirst(before))
            let expected = Array(packets.dropFirst(target))
            #expect(resumed.map(\.offset) == expected.map(\.offset), "seek to \(target)")
            #expect(resumed.map(\.size) == expected.map(\.size), "seek to \(target)")
            #expect(recorder.log.bytesMismatches.isEmpty)
            #expect(parser.packetToByte(Int64(target))?.value == Int64(target) * packetSize)
        }
    }

    @Test func discontinuityInsideTheDataDropsThePartialPacketAndRealigns() throws {
        let bytes = AIFFTestBuilder.simpleAIFF(frames: 50)  // 4-byte frames from offset 54
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: bytes)
        try parser.parse(bytes[0..<(54 + 4 * 10 + 1)])  // 10 frames and 1 byte of frame 10
        // The held-back byte is dropped; the new bytes continue at offset 95, inside frame 10.
        try parser.parse(bytes[(54 + 4 * 10 + 1)...], flags: .discontinuity)
        try parser.finish()
        let log = recorder.log
        let offsets = log.packets.map(\.offset)
        #expect(offsets.prefix(10) == ArraySlice(stride(from: 54, to: 94, by: 4).map(Int64.init)))
        // Frame 10 (at 94) is incomplete; packets resume with frame 11 at 98, with index 11.
        #expect(offsets.dropFirst(10).first == 98)
        #expect(offsets.last == Int64(54 + 4 * 49))
        #expect(log.packetCount == 49)
        let indices = log.entries.compactMap { entry -> Int64? in
            if case .packets(let run) = entry { return run.firstPacketIndex } else { return nil }
        }
        #expect(indices.contains(11))
        #expect(log.bytesMismatches.isEmpty)
    }
}
