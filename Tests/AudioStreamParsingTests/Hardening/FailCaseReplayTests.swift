import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// Replays every fuzz finding (`Fuzz/FailCases/<harness>/*`) through the harness that found it, with the
/// same checks as the fuzz binary (the harness code in `FuzzHarnesses/` is shared): chunking
/// differential, packet/property invariants, no trap. A new file dropped into `Fuzz/FailCases/<harness>/`
/// is picked up without editing this test (docs/fuzzing.md, "Triage").
@Suite("Fuzz fail cases")
struct FailCaseReplayTests {
    static let failCasesRoot = FixtureCatalog.packageRoot + "/Fuzz/FailCases"

    /// Every fail case as "harness/file".
    static let cases: [String] = {
        let fm = FileManager.default
        var out: [String] = []
        for harness in (try? fm.contentsOfDirectory(atPath: failCasesRoot))?.sorted() ?? [] {
            let files = (try? fm.contentsOfDirectory(atPath: failCasesRoot + "/" + harness)) ?? []
            for file in files.sorted() where !file.hasPrefix(".") && !file.hasSuffix(".md") {
                out.append(harness + "/" + file)
            }
        }
        return out
    }()

    @Test("Fail cases exist and each names a harness")
    func failCasesAreNamedByHarness() {
        #expect(!Self.cases.isEmpty)
        for c in Self.cases {
            let harness = String(c.split(separator: "/")[0])
            #expect(FuzzHarness.named(harness) != nil, "Fuzz/FailCases/\(harness) is not a harness name")
        }
    }

    @Test("Replays through its harness without a failed check", arguments: cases)
    func replay(_ path: String) throws {
        let parts = path.split(separator: "/").map(String.init)
        let body = try #require(FuzzHarness.named(parts[0]))
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.failCasesRoot + "/" + path)))
        #expect(throws: Never.self) { try body(data) }
    }

    @Test("MP3 frames and ADTS frames mixed: the earliest confirmed frame decides the format in every chunking")
    func mixedDetection() throws {
        let data = [UInt8](
            try Data(
                contentsOf: URL(fileURLWithPath: Self.failCasesRoot + "/FuzzChunking/mpeg-adts-mixed-detection.bin")))
        let stream = Array(data.dropLast(FuzzChunking.trailerCount))
        let whole = ParseRunner.run(stream, chunking: .whole)
        // The MP3 frame at 416 comes before the first confirmed ADTS frame (2366).
        #expect(whole.lastValues[.fileFormat] == .fileFormat(.mp3))
        #expect(whole.lastValues[.dataOffset] == .dataOffset(416))
        for chunking in Chunking.standard {
            let log = ParseRunner.run(stream, chunking: chunking)
            #expect(log == whole, "\(chunking): \(log.differences(from: whole))")
        }
    }
}
