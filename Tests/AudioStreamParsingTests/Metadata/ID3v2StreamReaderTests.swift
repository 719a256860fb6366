import AudioStreamTestSupport
import Testing

@testable import AudioStreamParsing

/// Drives an `ID3v2StreamReader` the way the facade drives a format parser: chunks of any size,
/// `.needMoreData` honoured (nothing consumed, call again with more), `.skip` discarding bytes that
/// may arrive later. Records the largest number of bytes the reader asked to have readable.
struct StreamReaderRun {
    var tag: ID3v2Tag?
    var notATag = false
    /// The diagnostics reported, as notes (kind and message).
    var diagnostics: [DiagnosticNote] = []
    /// Bytes of the input consumed or skipped when the reader finished.
    var position: Int64 = 0
    /// The largest `.needMoreData(atLeast:)`.
    var maxRequested = 0
    /// The most bytes held readable across a chunk boundary.
    var maxHeld = 0

    init(_ bytes: [UInt8], chunks sizes: [Int], limits: ParserLimits = ParserLimits()) {
        var context = ParseContext(limits: limits)
        var reader = ID3v2StreamReader(limits: limits)
        var skipRemaining: Int64 = 0
        var offset = 0
        var finished = false
        var sizes = sizes
        while !finished {
            let size = sizes.isEmpty ? bytes.count - offset : min(sizes.removeFirst(), bytes.count - offset)
            let chunk = Array(bytes[offset..<(offset + size)])
            offset += size
            let last = offset == bytes.count
            chunk.withUnsafeBytes { buffer in
                context.window.beginChunk(BorrowedBytes(buffer))
                loop: while true {
                    if skipRemaining > 0 {
                        let n = min(skipRemaining, Int64(context.window.readable))
                        context.window.consume(Int(n))
                        skipRemaining -= n
                        if skipRemaining > 0 { break loop }
                    }
                    switch reader.step(&context) {
                    case .needMoreData(let n):
                        precondition(n > context.window.readable, "needMoreData must ask for more than is readable")
                        maxRequested = max(maxRequested, n)
                        break loop
                    case .skip(let n):
                        skipRemaining = n
                    case .done(let result):
                        tag = result
                        finished = true
                        break loop
                    case .notATag:
                        notATag = true
                        finished = true
                        break loop
                    }
                }
                position = context.window.position
                context.window.endChunk()
            }
            maxHeld = max(maxHeld, context.window.readable)
            if last && !finished {
                context.window.isFinal = true
                tag = reader.finish(&context)
                finished = true
            }
        }
        for event in context.takeEvents() {
            if case .diagnostic(let d) = event { diagnostics.append(DiagnosticNote(d.kind, d.message)) }
        }
    }

    /// Chunk patterns: whole, one byte, and seeded random sizes (with empty chunks).
    static func chunkings(_ count: Int, seed: UInt64 = 3) -> [[Int]] {
        var rng = SplitMix64(seed: seed)
        var random: [Int] = []
        var total = 0
        while total < count {
            let n = Int(rng.next() % 40)
            random.append(n)
            total += n
        }
        return [[count], Array(repeating: 1, count: count), random]
    }
}

@Suite("ID3v2 stream reader")
struct ID3v2StreamReaderTests {
    typealias B = TagBytes

    @Test("in every chunking, the streaming reader gives what the in-memory parser gives")
    func matchesInMemoryParser() throws {
        let corpus =
            ID3v2TagTests.richTags() + [
                B.tag(
                    4,
                    B.frame24("TIT2", B.latin1Text(String(repeating: "t", count: 299)), plainSize: true)
                        + B.frame24("TPE1", B.latin1Text("A"), plainSize: true) + [0, 0]),
                B.tag(3, B.frame23("TIT2", B.latin1Text("A")) + B.frame23("TPE1", B.latin1Text("B"), size: 500)),
                B.tag(3, B.frame23("TIT2", B.latin1Text("A")) + B.latin1("xyz!garbage")),
                B.tag(2, flags: 0x40, B.frame22("TT2", B.latin1Text("A"))),
                B.tag(4, flags: 0x40, B.syncsafe(3) + [1, 0] + B.frame24("TIT2", B.latin1Text("A"))),
                B.tag(4, flags: 0x10, B.frame24("TIT2", B.latin1Text("no footer"))) + B.latin1("0123456789"),
            ]
        let audio: [UInt8] = [0xFF, 0xFB, 0x90, 0x64, 0x00]
        for (index, bytes) in corpus.enumerated() {
            let expected = try #require(ID3v2Tag.parse(bytes))
            for chunks in StreamReaderRun.chunkings(bytes.count + audio.count) {
                let run = StreamReaderRun(bytes + audio, chunks: chunks)
                #expect(run.tag?.metadata == expected.metadata, "tag \(index), chunks \(chunks.prefix(3))")
                #expect(run.tag?.byteCount == expected.byteCount, "tag \(index)")
                #expect(run.position == Int64(expected.byteCount), "tag \(index)")
                #expect(run.diagnostics == expected.notes, "tag \(index)")
                #expect(run.tag?.notes == expected.notes, "tag \(index)")
            }
        }
    }

    @Test("a picture over the artwork limit is skipped without being buffered; the frames after it are read")
    func largePictureNotBuffered() {
        let picture = B.jpeg(200_000)
        let bytes = B.tag(
            4,
            B.frame24("TIT2", B.latin1Text("Before")) + B.frame24("APIC", B.apic(mime: "image/jpeg", type: 3, picture))
                + B.frame24("TPE1", B.latin1Text("After")) + [UInt8](repeating: 0, count: 50_000))
        let limits = ParserLimits(maxArtworkBytes: 1000)
        for chunks in [[bytes.count], Array(repeating: 4096, count: bytes.count / 4096 + 1), [7, 13, 100_000, 1]] {
            let run = StreamReaderRun(bytes, chunks: chunks, limits: limits)
            #expect(run.tag?.metadata.info == [InfoKey.title: "Before", InfoKey.artist: "After"])
            #expect(run.tag?.metadata.artwork == [])
            #expect(run.maxRequested <= 1000 + 4096 + 14)
            #expect(run.maxHeld <= max(chunks[0], 4096 + 14))
            #expect(run.position == Int64(bytes.count))
            #expect(
                run.diagnostics == [
                    DiagnosticNote(
                        .limitExceeded,
                        "id3v2 (APIC): frame of \(picture.count + 14) bytes exceeds maxArtworkBytes; skipped unread")
                ])
        }
        // Within the limit, the picture is read in any chunking.
        let run = StreamReaderRun(bytes, chunks: [1, 1, 1, 5000, 3])
        #expect(run.tag?.metadata.artwork.first?.data == picture)
        // Frame header, body, and 4 bytes of look-ahead (its size bytes read alike syncsafe or plain).
        #expect(run.maxRequested == 10 + picture.count + 14 + 4)
    }

    @Test("tag-level unsynchronisation: the whole tag is buffered up to maxTagBytes, skipped above it")
    func unsynchronisedTagBound() {
        let frames =
            B.frame23("TIT2", B.latin1Text("ÿà"))
            + B.frame23("APIC", B.apic(mime: "image/jpeg", type: 3, B.jpeg(2000)))
        let bytes = B.tag(3, flags: 0x80, B.unsynchronise(frames))
        let read = StreamReaderRun(bytes, chunks: Array(repeating: 100, count: 100))
        #expect(read.tag?.metadata.info[InfoKey.title] == "ÿà")
        #expect(read.maxRequested == bytes.count)
        let skipped = StreamReaderRun(
            bytes, chunks: Array(repeating: 100, count: 100), limits: ParserLimits(maxTagBytes: 1000))
        #expect(skipped.tag?.metadata.isEmpty == true)
        #expect(skipped.maxRequested <= 10)
        #expect(skipped.position == Int64(bytes.count))
        #expect(
            skipped.diagnostics == [
                DiagnosticNote(
                    .limitExceeded,
                    "id3v2: unsynchronised ID3v2.3.0 tag of \(bytes.count) bytes exceeds maxTagBytes; skipped unread")
            ])
    }

    @Test("the stream ends inside a tag: finish reports it and returns the frames read")
    func endsInsideTag() {
        let bytes = B.tag(4, B.frame24("TIT2", B.latin1Text("Kept")) + B.frame24("TPE1", B.latin1Text("Lost")))
        let run = StreamReaderRun(Array(bytes.dropLast(2)), chunks: [1, 1, 1])
        #expect(run.tag?.metadata.info == [InfoKey.title: "Kept"])
        #expect(run.diagnostics == [DiagnosticNote(.truncated, "id3v2: stream ends 25 bytes into a tag of 40 bytes")])
        let headerOnly = StreamReaderRun(Array(bytes.prefix(6)), chunks: [])
        #expect(headerOnly.tag == nil)
        #expect(!headerOnly.notATag)
    }

    @Test("not an ID3v2 header: nothing consumed")
    func notATag() {
        for bytes in [Array("ID4".utf8), Array("ID3".utf8) + [5], Array("ID3".utf8) + [3, 0, 0, 0x80], [0xFF, 0xFB]] {
            let run = StreamReaderRun(bytes + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], chunks: [1, 1, 1, 1, 1])
            #expect(run.notATag)
            #expect(run.position == 0)
        }
    }

    @Test("random and mutated tags never trap and never ask for more than the bound")
    func randomNeverTraps() {
        var rng = SplitMix64(seed: 0x57)
        let seeds = ID3v2TagTests.richTags()
        let limits = ParserLimits(maxTagBytes: 64, maxArtworkBytes: 16)
        for _ in 0..<600 {
            var bytes = seeds[Int(rng.next() % UInt64(seeds.count))]
            for _ in 0..<(1 + rng.next() % 6) {
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            let run = StreamReaderRun(
                bytes, chunks: StreamReaderRun.chunkings(bytes.count, seed: rng.next())[2], limits: limits)
            #expect(run.maxRequested <= max(64, 16 + 4096 + 14) + 10)
        }
    }
}
