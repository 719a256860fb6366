import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

// Hand-built CAF streams: every expected value is worked out from Apple's "Core Audio Format
// Specification" in the comments.

private typealias B = CAFBuilder

@Suite("CAF: audio description")
struct CAFDescriptionTests {
    struct FlagCase: CustomStringConvertible, Sendable {
        var cafFlags: UInt32
        var bytesPerPacket: UInt32
        var bits: UInt32
        var asbdFlags: UInt32
        var description: String { "CAF flags \(cafFlags), \(bytesPerPacket) bytes, \(bits) bits" }
    }

    // CAF: IsFloat 1, IsLittleEndian 2. ASBD: IsFloat 1, IsBigEndian 2, IsSignedInteger 4, IsPacked 8,
    // IsAlignedHigh 16.
    static let flagCases: [FlagCase] = [
        FlagCase(cafFlags: 2, bytesPerPacket: 4, bits: 16, asbdFlags: 4 | 8),  // LE int: no BigEndian
        FlagCase(cafFlags: 0, bytesPerPacket: 4, bits: 16, asbdFlags: 2 | 4 | 8),  // BE int
        FlagCase(cafFlags: 3, bytesPerPacket: 8, bits: 32, asbdFlags: 1 | 8),  // LE float
        FlagCase(cafFlags: 1, bytesPerPacket: 16, bits: 64, asbdFlags: 1 | 2 | 8),  // BE double
        FlagCase(cafFlags: 2, bytesPerPacket: 8, bits: 24, asbdFlags: 4 | 16),  // 24 bits in 32: aligned high
        FlagCase(cafFlags: 0, bytesPerPacket: 2, bits: 8, asbdFlags: 4 | 8),  // 8-bit: byte order meaningless
    ]

    @Test("linear PCM flags are translated", arguments: flagCases)
    func linearPCMFlags(_ c: FlagCase) {
        let desc = B.desc(
            rate: 48000, format: "lpcm", flags: c.cafFlags, bytesPerPacket: c.bytesPerPacket, framesPerPacket: 1,
            channels: 2, bits: c.bits)
        let log = cafVerified(cafHead(desc) + B.chunk("data", B.data(B.pattern(Int(c.bytesPerPacket) * 3))))
        let expected = StreamDescription(
            sampleRate: 48000, formatID: .linearPCM, formatFlags: c.asbdFlags, bytesPerPacket: c.bytesPerPacket,
            framesPerPacket: 1, bytesPerFrame: c.bytesPerPacket, channelsPerFrame: 2, bitsPerChannel: c.bits)
        #expect(cafLast(log, .dataFormat) == .dataFormat(expected))
        #expect(log.packetCount == 3)
    }

    @Test func otherFormatsPassTheirFieldsThrough() {
        // ALAC flags carry the source bit depth code (4 = 32-bit); nothing is translated.
        let desc = B.desc(
            rate: 96000, format: "alac", flags: 4, bytesPerPacket: 0, framesPerPacket: 4096, channels: 2, bits: 0)
        let log = cafVerified(cafHead(desc) + B.chunk("data", B.data([])))
        #expect(log.error?.code == .notOptimized)
        #expect(
            cafLast(log, .dataFormat)
                == .dataFormat(
                    StreamDescription(
                        sampleRate: 96000, formatID: .appleLossless, formatFlags: 4, bytesPerPacket: 0,
                        framesPerPacket: 4096,
                        bytesPerFrame: 0, channelsPerFrame: 2, bitsPerChannel: 0)))
    }

    struct BadCase: CustomStringConvertible, Sendable {
        var name: String
        var desc: [UInt8]
        var description: String { name }
    }

    static let badCases: [BadCase] = [
        BadCase(
            name: "rate 0",
            desc: B.desc(
                rate: 0, format: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16)),
        BadCase(
            name: "rate NaN",
            desc: B.desc(
                rate: .nan, format: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16)),
        BadCase(
            name: "rate infinite",
            desc: B.desc(
                rate: .infinity, format: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16)
        ),
        BadCase(
            name: "rate negative",
            desc: B.desc(
                rate: -44100, format: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16)),
        BadCase(
            name: "no channels",
            desc: B.desc(
                rate: 44100, format: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 0, bits: 16)),
        BadCase(
            name: "format 0",
            desc: B.be64((44100.0).bitPattern) + B.be32(0) + B.be32(0) + B.be32(4)
                + B.be32(1) + B.be32(2) + B.be32(16)),
        BadCase(
            name: "lpcm without bytes per packet",
            desc: B.desc(
                rate: 44100, format: "lpcm", flags: 2, bytesPerPacket: 0, framesPerPacket: 1, channels: 2, bits: 16)),
        BadCase(
            name: "lpcm with 2 frames per packet",
            desc: B.desc(
                rate: 44100, format: "lpcm", flags: 2, bytesPerPacket: 8, framesPerPacket: 2, channels: 2, bits: 16)),
        BadCase(
            name: "lpcm bits larger than the sample",
            desc: B.desc(
                rate: 44100, format: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 24)),
        BadCase(
            name: "lpcm packet not a whole number of samples",
            desc: B.desc(
                rate: 44100, format: "lpcm", flags: 2, bytesPerPacket: 5, framesPerPacket: 1, channels: 2, bits: 16)),
    ]

    @Test("an impossible description is invalidFile at the desc chunk", arguments: badCases)
    func invalidDescription(_ c: BadCase) {
        let log = cafVerified(cafHead(c.desc) + B.chunk("data", B.data(B.pattern(16))))
        #expect(log.error?.code == .invalidFile)
        #expect(log.error?.byteOffset == 8)
    }

    @Test func descShorterThan32BytesIsInvalid() {
        let log = cafVerified(B.fileHeader() + B.chunk("desc", Array(B.pcmDesc[0..<24])) + B.chunk("data", B.data([])))
        #expect(log.error?.code == .invalidFile)
    }

    @Test func firstChunkMustBeDesc() {
        let log = cafVerified(B.fileHeader() + B.chunk("free", [0, 0]) + B.chunk("desc", B.pcmDesc))
        #expect(log.error?.code == .invalidFile)
        #expect(log.error?.byteOffset == 8)
    }

    @Test func versionOtherThanOneIsUnsupported() {
        let log = cafVerified(B.fileHeader(version: 2) + B.chunk("desc", B.pcmDesc) + B.chunk("data", B.data([])))
        #expect(log.error?.code == .unsupportedFileType)
    }
}

@Suite("CAF: packet table")
struct CAFPacketTableTests {
    @Test func builderVarintsMatchHandEncoding() {
        // 1572 = 12 × 128 + 36 → 0x8C 0x24; 200 = 1 × 128 + 72 → 0x81 0x48; 127 → 0x7F; 128 → 0x81 0x00.
        #expect(B.varint(1572) == [0x8C, 0x24])
        #expect(B.varint(200) == [0x81, 0x48])
        #expect(B.varint(127) == [0x7F])
        #expect(B.varint(128) == [0x81, 0x00])
        #expect(B.varint(0) == [0x00])
    }

    /// AAC, 5 packets of 1572, 5, 200, 127, 128 bytes; priming 2112, remainder 1000.
    static func aacStream(dataSize: Int64? = nil, count: Int64 = 5) -> (bytes: [UInt8], dataStart: Int64) {
        let entries: [UInt8] = [0x8C, 0x24, 0x05, 0x81, 0x48, 0x7F, 0x81, 0x00]
        // 5 × 1024 = 5120 nominal frames − 2112 − 1000 = 2008 valid frames.
        let pakt = B.pakt(packets: count, valid: 2008, priming: 2112, remainder: 1000, entries: entries)
        let cookie: [UInt8] = [0x03, 0x19, 0x00, 0x00, 0x00, 0x04, 0x11, 0x40, 0x15, 0x00, 0x00, 0x00, 0x12, 0x10]
        let audio = B.pattern(1572 + 5 + 200 + 127 + 128)
        let prefix = cafHead(B.aacDesc) + B.chunk("kuki", cookie) + B.chunk("pakt", pakt)
        let bytes = prefix + B.chunk("data", B.data(audio), size: dataSize ?? Int64(audio.count + 4))
        return (bytes, Int64(prefix.count + 16))
    }

    @Test func varintEntriesDescribeEachPacket() {
        let (bytes, start) = Self.aacStream()
        let log = cafVerified(bytes)
        #expect(log.error == nil)
        let sizes = [1572, 5, 200, 127, 128]
        var offsets: [Int64] = []
        var o = start
        for s in sizes {
            offsets.append(o)
            o += Int64(s)
        }
        #expect(log.packets.map { $0.offset } == offsets)
        #expect(log.packets.map { $0.size } == sizes)
        #expect(log.packets.allSatisfy { $0.frames == 0 })
        #expect(cafLast(log, .dataOffset) == .dataOffset(start))
        #expect(cafLast(log, .audioDataByteCount) == .audioDataByteCount(2032))
        #expect(cafLast(log, .audioDataPacketCount) == .audioDataPacketCount(5))
        #expect(cafLast(log, .maximumPacketSize) == .maximumPacketSize(1572))
        #expect(cafLast(log, .packetSizeUpperBound) == .packetSizeUpperBound(1572))
        #expect(cafLast(log, .averageBytesPerPacket) == .averageBytesPerPacket(2032.0 / 5))
        // 2032 bytes × 8 × 44100 / 5120 frames = 140017.5 → 140018.
        #expect(cafLast(log, .bitRate) == .bitRate(140_018))
        #expect(
            cafLast(log, .packetTableInfo)
                == .packetTableInfo(
                    PacketTableInfo(numberValidFrames: 2008, primingFrames: 2112, remainderFrames: 1000)))
        #expect(
            cafLast(log, .magicCookieData)
                == .magicCookie(
                    [0x03, 0x19, 0x00, 0x00, 0x00, 0x04, 0x11, 0x40, 0x15, 0x00, 0x00, 0x00, 0x12, 0x10]))
        #expect(cafDiagnostics(log).isEmpty)
    }

    @Test func listenerOrderIsApples() {
        let log = cafVerified(Self.aacStream().bytes)
        let order = log.propertyOrder
        #expect(
            order == [
                .fileFormat, .dataFormat, .formatList, .magicCookieData, .audioDataByteCount, .audioDataPacketCount,
                .maximumPacketSize, .packetSizeUpperBound, .averageBytesPerPacket, .bitRate, .packetTableInfo,
                .dataOffset, .readyToProducePackets,
            ])
    }

    @Test func variableFramesArePerPacket() throws {
        // framesPerPacket 0 and bytesPerPacket 0: each entry is (size, frames).
        let desc = B.desc(
            rate: 48000, format: "flac", flags: 0, bytesPerPacket: 0, framesPerPacket: 0, channels: 1, bits: 0)
        // (10, 100), (300 = 0x82 0x2C, 4096 = 0xA0 0x00), (1, 1)
        let entries: [UInt8] = [0x0A, 0x64, 0x82, 0x2C, 0xA0, 0x00, 0x01, 0x01]
        let pakt = B.pakt(packets: 3, valid: 4197, priming: 0, remainder: 0, entries: entries)
        let bytes = cafHead(desc) + B.chunk("pakt", pakt) + B.chunk("data", B.data(B.pattern(311)))
        let log = cafVerified(bytes)
        #expect(log.error == nil)
        #expect(log.packets.map { $0.size } == [10, 300, 1])
        #expect(log.packets.map { $0.frames } == [100, 4096, 1])

        let parser = AudioStreamParser()
        try parser.parse(bytes)
        try parser.finish()
        #expect(parser.packetToFrame(2) == Translation(value: 4196, isEstimated: false))
        #expect(
            parser.frameToPacket(150)
                == Translation(
                    value: PacketPosition(packet: 1, offsetInPacket: 50), isEstimated: false))
        #expect(parser.packetToByte(1) == Translation(value: 10, isEstimated: false))
        #expect(parser.parsedFrameCount == 4197)
    }

    @Test func varintRunningPastTheChunkIsInvalidAtItsEntry() {
        // Second entry starts 0x8C (continuation) and the chunk ends there.
        let pakt = B.pakt(packets: 2, valid: 2048, priming: 0, remainder: 0, entries: [0x05, 0x8C])
        let prefix = cafHead(B.aacDesc)
        let log = cafVerified(prefix + B.chunk("pakt", pakt) + B.chunk("data", B.data(B.pattern(10))))
        #expect(log.error?.code == .invalidFile)
        // Entry 1 sits at pakt chunk + 12 + 24 + 1.
        #expect(log.error?.byteOffset == Int64(prefix.count + 12 + 24 + 1))
    }

    @Test func varintLongerThanTenBytesIsInvalid() {
        let long: [UInt8] = Array(repeating: 0x80, count: 10) + [0x01]
        let pakt = B.pakt(packets: 1, valid: 1024, priming: 0, remainder: 0, entries: long)
        let log = cafVerified(cafHead(B.aacDesc) + B.chunk("pakt", pakt) + B.chunk("data", B.data(B.pattern(10))))
        #expect(log.error?.code == .invalidFile)
        // 10 bytes whose value needs 65 bits: 0x82 then nine 0x80/0x00 groups.
        let wide: [UInt8] = [0x82] + Array(repeating: 0x80, count: 8) + [0x00]
        let pakt2 = B.pakt(packets: 1, valid: 1024, priming: 0, remainder: 0, entries: wide)
        let log2 = cafVerified(cafHead(B.aacDesc) + B.chunk("pakt", pakt2) + B.chunk("data", B.data(B.pattern(10))))
        #expect(log2.error?.code == .invalidFile)
    }

    @Test func absurdPacketCountDoesNotDriveAllocation() {
        for count: Int64 in [1 << 40, Int64.max] {
            let (bytes, _) = Self.aacStream(count: count)
            let log = cafVerified(bytes)
            #expect(log.error == nil)
            #expect(log.packetCount == 5)
            #expect(cafDiagnostics(log).contains { $0.contains("mNumberPackets is \(count)") })
            // The gapless info is checked against the 5 packets present (5 × 1024 = 2008 + 2112 + 1000).
            #expect(
                cafLast(log, .packetTableInfo)
                    == .packetTableInfo(
                        PacketTableInfo(numberValidFrames: 2008, primingFrames: 2112, remainderFrames: 1000)))
        }
    }

    @Test func zeroPaddingAfterTheEntriesIsSilent() {
        let pakt = B.pakt(packets: 2, valid: 2048, priming: 0, remainder: 0, entries: [0x05, 0x06, 0, 0, 0])
        let log = cafVerified(cafHead(B.aacDesc) + B.chunk("pakt", pakt) + B.chunk("data", B.data(B.pattern(11))))
        #expect(log.error == nil)
        #expect(log.packets.map { $0.size } == [5, 6])
        #expect(cafDiagnostics(log).isEmpty)
    }

    @Test func negativePacketCountIsInvalid() {
        let (bytes, _) = Self.aacStream(count: -1)
        #expect(cafVerified(bytes).error?.code == .invalidFile)
    }

    @Test func tableEntriesAreCappedByTheLimit() {
        var limits = ParserLimits()
        limits.maxPacketTableEntries = 4
        let log = cafVerified(Self.aacStream().bytes, options: ParserOptions(limits: limits))
        #expect(log.error?.code == .limitExceeded)
    }

    @Test func packetLargerThanMaxPacketBytesIsRefused() {
        var limits = ParserLimits()
        limits.maxPacketBytes = 1000
        let log = cafVerified(Self.aacStream().bytes, options: ParserOptions(limits: limits))
        #expect(log.error?.code == .limitExceeded)
    }

    @Test func tableShorterThanTheDataSkipsTheRest() {
        // mNumberPackets 1: only the first entry (1572 bytes) is used; the trailing entry bytes and the
        // 460 audio bytes no entry describes are skipped with diagnostics.
        let (bytes, start) = Self.aacStream(count: 1)
        let log = cafVerified(bytes + B.chunk("info", B.info([("title", "After")])))
        #expect(log.error == nil)
        #expect(log.packets.map { $0.offset } == [start])
        #expect(log.packets.map { $0.size } == [1572])
        let diagnostics = log.diagnostics
        #expect(diagnostics.contains { $0.kind == .junkSkipped && $0.message.contains("6 bytes after the last entry") })
        #expect(diagnostics.contains { $0.kind == .junkSkipped && $0.message.contains("460 bytes after the table") })
        // The chunk after the data is still read.
        #expect(diagnostics.contains { $0.kind == .inconsistentValues && $0.message.contains("1572 bytes but") })
        if case .metadata(let m)? = cafLast(log, .infoDictionary) {
            #expect(m.info[InfoKey.title] == "After")
        } else {
            Issue.record("no metadata")
        }
    }

    @Test func dataOfUnknownSizeWithTheTableFirst() {
        let (bytes, _) = Self.aacStream(dataSize: -1)
        let log = cafVerified(bytes)
        #expect(log.error == nil)
        #expect(log.packetCount == 5)
        // The counts come from the table.
        #expect(cafLast(log, .audioDataByteCount) == .audioDataByteCount(2032))
        #expect(cafLast(log, .audioDataPacketCount) == .audioDataPacketCount(5))
        #expect(cafDiagnostics(log).isEmpty)
    }

    @Test func variableDataOfUnknownSizeWithoutTableIsInvalid() {
        let log = cafVerified(cafHead(B.aacDesc) + B.chunk("data", B.data(B.pattern(100)), size: -1))
        #expect(log.error?.code == .invalidFile)
        #expect(log.error?.byteOffset == 52)
    }

    @Test func tableAfterDataIsNotOptimized() {
        let pakt = B.pakt(packets: 1, valid: 1024, priming: 0, remainder: 0, entries: [0x64])
        let file = cafHead(B.aacDesc) + B.chunk("data", B.data(B.pattern(100))) + B.chunk("pakt", pakt)
        let log = cafVerified(file)
        #expect(log.error?.code == .notOptimized)
        // Where the table is needed: the end of the data chunk (52 + 12-byte header + 4-byte edit count + 100).
        #expect(log.error?.byteOffset == 168)
        #expect(log.propertyOrder == [.fileFormat, .dataFormat])  // no format list: the header was not published

        // Read ahead (range requests, or holding the audio): the one 100-byte packet after the edit count.
        let (requested, _, failures) = RangeRequestRunner.verify(
            file, options: ParserOptions(allowsByteRangeRequests: true))
        let held = cafVerified(file, options: ParserOptions(bufferUnparsedMediaUpTo: 1000))
        #expect(failures.isEmpty, "\(failures)")
        for log in [requested, held] {
            #expect(log.error == nil)
            #expect(log.packets.map { $0.offset } == [68])
            #expect(log.packets.map { $0.size } == [100])
            #expect(
                cafLast(log, .packetTableInfo)
                    == .packetTableInfo(PacketTableInfo(numberValidFrames: 1024, primingFrames: 0, remainderFrames: 0)))
        }
    }

    @Test func truncatedVariableDataAnnouncesTheRealCounts() {
        let (bytes, _) = Self.aacStream()
        // Cut inside packet 2 (1572 + 5 + 100 audio bytes present).
        let cut = Array(bytes[0..<(bytes.count - 2032 + 1677)])
        let log = cafVerified(cut)
        #expect(log.error == nil)
        #expect(log.packetCount == 2)
        #expect(cafLast(log, .audioDataByteCount) == .audioDataByteCount(1577))
        #expect(cafLast(log, .audioDataPacketCount) == .audioDataPacketCount(2))
        #expect(cafDiagnostics(log).contains { $0.contains("stream ends after 2 of 5 packets") })
    }

    @Test func constantFormatTableAfterDataAddsGaplessInfo() {
        // IMA4 mono: 34-byte packets of 64 frames; 3 packets = 192 frames − 100 priming − 12 remainder = 80.
        let desc = B.desc(
            rate: 22050, format: "ima4", flags: 0, bytesPerPacket: 34, framesPerPacket: 64, channels: 1, bits: 0)
        let pakt = B.pakt(packets: 3, valid: 80, priming: 100, remainder: 12, entries: [])
        let log = cafVerified(cafHead(desc) + B.chunk("data", B.data(B.pattern(102))) + B.chunk("pakt", pakt))
        #expect(log.error == nil)
        #expect(log.packets.map { $0.size } == [34, 34, 34])
        // Announced after the packets.
        let lastPacket = log.entries.lastIndex { if case .packets = $0 { true } else { false } } ?? -1
        let info = log.entries.lastIndex { if case .property(.packetTableInfo) = $0 { true } else { false } } ?? -1
        #expect(info > lastPacket)
        #expect(
            cafLast(log, .packetTableInfo)
                == .packetTableInfo(
                    PacketTableInfo(numberValidFrames: 80, primingFrames: 100, remainderFrames: 12)))
    }
}
