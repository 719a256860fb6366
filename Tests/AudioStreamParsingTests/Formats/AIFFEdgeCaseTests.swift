import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// Hand-built AIFF / AIFF-C streams: every expected value is derived from the bytes the test writes.
@Suite("AIFF edge cases")
struct AIFFEdgeCaseTests {
    typealias B = AIFFTestBuilder

    // MARK: Structure

    @Test func parsesCanonicalAIFFInEveryChunking() throws {
        let bytes = B.simpleAIFF(frames: 10)
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let r = AIFFParsed(log)
        #expect(r.error == nil)
        // 'FORM' size 'AIFF' (12) + COMM header and body (8 + 18) + SSND header (8) + offset/blockSize (8).
        #expect(r.dataOffset == 54)
        #expect(r.byteCount == 40)
        #expect(r.packetCount == 10)
        #expect(log.packetCount == 10)
        #expect(log.packets.first?.offset == 54)
        #expect(log.packets.allSatisfy { $0.size == 4 })
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics)")
        #expect(
            r.format?.formatFlags == LinearPCMFlags.isBigEndian | LinearPCMFlags.isSignedInteger
                | LinearPCMFlags.isPacked)
        #expect(r.layout?.tag == ChannelLayout.Tag.stereo)
        // 44100 frames/s × 4 bytes × 8 bits.
        #expect(r.bitRate == 1_411_200)
        // Apple's listener order (audiofilestream.md §4.2), with the core's default one-item format list.
        #expect(
            log.propertyOrder == [
                .fileFormat, .dataFormat, .formatList, .channelLayout, .audioDataByteCount, .audioDataPacketCount,
                .maximumPacketSize, .packetSizeUpperBound, .averageBytesPerPacket, .bitRate, .restrictsRandomAccess,
                .dataOffset, .readyToProducePackets,
            ])
    }

    @Test func throwsNotOptimizedWhenSoundDataPrecedesCommon() {
        let bytes = B.form([
            B.chunk("SSND", B.ssnd(B.ramp(8))),
            B.chunk("COMM", B.comm(channels: 2, frames: 2, bits: 16)),
        ])
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error?.code == .notOptimized)
        #expect(log.error?.byteOffset == 12)
    }

    @Test func readsOddSizedChunksAndTheirPadBytes() throws {
        // NAME "abc" (3 bytes + pad), COMM, SSND with 3 one-byte frames (odd: 11 bytes + pad), AUTH after.
        let bytes = B.form([
            B.chunk("NAME", B.id("abc")),
            B.chunk("COMM", B.comm(channels: 1, frames: 3, bits: 8)),
            B.chunk("SSND", B.ssnd([1, 2, 3])),
            B.chunk("AUTH", B.id("Someone")),
        ])
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let r = AIFFParsed(log)
        #expect(r.error == nil)
        #expect(log.packetCount == 3)
        // 12 + NAME (8 + 3 + 1) + COMM (8 + 18) + SSND header (8 + 8).
        #expect(r.dataOffset == 66)
        #expect(r.metadata?.info[InfoKey.title] == "abc")
        #expect(r.metadata?.info[InfoKey.artist] == "Someone")
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics)")
        // 8-bit signed: the BigEndian flag is meaningless for one byte and not set.
        #expect(r.format?.formatFlags == LinearPCMFlags.isSignedInteger | LinearPCMFlags.isPacked)
    }

    @Test func toleratesMissingPadBytes() {
        // The NAME chunk's pad byte is missing inside the file, and the SSND's at the very end (where the
        // FORM size counts it).
        var bytes = B.form([
            B.chunk("NAME", B.id("abc"), pad: false),
            B.chunk("COMM", B.comm(channels: 1, frames: 3, bits: 8)),
            B.chunk("SSND", B.ssnd([1, 2, 3]), pad: false),
        ])
        bytes[4..<8] = ArraySlice(B.u32(UInt32(bytes.count - 8 + 1)))  // FORM counts the final pad
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let r = AIFFParsed(log)
        #expect(r.error == nil)
        #expect(log.packetCount == 3)
        #expect(r.metadata?.info[InfoKey.title] == "abc")
        #expect(r.diagnostics == ["aiff: the pad byte after an odd-sized chunk is missing"])
    }

    @Test func readsAIFCCommonChunkWithoutCompressionFieldsAsNone() {
        let bytes = B.form(
            [
                B.chunk("FVER", B.u32(0xA280_5140)),
                B.chunk("COMM", B.comm(channels: 2, frames: 2, bits: 16)),
                B.chunk("SSND", B.ssnd(B.ramp(8))),
            ], type: "AIFC")
        let r = AIFFParsed(ParseRunner.run(bytes, chunking: .whole))
        #expect(r.error == nil)
        #expect(r.fileFormat == .aifc)
        #expect(r.format?.formatID == .linearPCM)
        #expect(
            r.format?.formatFlags == LinearPCMFlags.isBigEndian | LinearPCMFlags.isSignedInteger
                | LinearPCMFlags.isPacked)
        #expect(r.format?.bitsPerChannel == 16)
        #expect(r.packetCount == 2)
    }

    @Test func rejectsZeroChannels() {
        let bytes = B.form([B.chunk("COMM", B.comm(channels: 0, frames: 0, bits: 16)), B.chunk("SSND", B.ssnd([]))])
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error?.code == .invalidFile)
        #expect(log.error?.reason == "aiff (COMM): channel count is zero")
    }

    @Test(arguments: [
        ("NaN", [0x7F, 0xFF, 0xC0, 0, 0, 0, 0, 0, 0, 0] as [UInt8]),
        ("+infinity", [0x7F, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        ("zero", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("-44100", [0xC0, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]),
        ("2^16383", [0x7F, 0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        ("denormal", [0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 1]),
        ("0.5 Hz", [0x3F, 0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0]),
    ])
    func rejectsImpossibleSampleRates(name: String, rate: [UInt8]) {
        let bytes = B.form([
            B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16, rate: rate)), B.chunk("SSND", B.ssnd([0, 0])),
        ])
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error?.code == .invalidFile, "\(name)")
        #expect(log.error?.byteOffset == 12, "\(name)")
    }

    @Test func truncatedCommonChunkFailsAtFinishNotBefore() throws {
        let whole = B.simpleAIFF(frames: 4)
        let cut = Array(whole[0..<(12 + 8 + 9)])  // inside COMM's sample rate
        let parser = AudioStreamParser()
        try parser.parse(cut)  // waits for the rest of COMM
        #expect(throws: AudioStreamError.self) { try parser.finish() }
        let log = ParseRunner.run(cut, chunking: .bytewise)
        #expect(log.error?.code == .invalidFile)
        #expect(log.error?.reason == "aiff (COMM): stream ends inside the chunk (9 of 18 bytes)")
        #expect(log.error?.byteOffset == 12)
    }

    @Test func streamEndingBeforeSoundDataIsInvalid() {
        let bytes = B.form([B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16))])
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error?.code == .invalidFile)
        #expect(log.error?.reason == "aiff: stream ends without an SSND chunk")
    }

    @Test func chunkSizeNear4GiBDoesNotTrap() {
        // An unknown chunk claiming 0xFFFFFFF0 bytes before COMM: skipped to the end of the stream.
        let unknown = B.form(
            [B.chunk("junk", [1, 2, 3, 4], size: 0xFFFF_FFF0)] + [
                B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16))
            ])
        let log = ParseRunner.run(unknown, chunking: .whole)
        #expect(log.error?.code == .invalidFile)
        // The same size on SSND: taken as declared, corrected when the stream ends.
        let ssnd = B.form([
            B.chunk("COMM", B.comm(channels: 1, frames: 4, bits: 16)),
            B.chunk("SSND", B.ssnd(B.ramp(8)), size: 0xFFFF_FFF0),
        ])
        let (log2, failures) = ChunkingVerifier.verify(ssnd)
        #expect(failures.isEmpty, "\(failures)")
        let r = AIFFParsed(log2)
        #expect(r.error == nil)
        #expect(log2.packetCount == 4)
        #expect(r.packetCount == 4)
        #expect(r.byteCount == 8)
        #expect(r.announcedPacketCounts == [(0xFFFF_FFF0 - 8) / 2, 4])
        // Also as a COMM size: limit exceeded, never a 4 GiB allocation.
        let comm = B.form([B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16), size: 0xFFFF_FFF0)])
        #expect(ParseRunner.run(comm, chunking: .whole).error?.code == .limitExceeded)
    }

    @Test func pipeWrittenSizesRunToTheEndOfTheStream() {
        // FFmpeg writing to a pipe: FORM size 0, numSampleFrames 0, SSND size 0.
        let bytes = B.form(
            [
                B.chunk("COMM", B.comm(channels: 2, frames: 0, bits: 16)),
                B.chunk("SSND", B.ssnd(B.ramp(4 * 5 + 3)), size: 0, pad: false),
            ], size: 0)
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let r = AIFFParsed(log)
        #expect(r.error == nil)
        #expect(log.packetCount == 5)
        #expect(r.announcedPacketCounts == [5])  // none in the header, the exact one at finish
        #expect(r.byteCount == 23)  // the bytes that arrived, the dropped partial packet included
        #expect(r.diagnosticKinds == [.sizeCorrected, .sizeCorrected, .truncated])  // FORM, SSND, partial packet
        #expect(r.diagnostics.last?.hasSuffix("3 bytes of a partial packet dropped") == true)
    }

    @Test func soundDataChunkSizeWinsOverCommonFrameCount() {
        let bytes = B.form([
            B.chunk("COMM", B.comm(channels: 1, frames: 7, bits: 16)),
            B.chunk("SSND", B.ssnd(B.ramp(10))),
        ])
        let r = AIFFParsed(ParseRunner.run(bytes, chunking: .whole))
        #expect(r.packetCount == 5)
        #expect(r.diagnosticKinds == [.inconsistentValues])
        #expect(r.diagnostics.contains { $0.hasPrefix("aiff (COMM): numSampleFrames 7 disagrees") })
    }

    @Test func soundDataOffsetFieldMovesTheDataOffset() {
        let bytes = B.form([
            B.chunk("COMM", B.comm(channels: 1, frames: 2, bits: 16)),
            B.chunk("SSND", B.ssnd(offset: 6, [9, 8, 7, 6])),
        ])
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let r = AIFFParsed(log)
        #expect(r.dataOffset == Int64(12 + 26 + 16 + 6))
        #expect(r.byteCount == 4)
        #expect(log.packets.map(\.offset) == [60, 62])
        let past = B.form([
            B.chunk("COMM", B.comm(channels: 1, frames: 2, bits: 16)),
            B.chunk("SSND", B.u32(100) + B.u32(0) + [1, 2, 3, 4]),
        ])
        #expect(ParseRunner.run(past, chunking: .whole).error?.code == .invalidFile)
    }

    @Test func twelveBitSamplesUseTwoByteContainersAlignedHigh() {
        let bytes = B.form([
            B.chunk("COMM", B.comm(channels: 1, frames: 2, bits: 12)), B.chunk("SSND", B.ssnd(B.ramp(4))),
        ])
        let r = AIFFParsed(ParseRunner.run(bytes, chunking: .whole))
        #expect(r.format?.bitsPerChannel == 12)
        #expect(r.format?.bytesPerFrame == 2)
        #expect(
            r.format?.formatFlags == LinearPCMFlags.isBigEndian | LinearPCMFlags.isSignedInteger
                | LinearPCMFlags.isAlignedHigh)
        #expect(r.packetCount == 2)
    }

    @Test func unknownCompressionTypeIsUnsupported() {
        let bytes = B.form(
            [B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16, compression: "XXXX"))], type: "AIFC")
        let log = ParseRunner.run(bytes, chunking: .whole)
        #expect(log.error?.code == .unsupportedDataFormat)
        #expect(log.error?.reason == "aiff (COMM): compression type 'XXXX' is not supported")
    }

    @Test func compressionTypeCutShortIsInvalid() {
        let body = Array(B.comm(channels: 1, frames: 1, bits: 16, compression: "sowt")[0..<20])
        let log = ParseRunner.run(B.form([B.chunk("COMM", body)], type: "AIFC"), chunking: .whole)
        #expect(log.error?.code == .invalidFile)
    }

    @Test func metadataAfterSoundDataIsAnnouncedAgain() {
        let bytes = B.form([
            B.chunk("NAME", B.id("Title")),
            B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16)),
            B.chunk("SSND", B.ssnd([0, 1])),
            B.chunk("ANNO", B.id("first note")),
            B.chunk("ANNO", B.id("second note")),
            B.chunk("(c) ", B.id("2024 Nobody")),
        ])
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let announced = log.entries.compactMap { entry -> AudioMetadata? in
            if case .property(.metadata(let m)) = entry { return m } else { return nil }
        }
        #expect(announced.count == 4)
        let last = announced.last
        #expect(
            last?.info == [InfoKey.title: "Title", InfoKey.comments: "first note", InfoKey.copyright: "2024 Nobody"])
        #expect(last?.tags.map(\.key) == ["NAME", "ANNO", "ANNO", "(c) "])
        #expect(last?.tags.allSatisfy { $0.source == "aiff-text" } == true)
    }

    @Test func readsCommentsChunk() {
        // COMT: 2 comments; the first has 5 characters (odd, pad byte), the second 2.
        let comt =
            B.u16(2) + B.u32(0) + B.u16(0) + B.u16(5) + B.id("Hello") + [0] + B.u32(1) + B.u16(0) + B.u16(2)
            + B.id("Hi")
        let bytes = B.form([
            B.chunk("COMT", comt),
            B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16)),
            B.chunk("SSND", B.ssnd([0, 1])),
        ])
        let r = AIFFParsed(ParseRunner.run(bytes, chunking: .whole))
        #expect(
            r.metadata?.tags == [
                AudioMetadata.Tag(source: "aiff-text", key: "COMT", value: "Hello"),
                AudioMetadata.Tag(source: "aiff-text", key: "COMT", value: "Hi"),
            ])
        #expect(r.metadata?.info[InfoKey.comments] == "Hello")
    }

    /// A minimal ID3v2.3 tag: header (size 12, syncsafe) and one TIT2 frame "A" (ISO-8859-1).
    static let id3Tag: [UInt8] = B.id("ID3") + [3, 0, 0, 0, 0, 0, 12] + B.id("TIT2") + [0, 0, 0, 2, 0, 0, 0, 0x41]

    @Test(.enabled(if: AIFFFixtures.id3ReaderAvailable))
    func readsID3ChunkAfterSoundData() {
        let bytes = B.form([
            B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16)),
            B.chunk("SSND", B.ssnd([0, 1])),
            B.chunk("ID3 ", Self.id3Tag),
        ])
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let r = AIFFParsed(log)
        #expect(r.metadata?.info[InfoKey.title] == "A")
        #expect(r.metadata?.tags.first?.source == "id3v2")
        #expect(r.metadata?.tags.first?.key == "TIT2")
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics)")
    }

    @Test func unreadableID3ChunkIsReportedAndSkipped() {
        let bytes = B.form([
            B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16)),
            B.chunk("SSND", B.ssnd([0, 1])),
            B.chunk("id3 ", B.id("not a tag")),
        ])
        let r = AIFFParsed(ParseRunner.run(bytes, chunking: .whole))
        #expect(r.error == nil)
        #expect(r.metadata == nil)
        #expect(r.diagnostics == ["aiff (id3 ): not a readable ID3v2 tag; ignored"])
    }

    @Test func formSizeSmallerThanTheStream() {
        // FORM ends after SSND; then a known chunk (read, with a diagnostic) and junk (ignored).
        let inner = [B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16)), B.chunk("SSND", B.ssnd([0, 1]))]
        var bytes = B.form(inner)
        bytes += B.chunk("NAME", B.id("late"))
        bytes += [0xFF, 0x00, 0x13, 0x37, 0x00, 0x00, 0x00, 0x01, 0x42]
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let r = AIFFParsed(log)
        #expect(r.error == nil)
        #expect(r.metadata?.info[InfoKey.title] == "late")
        #expect(r.diagnosticKinds == [.sizeCorrected, .junkSkipped], "\(r.diagnostics)")
    }

    @Test func unknownChunksAreSkippedWithADiagnostic() {
        let bytes = B.form([
            B.chunk("COMM", B.comm(channels: 1, frames: 1, bits: 16)),
            B.chunk("zero", []),
            B.chunk("MARK", B.u16(0)),
            B.chunk("SSND", B.ssnd([0, 1])),
        ])
        let r = AIFFParsed(ParseRunner.run(bytes, chunking: .whole))
        #expect(r.error == nil)
        #expect(r.diagnostics == ["aiff: unknown chunk 'zero' (0 bytes) skipped"])
    }

    @Test func chunkRegistryHasNoDuplicateIDs() {
        let ids = AIFFContainer.registry.entries.map(\.id)
        #expect(Set(ids).count == ids.count)
    }
}
