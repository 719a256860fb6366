import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// The raw_data_block reader (Codecs/AAC/AACRawDataBlock.swift) over every AAC packet of every
/// fixture: each block must end, after END and byte_alignment(), exactly where the container says the
/// packet ends. The fixtures come from ffmpeg's encoder (Fixtures/README.md), an independent writer;
/// a wrong codeword length anywhere in the Huffman tables that the data uses would end a block early,
/// late or on an invalid value.
struct AACRawDataBlockTests {
    /// An AAC stream's packets as the parser delivered them, with its configuration.
    struct Packets {
        var config: AudioSpecificConfig
        var packets: [(bytes: [UInt8], frames: UInt32)]
    }

    /// The packets of `bytes` when the parser reports AAC Main/LC/SSR/LTP, else `nil`.
    static func aacPackets(_ bytes: [UInt8]) -> Packets? {
        let parser = AudioStreamParser()
        var cookie: [UInt8]?
        var isAAC = false
        var packets: [(bytes: [UInt8], frames: UInt32)] = []
        parser.propertyListener = { parser, id in
            switch try? parser.value(of: id) {
            case .magicCookie(let c)?: cookie = c
            case .dataFormat(let format)?:
                isAAC = format.formatID == .mpeg4AAC && (1...4).contains(format.formatFlags)
            default: break
            }
        }
        parser.packetsHandler = { batch in
            for i in 0..<batch.packetCount {
                packets.append((batch.copyPacket(at: i), batch.descriptions[i].variableFramesInPacket))
            }
        }
        _ = try? parser.parse(bytes[...])
        _ = try? parser.finish()
        guard isAAC, let cookie, let config = AudioSpecificConfig(magicCookie: cookie) else { return nil }
        return Packets(config: config, packets: packets)
    }

    /// Reads the blocks of one packet back to back (an ADTS frame of several blocks without CRC is one
    /// packet); returns a failure description or `nil` when they end exactly at the packet's end.
    static func check(_ packet: [UInt8], frames: UInt32, config: AudioSpecificConfig) -> String? {
        // An ADTS frame of several blocks without CRC is one packet of blocks × 1024 frames; an MP4
        // sample's duration may be shorter than 1024 (a trimmed last sample): still one block.
        let blocks = frames >= 2048 ? Int(frames) / 1024 : 1
        var offset = 0
        for index in 0..<blocks {
            let result = AACRawDataBlock.read(
                packet[offset...], audioObjectType: config.audioObjectType,
                samplingFrequencyIndex: config.samplingFrequencyIndex)
            switch result {
            case .failure(let failure): return "block \(index) at byte \(offset): \(failure)"
            case .success(let block): offset += block.endBit / 8
            }
        }
        return offset == packet.count ? nil : "blocks end at byte \(offset) of \(packet.count)"
    }

    @Test("every AAC packet of every fixture reads to END exactly at its end")
    func everyFixture() throws {
        var covered: [String] = []
        var packetCount = 0
        for fixture in FixtureCatalog.mediaFiles {
            guard let stream = Self.aacPackets(try fixture.bytes()) else { continue }
            #expect(!stream.packets.isEmpty, "\(fixture): no packets")
            var failures = 0
            for (i, packet) in stream.packets.enumerated() {
                guard let failure = Self.check(packet.bytes, frames: packet.frames, config: stream.config) else {
                    continue
                }
                failures += 1
                if failures <= 3 { Issue.record("\(fixture) packet \(i) (\(packet.bytes.count) bytes): \(failure)") }
            }
            covered.append(fixture.folder)
            packetCount += stream.packets.count
        }
        // The AAC fixtures of every container that carries AAC.
        for folder in ["adts", "mp4", "mkv", "ts", "loas"] {
            #expect(covered.contains(folder), "no AAC fixture read in \(folder)")
        }
        #expect(packetCount > 1000)
    }
}

extension AACRawDataBlockTests {
    @Test("every codeword of every codebook decodes back to its index, and nothing more is read")
    func codebookRoundTrip() {
        let tables: [[UInt32]] = [
            AACHuffmanTables.scalefactor, AACHuffmanTables.spectral1, AACHuffmanTables.spectral2,
            AACHuffmanTables.spectral3, AACHuffmanTables.spectral4, AACHuffmanTables.spectral5,
            AACHuffmanTables.spectral6, AACHuffmanTables.spectral7, AACHuffmanTables.spectral8,
            AACHuffmanTables.spectral9, AACHuffmanTables.spectral10, AACHuffmanTables.spectral11,
        ]
        let counts = tables.map(\.count)
        #expect(counts == [121, 81, 81, 81, 81, 81, 81, 64, 64, 169, 169, 289])
        for (book, table) in tables.enumerated() { Self.expectRoundTrip(table, "book \(book)") }
    }

    /// Decodes every codeword of a packed table (`length << 24 | codeword`) with the codebook built from
    /// it: each must give its index and end exactly after its length.
    static func expectRoundTrip(_ table: [UInt32], _ name: String) {
        let codebook = AACHuffmanCodebook(table)
        for (index, entry) in table.enumerated() {
            let length = Int(entry >> 24)
            // The codeword left-aligned in 3 bytes, then a 1 bit so that reading past it would show.
            let word = (entry & 0x00FF_FFFF) << UInt32(24 - length) | (1 << UInt32(23 - length))
            var reader = BitReader(
                [UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)],
                order: .mostSignificantFirst)
            let decoded = codebook.decode(&reader)
            #expect(decoded == index && reader.bitPosition == length, "\(name) index \(index)")
        }
    }

    @Test("damaged blocks: every prefix of real blocks and seeded random bytes end in a failure or inside the bytes")
    func damagedBlocksNeverTrap() throws {
        let stream = try #require(Self.aacPackets(try ADTSFixtures.bytes("adts/aac-44100-2ch.aac")))
        for packet in stream.packets.prefix(8) {
            for length in 0..<packet.bytes.count {
                let result = AACRawDataBlock.read(
                    packet.bytes[..<length], audioObjectType: 2, samplingFrequencyIndex: 4)
                if case .success(let block) = result { #expect(block.endBit <= length * 8) }
            }
        }
        var generator = SplitMix64(seed: 0x5BA0)
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0..<600, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            for frequencyIndex in [3, 4, 7, 11] {
                for objectType in 1...4 {
                    let result = AACRawDataBlock.read(
                        bytes[...], audioObjectType: objectType, samplingFrequencyIndex: frequencyIndex)
                    if case .success(let block) = result { #expect(block.endBit <= bytes.count * 8) }
                }
            }
        }
        // Configurations the reader does not follow.
        let endOnly: [UInt8] = [0xE0]  // END (111), then five alignment bits
        let unsupported = AACRawDataBlock.read(endOnly[...], audioObjectType: 5, samplingFrequencyIndex: 4)
        let reserved = AACRawDataBlock.read(endOnly[...], audioObjectType: 2, samplingFrequencyIndex: 13)
        let empty = AACRawDataBlock.read(endOnly[...], audioObjectType: 2, samplingFrequencyIndex: 4)
        #expect(unsupported == .failure(.unsupported("object type 5, frequency index 4")))
        #expect(reserved == .failure(.unsupported("object type 2, frequency index 13")))
        #expect(empty == .success(AACRawDataBlock(elements: [], extensions: [], endBit: 8)))
    }
}
