import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// The facade's contract (AudioStreamParser.swift doc comments, DESIGN.md "Public API contract"), on
/// small hand-built WAVE and .au files whose values follow from their specifications.
@Suite("Facade behaviour")
struct FacadeTests {
    /// 16-bit stereo PCM at 8000 Hz, 100 frames: data at 44, 400 bytes.
    static let wave = SyntheticFiles.wave()

    /// The ASBD Apple's `FillOutASBDForLPCM` gives 16-bit little-endian signed stereo at 8000 Hz
    /// (audiofilestream.md §3.1): Signed | Packed, 4 bytes per packet and frame, 1 frame per packet.
    static let waveFormat = StreamDescription(
        sampleRate: 8000, formatID: .linearPCM, formatFlags: LinearPCMFlags.isSignedInteger | LinearPCMFlags.isPacked,
        bytesPerPacket: 4, framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 2, bitsPerChannel: 16)

    /// A hand-built file and what its specification says it holds.
    struct Sample: Sendable, CustomStringConvertible {
        var name: String
        var bytes: [UInt8]
        var fileType: AudioFileType
        var format: StreamDescription
        var dataOffset: Int64
        var byteCount: UInt64
        var description: String { name }
    }

    /// The WAVE above, and a NeXT/Sun .au of 100 16-bit mono frames at 8000 Hz: 24-byte header (magic,
    /// offset 24, size 200, encoding 3 = 16-bit linear, rate, channels), big-endian signed samples
    /// (Signed | BigEndian | Packed, 2 bytes per frame).
    static let samples: [Sample] = [
        Sample(
            name: "wave", bytes: wave, fileType: .wave, format: waveFormat, dataOffset: 44, byteCount: 400),
        Sample(
            name: "au", bytes: SyntheticFiles.au(), fileType: .next,
            format: StreamDescription(
                sampleRate: 8000, formatID: .linearPCM,
                formatFlags: LinearPCMFlags.isSignedInteger | LinearPCMFlags.isBigEndian | LinearPCMFlags.isPacked,
                bytesPerPacket: 2, framesPerPacket: 1, bytesPerFrame: 2, channelsPerFrame: 1, bitsPerChannel: 16),
            dataOffset: 24, byteCount: 200),
    ]

    // MARK: Re-entrancy

    /// Whole, and one byte at a time: the facade keeps short chunks without a step while it waits for
    /// more bytes (`absorbIfShort`), and that path too must refuse a call from a callback (the parser's
    /// state is not exclusivity-checked at run time, so this is what keeps it consistent).
    @Test(arguments: samples, [0, 1])
    func parseFinishAndSeekFromACallbackThrowNope(_ sample: Sample, chunk: Int) throws {
        let parser = AudioStreamParser()
        var fromListener: [String: AudioStreamError.Code] = [:]
        var fromPackets: [String: AudioStreamError.Code] = [:]
        func probe(_ p: AudioStreamParser, into results: inout [String: AudioStreamError.Code]) {
            do { try p.parse([0, 0]) } catch { results["parse"] = error.code }
            do { try p.parse([0]) } catch { results["parse1"] = error.code }
            do { try p.parse([]) } catch { results["parse0"] = error.code }
            do { try p.finish() } catch { results["finish"] = error.code }
            do { _ = try p.seek(toPacket: 0) } catch { results["seek"] = error.code }
        }
        parser.propertyListener = { p, id in
            if id == .readyToProducePackets { probe(p, into: &fromListener) }
        }
        parser.packetsHandler = { [unowned parser] _ in
            if fromPackets.isEmpty { probe(parser, into: &fromPackets) }
        }
        if chunk == 0 {
            try parser.parse(sample.bytes)
        } else {
            for byte in sample.bytes { try parser.parse([byte]) }
        }
        try parser.finish()
        let nope = [
            "parse": AudioStreamError.Code.illegalOperation, "parse1": .illegalOperation, "parse0": .illegalOperation,
            "finish": .illegalOperation, "seek": .illegalOperation,
        ]
        #expect(fromListener == nope)
        #expect(fromPackets == nope)
        // The refused calls did not disturb the parse.
        #expect(parser.parsedPacketCount == 100)
        #expect(parser.isComplete)
    }

    // MARK: Terminal errors

    @Test func afterAnErrorEveryCallRethrowsIt() throws {
        let parser = AudioStreamParser()
        let text = Array("This is plain text and not an audio container at all.\n".utf8)
        let first = Self.error {
            try parser.parse(text)
            try parser.finish()
        }
        let error = try #require(first)
        #expect(error.code == .unsupportedFileType)
        #expect(Self.error { try parser.parse(Self.wave) } == error)
        #expect(Self.error { try parser.finish() } == error)
        #expect(Self.error { _ = try parser.seek(toPacket: 0) } == error)
    }

    /// `finish` with no bytes throws `typ?` ("empty stream"), the same error whether or not empty chunks
    /// were parsed first; a stream shorter than any magic throws `typ?` too.
    @Test func finishOnAnEmptyStreamThrowsTyp() throws {
        let direct = AudioStreamParser()
        let error = try #require(Self.error { try direct.finish() })
        #expect(error.code == .unsupportedFileType)
        #expect(error.byteOffset == 0)
        let afterEmptyChunks = AudioStreamParser()
        try afterEmptyChunks.parse([UInt8]())
        try afterEmptyChunks.parse([UInt8]())
        #expect(Self.error { try afterEmptyChunks.finish() } == error)
        for prefix in [[UInt8(ascii: "R")], Array("RIF".utf8), Array(".sn".utf8)] {
            let short = AudioStreamParser()
            try short.parse(prefix)
            #expect(Self.error { try short.finish() }?.code == .unsupportedFileType, "\(prefix)")
        }
    }

    @Test func unknownTextThrowsTyp() throws {
        let text = Array(String(repeating: "Lorem ipsum dolor sit amet. ", count: 40).utf8)
        for chunking in [Chunking.whole, .bytewise] {
            let log = ParseRunner.run(text, chunking: chunking)
            #expect(log.error?.code == .unsupportedFileType, "\(chunking)")
        }
    }

    /// Detection gives up after a bounded look-ahead (`detectionLookahead`, 64 KiB by default): a stream
    /// of zeros, `a` or 0xFF fed one byte at a time must throw during `parse`, not buffer the whole MiB —
    /// and promptly (detection must stay near-linear in the bytes fed: the loop gives up after 20 s and
    /// fails instead of hanging CI).
    @Test(arguments: [UInt8(0), UInt8(ascii: "a"), 0xFF])
    func unrecognisedBytesThrowWithinTheLookahead(_ byte: UInt8) throws {
        let parser = AudioStreamParser()
        var fed = 0
        var thrown: AudioStreamError?
        let one = [byte]
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(20))
        while fed < 1 << 20 {
            do { try parser.parse(one) } catch {
                thrown = error
                break
            }
            fed += 1
            if fed % 256 == 0 && clock.now > deadline {
                Issue.record("0x\(String(byte, radix: 16)) fed one byte at a time: only \(fed) bytes in 20 s")
                return
            }
        }
        let error = try #require(thrown, "1 MiB of 0x\(String(byte, radix: 16)) was buffered without an error")
        #expect(error.code == .unsupportedFileType)
        #expect(fed <= ParserOptions().detectionLookahead, "threw only after \(fed) bytes")
    }

    // MARK: Finished streams

    @Test func parseAfterFinishThrowsNope() throws {
        let parser = AudioStreamParser()
        try parser.parse(Self.wave)
        try parser.finish()
        #expect(Self.error { try parser.parse([0]) }?.code == .illegalOperation)
        #expect(Self.error { try parser.finish() }?.code == .illegalOperation)
    }

    // MARK: Properties

    @Test func valueOfBeforeAnyBytes() throws {
        let parser = AudioStreamParser()
        #expect(parser.dataFormat == nil)
        #expect(!parser.isReadyToProducePackets)
        #expect(Self.error { _ = try parser.value(of: .dataFormat) }?.code == .dataUnavailable)
        #expect(Self.error { _ = try parser.value(of: .readyToProducePackets) }?.code == .dataUnavailable)
        for translation in [AudioStreamPropertyID.packetToFrame, .frameToPacket, .packetToByte, .byteToPacket] {
            #expect(Self.error { _ = try parser.value(of: translation) }?.code == .unsupportedProperty)
        }
        #expect(
            Self.error { _ = try parser.value(of: AudioStreamPropertyID(rawValue: 0x7A7A_7A7A)) }?.code
                == .unsupportedProperty)
        #expect(Self.error { _ = try parser.seek(toPacket: 0) }?.code == .dataUnavailable)
    }

    @Test(arguments: samples)
    func valueOfAfterTheHeader(_ sample: Sample) throws {
        let parser = AudioStreamParser()
        var readableInListener: [AudioStreamPropertyID] = []
        parser.propertyListener = { p, id in
            if (try? p.value(of: id)) != nil { readableInListener.append(id) }
        }
        // The header only (no data bytes).
        try parser.parse(sample.bytes[..<Int(sample.dataOffset)])
        #expect(parser.isReadyToProducePackets)
        #expect(parser.fileFormat == sample.fileType)
        #expect(parser.dataFormat == sample.format)
        #expect(parser.dataOffset == sample.dataOffset)
        #expect(parser.audioDataByteCount == sample.byteCount)
        #expect(parser.audioDataPacketCount == 100)
        #expect(try parser.value(of: .dataFormat) == .dataFormat(sample.format))
        #expect(try parser.value(of: .fileFormat) == .fileFormat(sample.fileType))
        #expect(try parser.value(of: .dataOffset) == .dataOffset(sample.dataOffset))
        #expect(try parser.value(of: .readyToProducePackets) == .readyToProducePackets)
        // PCM WAVE and .au carry no magic cookie and no packet table: unknown, not "more data needed".
        #expect(Self.error { _ = try parser.value(of: .magicCookieData) }?.code == .valueUnknown)
        #expect(Self.error { _ = try parser.value(of: .packetTableInfo) }?.code == .valueUnknown)
        #expect(readableInListener.contains(.dataFormat))
        #expect(readableInListener.last == .readyToProducePackets)
        // Every announced property was readable inside its own listener call.
        #expect(
            Set(readableInListener).isSuperset(of: [.fileFormat, .dataFormat, .dataOffset, .readyToProducePackets]))
    }

    @Test func diagnosticsAreRecordedAndHandedOut() throws {
        let file = SyntheticFiles.wave(chunksBeforeData: [SyntheticFiles.riffChunk("ABCD", [1, 2, 3, 4])])
        let parser = AudioStreamParser()
        var handed: [ParserDiagnostic] = []
        parser.diagnosticHandler = { handed.append($0) }
        try parser.parse(file)
        try parser.finish()
        #expect(parser.diagnostics == handed)
        #expect(parser.diagnosticCount == handed.count)
        #expect(handed.contains { $0.message.contains("ABCD") }, "\(handed)")
        // The unknown chunk starts at 36 (after RIFF header and fmt); its diagnostic points into it.
        if let d = handed.first(where: { $0.message.contains("ABCD") }) {
            #expect((36...48).contains(d.byteOffset), "\(d)")
        }
        #expect(parser.parsedPacketCount == 100)
    }

    // MARK: Content detection

    /// The parser never sees a file name: a `.wav` stored as `.bin` parses, and a wrong hint does not
    /// override a self-identifying container.
    @Test func detectsContainersFromContentNotNameOrHint() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("facade-\(UUID().uuidString).bin")
        try Data(Self.wave).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = [UInt8](try Data(contentsOf: url))
        for hint in [nil, AudioFileType.aiff, .mp3, .next] {
            let parser = AudioStreamParser(fileTypeHint: hint)
            try parser.parse(bytes)
            try parser.finish()
            #expect(parser.fileFormat == .wave, "hint \(String(describing: hint))")
            #expect(parser.parsedPacketCount == 100)
        }
        // A real ffmpeg WAVE fixture stored as .bin: the same packets as under its own name.
        let fixture = FixtureCatalog.fixture("wav/pcm_s16le-44100-2ch.wav")
        let renamed = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString).bin")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: fixture.absolutePath), to: renamed)
        defer { try? FileManager.default.removeItem(at: renamed) }
        let asBin = ParseRunner.run([UInt8](try Data(contentsOf: renamed)), chunking: .random(seed: 4, maxSize: 999))
        #expect(asBin == ParseRunner.run(try fixture.bytes(), chunking: .whole))
        #expect(asBin.lastValues[.fileFormat] == .fileFormat(.wave))
        #expect(asBin.error == nil && asBin.packetCount == 8820)

        let au = SyntheticFiles.au()
        let parser = AudioStreamParser(fileTypeHint: .wave)
        try parser.parse(au)
        try parser.finish()
        #expect(parser.fileFormat == .next)
        #expect(parser.parsedPacketCount == 100)
        #expect(parser.dataOffset == 24)
    }

    // MARK: Zero-copy packets

    /// Fed whole, every batch points into the caller's buffer (no copy); fed in chunks that cut frames,
    /// the handler still sees each packet's exact bytes without copying anything itself.
    @Test(arguments: samples, [Chunking.whole, .fixed(3), .bytewise, .random(seed: 9, maxSize: 11)])
    func packetBytesAreValidInsideTheHandler(_ sample: Sample, _ chunking: Chunking) throws {
        let input = sample.bytes
        let parser = AudioStreamParser()
        var checked = 0
        var wrong: [Int64] = []
        var outside = 0
        input.withUnsafeBytes { whole in
            let range = UInt(bitPattern: whole.baseAddress)..<(UInt(bitPattern: whole.baseAddress) + UInt(whole.count))
            parser.packetsHandler = { batch in
                if case .whole = chunking, !range.contains(UInt(bitPattern: batch.bytes.baseAddress)) { outside += 1 }
                for i in 0..<batch.packetCount {
                    let d = batch.descriptions[i]
                    let at = Int(batch.fileOffset + d.startOffset)
                    let bytes = batch.packetBytes(at: i)
                    if !bytes.elementsEqual(whole[at..<(at + Int(d.dataByteSize))]) {
                        wrong.append(batch.firstPacketIndex + Int64(i))
                    }
                    checked += 1
                }
            }
            for r in chunking.ranges(count: whole.count) {
                try? parser.parse(UnsafeRawBufferPointer(rebasing: whole[r]))
            }
        }
        try parser.finish()
        #expect(checked == 100)
        #expect(wrong.isEmpty, "packets with wrong bytes: \(wrong)")
        #expect(outside == 0, "batches copied although the whole file was one chunk")
    }

    // MARK: Limits

    /// A 2016-byte `fmt ` chunk (valid PCM fields + 2000 extension bytes) must be read whole; with
    /// `maxHeaderChunkBytes` 256 it is refused in every chunking, with `maxBufferedBytes` 512 whenever
    /// it does not arrive in one piece.
    @Test func headerLargerThanTheCapsThrowsLimitExceeded() throws {
        let big = SyntheticFiles.wave(formatExtra: [UInt8](repeating: 0, count: 2000))
        let headerCap = ParserOptions(limits: ParserLimits(maxHeaderChunkBytes: 256))
        for chunking in [Chunking.whole, .bytewise, .fixed(100)] {
            let log = ParseRunner.run(big, chunking: chunking, options: headerCap)
            #expect(
                log.error?.code == .limitExceeded, "maxHeaderChunkBytes, \(chunking): \(String(describing: log.error))")
        }
        let bufferCap = ParserOptions(limits: ParserLimits(maxBufferedBytes: 512))
        for chunking in [Chunking.bytewise, .fixed(100), .fixed(1000)] {
            let log = ParseRunner.run(big, chunking: chunking, options: bufferCap)
            #expect(
                log.error?.code == .limitExceeded, "maxBufferedBytes, \(chunking): \(String(describing: log.error))")
        }
        // Under the caps the same file parses.
        #expect(ParseRunner.run(big, chunking: .bytewise).error == nil)
        #expect(ParseRunner.run(Self.wave, chunking: .bytewise, options: bufferCap).error == nil)
    }

    // MARK: Helpers

    /// The error `body` throws, or nil.
    static func error(_ body: () throws -> Void) -> AudioStreamError? {
        do {
            try body()
            return nil
        } catch let error as AudioStreamError {
            return error
        } catch {
            Issue.record("unexpected error type \(error)")
            return nil
        }
    }
}
