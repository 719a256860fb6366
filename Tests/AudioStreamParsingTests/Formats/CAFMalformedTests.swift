import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// The CAF files of `Fixtures/malformed` (see its manifest.json for what each one breaks): every one
/// gives the documented error or diagnostic, the same in every chunking, and never traps.
@Suite("CAF malformed corpus")
struct CAFMalformedTests {
    enum Outcome: Sendable, CustomStringConvertible {
        case error(AudioStreamError.Code)
        /// Parses; `packets` whole packets and at least one diagnostic.
        case packetsWithDiagnostic(Int)
        /// Parses cleanly.
        case packets(Int)

        var description: String {
            switch self {
            case .error(let c): return "\(c)"
            case .packetsWithDiagnostic(let n): return "\(n) packets + diagnostic"
            case .packets(let n): return "\(n) packets"
            }
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var outcome: Outcome
        var description: String { file }
    }

    // Derived from each defect (the manifest's "defect" text) and the rules in docs/formats/caf.md.
    // The ALAC-based cases come from an ffmpeg file whose 'pakt' follows its 'data': they stop with
    // optm at the data chunk before the broken table is reached (see the reordered cases below).
    static let cases: [Case] = [
        Case(file: "caf-alac-data-size-2e64.caf", outcome: .error(.invalidFile)),  // size -16
        Case(file: "caf-alac-trunc-in-kuki.caf", outcome: .error(.invalidFile)),  // ends before data
        Case(file: "caf-alac-trunc-mid-packet.caf", outcome: .error(.notOptimized)),
        Case(file: "caf-alac-trunc-in-pakt.caf", outcome: .error(.notOptimized)),  // data complete, pakt after
        Case(file: "caf-chan-size-2e63.caf", outcome: .error(.invalidFile)),  // offset overflow
        Case(file: "caf-chan-size-2e64.caf", outcome: .error(.invalidFile)),  // negative
        Case(file: "caf-data-size-2e63.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-data-size-2e64.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-data-size-larger-than-file.caf", outcome: .packetsWithDiagnostic(200)),
        Case(file: "caf-desc-bytesperpacket-0.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-desc-channels-0.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-desc-formatid-0.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-desc-rate-0.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-desc-rate-nan.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-desc-size-0.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-desc-size-larger-than-file.caf", outcome: .error(.invalidFile)),  // ends in desc
        Case(file: "caf-ffmpeg-flac-no-pakt.caf", outcome: .error(.notOptimized)),
        Case(file: "caf-kuki-size-2e64.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-no-desc.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-pakt-count-2e40.caf", outcome: .error(.notOptimized)),
        Case(file: "caf-pakt-count-too-small.caf", outcome: .error(.notOptimized)),
        Case(file: "caf-pakt-size-2e63.caf", outcome: .error(.notOptimized)),
        Case(file: "caf-pakt-valid-frames-huge.caf", outcome: .error(.notOptimized)),
        Case(file: "caf-pakt-varint-overrun.caf", outcome: .error(.notOptimized)),
        Case(file: "caf-trunc-after-desc.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-trunc-after-file-header.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-trunc-in-chunk-header.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-trunc-in-data-header.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-trunc-in-desc.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-trunc-in-edit-count.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-trunc-in-file-header.caf", outcome: .error(.invalidFile)),
        Case(file: "caf-trunc-magic.caf", outcome: .error(.unsupportedFileType)),  // 2 bytes: no type
        Case(file: "caf-trunc-mid-data.caf", outcome: .packetsWithDiagnostic(100)),  // 100 frames + 2 bytes
        Case(file: "caf-unknown-chunk-size-0.caf", outcome: .packetsWithDiagnostic(200)),  // unknown 'zero'
        Case(file: "caf-version-2.caf", outcome: .error(.unsupportedFileType)),
    ]

    @Test func everyCAFFileOfTheCorpusIsListed() throws {
        let dir = CAFFixtures.url("malformed")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasPrefix("caf-") && $0.hasSuffix(".caf") }
        #expect(Set(files) == Set(Self.cases.map { $0.file }))
    }

    @Test("outcome", arguments: cases)
    func outcome(_ c: Case) throws {
        let bytes = try CAFFixtures.bytes("malformed/" + c.file)
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        let diagnosed = log.entries.contains { if case .diagnostic = $0 { true } else { false } }
        switch c.outcome {
        case .error(let code):
            #expect(log.error?.code == code, "\(String(describing: log.error))")
        case .packetsWithDiagnostic(let n):
            #expect(log.error == nil, "\(String(describing: log.error))")
            #expect(log.packetCount == n)
            #expect(diagnosed)
        case .packets(let n):
            #expect(log.error == nil, "\(String(describing: log.error))")
            #expect(log.packetCount == n)
            #expect(!diagnosed)
        }
    }

    @Test func dataLargerThanTheFileAnnouncesTheRealCounts() throws {
        let log = ParseRunner.run(
            try CAFFixtures.bytes("malformed/caf-data-size-larger-than-file.caf"), chunking: .whole)
        // Declared 0x100000 − 4 bytes; 800 bytes (200 frames of 4 bytes) present.
        #expect(log.lastValues[.audioDataByteCount] == .audioDataByteCount(800))
        #expect(log.lastValues[.audioDataPacketCount] == .audioDataPacketCount(200))
    }

    // The broken-table cases with the 'pakt' moved before 'data', so the table itself is parsed.
    static let reordered: [Case] = [
        // mNumberPackets 2^40, 3 entries present: 3 packets and a diagnostic, nothing allocated from 2^40.
        Case(file: "caf-pakt-count-2e40.caf", outcome: .packetsWithDiagnostic(3)),
        // pakt size 0x7FFFFFFFFFFFFFF0: its end overflows the stream offsets.
        Case(file: "caf-pakt-size-2e63.caf", outcome: .error(.invalidFile)),
        // The last varint's continuation bit runs past the end of the chunk.
        Case(file: "caf-pakt-varint-overrun.caf", outcome: .error(.invalidFile)),
        // mNumberPackets 1: one packet, the rest of the table and the data skipped with diagnostics.
        Case(file: "caf-pakt-count-too-small.caf", outcome: .packetsWithDiagnostic(1)),
        // mNumberValidFrames absurd: the packets are fine, the gapless info is not announced.
        Case(file: "caf-pakt-valid-frames-huge.caf", outcome: .packetsWithDiagnostic(3)),
    ]

    @Test("broken table moved before the data", arguments: reordered)
    func brokenTableBeforeData(_ c: Case) throws {
        let bytes = CAFFixtures.movingPacketTableBeforeData(try CAFFixtures.bytes("malformed/" + c.file)).bytes
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        switch c.outcome {
        case .error(let code):
            #expect(log.error?.code == code, "\(String(describing: log.error))")
        case .packetsWithDiagnostic(let n), .packets(let n):
            #expect(log.error == nil, "\(String(describing: log.error))")
            #expect(log.packetCount == n)
            #expect(log.entries.contains { if case .diagnostic = $0 { true } else { false } })
        }
        if c.file == "caf-pakt-valid-frames-huge.caf" {
            #expect(log.lastValues[.packetTableInfo] == nil)
        }
    }
}
