import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// The Vorbis header decoders (identification, setup, packet durations, magic cookie) on real
/// oggenc/FFmpeg header packets from the committed Ogg fixtures, checked against the ffprobe oracle
/// (rate, channels, per-packet `duration`, `extradata`), and on hand-built packets laid out from the
/// Vorbis I specification.
@Suite("Vorbis headers")
struct VorbisHeaderTests {
    // MARK: Real streams against the oracle

    @Test("every Vorbis fixture has Vorbis streams to test")
    func fixturesExist() throws {
        #expect(try !XiphTestPackets.vorbisStreams().isEmpty)
    }

    @Test("identification header gives the oracle's rate and channels and a 'vorb' description")
    func identificationMatchesOracle() throws {
        for (fixture, _, packets, streamCount) in try XiphTestPackets.vorbisStreams() {
            let header = try VorbisIdentificationHeader.decode(packets[0].bytes[...])
            let description = header.streamDescription
            #expect(description.formatID == .vorbis)
            #expect(description.formatID.rawValue == 0x766F_7262)
            #expect(description.bytesPerPacket == 0 && description.framesPerPacket == 0)
            #expect(description.bytesPerFrame == 0 && description.bitsPerChannel == 0)
            #expect(header.blocksize0 <= header.blocksize1)
            guard streamCount == 1, let stream = try fixture.oracle().stream, stream.codecName == "vorbis" else {
                continue
            }
            #expect(description.sampleRate == Double(stream.sampleRate ?? -1), "\(fixture)")
            #expect(description.channelsPerFrame == UInt32(stream.channels ?? -1), "\(fixture)")
        }
    }

    @Test("packet durations equal ffprobe's, the last one before end trimming")
    func packetDurationsMatchOracle() throws {
        var compared = 0
        for (fixture, _, packets, streamCount) in try XiphTestPackets.vorbisStreams() where streamCount == 1 {
            let oracle = try fixture.oracle()
            guard oracle.stream?.codecName == "vorbis", packets.count > 3 else { continue }
            let identification = try VorbisIdentificationHeader.decode(packets[0].bytes[...])
            let setup = try VorbisSetupHeader.decode(packets[2].bytes[...], channels: identification.channels)
            var counter = VorbisPacketDuration(identification: identification, setup: setup)
            let audio = Array(packets.dropFirst(3))
            try #require(audio.count == oracle.packets.count, "\(fixture)")
            var frames: [Int64] = []
            for packet in audio {
                frames.append(Int64(try counter.measure(packet.bytes[...])?.frames ?? 0))
            }
            let expected = oracle.packets.map { $0.duration ?? -1 }
            #expect(Array(frames.dropLast()) == Array(expected.dropLast()), "\(fixture)")
            // ffprobe trims the last packet by the final granule's discard_padding; when the padding is
            // longer than the packet, FFmpeg 5.1's unsigned duration wraps modulo 2^32 (e.g. 4294966818
            // = 512 − 990 for a 22050 Hz mono stream), so compare modulo 2^32.
            let padding = discardPadding(fixture) ?? 0
            let trimmed = ((frames.last ?? 0) - padding) & 0xFFFF_FFFF
            #expect(trimmed == expected.last, "\(fixture)")
            #expect(zip(audio, oracle.packets).allSatisfy { Int64($0.bytes.count) == $1.size }, "\(fixture)")
            compared += 1
        }
        #expect(compared > 0)
    }

    /// `summary.discard_padding` of the oracle (not a named field of `Oracle.Summary`).
    private func discardPadding(_ fixture: Fixture) -> Int64? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: fixture.oraclePath)),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let summary = json["summary"] as? [String: Any]
        else { return nil }
        return (summary["discard_padding"] as? NSNumber)?.int64Value
    }

    @Test("the first audio packet returns no decoded frames; later ones prev/4 + cur/4")
    func decodedFramesFollowTheSpec() throws {
        for (_, _, packets, _) in try XiphTestPackets.vorbisStreams() where packets.count > 4 {
            let identification = try VorbisIdentificationHeader.decode(packets[0].bytes[...])
            let setup = try VorbisSetupHeader.decode(packets[2].bytes[...], channels: identification.channels)
            var counter = VorbisPacketDuration(identification: identification, setup: setup)
            let first = try #require(try counter.measure(packets[3].bytes[...]))
            #expect(first.decodedFrames == 0)
            #expect(first.frames == identification.blocksize0 / 4 + first.blockSize / 4)
            let second = try #require(try counter.measure(packets[4].bytes[...]))
            #expect(second.decodedFrames == first.blockSize / 4 + second.blockSize / 4)
            counter.reset()
            #expect(try counter.measure(packets[4].bytes[...])?.decodedFrames == 0)
        }
    }

    @Test("magic cookie with the comment header stripped equals ffprobe's extradata")
    func cookieMatchesExtradata() throws {
        var compared = 0
        for (fixture, _, packets, streamCount) in try XiphTestPackets.vorbisStreams() where streamCount == 1 {
            let oracle = try fixture.oracle()
            guard oracle.stream?.codecName == "vorbis", let hex = oracle.stream?.fields["extradata_hex"]?.string
            else { continue }
            let cookie = VorbisMagicCookie.make(
                identification: packets[0].bytes[...], comment: packets[1].bytes[...], setup: packets[2].bytes[...])
            #expect(cookie == XiphTestPackets.hex(hex), "\(fixture)")
            let split = try #require(VorbisMagicCookie.split(cookie[...]))
            #expect(Array(split[0]) == packets[0].bytes && Array(split[2]) == packets[2].bytes)
            let full = VorbisMagicCookie.make(
                identification: packets[0].bytes[...], comment: packets[1].bytes[...], setup: packets[2].bytes[...],
                keepingComments: true)
            #expect(VorbisMagicCookie.split(full[...])?.map { Array($0) } == packets.prefix(3).map(\.bytes))
            compared += 1
        }
        #expect(compared > 0)
    }

    // MARK: Robustness on real setup headers

    @Test(
        "every truncation of a real setup header throws a typed error, quickly")
    func truncatedSetupHeadersThrow() throws {
        let (_, _, packets, _) = try #require(try XiphTestPackets.vorbisStreams().first)
        let identification = try VorbisIdentificationHeader.decode(packets[0].bytes[...])
        let setup = packets[2].bytes
        let start = ContinuousClock.now
        for length in 0..<setup.count {
            #expect(throws: StructureError.self) {
                try VorbisSetupHeader.decode(setup[..<length], channels: identification.channels)
            }
        }
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test(
        "bit flips in a real setup header give a result or a typed error, never a trap")
    func bitFlippedSetupHeaders() throws {
        let (_, _, packets, _) = try #require(try XiphTestPackets.vorbisStreams().first)
        let identification = try VorbisIdentificationHeader.decode(packets[0].bytes[...])
        let setup = packets[2].bytes
        var generator = SplitMix64(seed: 0x566F_7262)
        var decoded = 0
        for _ in 0..<400 {
            var copy = setup
            for _ in 0..<Int(generator.next() % 3 + 1) {
                let bit = Int(generator.next() % UInt64(copy.count * 8))
                copy[bit / 8] ^= 1 << UInt8(bit % 8)
            }
            for channels in [identification.channels, 1, 255] {
                do {
                    let header = try VorbisSetupHeader.decode(copy[...], channels: channels)
                    #expect((1...64).contains(header.modes.count))
                    decoded += 1
                } catch {
                    #expect(!error.reason.isEmpty)
                }
            }
        }
        _ = decoded
    }

    // MARK: Hand-built identification headers (§4.2.2)

    /// An identification header laid out by hand from §4.2.2.
    static func identification(
        version: UInt32 = 0, channels: UInt8 = 2, rate: UInt32 = 44100, sizes: UInt8 = 0xB8, framing: UInt8 = 1
    ) -> [UInt8] {
        func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return [0x01] + Array("vorbis".utf8) + le(version) + [channels] + le(rate) + le(0xFFFF_FFFF) + le(128_000)
            + le(0) + [sizes, framing]
    }

    @Test("identification header fields as laid out in §4.2.2")
    func identificationFields() throws {
        let header = try VorbisIdentificationHeader.decode(Self.identification()[...])
        #expect(header.channels == 2 && header.sampleRate == 44100)
        #expect(header.bitrateMaximum == -1 && header.bitrateNominal == 128_000 && header.bitrateMinimum == 0)
        #expect(header.blocksize0 == 256 && header.blocksize1 == 2048)
    }

    @Test(
        "identification header rule violations are typed errors",
        arguments: [
            (identification(version: 1), AudioStreamError.Code.unsupportedDataFormat),
            (identification(channels: 0), .invalidFile),
            (identification(rate: 0), .invalidFile),
            (identification(sizes: 0x85), .invalidFile),  // blocksize_0 2^5
            (identification(sizes: 0xE6), .invalidFile),  // blocksize_1 2^14
            (identification(sizes: 0x8B), .invalidFile),  // blocksize_0 > blocksize_1
            (identification(framing: 0), .invalidFile),
            (Array(identification().prefix(29)), .invalidFile),
            ([0x03] + Array(identification().dropFirst()), .invalidFile),
        ])
    func identificationErrors(packet: [UInt8], code: AudioStreamError.Code) {
        #expect {
            try VorbisIdentificationHeader.decode(packet[...])
        } throws: { error in
            (error as? StructureError)?.code == code
        }
    }

    // MARK: Hand-built setup headers (§4.2.4)

    /// Writes LSB-first bits (§2.1.4).
    struct BitWriter {
        var bytes: [UInt8] = []
        var bitCount = 0
        mutating func write(_ value: UInt64, _ width: Int) {
            for i in 0..<width {
                if bitCount % 8 == 0 { bytes.append(0) }
                if value >> UInt64(i) & 1 == 1 { bytes[bytes.count - 1] |= 1 << UInt8(bitCount % 8) }
                bitCount += 1
            }
        }
    }

    /// A minimal valid setup header: one 1-entry codebook (unordered, 1-bit length, no lookup), one
    /// time placeholder, one floor 1 with no partitions, one residue 0 with one classification, one
    /// mapping without submaps or coupling, and the given modes.
    static func setup(modes: [Bool], codebook: ((inout BitWriter) -> Void)? = nil) -> [UInt8] {
        var w = BitWriter()
        w.write(0, 8)  // 1 codebook
        if let codebook {
            codebook(&w)
        } else {
            w.write(0x56_4342, 24)
            w.write(1, 16)  // dimensions
            w.write(1, 24)  // entries
            w.write(0, 1)  // unordered
            w.write(0, 1)  // not sparse
            w.write(0, 5)  // length 1
            w.write(0, 4)  // lookup 0
        }
        w.write(0, 6)  // 1 time
        w.write(0, 16)
        w.write(0, 6)  // 1 floor
        w.write(1, 16)  // floor 1
        w.write(0, 5)  // no partitions
        w.write(0, 2)  // multiplier
        w.write(0, 4)  // rangebits
        w.write(0, 6)  // 1 residue
        w.write(0, 16)  // type 0
        w.write(0, 24)
        w.write(0, 24)
        w.write(0, 24)
        w.write(0, 6)  // 1 classification
        w.write(0, 8)  // classbook 0
        w.write(0, 3)  // cascade low bits
        w.write(0, 1)  // no high bits
        w.write(0, 6)  // 1 mapping
        w.write(0, 16)  // type 0
        w.write(0, 1)  // one submap
        w.write(0, 1)  // no coupling
        w.write(0, 2)  // reserved
        w.write(0, 8)  // submap time
        w.write(0, 8)  // floor 0
        w.write(0, 8)  // residue 0
        w.write(UInt64(modes.count - 1), 6)
        for long in modes {
            w.write(long ? 1 : 0, 1)
            w.write(0, 16)
            w.write(0, 16)
            w.write(0, 8)
        }
        w.write(1, 1)  // framing
        return [0x05] + Array("vorbis".utf8) + w.bytes
    }

    @Test("hand-built setup header: mode table read after every configuration")
    func handBuiltSetup() throws {
        let header = try VorbisSetupHeader.decode(Self.setup(modes: [false, true, true])[...], channels: 2)
        #expect(header.codebookCount == 1 && header.floorCount == 1 && header.residueCount == 1)
        #expect(header.mappingCount == 1)
        #expect(header.modes.map(\.blockFlag) == [false, true, true])
    }

    @Test("mode number width is ilog(modes − 1) bits after the packet type bit (§4.3.1)")
    func modeNumberAndBlockSizes() throws {
        let identification = try VorbisIdentificationHeader.decode(Self.identification()[...])
        let setup = try VorbisSetupHeader.decode(Self.setup(modes: [false, true, true])[...], channels: 2)
        var counter = VorbisPacketDuration(identification: identification, setup: setup)
        // 3 modes → ilog(2) = 2 mode bits in bits 1–2; long blocks then carry prev (bit 3), next (bit 4).
        let short: UInt8 = 0b0000_0000  // mode 0
        let longAfterShort: UInt8 = 0b0001_0010  // mode 1, prev 0, next 1
        let longAfterLong: UInt8 = 0b0000_1100  // mode 2, prev 1, next 0
        let first = try #require(try counter.measure([short][...]))
        #expect(first.mode == 0 && first.blockSize == 256 && first.frames == 128 && first.decodedFrames == 0)
        let second = try #require(try counter.measure([longAfterShort, 0xFF][...]))
        #expect(second.mode == 1 && second.blockSize == 2048 && second.frames == 64 + 512)
        #expect(second.decodedFrames == 64 + 512)
        let third = try #require(try counter.measure([longAfterLong][...]))
        #expect(third.mode == 2 && third.frames == 1024 && third.decodedFrames == 1024)
        #expect(try counter.measure([][...]) == nil)
        #expect(throws: StructureError.self) { try counter.measure([0b0000_0110][...]) }  // mode 3 of 3
        #expect(throws: StructureError.self) { try counter.measure([0x01][...]) }  // header packet
    }

    @Test("a single mode takes no bits")
    func singleMode() throws {
        let identification = try VorbisIdentificationHeader.decode(Self.identification()[...])
        let setup = try VorbisSetupHeader.decode(Self.setup(modes: [true])[...], channels: 2)
        var counter = VorbisPacketDuration(identification: identification, setup: setup)
        // Bit 1 is the previous-window flag at once.
        #expect(try counter.measure([0b0000_0010][...])?.frames == 512 + 512)
        #expect(try counter.measure([0b0000_0000][...])?.frames == 64 + 512)
    }

    @Test("hostile codebook entry counts fail at once instead of looping or allocating")
    func hostileCodebookCounts() throws {
        let hostile: [(inout BitWriter) -> Void] = [
            { w in  // 2^24 − 1 unordered entries in a few bytes
                w.write(0x56_4342, 24)
                w.write(1, 16)
                w.write(0xFF_FFFF, 24)
                w.write(0, 1)
                w.write(0, 1)
            },
            { w in  // lookup type 2 with 2^24 − 1 entries × 65535 dimensions × 16 bits
                w.write(0x56_4342, 24)
                w.write(0xFFFF, 16)
                w.write(0xFF_FFFF, 24)
                w.write(1, 1)
                w.write(0, 5)
                w.write(0xFF_FFFF, 24)  // one run covers all entries
                w.write(2, 4)
                w.write(0, 32)
                w.write(0, 32)
                w.write(15, 4)
                w.write(0, 1)
            },
            { w in  // lookup type 1 with 65535 dimensions
                w.write(0x56_4342, 24)
                w.write(0xFFFF, 16)
                w.write(0xFF_FFFF, 24)
                w.write(1, 1)
                w.write(0, 5)
                w.write(0xFF_FFFF, 24)
                w.write(1, 4)
                w.write(0, 32)
                w.write(0, 32)
                w.write(15, 4)
                w.write(0, 1)
            },
            { w in  // ordered runs that never assign an entry: codeword lengths pass 32
                w.write(0x56_4342, 24)
                w.write(1, 16)
                w.write(1000, 24)
                w.write(1, 1)
                w.write(0, 5)
                for _ in 0..<40 { w.write(0, 10) }
            },
            { w in w.write(0x56_4341, 24) },  // bad sync
        ]
        let start = ContinuousClock.now
        for build in hostile {
            #expect(throws: StructureError.self) {
                try VorbisSetupHeader.decode(Self.setup(modes: [false], codebook: build)[...], channels: 2)
            }
        }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test("lookup1_values is the greatest r with r^dimensions ≤ entries (§9.2.3)")
    func lookup1Values() {
        #expect(VorbisSetupHeader.lookup1Values(entries: 10, dimensions: 2) == 3)
        #expect(VorbisSetupHeader.lookup1Values(entries: 9, dimensions: 2) == 3)
        #expect(VorbisSetupHeader.lookup1Values(entries: 8, dimensions: 3) == 2)
        #expect(VorbisSetupHeader.lookup1Values(entries: 27, dimensions: 3) == 3)
        #expect(VorbisSetupHeader.lookup1Values(entries: 1, dimensions: 5) == 1)
        #expect(VorbisSetupHeader.lookup1Values(entries: 0xFF_FFFF, dimensions: 1) == 0xFF_FFFF)
        #expect(VorbisSetupHeader.lookup1Values(entries: 0xFF_FFFF, dimensions: 0xFFFF) == 1)
    }

    @Test("ilog and LSB-first bit reading (§9.2.1, §2.1.4)")
    func bitReading() {
        #expect([0, 1, 2, 3, 4, 7, 8, -1].map(VorbisSetupHeader.ilog) == [0, 1, 2, 2, 3, 3, 4, 0])
        var reader = BitReader([0b1011_0001, 0b0000_0011][...], order: .leastSignificantFirst)
        #expect(reader.read(1) == 1)
        #expect(reader.read(3) == 0b000)
        #expect(reader.read(6) == 0b11_1011)  // 4 bits of byte 0, then 2 of byte 1
        #expect(reader.read(7) == nil)  // only 6 bits left
        #expect(reader.remainingBits == 6)
        #expect(reader.read(6) == 0)
        var wide = BitReader([0x78, 0x56, 0x34, 0x12, 0xFF][...], order: .leastSignificantFirst)
        #expect(wide.read(32) == 0x1234_5678)
    }

    @Test("Xiph lacing of the cookie: 255 and 256 byte packets")
    func cookieLacing() {
        let a = [UInt8](repeating: 1, count: 255)
        let b = [UInt8](repeating: 2, count: 256)
        let c: [UInt8] = [3]
        let cookie = VorbisMagicCookie.make(
            identification: a[...], comment: b[...], setup: c[...], keepingComments: true)
        #expect(Array(cookie.prefix(5)) == [0x02, 0xFF, 0x00, 0xFF, 0x01])
        #expect(cookie.count == 5 + 255 + 256 + 1)
        #expect(VorbisMagicCookie.split(cookie[...])?.map { Array($0) } == [a, b, c])
        #expect(VorbisMagicCookie.split([0x02, 0xFF][...]) == nil)
        #expect(VorbisMagicCookie.split([0x02, 5, 5, 1][...]) == nil)
    }
}

@Suite("Vorbis channel layouts")
struct VorbisChannelLayoutTests {
    @Test("Vorbis channel order maps to Apple's Ogg layout tags (CoreAudioBaseTypes.h values)")
    func layouts() {
        let expected: [UInt32] = [
            0x0064_0001, 0x0065_0002, 0x0096_0003, 0x00B9_0004, 0x00D4_0005, 0x00D5_0006, 0x00D6_0007, 0x00D7_0008,
        ]
        #expect((1...8).map { VorbisChannelLayout.layout(channels: $0)?.tag.rawValue } == expected)
        #expect((1...8).allSatisfy { VorbisChannelLayout.layout(channels: $0)?.numberOfChannels == $0 })
        #expect(VorbisChannelLayout.layout(channels: 0) == nil && VorbisChannelLayout.layout(channels: 9) == nil)
    }
}
