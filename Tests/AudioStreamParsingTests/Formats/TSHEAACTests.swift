import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// Implicitly signalled HE-AAC in transport streams (docs/formats/mpeg-ts.md, "HE-AAC with implicit
/// signalling"): the spec-built ADTS fixtures stream-copied by ffmpeg into ADTS and LATM elementary
/// streams. Expected layers by hand, as in `ADTSHEAACTests` (ISO/IEC 14496-3 §1.6.5: twice the core rate,
/// 2048 frames a packet); the ffprobe oracles (HE-AAC / HE-AACv2, 44100 Hz, 2 channels, 23 and 12 packets
/// of 2048 frames) are checked by the conformance suite in every chunking.
struct TSHEAACTests {
    typealias HE = ADTSHEAACTests

    @Test(
        "the first packet's SBR gives the HE layers, in ADTS and LATM streams",
        arguments: [
            ("ts/heaac-44100-2ch-implicit.ts", [HE.he2, HE.core2]),
            ("ts/heaacv2-44100-2ch-implicit.ts", [HE.v2, HE.he1, HE.core1]),
            ("ts/heaac-44100-2ch-implicit-latm.ts", [HE.he2, HE.core2]),
        ])
    func layers(path: String, layers: [StreamDescription]) throws {
        let result = ChunkingVerifier.verify(try MPEGTSTests.fixture(path))
        #expect(result.failures.isEmpty, "\(path): \(result.failures)")
        let log = result.reference
        #expect(log.error == nil)
        let (data, list) = HE.formats(log)
        #expect(data == layers[0], "\(path)")
        #expect(list == layers, "\(path)")
        #expect(log.diagnostics.isEmpty, "\(path): \(log.diagnostics)")
    }

    /// 23 packets of 2048 frames at 44100 Hz (the oracle's packet count; 2 × the core's 1024). Time 0.5 s
    /// is frame 22050: packet 10 (frames 20480..<22528), 1570 frames into it; AAC's roll distance is one
    /// packet, so decoding starts at packet 9 and drops 22050 − 9 × 2048 = 3618 frames. At the core rate
    /// (1024 frames a packet) the same time would be packet 21.
    @Test("time seeks count frames at the output rate")
    func timeSeek() throws {
        let bytes = try MPEGTSTests.fixture("ts/heaac-44100-2ch-implicit.ts")
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: bytes)
        #expect(parser.feed(bytes[...], chunking: .whole) == nil)
        #expect(recorder.log.packetCount == 23)
        let landing = try parser.seek(toTime: 0.5)
        #expect(landing.frame == 22050)
        #expect(landing.position == PacketPosition(packet: 10, offsetInPacket: 1570))
        #expect(landing.startPacket == 9 && landing.framesToDiscard == 3618)
        let frame22 = parser.packetToFrame(22)
        #expect(frame22?.value == Int64(22 * 2048), "\(String(describing: frame22))")
    }

    /// A damaged first block (zeros after its first byte: elements never reach END) gives the core and one
    /// diagnostic, as in a raw ADTS stream; the packets are still every frame.
    @Test("a damaged first block: the core's format and a diagnostic")
    func damagedFirstBlock() throws {
        var bytes = try MPEGTSTests.fixture("ts/heaac-44100-2ch-implicit.ts")
        // The first PES packet's payload starts in the transport packet at 564 (the oracle's first_pos):
        // 4-byte TS header, then the PES header (9 bytes + PES_header_data_length at byte 8), then ADTS.
        let unit = 564
        #expect(bytes[unit] == 0x47)
        let adaptation = bytes[unit + 3] & 0x20 != 0 ? 1 + Int(bytes[unit + 4]) : 0
        let pes = unit + 4 + adaptation
        #expect(bytes[pes] == 0 && bytes[pes + 1] == 0 && bytes[pes + 2] == 1)
        let adts = pes + 9 + Int(bytes[pes + 8])
        #expect(bytes[adts] == 0xFF && bytes[adts + 1] & 0xF0 == 0xF0)
        for i in (adts + 8)..<(unit + 188) { bytes[i] = 0 }
        let log = ParseRunner.run(bytes, chunking: .whole)
        let (data, _) = HE.formats(log)
        #expect(data == HE.core2)
        #expect(log.diagnostics.contains { $0.message.contains("could not be read to its end") })
        #expect(log.packetCount == 23)
    }
}
