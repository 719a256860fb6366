import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// `PacketBatch` hands its bytes out as `RawSpan`s (issue 16, "Modern Swift types") and its descriptions
/// as a contiguous buffer of `AudioStreamPacketDescription`-layout values.
@Suite("Packet batch spans")
struct PacketBatchSpanTests {
    /// Constant-size packets (PCM, computed descriptions) and variable-size ones (stored descriptions).
    static let fixtures = [
        "wav/pcm_s16le-22050-1ch-oddchunk.wav",
        "mpeg/mp3-44100-2ch-lame-cbr128.mp3",
        "mp4/aac-44100-2ch-faststart.m4a",
        "ogg/flac-44100-2ch-ffmpeg.oga",
    ]

    @Test(arguments: fixtures)
    func spansHoldTheSameBytesAsTheRawAccessors(_ path: String) throws {
        let file = try FixtureCatalog.fixture(path).bytes()
        let parser = AudioStreamParser()
        var packets = 0
        var mismatches: [String] = []
        parser.packetsHandler = { batch in
            let whole = batch.withBytes { span in span.withUnsafeBytes { Array($0) } }
            if whole != Array(batch.bytes) { mismatches.append("batch at \(batch.fileOffset)") }
            var index = 0
            batch.forEachPacket { description, span in
                if description != batch.descriptions[index] { mismatches.append("description \(index)") }
                let viaSpan = span.withUnsafeBytes { Array($0) }
                let viaPacket = batch.withPacket(at: index) { packet in packet.withUnsafeBytes { Array($0) } }
                let viaPointer = Array(batch.packetBytes(at: index))
                if viaSpan != viaPointer || viaPacket != viaPointer || span.byteCount != Int(description.dataByteSize) {
                    mismatches.append("packet \(batch.firstPacketIndex + Int64(index))")
                }
                index += 1
            }
            packets += index
        }
        for start in stride(from: 0, to: file.count, by: 1_000) {
            try parser.parse(file[start..<min(file.count, start + 1_000)])
        }
        try parser.finish()
        #expect(packets == ParseRunner.run(file, chunking: .fixed(1_000)).packetCount)
        #expect(packets > 0)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// A throwing body's error comes out with its own type.
    @Test func spanBodiesRethrowTheirErrorType() throws {
        struct Stop: Error {}
        let file = try FixtureCatalog.fixture("mpeg/mp3-44100-2ch-lame-cbr128.mp3").bytes()
        let parser = AudioStreamParser()
        var stopped = 0
        parser.packetsHandler = { batch in
            do throws(Stop) {
                try batch.forEachPacket { (_, _) throws(Stop) in throw Stop() }
            } catch {
                stopped += 1
            }
            let size = batch.withPacket(at: 0) { $0.byteCount }
            #expect(size == Int(batch.descriptions[0].dataByteSize))
        }
        try parser.parse(file)
        #expect(stopped > 0)
    }

    /// `PacketDescription` has CoreAudio's `AudioStreamPacketDescription` layout (16 bytes:
    /// `SInt64 mStartOffset`, `UInt32 mVariableFramesInPacket`, `UInt32 mDataByteSize`).
    @Test func descriptionsHaveAudioStreamPacketDescriptionLayout() {
        #expect(MemoryLayout<PacketDescription>.size == 16)
        #expect(MemoryLayout<PacketDescription>.stride == 16)
        #expect(MemoryLayout<PacketDescription>.alignment == 8)
        #expect(MemoryLayout<PacketDescription>.offset(of: \.startOffset) == 0)
        #expect(MemoryLayout<PacketDescription>.offset(of: \.variableFramesInPacket) == 8)
        #expect(MemoryLayout<PacketDescription>.offset(of: \.dataByteSize) == 12)
        let description = PacketDescription(
            startOffset: 0x0102_0304_0506_0708, variableFramesInPacket: 1_152, dataByteSize: 417)
        let raw = withUnsafeBytes(of: description) { Array($0) }
        #expect(raw[0..<8].elementsEqual(withUnsafeBytes(of: Int64(0x0102_0304_0506_0708)) { Array($0) }))
        #expect(raw[8..<12].elementsEqual(withUnsafeBytes(of: UInt32(1_152)) { Array($0) }))
        #expect(raw[12..<16].elementsEqual(withUnsafeBytes(of: UInt32(417)) { Array($0) }))
    }

    @Test(arguments: fixtures)
    func descriptionsAsAContiguousBuffer(_ path: String) throws {
        let file = try FixtureCatalog.fixture(path).bytes()
        let parser = AudioStreamParser()
        var batches = 0
        var mismatches = 0
        parser.packetsHandler = { batch in
            batches += 1
            let expected = Array(batch.descriptions)
            let viaBuffer = batch.descriptions.withUnsafeBufferPointer { buffer in
                // What a C decoder reads: 16-byte records from the base address.
                (0..<buffer.count).map { i in
                    let raw = UnsafeRawPointer(buffer.baseAddress!) + 16 * i
                    return PacketDescription(
                        startOffset: raw.loadUnaligned(as: Int64.self),
                        variableFramesInPacket: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self),
                        dataByteSize: raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                }
            }
            let viaSpan = batch.descriptions.withSpan { span in (0..<span.count).map { span[$0] } }
            if viaBuffer != expected || viaSpan != expected { mismatches += 1 }
        }
        try parser.parse(file)
        try parser.finish()
        #expect(batches > 0)
        #expect(mismatches == 0)
    }
}
