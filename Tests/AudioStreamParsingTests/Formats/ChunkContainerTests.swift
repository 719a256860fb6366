import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// The shared chunk walk (`Formats/ChunkContainer/`): header layouts, identifiers, padding. The walk
/// itself is exercised by the WAVE, AIFF and CAF tests, which keep every message of their format.
@Suite("Chunk containers")
struct ChunkContainerTests {
    /// Decodes the header at the start of `bytes`.
    static func header(_ bytes: [UInt8], _ layout: ChunkLayout) -> ChunkHeader? {
        var window = InputWindow()
        return bytes.withUnsafeBytes { raw in
            window.beginChunk(BorrowedBytes(raw))
            return ChunkHeader.peek(window, layout)
        }
    }

    @Test func everyLayoutReadsItsIdentifierAndSize() throws {
        let riff = try #require(Self.header(Array("data".utf8) + [0x05, 0, 0, 0], .riff(.little)))
        #expect(riff.id == ChunkID("data") && riff.declaredSize == 5 && riff.headerByteCount == 8)
        let rifx = try #require(Self.header(Array("data".utf8) + [0, 0, 0, 0x05], .riff(.big)))
        #expect(rifx.declaredSize == 5)
        let iff = try #require(Self.header(Array("SSND".utf8) + [0, 0, 0x01, 0x00], .iff))
        #expect(iff.id == ChunkID("SSND") && iff.declaredSize == 256 && iff.bodyEnd == 264)
        let caf = try #require(Self.header(Array("data".utf8) + [UInt8](repeating: 0xFF, count: 8), .caf))
        #expect(caf.signedSizeField == -1 && caf.declaredSize == nil && caf.headerByteCount == 12)
        // Not all of the header is readable yet.
        #expect(Self.header(Array("desc".utf8) + [0, 0, 0], .caf) == nil)
    }

    /// Sony Wave64: 16-byte GUIDs, 64-bit little-endian sizes that count the 24-byte header.
    @Test func wave64HeadersMapRIFFGUIDsToFourCharacterCodes() throws {
        // 'fmt ' = 20746D66-ACF3-11D3-8CD1-00C04F8EDB8A, as written (Data1..3 little-endian).
        let fmtGUID: [UInt8] = [
            0x66, 0x6D, 0x74, 0x20, 0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A,
        ]
        let size: [UInt8] = [24 + 16, 0, 0, 0, 0, 0, 0, 0]
        let fmt = try #require(Self.header(fmtGUID + size, .wave64))
        #expect(fmt.id == ChunkID("fmt ") && fmt.declaredSize == 16 && fmt.bodyStart == 24)
        // Another GUID stays a GUID: 'riff' = 66666972-912E-11CF-A5D6-28DB04C10000.
        let riffGUID: [UInt8] = [
            0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11, 0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00,
        ]
        let riff = try #require(Self.header(riffGUID + size, .wave64))
        #expect(riff.id != ChunkID("riff") && riff.id.guidTail != nil)
        #expect(riff.name == "66666972-912E-11CF-A5D6-28DB04C10000")
        #expect(!riff.id.isPrintable)
        // A size smaller than the header it counts has no body size (the walker rejects it).
        let short = try #require(Self.header(fmtGUID + [23, 0, 0, 0, 0, 0, 0, 0], .wave64))
        #expect(short.declaredSize == nil)
    }

    @Test func padBytesFollowTheLayoutsAlignment() {
        #expect(ChunkLayout.riff(.little).padding(afterBodyOf: 3) == 1)
        #expect(ChunkLayout.iff.padding(afterBodyOf: 4) == 0)
        #expect(ChunkLayout.caf.padding(afterBodyOf: 3) == 0)
        // Wave64: 24 + 5 bytes end 3 bytes before the next multiple of 8.
        #expect(ChunkLayout.wave64.padding(afterBodyOf: 5) == 3)
        #expect(ChunkLayout.wave64.padding(afterBodyOf: UInt64.max) == 1)
    }

    @Test func printableIdentifiers() {
        #expect(ChunkID("fmt ").isPrintable)
        #expect(ChunkID("(c) ").isPrintable)
        #expect(!ChunkID(code: 0xFF00_1337).isPrintable)
        #expect(ChunkID(code: 0xFF00_1337).description == "0xFF001337")
    }

    /// The RIFF end counts from the RIFF header, wherever the container starts (here after an ID3v2
    /// tag, which the facade reads before detecting the container).
    @Test func riffSizeCountsFromTheRIFFHeaderBehindAnID3v2Tag() {
        let tag: [UInt8] =
            Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 12] + Array("TIT2".utf8) + [0, 0, 0, 2, 0, 0, 0, 0x41]
        let wave = WAVEBuilder.file([
            WAVEBuilder.chunk("fmt ", WAVEBuilder.format()), WAVEBuilder.chunk("data", [1, 2, 3, 4]),
            WAVEBuilder.chunk("LIST", Array("INFO".utf8) + WAVEBuilder.chunk("IART", Array("Late\0".utf8))),
        ])
        let result = ChunkingVerifier.verify(tag + wave)
        #expect(result.failures.isEmpty, "\(result.failures)")
        let log = result.reference
        #expect(log.error == nil)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(log.lastValues[.dataOffset] == .dataOffset(Int64(tag.count + 12 + 24 + 8)))
        guard case .metadata(let m)? = log.lastValues[.infoDictionary] else {
            Issue.record("no metadata")
            return
        }
        #expect(m.info[InfoKey.artist] == "Late")
        #expect(m.info[InfoKey.title] == "A")
    }
}
