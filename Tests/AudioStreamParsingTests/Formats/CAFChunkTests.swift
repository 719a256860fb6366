import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

// Hand-built CAF streams: chunk handling, sizes, limits and metadata. Expected values are worked out
// from Apple's "Core Audio Format Specification" in the comments.

private typealias B = CAFBuilder

@Suite("CAF: chunks and sizes")
struct CAFChunkTests {
    @Test func registryHasNoDuplicateCodes() {
        let codes = CAFContainer.registry.entries.map(\.id)
        #expect(Set(codes).count == codes.count)
        #expect(CAFChunkType.audioData.role == .audioData)
        #expect(CAFChunkType(rawValue: 0x7A65_726F).role == nil)  // 'zero'
        #expect(CAFChunkType.packetTable.description == "pakt")
    }

    @Test func unknownChunksAreSkippedWithADiagnosticKnownOnesSilently() {
        let bytes =
            cafHead(B.pcmDesc) + B.chunk("zzzz", B.pattern(5)) + B.chunk("free", B.pattern(300))
            + B.chunk("uuid", B.pattern(16)) + B.chunk("mark", []) + B.chunk("data", B.data(B.pattern(8)))
        let log = cafVerified(bytes)
        #expect(log.error == nil)
        #expect(cafDiagnostics(log) == ["caf: unknown chunk 'zzzz' (5 bytes) skipped"])
        #expect(log.packetCount == 2)
    }

    @Test(
        "chunk sizes near 2^63 and 2^64 never trap",
        arguments: [
            Int64(0x7FFF_FFFF_FFFF_FFF0), Int64.max, Int64(bitPattern: 0xFFFF_FFFF_FFFF_FFF0), Int64.min, -2,
        ])
    func hugeChunkSizes(_ size: Int64) {
        for type in ["chan", "zzzz", "info", "kuki", "pakt", "desc"] {
            let before = cafHead(B.pcmDesc) + B.fourCC(type) + B.be64(UInt64(bitPattern: size)) + B.pattern(40)
            let log = cafVerified(before)
            #expect(log.error != nil, "\(type) \(size)")
        }
        let data = cafHead(B.pcmDesc) + B.fourCC("data") + B.be64(UInt64(bitPattern: size)) + B.pattern(40)
        #expect(cafVerified(data).error?.code == .invalidFile)
        // After the data too.
        let after =
            cafHead(B.pcmDesc) + B.chunk("data", B.data(B.pattern(8))) + B.fourCC("zzzz")
            + B.be64(UInt64(bitPattern: size)) + B.pattern(40)
        #expect(cafVerified(after).error?.code == .invalidFile)
    }

    @Test func largeButRepresentableSkipEndsBeforeTheData() {
        let bytes = cafHead(B.pcmDesc) + B.chunk("free", [], size: 1 << 62) + B.pattern(100)
        let log = cafVerified(bytes)
        #expect(log.error?.code == .invalidFile)
    }

    @Test func dataChunkSmallerThanItsEditCountIsInvalid() {
        let log = cafVerified(cafHead(B.pcmDesc) + B.chunk("data", [0, 0]))
        #expect(log.error?.code == .invalidFile)
    }

    @Test func emptyDataIsValid() {
        let log = cafVerified(cafHead(B.pcmDesc) + B.chunk("data", B.data([])))
        #expect(log.error == nil)
        #expect(log.packetCount == 0)
        #expect(cafLast(log, .audioDataByteCount) == .audioDataByteCount(0))
    }

    @Test func streamEndingBeforeTheDataIsInvalid() {
        let bytes = cafHead(B.pcmDesc) + B.chunk("chan", B.be32(101 << 16 | 2) + B.be32(0) + B.be32(0))
        for n in [1, 4, 8, 20, 51, 52, 60, bytes.count] {
            let log = cafVerified(Array(bytes[0..<n]))
            #expect(log.error != nil, "\(n)")
        }
        #expect(cafVerified(Array(bytes[0..<2])).error?.code == .unsupportedFileType)
        #expect(cafVerified(bytes).error?.code == .invalidFile)
    }

    @Test func truncatedConstantDataAnnouncesTheRealCounts() {
        // 10 frames declared, 6 frames + 2 bytes present.
        let bytes = cafHead(B.pcmDesc) + B.chunk("data", B.data(B.pattern(40)))
        let log = cafVerified(Array(bytes[0..<(bytes.count - 14)]))
        #expect(log.error == nil)
        #expect(log.packetCount == 6)
        #expect(cafLast(log, .audioDataPacketCount) == .audioDataPacketCount(6))
        #expect(cafLast(log, .audioDataByteCount) == .audioDataByteCount(26))
        #expect(!cafDiagnostics(log).isEmpty)
    }

    @Test func channelDescriptionsAreDecodedAndBounded() {
        // UseChannelDescriptions (0) with 2 descriptions: Left (1) at (−1, 0, 0), Right (2) at (1, 0, 0).
        func description(_ label: UInt32, _ x: Float) -> [UInt8] {
            B.be32(label) + B.be32(0) + B.be32(x.bitPattern) + B.be32(0) + B.be32(0)
        }
        let body = B.be32(0) + B.be32(0) + B.be32(2) + description(1, -1) + description(2, 1)
        let log = cafVerified(cafHead(B.pcmDesc) + B.chunk("chan", body) + B.chunk("data", B.data([])))
        let descriptions = [
            ChannelDescription(label: 1, coordinates: [-1, 0, 0]),
            ChannelDescription(label: 2, coordinates: [1, 0, 0]),
        ]
        #expect(
            cafLast(log, .channelLayout)
                == .channelLayout(ChannelLayout(tag: .init(rawValue: 0), channelDescriptions: descriptions)))
        // A count that does not fit the chunk.
        let bad = B.be32(0) + B.be32(0) + B.be32(0x0FFF_FFFF) + description(1, 0)
        #expect(
            cafVerified(cafHead(B.pcmDesc) + B.chunk("chan", bad) + B.chunk("data", B.data([]))).error?.code
                == .invalidFile)
    }

    @Test func cookieLargerThanTheHeaderLimitIsRefused() {
        var limits = ParserLimits()
        limits.maxHeaderChunkBytes = 64
        let log = cafVerified(
            cafHead(B.pcmDesc) + B.chunk("kuki", B.pattern(65)) + B.chunk("data", B.data([])),
            options: ParserOptions(limits: limits))
        #expect(log.error?.code == .limitExceeded)
    }

    @Test func infoLargerThanTheTagLimitIsSkipped() {
        var limits = ParserLimits()
        limits.maxTagBytes = 16
        let info = B.info([("title", "A title that is long")])
        let log = cafVerified(
            cafHead(B.pcmDesc) + B.chunk("info", info) + B.chunk("data", B.data(B.pattern(4))),
            options: ParserOptions(limits: limits))
        #expect(log.error == nil)
        #expect(cafLast(log, .infoDictionary) == nil)
        #expect(cafDiagnostics(log).count == 1)
    }

    @Test func infoAfterTheDataIsAnnouncedAfterThePackets() {
        let bytes =
            cafHead(B.pcmDesc) + B.chunk("info", B.info([("artist", "Before")]))
            + B.chunk("data", B.data(B.pattern(8))) + B.chunk("info", B.info([("title", "After")]))
        let log = cafVerified(bytes)
        let metas = log.entries.compactMap { if case .property(.metadata(let m)) = $0 { m } else { nil } }
        #expect(metas.count == 2)
        #expect(metas.last?.info == [InfoKey.artist: "Before", InfoKey.title: "After"])
        let lastPacket = log.entries.lastIndex { if case .packets = $0 { true } else { false } } ?? -1
        let lastMeta = log.entries.lastIndex { if case .property(.metadata) = $0 { true } else { false } } ?? -1
        #expect(lastMeta > lastPacket)
    }

    @Test func infoWithFewerEntriesThanDeclared() {
        let body = B.be32(3) + Array("title\0T\0artist\0".utf8)
        let log = cafVerified(cafHead(B.pcmDesc) + B.chunk("info", body) + B.chunk("data", B.data([])))
        if case .metadata(let m)? = cafLast(log, .infoDictionary) {
            #expect(m.info == [InfoKey.title: "T"])
        } else {
            Issue.record("no metadata")
        }
        #expect(cafDiagnostics(log).contains { $0.contains("3 entries declared, 1 found") })
    }
}
