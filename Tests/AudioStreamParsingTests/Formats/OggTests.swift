import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// The Ogg parser (docs/formats/ogg.md): framing by hand-built pages, the mappings against values read
/// from the fixtures' bytes and their ffprobe oracles, chains, multiplexing and every fixture in every
/// chunking. The page/packet layer is also checked against libogg in `Tests/OggReferenceTests`.
@Suite("Ogg")
struct OggTests {
    // MARK: Hand-built pages

    /// An Ogg page (RFC 3533 §6) with a correct CRC-32, computed bit by bit here (polynomial 0x04C11DB7,
    /// MSB first, initial value 0, checksum field zero).
    static func page(
        type: UInt8, granule: Int64, serial: UInt32 = 77, sequence: UInt32, lacing: [UInt8], body: [UInt8]
    ) -> [UInt8] {
        var p: [UInt8] = Array("OggS".utf8) + [0, type]
        p += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: granule) >> (8 * $0)) }
        p += (0..<4).map { UInt8(truncatingIfNeeded: serial >> (8 * $0)) }
        p += (0..<4).map { UInt8(truncatingIfNeeded: sequence >> (8 * $0)) }
        p += [0, 0, 0, 0, UInt8(lacing.count)] + lacing + body
        let crc = bitwiseCRC(p)
        for i in 0..<4 { p[22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
        return p
    }

    static func bitwiseCRC(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0
        for b in bytes {
            c ^= UInt32(b) << 24
            for _ in 0..<8 { c = c & 0x8000_0000 != 0 ? (c << 1) ^ 0x04C1_1DB7 : c << 1 }
        }
        return c
    }

    /// Lacing values for one packet of `size` bytes (RFC 3533 §5: 255s, then the remainder, 0 when the
    /// size is a multiple of 255).
    static func lacing(_ size: Int) -> [UInt8] { Array(repeating: 255, count: size / 255) + [UInt8(size % 255)] }

    /// OpusHead (RFC 7845 §5.1): version 1, 2 channels, pre-skip 312, 48 kHz input, gain 0, family 0.
    static let opusHead: [UInt8] = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
    /// OpusTags (§5.2): vendor "v", one comment "TITLE=T".
    static let opusTags: [UInt8] =
        Array("OpusTags".utf8) + [1, 0, 0, 0] + Array("v".utf8) + [1, 0, 0, 0, 7, 0, 0, 0] + Array("TITLE=T".utf8)

    /// An audio packet with TOC config 19 (CELT 20 ms = 960 samples), code 0, padded to `size`.
    static func opusPacket(_ size: Int, fill: UInt8) -> [UInt8] { [19 << 3] + Array(repeating: fill, count: size - 1) }

    static func headerPages() -> [UInt8] {
        page(type: 2, granule: 0, sequence: 0, lacing: lacing(opusHead.count), body: opusHead)
            + page(type: 0, granule: 0, sequence: 1, lacing: lacing(opusTags.count), body: opusTags)
    }

    static func packets(_ bytes: [UInt8], chunking: Chunking = .whole) -> (log: EventLog, packets: [[UInt8]]) {
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: bytes)
        var packets: [[UInt8]] = []
        let record = parser.packetsHandler
        parser.packetsHandler = { batch in
            record?(batch)
            for i in 0..<batch.packetCount { packets.append(Array(batch.packetBytes(at: i))) }
        }
        recorder.log.error = parser.feed(bytes[...], chunking: chunking)
        return (recorder.log, packets)
    }

    @Test func checksumIsRFC3533CRC32() {
        // The check value of this CRC (poly 0x04C11DB7, init 0, no reflection, no final XOR) over the
        // ASCII digits "123456789" is 0x89A1897F.
        #expect(Self.bitwiseCRC(Array("123456789".utf8)) == 0x89A1_897F)
    }

    /// Lacing (RFC 3533 §5): a 255-byte packet needs a terminating 0 segment; a 600-byte packet continued
    /// on the next page (granule −1 on the page where no packet ends); a zero-length packet is no packet.
    @Test func lacingAndPacketsContinuedAcrossPages() throws {
        let a = Self.opusPacket(255, fill: 0xA1)
        let b = Self.opusPacket(600, fill: 0xB2)
        let c = Self.opusPacket(40, fill: 0xC3)
        var bytes = Self.headerPages()
        let audioStart = bytes.count
        // Page 2: a (lacing 255, 0), then b's first 255 bytes (lacing 255: b continues on the next page).
        bytes += Self.page(
            type: 0, granule: -1, sequence: 2, lacing: [255, 0, 255], body: a + Array(b[0..<255]))
        // Page 3 (continued, end of stream): b's other 345 bytes (255, 90), an empty packet (0), then c.
        bytes += Self.page(
            type: 1 | 4, granule: 312 + 2 * 960, sequence: 3, lacing: [255, 90, 0, 40],
            body: Array(b[255...]) + c)
        for chunking in [Chunking.whole, .bytewise, .random(seed: 5, maxSize: 40)] {
            let (log, packets) = Self.packets(bytes, chunking: chunking)
            #expect(log.error == nil)
            #expect(packets == [a, b, c], "\(chunking)")
            #expect(log.bytesMismatches.isEmpty)
            // Offsets: a at the first body byte of page 2 (27 + 3 lacing values), b right after it, c after
            // page 3's header (27 + 4) and b's 345 bytes.
            let page3 = audioStart + 27 + 3 + 255 + 255
            #expect(
                log.packets.map(\.offset) == [
                    Int64(audioStart + 30), Int64(audioStart + 30 + 255), Int64(page3 + 31 + 345),
                ])
            #expect(log.packets.map(\.frames) == [960, 960, 960])
        }
    }

    /// A page whose CRC does not match is dropped with a diagnostic; the packet continued from it is lost
    /// with it; the next page is read.
    @Test func badChecksumDropsThePage() throws {
        var bytes = Self.headerPages()
        let p2 = Self.page(type: 0, granule: 312 + 960, sequence: 2, lacing: [20], body: Self.opusPacket(20, fill: 1))
        var bad = Self.page(type: 0, granule: -1, sequence: 3, lacing: [255], body: Self.opusPacket(255, fill: 2))
        bad[40] ^= 0x10
        let p4 = Self.page(
            type: 1, granule: 312 + 1920, sequence: 4, lacing: [10, 30],
            body: Array(repeating: 2, count: 10) + Self.opusPacket(30, fill: 3))
        bytes += p2 + bad + p4
        let (log, packets) = Self.packets(bytes)
        #expect(log.error == nil)
        #expect(packets == [Self.opusPacket(20, fill: 1), Self.opusPacket(30, fill: 3)])
        #expect(log.diagnostics.contains { $0.kind == .checksumMismatch }, "\(log.diagnostics)")
        #expect(
            log.diagnostics.contains { $0.kind == .discontinuity && $0.message.contains("sequence 4") },
            "\(log.diagnostics)")
    }

    // MARK: Opus

    /// RFC 6716 §3.1 Table 2 (frame sizes per config) and §3.2 (frame count codes 0–3).
    @Test func opusFramesFromTheTOCByte() {
        func frames(config: UInt8, code: UInt8, count: UInt8 = 0) -> Int64 {
            let packet = Self.opusPacketTOC(config: config, code: code, count: count)
            let (log, _) = Self.packets(
                Self.headerPages()
                    + Self.page(type: 4, granule: 400_000, sequence: 2, lacing: [UInt8(packet.count)], body: packet))
            return Int64(log.packets.first?.frames ?? 0)
        }
        #expect(frames(config: 0, code: 0) == 480)  // SILK NB 10 ms
        #expect(frames(config: 3, code: 0) == 2880)  // SILK NB 60 ms
        #expect(frames(config: 12, code: 0) == 480)  // Hybrid SWB 10 ms
        #expect(frames(config: 15, code: 0) == 960)  // Hybrid FB 20 ms
        #expect(frames(config: 16, code: 0) == 120)  // CELT NB 2.5 ms
        #expect(frames(config: 31, code: 0) == 960)  // CELT FB 20 ms
        #expect(frames(config: 31, code: 1) == 1920)  // two frames, equal sizes
        #expect(frames(config: 31, code: 2) == 1920)  // two frames, different sizes
        #expect(frames(config: 16, code: 3, count: 48) == 5760)  // 48 × 2.5 ms = 120 ms
    }

    static func opusPacketTOC(config: UInt8, code: UInt8, count: UInt8) -> [UInt8] {
        [config << 3 | code] + (code == 3 ? [count] : []) + [0, 0, 0]
    }

    /// opusenc 64 kbit/s stereo: OpusHead pre-skip 312 (bytes 10–11 of the packet: 0x38 0x01), the cookie is
    /// the OpusHead packet (19 bytes at file offset 28), 48 kHz; the last granule position 48312 (the
    /// oracle's duration_sum) leaves 48000 valid frames and 648 of remainder (the oracle's discard_padding).
    @Test func opusHeaderAndTrimming() throws {
        let fixture = FixtureCatalog.fixture("ogg/opus-48000-2ch-64k-opusenc.opus")
        let bytes = try fixture.bytes()
        let (log, _) = Self.packets(bytes)
        let values = log.lastValues
        guard case .dataFormat(let asbd)? = values[.dataFormat],
            case .magicCookie(let cookie)? = values[.magicCookieData],
            case .packetTableInfo(let trim)? = values[.packetTableInfo]
        else {
            Issue.record("missing values: \(values.keys)")
            return
        }
        #expect(asbd.formatID == .opus && asbd.sampleRate == 48000 && asbd.channelsPerFrame == 2)
        #expect(cookie == Array(bytes[28..<47]))
        #expect(trim == PacketTableInfo(numberValidFrames: 48000, primingFrames: 312, remainderFrames: 648))
        guard case .metadata(let m)? = values[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(m.info[InfoKey.title] == "Opus Title" && m.info[InfoKey.artist] == "Opus Artist")
    }

    /// A METADATA_BLOCK_PICTURE in OpusTags spanning two pages: one PNG of artwork.
    @Test func opusPictureSpanningPages() throws {
        let (log, _) = Self.packets(try FixtureCatalog.fixture("ogg/opus-48000-2ch-picture-opusenc.opus").bytes())
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(m.artwork.count == 1)
        #expect(m.artwork.first?.mimeType == "image/png" && m.artwork.first?.pictureType == 3)
        #expect(m.artwork.first?.data.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    }

    // MARK: Vorbis and FLAC

    /// oggenc 44.1 kHz: last granule 44100 (the oracle's duration_sum), the first packet's 128 frames
    /// (the oracle's first packet duration; ffprobe's pts −128) are priming, and the nominal total 44736
    /// (duration_sum + discard_padding 636) leaves 508 of remainder.
    @Test func vorbisTrimmingAndChapters() throws {
        let (log, _) = Self.packets(try FixtureCatalog.fixture("ogg/vorbis-44100-2ch-chapters.ogg").bytes())
        let values = log.lastValues
        guard case .packetTableInfo(let trim)? = values[.packetTableInfo],
            case .metadata(let m)? = values[.infoDictionary]
        else {
            Issue.record("missing values")
            return
        }
        #expect(trim == PacketTableInfo(numberValidFrames: 44100, primingFrames: 128, remainderFrames: 508))
        #expect(m.chapters.map(\.title) == ["Intro", "Middle", "Last part"])
        #expect(m.chapters.map(\.startSeconds) == [0, 0.4, 0.8])
        // Each chapter ends where the next starts; the last at the end of the valid frames (44100 / 44100 Hz).
        #expect(m.chapters.map(\.endSeconds) == [0.4, 0.8, 1.0])
        #expect(m.info[InfoKey.title] == "Ogg Title" && m.info[InfoKey.album] == "Ogg Album")
    }

    /// FLAC in Ogg: the cookie is the dfLa layout (4 zero bytes, the STREAMINFO block header with the last
    /// flag, the 34 STREAMINFO bytes at file offset 45 = page header 28 + mapping header 17).
    @Test func flacMappingCookie() throws {
        let bytes = try FixtureCatalog.fixture("ogg/flac-44100-2ch-ffmpeg.oga").bytes()
        let (log, _) = Self.packets(bytes)
        guard case .magicCookie(let cookie)? = log.lastValues[.magicCookieData] else {
            Issue.record("no cookie")
            return
        }
        #expect(cookie == [0, 0, 0, 0, 0x80, 0, 0, 0x22] + Array(bytes[45..<79]))
    }

    // MARK: Chains and multiplexing

    /// The chained file announces the first link's format, then the second's; packet indices continue
    /// (45 packets per link).
    @Test func chainedStreamAnnouncesTheNewFormat() throws {
        let (log, _) = Self.packets(try FixtureCatalog.fixture("ogg/vorbis-chained-44100-2ch-22050-1ch.ogg").bytes())
        #expect(log.error == nil)
        let rates = log.entries.compactMap { entry -> Double? in
            if case .property(.dataFormat(let d)) = entry { return d.sampleRate }
            return nil
        }
        #expect(rates == [44100, 22050])
        #expect(log.packetCount == 90)
        #expect(log.indexedPackets.map(\.index) == Array(0..<90))
    }

    /// The multiplexed file: the Opus stream (serial 0) is followed and the Vorbis stream named as skipped;
    /// picking the Vorbis stream by serial number gives a Vorbis format.
    @Test func multiplexedSelection() throws {
        let bytes = try FixtureCatalog.fixture("ogg/multiplexed-opus-vorbis.ogg").bytes()
        let (log, _) = Self.packets(bytes)
        guard case .dataFormat(let first)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(first.formatID == .opus)
        #expect(
            log.diagnostics.contains {
                $0.kind == .structureSkipped && $0.message.contains("logical stream 1 (vorbis) not selected")
            })
        var options = ParserOptions()
        options.oggStreamSelection = .serialNumber(1)
        let chosen = ParseRunner.run(bytes, chunking: .whole, options: options)
        guard case .dataFormat(let second)? = chosen.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(second.formatID == .vorbis && second.sampleRate == 48000)
    }

    /// A chain whose second link has a broken OpusHead (channel count 0): that link is skipped with a
    /// diagnostic, the third link is read (a radio stream survives one bad track).
    @Test func damagedLaterLinkIsSkipped() {
        func link(serial: UInt32, head: [UInt8], fill: UInt8) -> [UInt8] {
            Self.page(type: 2, granule: 0, serial: serial, sequence: 0, lacing: Self.lacing(head.count), body: head)
                + Self.page(
                    type: 0, granule: 0, serial: serial, sequence: 1, lacing: Self.lacing(Self.opusTags.count),
                    body: Self.opusTags)
                + Self.page(
                    type: 4, granule: 312 + 960, serial: serial, sequence: 2, lacing: [10],
                    body: Self.opusPacket(10, fill: fill))
        }
        var broken = Self.opusHead
        broken[9] = 0
        let bytes =
            link(serial: 1, head: Self.opusHead, fill: 1) + link(serial: 2, head: broken, fill: 2)
            + link(serial: 3, head: Self.opusHead, fill: 3)
        let (log, packets) = Self.packets(bytes)
        #expect(log.error == nil)
        #expect(packets == [Self.opusPacket(10, fill: 1), Self.opusPacket(10, fill: 3)])
        // The link's own reason, then which stream was skipped.
        #expect(
            log.diagnostics.contains {
                $0.kind == .structureSkipped && $0.message == "opus (OpusHead): channel count is zero: stream 2 skipped"
            })
    }

    // MARK: Every fixture

    @Test(arguments: FixtureCatalog.all.filter { $0.folder == "ogg" })
    func sameEventsInEveryChunking(_ fixture: Fixture) throws {
        let (reference, failures) = ChunkingVerifier.verify(try fixture.bytes())
        #expect(reference.error == nil, "\(fixture): \(String(describing: reference.error))")
        #expect(failures.isEmpty, "\(fixture): \(failures)")
    }
}
