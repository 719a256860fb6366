import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// ADTS AAC: every fixture against the committed ffprobe oracle (packets = oracle packets with the
/// 7- or 9-byte header removed), data formats, configurations and cookies derived by hand from the
/// header bits (ISO/IEC 14496-3 §1.6.2.1, 14496-1 §7.2.6.5), and every chunking.
@Suite("ADTS AAC")
struct ADTSTests {
    /// What each fixture's first header says, decoded by hand from its bytes (sampling frequency from
    /// the index table, channel configuration), and the AudioSpecificConfig those bits give:
    /// audioObjectType 2 (5 bits) | samplingFrequencyIndex (4) | channelConfiguration (4) | 000.
    struct Expected: Sendable {
        var rate: Double
        var channels: UInt32
        var configuration: Int
        var asc: [UInt8]
    }

    static let lavc: [UInt8] = Array("Lavc".utf8)

    static let expected: [String: Expected] = [
        // 00010 1011 0001 000 → 0001 0101 1000 1000
        "aac-8000-1ch.aac": Expected(rate: 8000, channels: 1, configuration: 1, asc: [0x15, 0x88]),
        // 00010 1100 0001 000 → 0001 0110 0000 1000
        "aac-7350-1ch.aac": Expected(rate: 7350, channels: 1, configuration: 1, asc: [0x16, 0x08]),
        // 00010 0111 0010 000 → 0001 0011 1001 0000
        "aac-22050-2ch.aac": Expected(rate: 22050, channels: 2, configuration: 2, asc: [0x13, 0x90]),
        // 00010 0100 0001 000 → 0001 0010 0000 1000
        "aac-44100-1ch.aac": Expected(rate: 44100, channels: 1, configuration: 1, asc: [0x12, 0x08]),
        // 00010 0100 0010 000 → 0001 0010 0001 0000
        "aac-44100-2ch.aac": Expected(rate: 44100, channels: 2, configuration: 2, asc: [0x12, 0x10]),
        "aac-44100-2ch-crc.aac": Expected(rate: 44100, channels: 2, configuration: 2, asc: [0x12, 0x10]),
        "aac-44100-2ch-mpeg2.aac": Expected(rate: 44100, channels: 2, configuration: 2, asc: [0x12, 0x10]),
        "aac-44100-2ch-id3v2.aac": Expected(rate: 44100, channels: 2, configuration: 2, asc: [0x12, 0x10]),
        "aac-44100-2ch-two-id3v2.aac": Expected(rate: 44100, channels: 2, configuration: 2, asc: [0x12, 0x10]),
        "aac-44100-2ch-apetag.aac": Expected(rate: 44100, channels: 2, configuration: 2, asc: [0x12, 0x10]),
        // 00010 0011 0010 000 → 0001 0001 1001 0000
        "aac-48000-2ch.aac": Expected(rate: 48000, channels: 2, configuration: 2, asc: [0x11, 0x90]),
        // 00010 0000 0010 000 → 0001 0000 0001 0000
        "aac-96000-2ch.aac": Expected(rate: 96000, channels: 2, configuration: 2, asc: [0x10, 0x10]),
        // channel configurations 3…7 at 48 kHz: 0001 0001 1 | ccc c000
        "aac-48000-3ch.aac": Expected(rate: 48000, channels: 3, configuration: 3, asc: [0x11, 0x98]),
        "aac-48000-4ch.aac": Expected(rate: 48000, channels: 4, configuration: 4, asc: [0x11, 0xA0]),
        "aac-48000-5ch.aac": Expected(rate: 48000, channels: 5, configuration: 5, asc: [0x11, 0xA8]),
        "aac-48000-6ch.aac": Expected(rate: 48000, channels: 6, configuration: 6, asc: [0x11, 0xB0]),
        "aac-48000-8ch.aac": Expected(rate: 48000, channels: 8, configuration: 7, asc: [0x11, 0xB8]),
        // Channel configuration 0: 0x11 0x80 (LC, 48 kHz, configuration 0, GASpecificConfig 000), then
        // the frame's program_config_element re-aligned to the configuration. Decoded by hand for 2.1:
        // 04 c4 01 00 20 = tag 0000, object_type 01, sfi 0011, front 0001, side 0000, back 0000,
        // lfe 01, assoc 000, cc 0000, mono/stereo/matrix 0 0 0, front[0] CPE tag 0000, lfe[0] tag
        // 0000, align; 04 = 4 comment bytes "Lavc". Front CPE + LFE = 3 channels. The same bytes as
        // ffmpeg 5.1's aac_adtstoasc writes when the file is remuxed to .m4a (checked for all three).
        "aac-48000-3ch-pce.aac": Expected(
            rate: 48000, channels: 3, configuration: 0,
            asc: [0x11, 0x80, 0x04, 0xC4, 0x01, 0x00, 0x20, 0x00, 0x04] + lavc),
        // quad: front CPE + back CPE (04 c4 04 00 21 10: back 0001, front[0] CPE, back[0] CPE tag 0001).
        "aac-48000-4ch-pce.aac": Expected(
            rate: 48000, channels: 4, configuration: 0,
            asc: [0x11, 0x80, 0x04, 0xC4, 0x04, 0x00, 0x21, 0x10, 0x04] + lavc),
        "aac-48000-7ch-pce.aac": Expected(
            rate: 48000, channels: 7, configuration: 0,
            asc: [0x11, 0x80, 0x04, 0xC8, 0x48, 0x00, 0x20, 0x00, 0xC4, 0x40, 0x04] + lavc),
    ]

    /// CoreAudio layout tags for channel configurations 1…7 (CoreAudioBaseTypes.h).
    static let layoutTags: [Int: UInt32] = [
        1: 100 << 16 | 1, 2: 101 << 16 | 2, 3: 114 << 16 | 3, 4: 116 << 16 | 4, 5: 120 << 16 | 5, 6: 124 << 16 | 6,
        7: 127 << 16 | 8,
    ]

    static var fixtureNames: [String] { expected.keys.sorted() }

    @Test("fixture packets are the oracle's frames without their headers", arguments: fixtureNames)
    func fixtureMatchesOracle(_ name: String) throws {
        let bytes = try ADTSFixtures.bytes("adts/\(name)")
        let oracle = try ADTSFixtures.oracle("adts/\(name)")
        let expected = try #require(Self.expected[name])
        let frames = try ADTSFixtures.packets(oracle)
        let stream = try #require(oracle["stream"] as? [String: Any])
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error == nil)

        // ffprobe's packet = the whole ADTS frame; ours = the raw data block after the header
        // (7 bytes, 9 when protection_absent is 0 — read from the frame's own header bit).
        var wanted: [(Int64, Int)] = []
        for f in frames {
            let headerLength = bytes[Int(f.pos) + 1] & 1 == 1 ? 7 : 9
            wanted.append((f.pos + Int64(headerLength), f.size - headerLength))
        }
        let got = log.packets
        #expect(got.count == wanted.count)
        #expect(got.map(\.offset) == wanted.map(\.0))
        #expect(got.map(\.size) == wanted.map(\.1))
        #expect(got.allSatisfy { $0.frames == 0 })
        #expect(frames.allSatisfy { $0.duration == 1024 })

        let values = log.lastValues
        let first = try #require(frames.first)
        let last = try #require(frames.last)
        #expect(values[.fileFormat] == .fileFormat(.aacADTS))
        #expect(values[.dataOffset] == .dataOffset(first.pos))
        #expect(values[.audioDataPacketCount] == .audioDataPacketCount(UInt64(frames.count)))
        #expect(values[.audioDataByteCount] == .audioDataByteCount(UInt64(last.pos + Int64(last.size) - first.pos)))

        let format = StreamDescription(
            sampleRate: expected.rate, formatID: .mpeg4AAC, formatFlags: 2, bytesPerPacket: 0, framesPerPacket: 1024,
            bytesPerFrame: 0, channelsPerFrame: expected.channels, bitsPerChannel: 0)
        #expect(values[.dataFormat] == .dataFormat(format))
        #expect(Double(stream["sample_rate"] as? Int ?? 0) == expected.rate)
        #expect(UInt32(stream["channels"] as? Int ?? 0) == expected.channels)
        let tag = Self.layoutTags[expected.configuration].map(ChannelLayout.Tag.init(rawValue:))
        #expect(values[.channelLayout] == tag.map { .channelLayout(ChannelLayout(tag: $0)) })
        let item = FormatListItem(streamDescription: format, channelLayoutTag: tag ?? ChannelLayout.Tag(rawValue: 0))
        #expect(values[.formatList] == .formatList([item]))
        let cookie = ADTSFixtures.esDescriptor(asc: expected.asc, channels: expected.channels, rate: expected.rate)
        #expect(values[.magicCookieData] == .magicCookie(cookie))
        #expect(values[.packetSizeUpperBound] == .packetSizeUpperBound(8184))
        #expect(values[.maximumPacketSize] == .maximumPacketSize(UInt32(wanted.map(\.1).max() ?? 0)))
        #expect(values[.restrictsRandomAccess] == .restrictsRandomAccess(false))
        // Exact at finish: frame bytes (headers included) × 8 over the frames' duration; packet bytes
        // over packets.
        let frameBytes = frames.reduce(0) { $0 + $1.size }
        let seconds = Double(frames.count * 1024) / expected.rate
        #expect(values[.bitRate] == .bitRate(UInt32((Double(frameBytes) * 8 / seconds).rounded())))
        let payload = wanted.reduce(0) { $0 + $1.1 }
        #expect(values[.averageBytesPerPacket] == .averageBytesPerPacket(Double(payload) / Double(frames.count)))
    }

    @Test("every ADTS fixture gives the same events in every chunking", arguments: ADTSFixtures.allFixtures)
    func chunkingVerifier(_ name: String) throws {
        let bytes = try ADTSFixtures.bytes("adts/\(name)")
        let (reference, failures) = ChunkingVerifier.verify(bytes)
        #expect(reference.error == nil)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("three concatenated copies of a stream parse as one stream, in every chunking")
    func concatenated() throws {
        let one = try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")
        let (log, failures) = ChunkingVerifier.verify(one + one + one)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.packetCount == 3 * 45)
        #expect(!log.entries.contains { if case .diagnostic = $0 { true } else { false } })
    }

    @Test("listener order follows Apple's, with ready last before packets")
    func listenerOrder() throws {
        let log = ParseRunner.run(try ADTSFixtures.bytes("adts/aac-44100-2ch.aac"), chunking: .bytewise)
        let order = log.propertyOrder
        let header: [AudioStreamPropertyID] = [
            .fileFormat, .dataFormat, .formatList, .magicCookieData, .channelLayout, .maximumPacketSize,
            .packetSizeUpperBound, .averageBytesPerPacket, .bitRate, .restrictsRandomAccess, .dataOffset,
            .readyToProducePackets,
        ]
        #expect(Array(order.prefix(header.count)) == header)
        guard case .packets? = log.entries.first(where: { if case .property = $0 { false } else { true } }) else {
            Issue.record("the first non-property event is not a packet batch")
            return
        }
        // Running values after 16 packets, exact values at finish.
        #expect(order.dropFirst(header.count).filter { $0 == .bitRate }.count == 2)
    }

    @Test("leading ID3v2 tags are read into the header's metadata; the data offset is the first frame")
    func leadingTag() throws {
        for (name, offset) in [("aac-44100-2ch-id3v2.aac", 65), ("aac-44100-2ch-two-id3v2.aac", 130)] {
            let log = ParseRunner.run(try ADTSFixtures.bytes("adts/\(name)"), chunking: .random(seed: 5, maxSize: 7))
            #expect(log.lastValues[.dataOffset] == .dataOffset(Int64(offset)))
            #expect(ADTSFixtures.diagnostics(log).isEmpty)
            // Announced with the header (before readyToProducePackets); two tags are merged.
            let order = log.propertyOrder
            let info = try #require(order.firstIndex(of: .infoDictionary))
            #expect(info < (order.firstIndex(of: .readyToProducePackets) ?? 0))
            guard case .metadata(let metadata)? = log.lastValues[.infoDictionary] else {
                Issue.record("no metadata")
                continue
            }
            #expect(metadata.info == [InfoKey.title: "ADTS Title", InfoKey.artist: "ADTS Artist"])
            #expect(metadata.tags.count == (offset == 65 ? 2 : 4))
        }
    }
}

/// Fixture access and hand-built expectations shared by the ADTS suites.
enum ADTSFixtures {
    static var root: URL { URL(fileURLWithPath: FixtureCatalog.fixturesRoot) }

    static var allFixtures: [String] {
        let folder = root.appendingPathComponent("adts").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".aac") }.sorted()
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }

    static func oracle(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent(path + ".ffprobe.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    struct OraclePacket {
        var pos: Int64
        var size: Int
        var duration: Int?
    }

    static func packets(_ oracle: [String: Any]) throws -> [OraclePacket] {
        let rows = try #require(oracle["packets"] as? [[Any]])
        return try rows.map { row in
            OraclePacket(
                pos: Int64(try #require(row[0] as? Int)), size: try #require(row[1] as? Int), duration: row[2] as? Int)
        }
    }

    static func diagnostics(_ log: EventLog) -> [ParserDiagnostic] {
        log.entries.compactMap { if case .diagnostic(let d) = $0 { d } else { nil } }
    }

    /// The ES_Descriptor written from ISO/IEC 14496-1 §7.2.6.5–8 by hand: 4-byte sizes, ES_ID 0,
    /// objectTypeIndication 0x40, streamType 5 (byte 0x15), bufferSizeDB 768 × channels, maxBitrate
    /// 6144 × channels × rate / 1024, avgBitrate 0, DecoderSpecificInfo = the configuration,
    /// SLConfigDescriptor predefined 2.
    static func esDescriptor(asc: [UInt8], channels: UInt32, rate: Double) -> [UInt8] {
        func size(_ n: Int) -> [UInt8] { [0x80, 0x80, 0x80, UInt8(n)] }
        func be(_ v: UInt32, _ n: Int) -> [UInt8] { (0..<n).reversed().map { UInt8(v >> (8 * UInt32($0)) & 0xFF) } }
        let dsi: [UInt8] = [0x05] + size(asc.count) + asc
        let maxBitrate = UInt32(6144 * Double(channels) * rate / 1024)
        let dcd: [UInt8] =
            [0x04] + size(13 + dsi.count) + [0x40, 0x15] + be(768 * channels, 3) + be(maxBitrate, 4) + be(0, 4) + dsi
        let sl: [UInt8] = [0x06] + size(1) + [0x02]
        let body: [UInt8] = [0x00, 0x00, 0x00] + dcd + sl
        return [0x03] + size(body.count) + body
    }
}
