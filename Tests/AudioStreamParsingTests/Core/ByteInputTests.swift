import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

/// `parse` takes any sequence of bytes (issue 16, "Modern Swift types"): Foundation's `Data` (this file
/// imports Foundation; the library imports none), `ContiguousArray`, buffer pointers, spans and
/// non-contiguous sequences give the same events as `[UInt8]`, and contiguous input is read in place.
@Suite("Byte input types")
struct ByteInputTests {
    static let fixtures = [
        "wav/pcm_s16le-22050-1ch-oddchunk.wav",
        "mpeg/mp3-44100-2ch-lame-cbr128.mp3",
        "mp4/aac-44100-2ch-faststart.m4a",
        "ogg/flac-44100-2ch-ffmpeg.oga",
    ]
    static let chunkings: [Chunking] = [.whole, .fixed(97), .fixed(4_096)]

    /// Parses `file` cut by `chunking`, feeding each chunk through `feed`, and records the events.
    static func log(
        _ file: [UInt8], _ chunking: Chunking,
        _ feed: (AudioStreamParser, Range<Int>) throws -> Void
    ) throws -> EventLog {
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: file)
        do {
            for range in chunking.ranges(count: file.count) { try feed(parser, range) }
            try parser.finish()
        } catch let error as AudioStreamError {
            recorder.log.error = error
        }
        return recorder.log
    }

    @Test(arguments: fixtures, chunkings)
    func dataGivesTheSameEventsAsArrays(_ path: String, _ chunking: Chunking) throws {
        let file = try FixtureCatalog.fixture(path).bytes()
        let data = Data(file)
        let reference = ParseRunner.run(file, chunking: chunking)
        #expect(reference.error == nil)
        #expect(reference.packetCount > 0)
        // A `Data` slice keeps the indices of the whole (its startIndex is not 0).
        let slices = try Self.log(file, chunking) { parser, range in
            try parser.parse(data[range])
        }
        #expect(slices == reference, "\(slices.differences(from: reference))")
        #expect(slices.bytesMismatches.isEmpty)
        // A `Data` of its own per chunk.
        let copies = try Self.log(file, chunking) { parser, range in
            try parser.parse(Data(file[range]), flags: [])
        }
        #expect(copies == reference, "\(copies.differences(from: reference))")
    }

    @Test(arguments: fixtures)
    func everyByteInputTypeGivesTheSameEvents(_ path: String) throws {
        let file = try FixtureCatalog.fixture(path).bytes()
        let reference = ParseRunner.run(file, chunking: .fixed(97))
        let inputs: [(String, (AudioStreamParser, ArraySlice<UInt8>) throws -> Void)] = [
            ("ContiguousArray", { parser, chunk in try parser.parse(ContiguousArray(chunk)) }),
            (
                "UnsafeBufferPointer",
                { parser, chunk in
                    try chunk.withUnsafeBufferPointer { buffer in try parser.parse(buffer) }
                }
            ),
            (
                "UnsafeRawBufferPointer",
                { parser, chunk in
                    try chunk.withUnsafeBytes { raw in try parser.parse(raw) }
                }
            ),
            (
                "Span",
                { parser, chunk in
                    try chunk.withUnsafeBufferPointer { buffer in
                        try parser.parse(Span(_unsafeElements: buffer))
                    }
                }
            ),
            (
                "RawSpan",
                { parser, chunk in
                    try chunk.withUnsafeBytes { raw in
                        try parser.parse(RawSpan(_unsafeBytes: raw))
                    }
                }
            ),
            // Not contiguous: copied once into a temporary array.
            ("lazy map", { parser, chunk in try parser.parse(chunk.lazy.map { $0 }) }),
            ("reversed twice", { parser, chunk in try parser.parse(chunk.reversed().reversed()) }),
        ]
        for (name, feed) in inputs {
            let log = try Self.log(file, .fixed(97)) { parser, range in
                try feed(parser, file[range])
            }
            #expect(log == reference, "\(name): \(log.differences(from: reference))")
            #expect(log.bytesMismatches.isEmpty, "\(name)")
        }
    }

    /// A `Data` chunk is read in place: the packets of a PCM file parsed in one piece point into it.
    @Test func dataIsReadInPlace() throws {
        let data = Data(try FixtureCatalog.fixture("wav/pcm_s16le-22050-1ch-oddchunk.wav").bytes())
        let parser = AudioStreamParser()
        var inside = 0
        var outside = 0
        try data.withUnsafeBytes { (whole: UnsafeRawBufferPointer) in
            let start = UInt(bitPattern: whole.baseAddress)
            let end = start + UInt(whole.count)
            parser.packetsHandler = { batch in
                let address = UInt(bitPattern: batch.bytes.baseAddress)
                if address >= start && address + UInt(batch.bytes.count) <= end { inside += 1 } else { outside += 1 }
            }
            // The generic overload, not the raw-buffer one: `data` itself.
            try parser.parse(data)
        }
        try parser.finish()
        #expect(inside > 0)
        #expect(outside == 0)
    }

    /// An empty `Data` is harmless like an empty array.
    @Test func emptyDataIsHarmless() throws {
        let parser = AudioStreamParser()
        var events = 0
        parser.propertyListener = { _, _ in events += 1 }
        try parser.parse(Data())
        try parser.parse(Data(), flags: .discontinuity)
        #expect(events == 0)
    }
}
