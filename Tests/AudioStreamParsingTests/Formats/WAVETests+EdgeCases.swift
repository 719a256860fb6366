import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// Hand-built WAVE streams for the structural edge cases, and the malformed corpus.
extension WAVETests {
    typealias B = WAVEBuilder

    static func diagnostics(_ log: EventLog) -> [String] {
        log.entries.compactMap { if case .diagnostic(let d) = $0 { d.message } else { nil } }
    }

    static func kinds(_ log: EventLog) -> [ParserDiagnostic.Kind] { log.diagnostics.map(\.kind) }

    /// Parses in every chunking (they must agree) and returns the whole-input log.
    static func verified(_ bytes: [UInt8], options: ParserOptions = ParserOptions()) -> EventLog {
        let result = ChunkingVerifier.verify(bytes, options: options)
        #expect(result.failures.isEmpty, "\(result.failures)")
        return result.reference
    }

    // MARK: Chunk walk

    @Test("an odd-sized chunk is followed by a pad byte; the next chunk starts after it")
    func oddChunkPadding() {
        let file = B.file([
            B.chunk("fmt ", B.format(channels: 1, bits: 8)), B.chunk("junk", [1, 2, 3]),
            B.chunk("data", [0x80, 0x81, 0x82]),
            B.chunk("LIST", Array("INFO".utf8) + B.chunk("INAM", Array("Odd\0".utf8))),
        ])
        let log = Self.verified(file)
        #expect(log.error == nil)
        #expect(log.lastValues[.dataOffset] == .dataOffset(12 + 24 + 12 + 8))
        #expect(log.packetCount == 3)
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(3))
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else {
            Issue.record("LIST after the padded data chunk was not read")
            return
        }
        #expect(m.info[InfoKey.title] == "Odd")
        #expect(Self.kinds(log) == [.unknownStructure])  // the 'junk' chunk; no pad byte is missing
    }

    @Test("a missing final pad byte at the end of the stream is tolerated silently")
    func missingFinalPad() {
        let file = B.file([B.chunk("fmt ", B.format(channels: 1, bits: 8)), B.chunk("data", [1, 2, 3], pad: false)])
        let log = Self.verified(file)
        #expect(log.error == nil)
        #expect(log.packetCount == 3)
        #expect(Self.diagnostics(log).isEmpty)
    }

    @Test("a writer that omits the pad byte before 'data': the data chunk is still found")
    func missingPadBeforeData() {
        let file = B.file([
            B.chunk("fmt ", B.format(channels: 1, bits: 16)), B.chunk("ODDc", Array("ABCDEFG".utf8), pad: false),
            B.chunk("data", [UInt8](repeating: 0, count: 800)),
        ])
        let log = Self.verified(file)
        #expect(log.error == nil)
        #expect(log.lastValues[.dataOffset] == .dataOffset(12 + 24 + 15 + 8))
        #expect(Self.diagnostics(log).contains("wave: pad byte missing after an odd-sized chunk"))
        #expect(Self.kinds(log).contains(.sizeCorrected))
    }

    @Test("zero-size chunks are skipped")
    func zeroSizeChunk() {
        let file = B.file([B.chunk("fmt ", B.format()), B.chunk("zero", []), B.chunk("data", [1, 2, 3, 4])])
        let log = Self.verified(file)
        #expect(log.error == nil)
        #expect(log.packetCount == 1)
        #expect(Self.diagnostics(log) == ["wave: chunk 'zero' (0 bytes) skipped"])
    }

    @Test("data size 0xFFFFFFFF: no counts in the header, the data runs to the end")
    func dataSizeUnknown() {
        let file = B.file(
            [
                B.chunk("fmt ", B.format()),
                B.chunk("data", [UInt8](repeating: 9, count: 4 * 5 + 3), size: 0xFFFF_FFFF, pad: false),
            ],
            riffSize: 0xFFFF_FFFF)
        let log = Self.verified(file)
        #expect(log.error == nil)
        #expect(log.packetCount == 5)
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(23))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(5))
        let order = log.propertyOrder
        #expect(order.firstIndex(of: .audioDataByteCount)! > order.firstIndex(of: .readyToProducePackets)!)
        #expect(Self.kinds(log).contains(.truncated))  // the partial packet
    }

    @Test("data size 0 with a RIFF size that covers the audio: the data runs to the RIFF end")
    func dataSizeZeroWithRIFFSize() {
        let file = B.file([B.chunk("fmt ", B.format()), B.chunk("data", [UInt8](repeating: 1, count: 8), size: 0)])
        let log = Self.verified(file + [7, 7, 7])
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(8))
        #expect(log.packetCount == 2)
        #expect(Self.kinds(log).contains(.junkSkipped))  // the bytes after the RIFF size
    }

    @Test("the data chunk before the fmt chunk: optm at the data chunk")
    func dataBeforeFormat() {
        let file = B.file([B.chunk("data", [1, 2, 3, 4]), B.chunk("fmt ", B.format())])
        let log = Self.verified(file)
        #expect(log.error?.code == .notOptimized)
        #expect(log.error?.byteOffset == 12)
        #expect(log.lastValues[.readyToProducePackets] == nil)
    }

    @Test("a stream that ends inside the fmt chunk fails at finish with dta?")
    func truncatedInFormat() {
        let file = Array(B.file([B.chunk("fmt ", B.format()), B.chunk("data", [1, 2, 3, 4])]).prefix(28))
        for chunking in [Chunking.whole, .bytewise] {
            let log = ParseRunner.run(file, chunking: chunking)
            #expect(log.error?.code == .invalidFile)
            #expect(log.error?.reason == "wave: stream ends before the data chunk")
        }
    }

    @Test("huge chunk sizes never trap, allocate or hang")
    func hugeChunkSizes() {
        // An unknown chunk of 0xFFFFFFF0 bytes with an unknown RIFF size: skipped unbuffered.
        let unknown = B.file(
            [B.chunk("fmt ", B.format()), B.chunk("junk", [1, 2], size: 0xFFFF_FFF0)], riffSize: 0xFFFF_FFFF)
        #expect(Self.verified(unknown).error?.code == .invalidFile)
        // The same with a known RIFF size: cut at the RIFF end, then the data that follows the RIFF.
        let cut = B.file([B.chunk("fmt ", B.format()), B.chunk("junk", [1, 2], size: 0xFFFF_FFF0)])
        #expect(
            Self.verified(cut).diagnostics.contains { $0.kind == .sizeCorrected && $0.message.hasSuffix("cut to 2") })
        // A LIST that large: over maxTagBytes, skipped.
        let list = B.file(
            [B.chunk("fmt ", B.format()), B.chunk("LIST", Array("INFO".utf8), size: 0xFFFF_FFF0)], riffSize: 0)
        #expect(Self.kinds(Self.verified(list)).contains(.limitExceeded))
        // fmt that large: the limit error, at the chunk.
        let format = B.file([B.chunk("fmt ", B.format(), size: 0xFFFF_FFF0)])
        #expect(Self.verified(format).error?.code == .limitExceeded)
        #expect(Self.verified(format).error?.byteOffset == 12)
        // A data chunk that large: counts corrected at finish.
        let data = B.file([B.chunk("fmt ", B.format()), B.chunk("data", [1, 2, 3, 4], size: 0xFFFF_FFF0)])
        let log = Self.verified(data)
        #expect(log.error == nil)
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(4))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(1))
    }

    @Test("bytes after the RIFF size: a printable chunk is read, anything else ignored at finish")
    func afterRIFFSize() {
        let riff = B.file([B.chunk("fmt ", B.format()), B.chunk("data", [1, 2, 3, 4])])
        let appended = riff + B.chunk("LIST", Array("INFO".utf8) + B.chunk("IART", Array("Late\0".utf8)))
        let log = Self.verified(appended)
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else {
            Issue.record("appended LIST not read")
            return
        }
        #expect(m.info[InfoKey.artist] == "Late")
        #expect(Self.kinds(log) == [.sizeCorrected])  // the RIFF size is ignored

        let junk = Self.verified(riff + [0xFF, 0x00, 0x01, 0x02, 0xFE, 0x00, 0x00, 0x00, 0x99])
        #expect(junk.error == nil)
        #expect(Self.diagnostics(junk) == ["wave: 9 bytes after the RIFF size are not a chunk; ignored"])
    }

    @Test("a second fmt chunk and a second data chunk are skipped")
    func secondChunks() {
        let file = B.file([
            B.chunk("fmt ", B.format()), B.chunk("fmt ", B.format(channels: 1)), B.chunk("data", [1, 2, 3, 4]),
            B.chunk("data", [5, 6, 7, 8]),
        ])
        let log = Self.verified(file)
        #expect(log.packetCount == 1)
        #expect(Self.kinds(log) == [.duplicateStructure, .duplicateStructure])
    }

    @Test("LIST types other than INFO are skipped without buffering")
    func otherListTypes() {
        let file = B.file([
            B.chunk("fmt ", B.format()), B.chunk("LIST", Array("adtl".utf8) + [UInt8](repeating: 0, count: 100)),
            B.chunk("data", [1, 2, 3, 4]),
        ])
        let log = Self.verified(file)
        #expect(log.lastValues[.infoDictionary] == nil)
        #expect(Self.diagnostics(log) == ["wave: LIST chunk of type 'adtl' (104 bytes) skipped"])
    }

    // MARK: fmt

    @Test("channels 0, sample rate 0, block align 0 and bits per sample 0 are dta?")
    func invalidFormatFields() {
        let cases: [([UInt8], String)] = [
            (B.format(channels: 0, blockAlign: 4), "wave (fmt ): channel count is zero"),
            (B.format(rate: 0), "wave (fmt ): sample rate is zero"),
            (B.format(blockAlign: 0), "wave (fmt ): block align is zero"),
            (B.format(bits: 0, blockAlign: 4), "wave (fmt ): bits per sample is zero"),
        ]
        for (format, reason) in cases {
            let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", [0, 0, 0, 0])]))
            #expect(log.error?.code == .invalidFile)
            #expect(log.error?.reason == reason)
            #expect(log.error?.byteOffset == 20)
        }
    }

    /// Microsoft WAVEFORMATEX: nBlockAlign = nChannels × wBitsPerSample / 8 for PCM (1 byte per channel
    /// for G.711). A block align that disagrees is noted and the frame is what the samples need, as ffprobe
    /// 5.1 reads it (the fixture wav/pcm_s16le-8000-2ch-blockalign-2.wav: 800 frames of 4 bytes).
    @Test("a block align that disagrees with channels × bytes per sample: frames of channels × bytes, diagnostic")
    func inconsistentBlockAlign() throws {
        let cases: [([UInt8], UInt32, String)] = [
            (B.format(blockAlign: 6), 4, "wave (fmt ): block align 6 is not 2 channels × 2 bytes; frames of 4 bytes"),
            (B.format(blockAlign: 2), 4, "wave (fmt ): block align 2 is not 2 channels × 2 bytes; frames of 4 bytes"),
            (
                B.format(channels: 2, bits: 24, blockAlign: 8), 6,
                "wave (fmt ): block align 8 is not 2 channels × 3 bytes; frames of 6 bytes"
            ),
            (
                B.format(tag: 6, channels: 1, bits: 8, blockAlign: 2), 1,
                "wave (fmt ): block align 2 is not 1 channels × 1 byte; frames of 1 bytes"
            ),
        ]
        for (format, frameBytes, message) in cases {
            let data = [UInt8](repeating: 7, count: 24)
            let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", data)]))
            #expect(log.error == nil, "\(String(describing: log.error))")
            #expect(Self.diagnostics(log) == [message])
            #expect(Self.kinds(log) == [.inconsistentValues])
            #expect(log.diagnostics.first?.byteOffset == 20)
            guard case .dataFormat(let asbd)? = log.lastValues[.dataFormat] else {
                Issue.record("no dataFormat")
                continue
            }
            #expect(asbd.bytesPerFrame == frameBytes && asbd.bytesPerPacket == frameBytes)
            #expect(log.packets.count == 24 / Int(frameBytes))
            #expect(log.packets.allSatisfy { $0.size == Int(frameBytes) })
        }
    }

    @Test("unsupported format tags and sample sizes are fmt?")
    func unsupportedFormats() {
        let cases: [[UInt8]] = [
            B.format(tag: 3, bits: 16),  // 16-bit float
            B.format(bits: 48),  // 48-bit integer
            B.format(tag: 0x11, channels: 1, bits: 3, blockAlign: 256),  // 3-bit IMA
            B.format(tag: 0x40, channels: 1, bits: 1, blockAlign: 1),  // 1-bit G.721
            B.format(
                tag: 0xFFFE, bits: 16,
                extension: B.extensible(
                    validBits: 16, mask: 3, subFormat: 1, guidTail: [0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x72])),
        ]
        for format in cases {
            let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", [0, 0, 0, 0])]))
            #expect(log.error?.code == .unsupportedDataFormat, "\(String(describing: log.error))")
        }
    }

    @Test("GSM without wSamplesPerBlock: 320 samples per 65-byte block, with a diagnostic")
    func gsmWithoutSamplesPerBlock() throws {
        // Microsoft GSM 6.10 packs two 160-sample GSM frames into 65 bytes.
        let format = B.format(tag: 0x0031, channels: 1, bits: 0, blockAlign: 65, averageBytes: 1625)
        let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", [UInt8](repeating: 0, count: 130))]))
        #expect(log.error == nil)
        guard case .dataFormat(let d)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(d.formatID == .microsoftGSM)
        #expect(d.bytesPerPacket == 65 && d.framesPerPacket == 320)
        #expect(log.packetCount == 2)
        #expect(log.diagnostics.contains { $0.kind == .inconsistentValues })
    }

    @Test("an unknown format tag is delivered as opaque nBlockAlign packets with the ms + tag ID")
    func opaqueFormatTag() throws {
        // Tag 0x1234, 2 channels, 16 bits: blocks of 4 bytes, 1 frame each (4 × 8 / (16 × 2)).
        let format = B.format(tag: 0x1234, channels: 2, bits: 16)
        let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", [UInt8](repeating: 0, count: 40))]))
        #expect(log.error == nil)
        guard case .dataFormat(let d)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(d.formatID == AudioFormat(rawValue: 0x6D73_1234))
        #expect(d.formatID.microsoftACMTag == 0x1234)
        #expect(d.bytesPerPacket == 4 && d.framesPerPacket == 1)
        #expect(log.packetCount == 10)
        #expect(log.diagnostics.contains { $0.kind == .unknownStructure })
        // No bits per sample and no byte rate that divides the block: the duration is unknown (0 frames).
        let unknown = B.format(tag: 0x1234, channels: 1, bits: 0, blockAlign: 7, averageBytes: 999)
        let log2 = Self.verified(B.file([B.chunk("fmt ", unknown), B.chunk("data", [UInt8](repeating: 0, count: 14))]))
        guard case .dataFormat(let d2)? = log2.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(d2.framesPerPacket == 0 && d2.bytesPerPacket == 7)
        #expect(log2.packetCount == 2)
    }

    @Test("EXTENSIBLE with the MPEG Layer III sub-format: frames as packets")
    func extensibleMPEG() throws {
        // One MPEG-1 Layer III frame, 128 kbit/s at 44.1 kHz, no padding: 144 × 128000 / 44100 = 417 bytes
        // (11172-3 §2.4.3.1); header FF FB 90 64 (bitrate_index 9, 44.1 kHz, joint stereo).
        let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413)
        let format = B.format(
            tag: 0xFFFE, rate: 44100, bits: 0, blockAlign: 1, averageBytes: 16000,
            extension: B.extensible(validBits: 0, mask: 3, subFormat: 0x55))
        let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", frame + frame)]))
        #expect(log.error == nil)
        guard case .dataFormat(let d)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(d.formatID == .mpegLayer3 && d.framesPerPacket == 1152)
        #expect(log.packets.map(\.size) == [417, 417])
    }

    @Test("junk in MPEG data in WAVE is skipped with one diagnostic; the frames after it are kept")
    func mpegJunkInWave() throws {
        let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413)
        let format = B.format(tag: 0x55, rate: 44100, bits: 0, blockAlign: 1, averageBytes: 16000)
        let data = frame + [1, 2, 3, 0xFF, 0xFB, 5] + frame + frame + [9, 9]
        let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", data)]))
        #expect(log.error == nil)
        #expect(log.packets.map(\.size) == [417, 417, 417])
        #expect(log.diagnostics.filter { $0.kind == .junkSkipped }.count == 2)
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(3))
    }

    @Test("EXTENSIBLE: valid bits below the container are aligned high; the mask is a channel bitmap")
    func extensibleAlignedHigh() throws {
        // 20 valid bits in 24-bit containers, 3 channels FL FR LFE (mask 0x0B).
        let format = B.format(
            tag: 0xFFFE, channels: 3, rate: 48000, bits: 24,
            extension: B.extensible(validBits: 20, mask: 0x0B, subFormat: 1))
        let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", [UInt8](repeating: 0, count: 18))]))
        #expect(log.error == nil)
        guard case .dataFormat(let d)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        // SignedInteger 0x4 | AlignedHigh 0x10; 9 bytes per frame; mBitsPerChannel = valid bits.
        #expect(
            d
                == StreamDescription(
                    sampleRate: 48000, formatID: .linearPCM, formatFlags: 0x14, bytesPerPacket: 9, framesPerPacket: 1,
                    bytesPerFrame: 9, channelsPerFrame: 3, bitsPerChannel: 20))
        #expect(
            log.lastValues[.channelLayout]
                == .channelLayout(ChannelLayout(tag: ChannelLayout.Tag.useChannelBitmap, bitmap: 0x0B)))
        #expect(log.packetCount == 2)
    }

    @Test("EXTENSIBLE: a channel mask that names the wrong number of speakers is ignored")
    func extensibleMaskMismatch() {
        let format = B.format(
            tag: 0xFFFE, channels: 3, bits: 16, extension: B.extensible(validBits: 16, mask: 0x3, subFormat: 1))
        let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", [UInt8](repeating: 0, count: 6))]))
        #expect(log.lastValues[.channelLayout] == nil)
        #expect(Self.kinds(log) == [.inconsistentValues])  // the channel mask
    }

    @Test("RIFX: big-endian sizes, fields and samples")
    func rifx() {
        let format: [UInt8] = [0, 1, 0, 1, 0, 0, 0x1F, 0x40, 0, 0, 0x3E, 0x80, 0, 2, 0, 16]
        let file = B.file(
            [B.chunk("fmt ", format, bigEndian: true), B.chunk("data", [1, 2, 3, 4], bigEndian: true)], magic: "RIFX")
        let log = Self.verified(file)
        guard case .dataFormat(let d)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(d.formatFlags == 0x2 | 0x4 | 0x8)
        #expect(d.sampleRate == 8000)
        #expect(log.lastValues[.fileFormat] == .fileFormat(.wave))
        #expect(log.packetCount == 2)
    }

    @Test("IMA ADPCM without samplesPerBlock: derived from the block layout")
    func imaDerivedSamplesPerBlock() {
        // 2 channels, 512-byte blocks: (512 − 8) / 8 · 8 + 1 = 505 frames per block.
        let format = B.format(tag: 0x11, channels: 2, rate: 22050, bits: 4, blockAlign: 512)
        let log = Self.verified(B.file([B.chunk("fmt ", format), B.chunk("data", [UInt8](repeating: 0, count: 1024))]))
        guard case .dataFormat(let d)? = log.lastValues[.dataFormat] else {
            Issue.record("no format")
            return
        }
        #expect(d.formatID == .dviIntelIMA)
        #expect(d.framesPerPacket == 505)
        #expect(d.bytesPerPacket == 512)
        #expect(log.packetCount == 2)
    }

    // MARK: RF64

    @Test("RF64 with a ds64 table entry for another 0xFFFFFFFF chunk")
    func rf64ChunkTable() {
        let ds64 =
            B.le32(0) + B.le32(0) + B.le32(4) + B.le32(0) + B.le32(1) + B.le32(0) + B.le32(1)
            + Array("junk".utf8) + B.le32(6) + B.le32(0)
        let file = B.file(
            [
                B.chunk("ds64", ds64), B.chunk("fmt ", B.format()),
                B.chunk("junk", [1, 2, 3, 4, 5, 6], size: 0xFFFF_FFFF),
                B.chunk("data", [9, 9, 9, 9], size: 0xFFFF_FFFF),
            ], riffSize: 0xFFFF_FFFF, magic: "RF64")
        let log = Self.verified(file)
        #expect(log.error == nil)
        #expect(log.lastValues[.fileFormat] == .fileFormat(.rf64))
        #expect(log.packetCount == 1)
        #expect(Self.diagnostics(log).contains("wave: chunk 'junk' (6 bytes) skipped"))
    }

    // MARK: Limits and registry

    @Test("tag chunks over maxTagBytes are skipped; the audio still parses")
    func tagLimit() {
        let info = Array("INFO".utf8) + B.chunk("INAM", [UInt8](repeating: 0x41, count: 200))
        let file = B.file([B.chunk("fmt ", B.format()), B.chunk("LIST", info), B.chunk("data", [1, 2, 3, 4])])
        let log = Self.verified(file, options: ParserOptions(limits: ParserLimits(maxTagBytes: 64)))
        #expect(log.error == nil)
        #expect(log.lastValues[.infoDictionary] == nil)
        #expect(log.packetCount == 1)
    }

    @Test("detection agrees in every chunking for prefixes of a RIFF header (fuzz regression)")
    func detectionPrefixes() {
        let header = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVE".utf8)
        for n in 1...header.count {
            var input = Array(header.prefix(n))
            #expect(Self.verified(input).error?.code == (n < header.count ? .unsupportedFileType : .invalidFile))
            input[n - 1] ^= 0x20  // the last byte now contradicts the header
            #expect(Self.verified(input).error?.code == .unsupportedFileType)
        }
        #expect(Self.verified(Array("RII".utf8)).error?.reason == "parser: no supported container recognised")
    }

    @Test("chunk registry identifiers are unique")
    func registryUnique() {
        let ids = WAVEContainer.registry.entries.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    // MARK: Malformed corpus

    static let malformed: [(String, AudioStreamError.Code?)] = [
        ("rf64-data-size-not-ffffffff.wav", nil), ("rf64-ds64-data-size-2e63.wav", nil),
        ("rf64-ds64-data-size-2e64.wav", nil), ("rf64-ds64-data-size-larger-than-file.wav", nil),
        ("rf64-ds64-riff-size-2e64.wav", nil), ("rf64-ds64-size-0.wav", nil), ("rf64-ds64-table-length-huge.wav", nil),
        ("rf64-no-ds64.wav", nil), ("rf64-trunc-after-ds64.wav", .invalidFile),
        ("rf64-trunc-after-fmt.wav", .invalidFile),
        ("rf64-trunc-after-riff-header.wav", .invalidFile), ("rf64-trunc-in-data-header.wav", .invalidFile),
        ("rf64-trunc-in-ds64-header.wav", .invalidFile), ("rf64-trunc-in-ds64.wav", .invalidFile),
        ("rf64-trunc-in-fmt.wav", .invalidFile), ("rf64-trunc-magic.wav", .unsupportedFileType),
        ("rf64-trunc-mid-data.wav", nil), ("wav-data-exceeds-riff.wav", nil), ("wav-data-size-4g.wav", nil),
        ("wav-data-size-larger-than-file.wav", nil), ("wav-extensible-truncated.wav", .invalidFile),
        ("wav-fmt-bits-0.wav", .invalidFile), ("wav-fmt-blockalign-0.wav", .invalidFile),
        ("wav-fmt-channels-0.wav", .invalidFile), ("wav-fmt-rate-0.wav", .invalidFile),
        ("wav-fmt-size-0.wav", .invalidFile), ("wav-fmt-size-4g.wav", .limitExceeded),
        ("wav-fmt-size-larger-than-file.wav", .invalidFile), ("wav-formtype-not-wave.wav", .unsupportedFileType),
        ("wav-list-size-4g.wav", .invalidFile), ("wav-no-fmt.wav", .notOptimized), ("wav-odd-chunk-no-pad.wav", nil),
        ("wav-riff-size-4g.wav", nil), ("wav-riff-size-larger-than-file.wav", nil),
        ("wav-trunc-after-data-header.wav", nil), ("wav-trunc-after-fmt.wav", .invalidFile),
        ("wav-trunc-after-riff-header.wav", .invalidFile), ("wav-trunc-in-chunk-header.wav", .invalidFile),
        ("wav-trunc-in-data-header.wav", .invalidFile), ("wav-trunc-in-fmt.wav", .invalidFile),
        ("wav-trunc-magic.wav", .unsupportedFileType), ("wav-trunc-mid-data.wav", nil),
        ("wav-unknown-chunk-size-0.wav", nil),
    ]

    @Test("malformed WAVE files end with the documented result, in every chunking", arguments: malformed)
    func malformedFile(_ name: String, _ code: AudioStreamError.Code?) throws {
        let log = Self.verified(try WAVEFixtures.bytes("malformed/\(name)"))
        #expect(log.error?.code == code, "\(String(describing: log.error))")
    }

    @Test("malformed files whose audio survives: the packets that are really there")
    func malformedAudioCounts() throws {
        // name, packets (4-byte frames), audioDataByteCount at the end.
        let cases: [(String, Int, UInt64)] = [
            ("rf64-data-size-not-ffffffff.wav", 200, 800), ("rf64-ds64-data-size-2e64.wav", 200, 800),
            ("rf64-ds64-data-size-larger-than-file.wav", 200, 800), ("rf64-no-ds64.wav", 200, 800),
            ("rf64-ds64-size-0.wav", 200, 800), ("wav-data-exceeds-riff.wav", 200, 800),
            ("wav-data-size-4g.wav", 200, 800), ("wav-odd-chunk-no-pad.wav", 200, 800),
            ("wav-trunc-mid-data.wav", 100, 402), ("wav-trunc-after-data-header.wav", 0, 0),
        ]
        for (name, packets, bytes) in cases {
            let log = ParseRunner.run(try WAVEFixtures.bytes("malformed/\(name)"), chunking: .whole)
            #expect(log.packetCount == packets, "\(name)")
            #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(bytes), "\(name)")
        }
    }
}
