import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// ADTS files derived from a real encoder's output (junk, tags, CRC and multi-block frames), checked
/// against the oracle of the file they were derived from, plus the malformed corpus.
@Suite("ADTS derived and malformed streams")
struct ADTSDerivedTests {
    /// The base file's frames (ffprobe): every derived file keeps these raw data blocks.
    static func base() throws -> [ADTSFixtures.OraclePacket] {
        try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch.aac"))
    }

    @Test("junk before and between frames is skipped with one diagnostic per run")
    func junk() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-44100-2ch-junk.aac")
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        // 100 bytes inserted before frame 0, 37 before frame 10 (see Fixtures/README.md).
        let wanted = try Self.base().enumerated().map { i, f in
            (f.pos + 100 + (i >= 10 ? 37 : 0) + 7, f.size - 7)
        }
        #expect(log.packets.map(\.offset) == wanted.map(\.0))
        #expect(log.packets.map(\.size) == wanted.map(\.1))
        #expect(log.lastValues[.dataOffset] == .dataOffset(100))
        let diagnostics = ADTSFixtures.diagnostics(log)
        #expect(diagnostics.count == 2)
        #expect(diagnostics.map(\.kind) == [.junkSkipped, .junkSkipped])
        #expect(diagnostics.first?.byteOffset == 0)
        #expect(diagnostics.first?.message.contains("100 bytes") == true)
        #expect(diagnostics.first?.message.contains("2 syncword(s) rejected") == true)
        #expect(diagnostics.first?.message.contains("sampling_frequency_index 15") == true)
        #expect(diagnostics.last?.byteOffset == (try Self.base())[10].pos + 100)
        #expect(diagnostics.last?.message.contains("37 bytes") == true)
    }

    @Test("an ID3v2 tag between frames is consumed at its packet position, not reported as junk")
    func tagBetweenFrames() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-44100-2ch-id3-between.aac")
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let base = try Self.base()
        // The tag's size from its own header: 10 + syncsafe size (ID3v2 §3.1).
        let at = Int(base[20].pos)
        #expect(Array(bytes[at..<(at + 3)]) == Array("ID3".utf8))
        let tagSize = 10 + bytes[(at + 6)..<(at + 10)].reduce(0) { $0 << 7 | Int($1) }
        let wanted = base.enumerated().map { i, f in (f.pos + (i >= 20 ? Int64(tagSize) : 0) + 7, f.size - 7) }
        #expect(log.packets.map(\.offset) == wanted.map(\.0))
        #expect(log.packets.map(\.size) == wanted.map(\.1))
        // The event right after packet 19 is the tag's metadata (TIT2/TPE1 as ffmpeg wrote them).
        let index = try #require(
            log.entries.firstIndex { entry in
                if case .packets(let run) = entry { return run.firstPacketIndex + Int64(run.count) == 20 }
                return false
            })
        guard case .property(.metadata(let metadata)) = log.entries[index + 1] else {
            Issue.record("no metadata between packets 19 and 20: \(log.entries[index + 1])")
            return
        }
        #expect(metadata.info == [InfoKey.title: "Timed Title", InfoKey.artist: "Timed Artist"])
        #expect(metadata.tags.map(\.key) == ["TIT2", "TPE1"] && metadata.tags.allSatisfy { $0.source == "id3v2" })
        #expect(ADTSFixtures.diagnostics(log).isEmpty)
        // Not part of the header: the stream had no metadata before the tag.
        #expect(log.propertyOrder.filter { $0 == .infoDictionary }.count == 1)
    }

    @Test("CRC-protected two-block frames are split at raw_data_block_position, CRCs stripped")
    func twoBlocksWithCRC() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-44100-2ch-2blocks-crc.aac")
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch-2blocks-crc.aac"))
        let base = try Self.base()
        // Frame k holds base frames 2k and 2k+1: header 7 + position 2 + CRC 2, block, CRC 2, block, CRC 2.
        // The odd last frame is a single block after a 9-byte header.
        var wanted: [(Int64, Int)] = []
        for (k, frame) in frames.enumerated() {
            let b0 = base[2 * k].size - 7
            if 2 * k + 1 < base.count {
                wanted.append((frame.pos + 11, b0))
                wanted.append((frame.pos + 11 + Int64(b0) + 2, base[2 * k + 1].size - 7))
            } else {
                wanted.append((frame.pos + 9, b0))
            }
        }
        #expect(log.packets.map(\.offset) == wanted.map(\.0))
        #expect(log.packets.map(\.size) == wanted.map(\.1))
        #expect(log.packets.allSatisfy { $0.frames == 0 })
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(45))
        #expect(ADTSFixtures.diagnostics(log).isEmpty)
    }

    @Test("two-block frames without CRC are one packet of 2048 frames, reported once")
    func twoBlocksWithoutCRC() throws {
        let bytes = try ADTSFixtures.bytes("adts/aac-44100-2ch-2blocks.aac")
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let frames = try ADTSFixtures.packets(try ADTSFixtures.oracle("adts/aac-44100-2ch-2blocks.aac"))
        #expect(log.packets.map(\.offset) == frames.map { $0.pos + 7 })
        #expect(log.packets.map(\.size) == frames.map { $0.size - 7 })
        // 22 two-block frames, then the single-block last frame (0 = the format's 1024).
        #expect(log.packets.map(\.frames) == Array(repeating: 2048, count: 22) + [0])
        let diagnostics = ADTSFixtures.diagnostics(log)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.kind == .unsupportedFeature)
        #expect(diagnostics.first?.message.contains("2 raw data blocks") == true)
        let parser = AudioStreamParser()
        try parser.parse(bytes)
        try parser.finish()
        #expect(parser.parsedFrameCount == 45 * 1024)
    }

    // MARK: Malformed corpus

    struct MalformedCase: Sendable, CustomStringConvertible {
        var file: String
        var error: AudioStreamError.Code?
        var packets: Int
        var diagnostic: String?
        var description: String { file }
    }

    static let malformed: [MalformedCase] = [
        MalformedCase(file: "adts-sf-index-15.aac", error: .unsupportedFileType, packets: 0, diagnostic: nil),
        MalformedCase(file: "adts-junk-only.aac", error: .unsupportedFileType, packets: 0, diagnostic: nil),
        MalformedCase(
            file: "adts-sf-index-15-first-frame.aac", error: nil, packets: 9,
            diagnostic: "sampling_frequency_index 15 (escape) is not allowed in ADTS"),
        MalformedCase(
            file: "adts-sf-index-13-frame-4.aac", error: nil, packets: 9,
            diagnostic: "sampling_frequency_index 13 is reserved"),
        MalformedCase(
            file: "adts-frame-length-short.aac", error: nil, packets: 9,
            diagnostic: "aac_frame_length 5 leaves no raw data after the 7-byte header"),
        MalformedCase(
            file: "adts-frame-length-long.aac", error: nil, packets: 9,
            diagnostic: "cut short by a frame starting inside it"),
        MalformedCase(
            file: "adts-truncated-last-frame.aac", error: nil, packets: 9,
            diagnostic: "the stream ends inside the frame at"),
        MalformedCase(
            file: "adts-truncated-in-header.aac", error: nil, packets: 9,
            diagnostic: "the stream ends inside the frame header"),
    ]

    @Test("malformed ADTS files give the documented error or diagnostic, in every chunking", arguments: malformed)
    func malformedFile(_ c: MalformedCase) throws {
        let bytes = try ADTSFixtures.bytes("malformed/\(c.file)")
        for hint in [nil, AudioFileType.aacADTS] {
            let (log, failures) = ChunkingVerifier.verify(bytes, hint: hint)
            #expect(failures.isEmpty, "\(failures)")
            #expect(log.error?.code == c.error)
            #expect(log.packetCount == c.packets)
            if let text = c.diagnostic {
                #expect(ADTSFixtures.diagnostics(log).contains { $0.message.contains(text) }, "\(log)")
            }
        }
    }

    @Test("a rejected first frame is not the data offset; the kept frames are the base file's")
    func rejectedFirstFrame() throws {
        let bytes = try ADTSFixtures.bytes("malformed/adts-sf-index-15-first-frame.aac")
        let log = ParseRunner.run(bytes, chunking: .whole)
        let base = try Self.base()
        #expect(log.lastValues[.dataOffset] == .dataOffset(base[1].pos))
        #expect(log.packets.map(\.offset) == base[1..<10].map { $0.pos + 7 })
    }

    @Test("a frame whose length runs into the next frame is dropped; the next one is kept")
    func damagedFrameLength() throws {
        let log = ParseRunner.run(try ADTSFixtures.bytes("malformed/adts-frame-length-long.aac"), chunking: .whole)
        let base = try Self.base()
        #expect(log.packets.map(\.offset) == (base[0..<3] + base[4..<10]).map { $0.pos + 7 })
        #expect(ADTSFixtures.diagnostics(log).first?.byteOffset == base[3].pos)
    }

    /// Found by FuzzCodecHeaders (Fuzz/FailCases/FuzzCodecHeaders/fil-escape-zero.bin): a fill element
    /// whose 4-bit count is 15 and whose esc_count is 0 trapped on `escape - 1`. ISO/IEC 14496-3 Table 4.11:
    /// `cnt = count; if (cnt == 15) cnt += esc_count - 1;`, so the element holds 14 fill bytes, and the
    /// program config element after it is read.
    @Test("A fill element with count 15 and esc_count 0 holds 14 bytes; the PCE after it is found")
    func fillElementWithZeroEscapeCount() {
        var w = BitWriter()
        w.write(6, bits: 3)  // ID_FIL
        w.write(15, bits: 4)  // count
        w.write(0, bits: 8)  // esc_count
        for _ in 0..<14 { w.write(0xA5, bits: 8) }  // fill bytes
        w.write(5, bits: 3)  // ID_PCE, then program_config_element() (Table 4.2):
        w.write(0, bits: 4)  // element_instance_tag
        w.write(1, bits: 2)  // object_type 1 = AAC LC
        w.write(4, bits: 4)  // sampling_frequency_index 4 = 44.1 kHz
        w.write(1, bits: 4)  // num_front_channel_elements
        w.write(0, bits: 4)  // num_side_channel_elements
        w.write(0, bits: 4)  // num_back_channel_elements
        w.write(0, bits: 2)  // num_lfe_channel_elements
        w.write(0, bits: 3)  // num_assoc_data_elements
        w.write(0, bits: 4)  // num_valid_cc_elements
        w.write(0, bits: 3)  // mono_mixdown_present, stereo_mixdown_present, matrix_mixdown_idx_present
        w.write(1, bits: 1)  // front_element_is_cpe: a channel pair
        w.write(0, bits: 4)  // front_element_tag_select
        w.alignToByte()
        w.write(0, bits: 8)  // comment_field_bytes
        let pce = ProgramConfigElement.find(inRawDataBlock: w.bytes)
        #expect(pce?.channelCount == 2)
        #expect(pce?.objectType == 1)
        #expect(pce?.samplingFrequencyIndex == 4)
        // The fuzzer's input: the same fill element header, then too few bytes: no PCE, no trap.
        #expect(ProgramConfigElement.find(inRawDataBlock: [0xDE, 0x00, 0x00, 0x4F]) == nil)
    }

    @Test("An ADTS stream with channel configuration 0 whose raw data starts with that fill element parses")
    func channelConfigurationZeroWithZeroEscapeFill() {
        // ADTS header (14496-3 1.A.2.2): AAC LC, 44.1 kHz (index 4), channel_configuration 0, no CRC,
        // frame_length 200: FF F1 | 01 0100 0 0 | 00 0 0 0 0 00 | 00011001 | 000 11111 | 111111 00. The raw
        // data block starts with ID_FIL, count 15, esc_count 0 (the trap), then zeros (an ID_SCE: no PCE).
        let frame: [UInt8] =
            [0xFF, 0xF1, 0x50, 0x00, 0x19, 0x1F, 0xFC, 0xDE, 0x00, 0x00, 0x4F]
            + [UInt8](repeating: 0, count: 189)
        let stream = [[UInt8]](repeating: frame, count: 8).flatMap { $0 }
        for chunking in [Chunking.whole, .bytewise] {
            let log = ParseRunner.run(stream, chunking: chunking, hint: .aacADTS)
            #expect(log.error == nil, "\(chunking): \(String(describing: log.error))")
            #expect(log.packetCount == 8, "\(chunking)")
            #expect(
                log.diagnostics.contains {
                    $0.kind == .inconsistentValues && $0.message.contains("program_config_element")
                },
                "\(chunking): \(log.diagnostics)")
        }
    }
}
