import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

// A packet table ('pakt') after the audio data (ffmpeg's layout for every VBR CAF): read by looking ahead
// (bufferUnparsedMediaUpTo) or by byte range requests (allowsByteRangeRequests); optm otherwise
// (docs/formats/caf.md, "pakt after data"). Expected packets come from the committed ffprobe oracle
// next to each fixture (ffprobe seeks to the table), never from this parser.

private typealias B = CAFBuilder

/// Every `requestedByteOffset` announced, in order.
private func requests(_ log: EventLog) -> [Int64] {
    log.entries.compactMap { if case .property(.requestedByteOffset(let o)) = $0 { o } else { nil } }
}

private func diagnosticKinds(_ log: EventLog) -> [ParserDiagnostic.Kind] {
    log.entries.compactMap { if case .diagnostic(let d) = $0 { d.kind } else { nil } }
}

@Suite("CAF: packet table after the audio data")
struct CAFTableAfterDataTests {
    static let ffmpegFiles = CAFVariableFixtureTests.ffmpegFiles

    /// The `data` chunk of a fixture: its offset and the offset after it (where the table is needed).
    private static func dataChunk(_ bytes: [UInt8]) throws -> (start: Int64, end: Int64) {
        let data = try #require(CAFFixtures.chunks(bytes).first { $0.type == "data" })
        return (Int64(data.offset), Int64(data.offset + 12 + data.body.count))
    }

    private static func expectOracle(
        _ log: EventLog, _ oracle: CAFOracle, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(log.error == nil, "\(String(describing: log.error))", sourceLocation: sourceLocation)
        #expect(log.packets.map { $0.offset } == oracle.packets.map { $0.pos }, sourceLocation: sourceLocation)
        #expect(log.packets.map { $0.size } == oracle.packets.map { $0.size }, sourceLocation: sourceLocation)
        #expect(
            log.lastValues[.dataOffset] == .dataOffset(oracle.firstPos), sourceLocation: sourceLocation)
        #expect(
            log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(UInt64(oracle.packetCount)),
            sourceLocation: sourceLocation)
        #expect(
            log.lastValues[.audioDataByteCount] == .audioDataByteCount(UInt64(oracle.bytes)),
            sourceLocation: sourceLocation)
        // The table is read once: no duplicate-chunk note for the pakt met again after the audio.
        #expect(!diagnosticKinds(log).contains(.duplicateStructure), sourceLocation: sourceLocation)
    }

    @Test(
        "byte range requests: the table after the data, then the data; every packet equals the oracle's",
        arguments: ffmpegFiles)
    func rangeRequestsReadEveryPacket(_ file: String) throws {
        let bytes = try CAFFixtures.bytes(file)
        let oracle = try CAFOracle(file)
        let data = try Self.dataChunk(bytes)
        let (log, jumps, failures) = RangeRequestRunner.verify(
            bytes, options: ParserOptions(allowsByteRangeRequests: true))
        #expect(failures.isEmpty, "\(failures)")
        Self.expectOracle(log, oracle)
        // First the end of the data chunk (where the table is), then the data chunk itself (a whole input
        // reaches the first by skipping, so only the second is followed).
        #expect(requests(log) == [data.end, data.start])
        #expect(jumps == [data.start])
    }

    @Test("a caller that feeds on past the first request reaches the table by skipping", arguments: ffmpegFiles)
    func forwardRequestIsReachedBySkipping(_ file: String) throws {
        let bytes = try CAFFixtures.bytes(file)
        let oracle = try CAFOracle(file)
        let data = try Self.dataChunk(bytes)
        // Feed the whole file without following the forward request, then follow the backward one.
        let parser = AudioStreamParser(options: ParserOptions(allowsByteRangeRequests: true))
        let recorder = EventRecorder(parser, input: bytes)
        var requests: [Int64] = []
        let inner = parser.propertyListener
        parser.propertyListener = { p, id in
            inner?(p, id)
            if id == .requestedByteOffset, let offset = p.requestedByteOffset { requests.append(offset) }
        }
        try parser.parse(bytes)
        #expect(requests == [data.end, data.start])
        #expect(recorder.log.packets.isEmpty)
        try parser.parse(bytes[Int(data.start)...], flags: .discontinuity)
        try parser.finish()
        Self.expectOracle(recorder.log, oracle)
    }

    @Test(
        "looking ahead within bufferUnparsedMediaUpTo: every packet equals the oracle's, in every chunking",
        arguments: ffmpegFiles)
    func lookAheadReadsEveryPacket(_ file: String) throws {
        let bytes = try CAFFixtures.bytes(file)
        let oracle = try CAFOracle(file)
        let log = cafVerified(bytes, options: ParserOptions(bufferUnparsedMediaUpTo: bytes.count))
        Self.expectOracle(log, oracle)
        #expect(log.lastValues[.requestedByteOffset] == nil)
    }

    @Test("a look-ahead bound too small: byte range requests when allowed, else optm naming the option")
    func lookAheadBoundTooSmall() throws {
        let file = "caf/alac-44100-2ch.caf"
        let bytes = try CAFFixtures.bytes(file)
        let oracle = try CAFOracle(file)
        let data = try Self.dataChunk(bytes)
        let small = Int(data.end - data.start) / 2
        let (log, jumps, failures) = RangeRequestRunner.verify(
            bytes, options: ParserOptions(allowsByteRangeRequests: true, bufferUnparsedMediaUpTo: small))
        #expect(failures.isEmpty, "\(failures)")
        Self.expectOracle(log, oracle)
        #expect(requests(log) == [data.end, data.start])
        #expect(jumps == [data.start])

        let refused = cafVerified(bytes, options: ParserOptions(bufferUnparsedMediaUpTo: small))
        let error = try #require(refused.error)
        #expect(error.code == .notOptimized)
        #expect(error.byteOffset == data.end)
        #expect(error.reason.contains("bufferUnparsedMediaUpTo (\(small) bytes)"))
        #expect(refused.packets.isEmpty)
    }

    @Test("a stream that ends before the table: invalidFile at the data chunk, in both modes")
    func streamEndsBeforeTable() throws {
        let bytes = try CAFFixtures.bytes("caf/opus-48000-1ch.caf")
        let data = try Self.dataChunk(bytes)
        // Cut inside the pakt chunk's 24-byte header (after its 12-byte chunk header).
        let cut = Array(bytes[..<Int(data.end + 20)])
        for options in [ParserOptions(allowsByteRangeRequests: true), ParserOptions(bufferUnparsedMediaUpTo: 1 << 20)] {
            let (log, _, failures) = RangeRequestRunner.verify(cut, options: options)
            #expect(failures.isEmpty, "\(failures)")
            let error = try #require(log.error)
            #expect(error.code == .invalidFile)
            #expect(error.byteOffset == data.start)
            #expect(error.reason.contains("ends before the packet table"))
            #expect(log.packets.isEmpty)
        }
    }

    @Test("an info chunk between the data and the table is read once, in both modes")
    func chunkBetweenDataAndTableIsReadOnce() throws {
        let file = "caf/mp3-44100-2ch.caf"
        let original = try CAFFixtures.bytes(file)
        let oracle = try CAFOracle(file)
        let data = try Self.dataChunk(original)
        // 'info' (Apple CAF spec, "Information Chunk"): UInt32 entry count, then key/value C strings.
        let infoBody = B.be32(1) + Array("title\0Between\0".utf8)
        let info = B.chunk("info", infoBody)
        let bytes = Array(original[..<Int(data.end)]) + info + Array(original[Int(data.end)...])
        let runs = [
            RangeRequestRunner.verify(bytes, options: ParserOptions(allowsByteRangeRequests: true)),
            RangeRequestRunner.verify(bytes, options: ParserOptions(bufferUnparsedMediaUpTo: bytes.count)),
        ]
        for (log, _, failures) in runs {
            #expect(failures.isEmpty, "\(failures)")
            #expect(log.error == nil)
            #expect(log.packets.map { $0.offset } == oracle.packets.map { $0.pos })
            guard case .metadata(let meta)? = log.lastValues[.infoDictionary] else {
                Issue.record("no metadata")
                continue
            }
            #expect(meta.tags.filter { $0.key == "title" }.map { $0.value } == ["Between"])
            #expect(cafDiagnostics(log).isEmpty, "\(cafDiagnostics(log))")
        }
    }

    @Test(
        "default options: optm at the end of the data chunk, whose message says where the table is needed",
        arguments: ffmpegFiles)
    func defaultIsNotOptimized(_ file: String) throws {
        let bytes = try CAFFixtures.bytes(file)
        let data = try Self.dataChunk(bytes)
        let log = cafVerified(bytes)
        let error = try #require(log.error)
        #expect(error.code == .notOptimized)
        #expect(error.byteOffset == data.end)
        #expect(error.reason.contains("it is needed from byte \(data.end)"))
    }
}
