import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// ADTS after an estimated seek (docs/streaming.md, "Estimated seeks"): the packets delivered from the
/// landing are kept by position, and join the packet table with their true indices when the in-order
/// parse reaches them; a packet count known from an earlier pass places the landing at `finish()`.
/// Expected indices, offsets and sizes are the full parse's packets (checked against ffprobe by the
/// conformance suite).
@Suite("ADTS seeking")
struct ADTSSeekTests {
    static let path = "adts/aac-44100-2ch.aac"

    /// The packets delivered to `parser` from now on (replacing its handlers).
    final class Delivered {
        var packets: [(index: Int64, offset: Int64, size: Int, estimated: Bool)] = []
        var diagnostics: [ParserDiagnostic] = []
        init(_ parser: AudioStreamParser) {
            parser.propertyListener = nil
            parser.diagnosticHandler = { self.diagnostics.append($0) }
            parser.packetsHandler = { batch in
                for (i, d) in batch.descriptions.enumerated() {
                    self.packets.append(
                        (
                            batch.firstPacketIndex + Int64(i), batch.fileOffset + d.startOffset, Int(d.dataByteSize),
                            batch.isIndexEstimated
                        ))
                }
            }
        }
    }

    /// Header and a few frames, an estimated seek played to the end, then an exact seek to where the
    /// in-order parse stopped, played on: the parse reaches the landing's first frame, the landing's
    /// packets join the table with their true indices, and a seek into them is exact.
    @Test func landingRunJoinsTheTable() throws {
        let input = try FixtureCatalog.fixture(Self.path).bytes()
        let full = try SeekTests.fullParse(input)
        let count = full.packets.count
        let parser = AudioStreamParser()
        let delivered = Delivered(parser)
        let prefix = Int(full.packets[4].offset)
        #expect(parser.feed(input[..<prefix], chunking: .random(seed: 1, maxSize: 300), finish: false) == nil)
        let frontier = try #require(delivered.packets.last.map { $0.index + 1 })
        let target = Int64(count * 3 / 5)
        let estimated = try parser.seek(toPacket: target)
        #expect(estimated.isEstimated)
        delivered.packets.removeAll()
        let from = Int(estimated.absoluteOffset)
        #expect(
            parser.feed(input[from...], chunking: .random(seed: 2, maxSize: 500), firstFlags: .discontinuity) == nil)
        let landed = try #require(delivered.packets.first)
        let k = try #require(full.packets.firstIndex { $0.offset == landed.offset })
        #expect(landed.index == target && landed.estimated)
        #expect(parser.seekLanding == SeekLanding(labelledIndex: target, trueIndex: nil))

        // Back to where the in-order parse stopped: exact; played on through the landing's packets.
        let back = try parser.seek(toPacket: frontier)
        #expect(!back.isEstimated)
        delivered.packets.removeAll()
        delivered.diagnostics.removeAll()
        #expect(
            parser.feed(
                input[Int(back.absoluteOffset)...], chunking: .random(seed: 3, maxSize: 700), firstFlags: .discontinuity
            )
                == nil)
        #expect(delivered.packets.map(\.index) == Array(frontier..<Int64(count)))
        #expect(delivered.packets.map(\.offset) == full.packets[Int(frontier)...].map(\.offset))
        #expect(delivered.packets.allSatisfy { !$0.estimated })
        #expect(
            delivered.diagnostics.contains {
                $0.kind == .positionCorrected && $0.message.contains("are packets \(k)…\(count - 1)")
            }, "\(delivered.diagnostics)")
        // The landing's run reached the end: the count is known, every position exact.
        #expect(parser.audioDataPacketCount == UInt64(count))
        let again = try parser.seek(toPacket: Int64(k + 3))
        #expect(!again.isEstimated && again.absoluteOffset == full.packets[k + 3].offset - 7)
        #expect(
            parser.packetToByte(Int64(count - 1))
                == Translation(value: full.packets[count - 1].offset - 7 - full.dataOffset, isEstimated: false))
    }

    /// A packet table capped below the stream's length: after a whole pass the count is known, a seek past
    /// the table is estimated, and `finish()` places the landing from the count.
    @Test func countPlacesTheLandingAtFinish() throws {
        let input = try FixtureCatalog.fixture(Self.path).bytes()
        let full = try SeekTests.fullParse(input)
        var options = ParserOptions()
        options.limits.maxPacketTableEntries = 10
        let parser = AudioStreamParser(options: options)
        let delivered = Delivered(parser)
        #expect(parser.feed(input[...], chunking: .whole) == nil)
        let target = Int64(full.packets.count * 3 / 5)
        let seek = try parser.seek(toPacket: target)
        #expect(seek.isEstimated)
        delivered.packets.removeAll()
        #expect(parser.feed(input[Int(seek.absoluteOffset)...], chunking: .whole, firstFlags: .discontinuity) == nil)
        let landed = try #require(delivered.packets.first)
        let k = try #require(full.packets.firstIndex { $0.offset == landed.offset })
        #expect(parser.seekLanding == SeekLanding(labelledIndex: target, trueIndex: Int64(k)))
    }
}
