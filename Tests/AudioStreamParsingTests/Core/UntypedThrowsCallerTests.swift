import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// Typed throws do not get in a caller's way (issue 16): code in an untyped-throws context (a `throws`
/// closure, `withUnsafeBytes`, a `rethrows` function, `Result`, `map`) calls `parse`, `finish` and
/// `seek` with a plain `try`, without a `do throws(AudioStreamError)` block, and gets the
/// `AudioStreamError` back as `any Error`. These tests compile only if that holds.
@Suite("Untyped-throws callers")
struct UntypedThrowsCallerTests {
    static let path = "mpeg/mp3-44100-2ch-lame-cbr128.mp3"

    /// A parser that counts the packets it delivers.
    final class Counter {
        let parser = AudioStreamParser()
        var packets = 0
        init() { parser.packetsHandler = { [unowned self] batch in packets += batch.packetCount } }
    }

    /// A `rethrows` function in the caller's code, as players write them.
    static func forEachChunk(of bytes: [UInt8], size: Int, _ body: (ArraySlice<UInt8>) throws -> Void) rethrows {
        for start in stride(from: 0, to: bytes.count, by: size) {
            try body(bytes[start..<min(bytes.count, start + size)])
        }
    }

    static var expectedPackets: Int {
        get throws { ParseRunner.run(try FixtureCatalog.fixture(path).bytes(), chunking: .whole).packetCount }
    }

    @Test func insideWithUnsafeBytes() throws {
        let file = try FixtureCatalog.fixture(Self.path).bytes()
        let data = Data(file)
        let viaData = Counter()
        try data.withUnsafeBytes { try viaData.parser.parse($0) }
        try viaData.parser.finish()
        let viaArray = Counter()
        try file.withUnsafeBytes { try viaArray.parser.parse($0) }
        try viaArray.parser.finish()
        let viaBuffer = Counter()
        try file.withUnsafeBufferPointer { try viaBuffer.parser.parse($0) }
        try viaBuffer.parser.finish()
        #expect(viaData.packets == (try Self.expectedPackets))
        #expect(viaArray.packets == viaData.packets)
        #expect(viaBuffer.packets == viaData.packets)
    }

    @Test func inThrowsClosuresAndRethrowsFunctions() throws {
        let file = try FixtureCatalog.fixture(Self.path).bytes()
        let counter = Counter()
        let feed: (ArraySlice<UInt8>) throws -> Void = { try counter.parser.parse($0) }
        try Self.forEachChunk(of: file, size: 1_000, feed)
        try counter.parser.finish()
        #expect(counter.packets == (try Self.expectedPackets))

        let inline = Counter()
        try Self.forEachChunk(of: file, size: 97) { try inline.parser.parse(Data($0)) }
        let chunks = stride(from: 0, to: file.count, by: 4_096).map { Data(file[$0..<min(file.count, $0 + 4_096)]) }
        let other = Counter()
        // `forEach` on purpose: a `rethrows` function of the standard library.
        // swift-format-ignore: ReplaceForEachWithForLoop
        try chunks.forEach { try other.parser.parse($0) }
        _ = try chunks.map { try other.parser.parse($0, flags: []) }
        try inline.parser.finish()
        #expect(inline.packets == counter.packets)
    }

    @Test func errorsArriveAsAnyError() throws {
        let garbage = Data(repeating: 0x20, count: 100_000)
        let parser = AudioStreamParser()
        // An untyped `throws` context: the error is `any Error`, and it is an `AudioStreamError`.
        func run() throws {
            try garbage.withUnsafeBytes { try parser.parse($0) }
            try parser.finish()
        }
        do {
            try run()
            Issue.record("garbage parsed")
        } catch let error as AudioStreamError {
            #expect(error.code == .unsupportedFileType)
        }
        let failed: any Error = try #require(throws: AudioStreamError.self) { try parser.parse(garbage) }
        #expect((failed as? AudioStreamError)?.code == .unsupportedFileType)
        // `Result(catching:)` infers the error type from the closure: an untyped closure gives `any Error`.
        let result = Result { () throws -> Void in try parser.parse(garbage) }
        #expect(throws: AudioStreamError.self) { try result.get() }
        // A typed closure keeps the type: no cast needed.
        let typed = Result { () throws(AudioStreamError) -> Void in try parser.parse(garbage) }
        if case .failure(let error) = typed { #expect(error.code == .unsupportedFileType) }
    }

    /// A typed-throws caller feeds `Data` directly: no `withUnsafeBytes` (whose untyped `rethrows` would turn
    /// the error into `any Error`, "thrown expression type 'any Error' cannot be converted to error type
    /// 'AudioStreamError'", the message a caller got when `parse(Data)` did not exist).
    static func typedCaller(_ parser: AudioStreamParser, _ chunks: [Data]) throws(AudioStreamError) {
        for chunk in chunks { try parser.parse(chunk) }
        try parser.finish()
    }

    @Test func typedCallersFeedDataDirectly() throws {
        let file = try FixtureCatalog.fixture(Self.path).bytes()
        let chunks = stride(from: 0, to: file.count, by: 1_000).map { Data(file[$0..<min(file.count, $0 + 1_000)]) }
        let counter = Counter()
        try Self.typedCaller(counter.parser, chunks)
        #expect(counter.packets == (try Self.expectedPackets))
    }

    @Test func seekAndFinishInThrowsClosures() throws {
        let file = try FixtureCatalog.fixture(Self.path).bytes()
        let counter = Counter()
        let steps: [() throws -> Void] = [
            { try counter.parser.parse(file) },
            { try counter.parser.finish() },
            {
                let target = try counter.parser.seek(toPacket: 10)
                try counter.parser.parse(file[Int(target.absoluteOffset)...], flags: .discontinuity)
            },
        ]
        for step in steps { try step() }
        #expect(counter.packets > (try Self.expectedPackets))
    }
}
