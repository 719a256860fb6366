import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// Implicitly signalled HE-AAC in MP4 (docs/formats/mp4.md, "Implicit HE-AAC"): the ADTS fixtures'
/// frames remuxed by ffmpeg (`-c:a copy`), `moov` last and `+faststart`. The `esds` says AAC-LC at
/// 22050 Hz; the samples carry SBR. Expected values from the ffprobe oracles beside the fixtures
/// (HE-AAC / HE-AACv2, 44100 Hz, 2 channels, time base 1/44100, 2048 per packet, 23 or 12 packets,
/// packet offsets) and by hand from ISO/IEC 14496-3 §1.6.5 (the layers, as `ADTSHEAACTests`).
@Suite("MP4 implicit HE-AAC")
struct MP4HEAACTests {
    typealias Layers = [StreamDescription]
    static let twoChannels: Layers = [ADTSHEAACTests.he2, ADTSHEAACTests.core2]
    static let monoCore: Layers = [ADTSHEAACTests.v2, ADTSHEAACTests.he1, ADTSHEAACTests.core1]
    /// A mono core whose first SBR payload has no PS extension: HE-AAC v1, mono (ffprobe says HE-AACv2
    /// stereo for any mono SBR stream; docs/testing.md).
    static let monoWithoutPS: Layers = [ADTSHEAACTests.he1, ADTSHEAACTests.core1]

    /// (fixture, layers, packets in the oracle).
    static let cases: [(String, Layers, Int)] = [
        ("mp4/heaac-44100-2ch-implicit.m4a", twoChannels, 23),
        ("mp4/heaac-44100-2ch-implicit-faststart.m4a", twoChannels, 23),
        ("mp4/heaac-44100-1ch-implicit.m4a", monoWithoutPS, 12),
        ("mp4/heaac-44100-1ch-implicit-faststart.m4a", monoWithoutPS, 12),
        ("mp4/heaacv2-44100-2ch-implicit.m4a", monoCore, 12),
        ("mp4/heaacv2-44100-2ch-implicit-faststart.m4a", monoCore, 12),
    ]

    static func bytes(_ path: String) throws -> [UInt8] { try FixtureCatalog.fixture(path).bytes() }
    static let held = ParserOptions(bufferUnparsedMediaUpTo: ParserLimits().maxBufferedBytes)

    @Test("the HE-AAC layers, 2048 frames per packet, the duration and gapless info", arguments: cases)
    func layersAndCounts(path: String, layers: Layers, packets: Int) throws {
        let log = ParseRunner.run(try Self.bytes(path), chunking: .whole, options: Self.held)
        #expect(log.error == nil, "\(path): \(String(describing: log.error))")
        let (data, list) = ADTSHEAACTests.formats(log)
        #expect(data == layers[0], "\(path)")
        #expect(list == layers, "\(path)")
        #expect(log.diagnostics.isEmpty, "\(path): \(log.diagnostics)")
        let layout: ChannelLayout.Tag = layers[0].channelsPerFrame == 2 ? .stereo : .mono
        #expect(log.lastValues[.channelLayout] == .channelLayout(ChannelLayout(tag: layout)), "\(path)")
        // The cookie stays the esds: AAC-LC, 22050 Hz.
        #expect(ADTSHEAACTests.cookieIsTheCore(log), "\(path)")
        // Every packet decodes to 2048 frames at 44100 Hz (the oracle's durations at time base 1/44100): the
        // format's framesPerPacket, so no packet carries a variable count.
        #expect(log.packets.count == packets && log.packets.allSatisfy { $0.frames == 0 }, "\(path)")
        // The edit list (media_time 0, segment ≥ the samples) leaves every frame valid.
        let frames = Int64(packets * 2048)
        #expect(
            log.lastValues[.packetTableInfo]
                == .packetTableInfo(PacketTableInfo(numberValidFrames: frames, primingFrames: 0, remainderFrames: 0)),
            "\(path)")
        let (parser, _) = try SeekTests.prepare(try Self.bytes(path), .wholeFile, options: Self.held)
        #expect(parser.estimatedDuration?.frames == frames, "\(path)")
        #expect(parser.estimatedDuration?.isEstimated == false, "\(path)")
    }

    @Test("every chunking gives the same events, with held media and with default options", arguments: cases)
    func chunkings(path: String, layers: Layers, packets: Int) throws {
        let bytes = try Self.bytes(path)
        let (log, failures) = ChunkingVerifier.verify(bytes, options: Self.held)
        #expect(failures.isEmpty, "\(path): \(failures)")
        #expect(ADTSHEAACTests.formats(log).0 == layers[0])
        if path.hasSuffix("-faststart.m4a") {
            // Streamed as Apple's parser would: the header is held until the first sample, then the HE layers.
            let (plain, failures) = ChunkingVerifier.verify(bytes)
            #expect(failures.isEmpty, "\(path): \(failures)")
            #expect(ADTSHEAACTests.formats(plain).0 == layers[0])
            #expect(plain.packetCount == packets)
            // The format comes before readyToProducePackets and the first packet, and only once.
            let order = plain.propertyOrder
            #expect(order.filter { $0 == .dataFormat }.count == 1)
            let ready = try #require(order.firstIndex(of: .readyToProducePackets))
            #expect(try #require(order.firstIndex(of: .dataFormat)) < ready)
        }
    }

    /// 0.5 s = frame 22050 at 44100 Hz: packet 22050 / 2048 = 10, 1570 frames into it; AAC's roll distance 1
    /// starts at packet 9 (frame 18432), 3618 frames to drop; packet 9 is at the oracle's offset.
    @Test(
        "a time seek lands on the oracle's packet",
        arguments: [
            ("mp4/heaac-44100-2ch-implicit.m4a", Int64(6140)),
            ("mp4/heaac-44100-2ch-implicit-faststart.m4a", Int64(6947)),
        ])
    func timeSeek(path: String, packet9: Int64) throws {
        let (parser, _) = try SeekTests.prepare(try Self.bytes(path), .wholeFile, options: Self.held)
        let result = try parser.seek(toTime: 0.5)
        #expect(result.frame == 22050 && result.primingFrames == 0)
        #expect(result.position.packet == 10 && result.position.offsetInPacket == 1570)
        #expect(result.rollDistance == 1 && result.startPacket == 9 && result.framesToDiscard == 3618)
        #expect(result.target.absoluteOffset == packet9 && !result.isEstimated)
    }

    /// A writer that keeps the core rate as the media timescale (22050, `stts` 1024; the bytes of the
    /// fixture rewritten in place): 1024 ticks at 22050 Hz are 2048 frames at 44100 Hz, exactly.
    @Test("a core-rate timescale converts exactly")
    func coreRateTimescale() throws {
        var bytes = try Self.bytes("mp4/heaac-44100-2ch-implicit-faststart.m4a")
        let mdhd = try #require(Self.find("mdhd", in: bytes))
        let stts = try #require(Self.find("stts", in: bytes))
        // mdhd v0: size, type, version/flags, creation, modification, timescale, duration.
        Self.write(22050, at: mdhd + 20, in: &bytes)
        Self.write(47104 / 2, at: mdhd + 24, in: &bytes)
        // stts: size, type, version/flags, entry_count, then (count 23, delta 2048).
        #expect(Self.read(at: stts + 16, in: bytes) == 23 && Self.read(at: stts + 20, in: bytes) == 2048)
        Self.write(1024, at: stts + 20, in: &bytes)
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(ADTSHEAACTests.formats(log).0 == ADTSHEAACTests.he2)
        #expect(log.packets.count == 23 && log.packets.allSatisfy { $0.frames == 0 })
        let (parser, _) = try SeekTests.prepare(bytes, .wholeFile)
        #expect(parser.estimatedDuration?.frames == 47104)
        let result = try parser.seek(toTime: 0.5)
        #expect(result.position.packet == 10 && result.position.offsetInPacket == 1570)
    }

    /// The oracle's first sample of the fast-start file: offset 851, 659 bytes (its `first_pos` and size).
    @Test("a stream that ends inside the first sample: the core, published at finish, in every chunking")
    func endsBeforeTheFirstSample() throws {
        let bytes = Array(try Self.bytes("mp4/heaac-44100-2ch-implicit-faststart.m4a")[..<(851 + 100)])
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(ADTSHEAACTests.formats(log).0 == ADTSHEAACTests.core2)
        #expect(log.packetCount == 0)
        #expect(log.diagnostics.map(\.kind) == [.truncated], "\(log.diagnostics)")
    }

    @Test("a damaged first sample: the core and one diagnostic, in every chunking")
    func damagedFirstSample() throws {
        var bytes = try Self.bytes("mp4/heaac-44100-2ch-implicit-faststart.m4a")
        // As in ADTSHEAACTests: zeros after the first byte make channel elements that never reach END.
        for i in (851 + 1)..<(851 + 659) { bytes[i] = 0 }
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(ADTSHEAACTests.formats(log).0 == ADTSHEAACTests.core2)
        #expect(log.packetCount == 23)
        let messages = log.diagnostics.map(\.message)
        #expect(messages.count == 1 && messages.first?.contains("could not be read to its end") == true, "\(messages)")
    }

    @Test("AAC-LC fixtures keep one layer and no diagnostic")
    func plainLC() throws {
        for path in ["mp4/aac-44100-2ch-faststart.m4a", "mp4/aac-22050-1ch-chapters.m4b", "mp4/aac-44100-2ch-frag.mp4"]
        {
            let log = ParseRunner.run(try Self.bytes(path), chunking: .whole, options: Self.held)
            let (data, list) = ADTSHEAACTests.formats(log)
            #expect(data?.formatID == .mpeg4AAC && list.count <= 1, "\(path)")
            #expect(log.diagnostics.isEmpty, "\(path): \(log.diagnostics)")
        }
    }

    /// The offset of the first box of type `type` (a plain byte search: the fixture has one).
    static func find(_ type: String, in bytes: [UInt8]) -> Int? {
        let code = Array(type.utf8)
        guard bytes.count >= 8 else { return nil }
        for i in 4..<(bytes.count - 4) where Array(bytes[i..<(i + 4)]) == code { return i - 4 }
        return nil
    }

    static func read(at offset: Int, in bytes: [UInt8]) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func write(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(k))) }
    }
}
