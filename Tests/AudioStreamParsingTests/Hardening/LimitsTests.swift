import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// Files that claim huge lengths (docs/limits.md): each is handled with a typed error or a diagnostic
/// under limits of a few KiB, in whole and 1-byte chunks. That no allocation follows the claim is checked
/// where allocations can be capped: the fuzz binary runs these inputs' relatives with
/// `-malloc_limit_mb` (docs/fuzzing.md); a test process (tests run in parallel) cannot measure its
/// heap per test.
@Suite("Limits: huge claimed lengths")
struct LimitsTests {
    static let limits = ParserLimits(
        maxBufferedBytes: 64 << 10, maxHeaderChunkBytes: 16 << 10, maxTagBytes: 16 << 10, maxArtworkBytes: 16 << 10,
        maxPacketTableEntries: 1024, maxNestingDepth: 16, maxPacketBytes: 16 << 10, maxSyncScanBytes: 64 << 10)

    struct Result {
        var error: AudioStreamError?
        var diagnostics: [ParserDiagnostic]
    }

    static func parse(_ input: [UInt8], chunk: Int = 4096) -> Result {
        let parser = AudioStreamParser(options: ParserOptions(limits: limits))
        var error: AudioStreamError?
        do {
            var i = 0
            while i < input.count {
                try parser.parse(input[i..<min(input.count, i + chunk)])
                i += chunk
            }
            try parser.finish()
        } catch let e {
            error = e
        }
        return Result(error: error, diagnostics: parser.diagnostics)
    }

    static func malformed(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: FixtureCatalog.malformedRoot + "/" + name)))
    }

    /// Neither an error nor a diagnostic would mean the claim went unnoticed. Whole and in 1-byte chunks.
    static func expectHandled(_ input: [UInt8], _ what: String) {
        for chunk in [input.count, 1] {
            let r = parse(input, chunk: max(1, chunk))
            #expect(r.error != nil || !r.diagnostics.isEmpty, "\(what) (chunks of \(chunk)): no error, no diagnostic")
        }
    }

    @Test("An ID3v2 tag claiming 256 MiB, 40 bytes long")
    func id3v2Claiming256MiB() {
        // "ID3" v2.4, no flags, syncsafe size 0x7F7F7F7F = 2^28 - 1, then one TIT2 frame header claiming
        // 2^28 - 1 bytes as well.
        var b: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F]
        b += Array("TIT2".utf8) + [0x7F, 0x7F, 0x7F, 0x7F, 0, 0] + [3] + Array("title".utf8)
        Self.expectHandled(b, "ID3v2 256 MiB")
    }

    @Test(
        "Malformed fixtures claiming 4 GiB or 2^31+ entries",
        arguments: [
            "mp4-stsz-count-huge.3gp", "mp4-stsz-constant-count-4g.3gp", "mp4-trun-count-huge.mp4",
            "caf-pakt-valid-frames-huge.caf", "wav-list-size-4g.wav", "wav-fmt-size-4g.wav", "wav-data-size-4g.wav",
            "rf64-ds64-table-length-huge.wav", "flac-block-length-huge.flac", "aiff-ssnd-size-4g.aiff",
            "au-offset-4g.au",
        ])
    func malformedHugeClaims(_ name: String) throws {
        Self.expectHandled(try Self.malformed(name), name)
    }

    @Test("A CAF packet table claiming 2^40 packets")
    func cafPacketTableClaiming2e40() throws {
        Self.expectHandled(try Self.malformed("caf-pakt-count-2e40.caf"), "pakt 2^40")
    }

    @Test("A FLAC PICTURE block claiming a 4 GiB picture in a 16 MiB block")
    func flacPictureClaiming4GiB() {
        // fLaC, STREAMINFO (34 bytes: 4096-sample blocks, 44.1 kHz stereo 16-bit), then a last PICTURE
        // block of 60 bytes whose picture data length field says 2^32 - 1.
        var b: [UInt8] = Array("fLaC".utf8) + [0x00, 0, 0, 34]
        b += [0x10, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0x0A, 0xC4, 0x42, 0xF0, 0, 0, 0, 0]
        b += [UInt8](repeating: 0, count: 16)
        var picture: [UInt8] = [0, 0, 0, 3, 0, 0, 0, 9] + Array("image/png".utf8) + [0, 0, 0, 0]
        picture += [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 24, 0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF] + [1, 2, 3, 4]
        b += [0x86, 0, 0, UInt8(picture.count)] + picture
        Self.expectHandled(b, "PICTURE 4 GiB")
    }

    @Test("Junk without a frame: the sync search gives up after maxSyncScanBytes")
    func syncScanLimit() {
        // One valid MPEG-1 Layer III frame header pair is needed for detection; here the stream starts with
        // frames (so MPEG audio is detected) and then loses sync for 256 KiB.
        let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413)  // 128 kb/s, 44.1 kHz
        var b: [UInt8] = []
        for _ in 0..<4 { b += frame }
        b += [UInt8](repeating: 0x20, count: 256 << 10)
        for _ in 0..<4 { b += frame }
        let r = Self.parse(b)
        #expect(r.error?.code == .limitExceeded, "\(String(describing: r.error))")
        // With the default limit (16 MiB) the same stream parses, the junk skipped with a diagnostic.
        let parser = AudioStreamParser()
        var packets = 0
        parser.packetsHandler = { packets += $0.packetCount }
        #expect(throws: Never.self) {
            try parser.parse(b)
            try parser.finish()
        }
        #expect(packets == 8)
    }

    @Test("ADTS and FLAC: junk without a frame ends in limitExceeded after maxSyncScanBytes")
    func syncScanLimitADTSAndFLAC() {
        // ADTS: AAC LC, 44.1 kHz (index 4), stereo, no CRC, frame_length 200 (ISO/IEC 14496-3 1.A.2.2):
        // FF F1 | 01 0100 0 0 | 10 0 0 0 0 00 | 00011001 | 000 11111 | 111111 00.
        let adtsFrame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x19, 0x1F, 0xFC] + [UInt8](repeating: 0, count: 193)
        var adts: [UInt8] = []
        for _ in 0..<4 { adts += adtsFrame }
        adts += [UInt8](repeating: 0x20, count: 256 << 10)
        let a = Self.parse(adts)
        #expect(a.error?.code == .limitExceeded, "adts: \(String(describing: a.error))")
        // FLAC: "fLaC", a last STREAMINFO (4096-sample blocks, 44.1 kHz, stereo, 16 bits), then junk.
        var flac: [UInt8] = Array("fLaC".utf8) + [0x80, 0, 0, 34]
        flac += [0x10, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0x0A, 0xC4, 0x42, 0xF0, 0, 0, 0, 0]
        flac += [UInt8](repeating: 0, count: 16)
        flac += [UInt8](repeating: 0x20, count: 256 << 10)
        let f = Self.parse(flac)
        #expect(f.error?.code == .limitExceeded, "flac: \(String(describing: f.error))")
    }

    @Test("Ogg: junk after the last page ends in limitExceeded after maxSyncScanBytes, whole and 1-byte")
    func syncScanLimitOgg() throws {
        // A real oggenc file (45 packets per its ffprobe oracle), then 256 KiB of spaces: no "OggS" capture
        // pattern (RFC 3533 §6) anywhere in them.
        let fixture = FixtureCatalog.fixture("ogg/vorbis-44100-2ch-oggenc.ogg")
        let junk = [UInt8](repeating: 0x20, count: 256 << 10)
        let input = try fixture.bytes() + junk
        for chunk in [input.count, 1] {
            let r = Self.parse(input, chunk: chunk)
            #expect(r.error?.code == .limitExceeded, "chunks of \(chunk): \(String(describing: r.error))")
        }
        // With the default limit (16 MiB) the junk is skipped with a diagnostic and every packet arrives.
        let log = ParseRunner.run(input, chunking: .whole)
        #expect(log.error == nil, "\(String(describing: log.error))")
        #expect(log.packetCount == (try fixture.oracle().packets.count))
        #expect(log.diagnostics.contains { $0.kind == .junkSkipped }, "no diagnostic for 256 KiB of junk")
    }

    @Test("MP4: 20,000 boxes nested in a moov cost neither stack nor time; maxNestingDepth bounds the walk")
    func deepBoxNesting() throws {
        // The moov-at-end fixture (ffmpeg; its mdat precedes the moov, so growing the moov moves no sample)
        // gets one more `udta` child of the moov holding a chain of 20,000 boxes `zzzz`, each the only child
        // of the previous (ISO/IEC 14496-12 §4.2: size, type). The walker descends only into the containers
        // it needs, so the chain is one skipped child of `udta`.
        let fixture = FixtureCatalog.fixture("mp4/aac-44100-2ch-moov-end.m4a")
        let original = try fixture.bytes()
        let oracle = try fixture.oracle()
        let layout = try #require(MP4Layout(original))
        let moov = try #require(layout.first("moov"))
        #expect(moov.offset + moov.size == Int64(original.count), "the fixture should end with its moov")
        let depth = 20_000
        func header(_ size: Int, _ type: String) -> [UInt8] {
            [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8)
        }
        var chain: [UInt8] = []
        chain.reserveCapacity(depth * 8 + 8)
        for level in 0..<depth { chain += header((depth - level) * 8, "zzzz") }
        let udta = header(chain.count + 8, "udta") + chain
        var input = original + udta
        let moovSize = Int(moov.size) + udta.count
        input.replaceSubrange(Int(moov.offset)..<Int(moov.offset) + 4, with: header(moovSize, "moov").prefix(4))
        // The mdat comes first: the parser holds it (up to 64 KiB here) until the moov has been read.
        var buffering = ParserOptions()
        buffering.bufferUnparsedMediaUpTo = 64 << 10
        for chunking in [Chunking.whole, .random(seed: 7, maxSize: 4096)] {
            let log = ParseRunner.run(input, chunking: chunking, options: buffering)
            #expect(log.error == nil, "\(chunking): \(String(describing: log.error))")
            #expect(log.packets.map(\.size) == oracle.packets.map { Int($0.size) }, "\(chunking)")
            #expect(log.packets.map(\.offset) == oracle.packets.compactMap(\.pos), "\(chunking)")
        }
        // The sample table sits at depth 5 (moov 1, trak 2, mdia 3, minf 4, stbl 5): a limit of 4 stops the
        // walk there with limitExceeded instead of reading deeper.
        var shallow = buffering
        shallow.limits.maxNestingDepth = 4
        let limited = ParseRunner.run(original, chunking: .whole, options: shallow)
        #expect(limited.error?.code == .limitExceeded, "\(String(describing: limited.error))")
    }
}
