import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// Seeking and translations on every fixture: a seek to a packet, then feeding from the returned
/// offset with `.discontinuity`, must deliver exactly the packets a full parse delivers from that
/// packet on; and the translations must agree with the full parse's packet offsets (these containers
/// all have exact packet positions: constant sizes or a complete packet table).
@Suite("Seek and translations", .timeLimit(.minutes(5)))
struct SeekTests {
    /// A whole-file parse kept for reference.
    struct FullParse {
        var parser: AudioStreamParser
        var log: EventLog
        var packets: [LoggedPacket]
        var dataOffset: Int64
        var dataFormat: StreamDescription
        /// Start frame of every packet, plus the total.
        var startFrames: [Int64]
    }

    static func fullParse(_ input: [UInt8]) throws -> FullParse {
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: input)
        if let error = parser.feed(input[...], chunking: .whole) {
            throw SeekSetupError("full parse failed: \(error)")
        }
        let packets = recorder.log.indexedPackets
        for (i, p) in packets.enumerated() where p.index != Int64(i) {
            throw SeekSetupError("full parse: packet \(i) has index \(p.index)")
        }
        guard let dataOffset = parser.dataOffset, let format = parser.dataFormat else {
            throw SeekSetupError("full parse: no dataOffset or dataFormat")
        }
        var frames: [Int64] = [0]
        for p in packets {
            let n = p.variableFrames != 0 ? Int64(p.variableFrames) : Int64(format.framesPerPacket)
            frames.append(frames[frames.count - 1] + n)
        }
        return FullParse(
            parser: parser, log: recorder.log, packets: packets, dataOffset: dataOffset, dataFormat: format,
            startFrames: frames)
    }

    /// Packet 0, 1, the middle one and the last one (those that exist).
    static func targets(count: Int) -> [Int64] {
        var t: [Int] = [0, 1, count / 2, count - 1].filter { $0 >= 0 && $0 < count }
        t = Array(Set(t)).sorted()
        return t.map(Int64.init)
    }

    /// How the fresh parser is brought to where it can seek.
    enum Preparation: CaseIterable, CustomStringConvertible {
        /// Fed one byte at a time until `readyToProducePackets` (no packet delivered yet).
        case headerOnly
        /// Fed the whole file and finished.
        case wholeFile
        var description: String { self == .headerOnly ? "after the header" : "after the whole file" }
    }

    static func prepare(_ input: [UInt8], _ preparation: Preparation) throws -> (AudioStreamParser, EventRecorder) {
        let parser = AudioStreamParser()
        let recorder = EventRecorder(parser, input: input)
        switch preparation {
        case .headerOnly:
            var i = 0
            while !parser.isReadyToProducePackets && i < input.count {
                try parser.parse(input[i..<(i + 1)])
                i += 1
            }
            guard parser.isReadyToProducePackets else { throw SeekSetupError("never ready to produce packets") }
        case .wholeFile:
            if let error = parser.feed(input[...], chunking: .whole) { throw SeekSetupError("\(error)") }
        }
        return (parser, recorder)
    }

    @Test(arguments: FixtureCatalog.all)
    func seekResumesAtTargetPacket(_ fixture: Fixture) throws {
        if ConformanceInput.knownGaps[fixture.path] != nil { return }
        let input = try ConformanceInput.input(for: fixture).bytes
        let full = try Self.fullParse(input)
        for preparation in Preparation.allCases {
            for target in Self.targets(count: full.packets.count) {
                let (parser, recorder) = try Self.prepare(input, preparation)
                let context = "\(fixture) seek to \(target) \(preparation)"
                let seek: SeekTarget
                do {
                    seek = try parser.seek(toPacket: target)
                } catch {
                    // Before the packet table is known (CAF pakt after the data), the position is not known
                    // yet: `more`, as Apple's DataUnavailable. Anything else is a failure.
                    if preparation == .headerOnly && error.code == .dataUnavailable {
                        continue
                    }
                    Issue.record("\(context): seek threw \(error)")
                    continue
                }
                let want = full.packets[Int(target)]
                #expect(seek.absoluteOffset == want.offset, "\(context): absolute offset")
                #expect(seek.byteOffset == want.offset - full.dataOffset, "\(context): byte offset")
                #expect(!seek.isEstimated, "\(context): offset estimated")
                recorder.log = EventLog()
                let tail = input[Int(seek.absoluteOffset)...]
                let error = parser.feed(
                    tail, chunking: .random(seed: UInt64(target) &+ 7, maxSize: 997), firstFlags: .discontinuity)
                #expect(error == nil, "\(context): \(String(describing: error))")
                let got = recorder.log.indexedPackets
                let expected = Array(full.packets[Int(target)...])
                if let difference = describeFirstDifference(got: got, expected: expected) {
                    Issue.record("\(context): packets \(difference)")
                }
                #expect(recorder.log.bytesMismatches.isEmpty, "\(context): \(recorder.log.bytesMismatches)")
            }
        }
    }

    /// Seeking to −1 or beyond the end (packet count + 1) throws `pck?`. Seeking to the packet count
    /// itself is the end of the data (Apple: `pck?` is for offsets "past EOF"; the facade accepts
    /// `packet == count`): it returns the data's end offset, and feeding from there delivers nothing.
    @Test(arguments: FixtureCatalog.all)
    func seekOutsideThePacketsThrowsInvalidPacketOffset(_ fixture: Fixture) throws {
        if ConformanceInput.knownGaps[fixture.path] != nil { return }
        let input = try ConformanceInput.input(for: fixture).bytes
        let full = try Self.fullParse(input)
        let n = Int64(full.packets.count)
        // A fresh parser each time: a thrown error makes a parser terminal.
        for target in [-1, n + 1, n + 100] {
            let (parser, _) = try Self.prepare(input, .wholeFile)
            do {
                let t = try parser.seek(toPacket: target)
                Issue.record("\(fixture): seek to \(target) of \(n) packets returned \(t) instead of throwing pck?")
            } catch {
                #expect(error.code == .invalidPacketOffset, "\(fixture): seek to \(target) of \(n): \(error)")
            }
        }
        let (parser, recorder) = try Self.prepare(input, .wholeFile)
        let end = full.packets.last.map { $0.offset + Int64($0.size) } ?? full.dataOffset
        let seek = try parser.seek(toPacket: n)
        #expect(seek.absoluteOffset == end, "\(fixture): seek to the packet count \(n)")
        recorder.log = EventLog()
        let tail = input[Int(min(Int64(input.count), seek.absoluteOffset))...]
        let error = parser.feed(tail, chunking: .whole, firstFlags: .discontinuity)
        #expect(error == nil, "\(fixture): feeding after a seek to the end: \(String(describing: error))")
        #expect(recorder.log.packetCount == 0, "\(fixture): packets after a seek to the end")
    }

    /// A discontinuity without a seek (the briefing: "drop partial state; inside data, realign to a packet
    /// boundary relative to the data start"): the input is cut in the middle of the data, and the rest is
    /// fed flagged `.discontinuity` (positions continue; only what was held back is dropped). Every packet
    /// delivered must be a reference packet (same index, offset, size, bytes), and every reference packet
    /// that starts at or after the cut must be delivered.
    @Test(arguments: FixtureCatalog.all)
    func discontinuityInsideTheDataRealigns(_ fixture: Fixture) throws {
        if ConformanceInput.knownGaps[fixture.path] != nil { return }
        let input = try ConformanceInput.input(for: fixture).bytes
        let full = try Self.fullParse(input)
        guard let first = full.packets.first, let last = full.packets.last else { return }
        let dataEnd = last.offset + Int64(last.size)
        // Cuts: one byte into the first packet, and one byte past the middle of the data.
        for cut in Set([first.offset + 1, first.offset + (dataEnd - first.offset) / 2 + 1]) where cut < dataEnd {
            let parser = AudioStreamParser()
            let recorder = EventRecorder(parser, input: input)
            let context = "\(fixture) cut at \(cut)"
            var error = parser.feed(
                input[..<Int(cut)], chunking: .random(seed: UInt64(cut), maxSize: 301), finish: false)
            if error == nil {
                error = parser.feed(
                    input[Int(cut)...], chunking: .random(seed: UInt64(cut) &+ 1, maxSize: 301),
                    firstFlags: .discontinuity)
            }
            #expect(error == nil, "\(context): \(String(describing: error))")
            let reference = Dictionary(uniqueKeysWithValues: full.packets.map { ($0.index, $0) })
            let got = recorder.log.indexedPackets
            for p in got where reference[p.index] != p {
                Issue.record("\(context): delivered \(p), reference \(reference[p.index].map { "\($0)" } ?? "none")")
                break
            }
            let delivered = Set(got.map(\.index))
            let missing = full.packets.filter { $0.offset >= cut && !delivered.contains($0.index) }
            let firstMissing = missing.first.map { "\($0)" } ?? ""
            #expect(missing.isEmpty, "\(context): \(missing.count) later packets missing, first \(firstMissing)")
            #expect(recorder.log.bytesMismatches.isEmpty, "\(context): \(recorder.log.bytesMismatches)")
        }
    }

    @Test(arguments: FixtureCatalog.all)
    func translationsAgreeWithPacketOffsets(_ fixture: Fixture) throws {
        if ConformanceInput.knownGaps[fixture.path] != nil { return }
        let input = try ConformanceInput.input(for: fixture).bytes
        let full = try Self.fullParse(input)
        let parser = full.parser
        for target in Self.targets(count: full.packets.count) {
            let p = full.packets[Int(target)]
            let byte = p.offset - full.dataOffset
            let frame = full.startFrames[Int(target)]
            let frames = full.startFrames[Int(target) + 1] - frame
            let context = "\(fixture) packet \(target)"
            #expect(
                parser.packetToByte(target) == Translation(value: byte, isEstimated: false), "\(context): packetToByte")
            #expect(
                parser.byteToPacket(byte)
                    == Translation(value: PacketPosition(packet: target, offsetInPacket: 0), isEstimated: false),
                "\(context): byteToPacket(first byte)")
            #expect(
                parser.byteToPacket(byte + Int64(p.size) - 1)
                    == Translation(
                        value: PacketPosition(packet: target, offsetInPacket: Int64(p.size) - 1), isEstimated: false),
                "\(context): byteToPacket(last byte)")
            #expect(
                parser.packetToFrame(target) == Translation(value: frame, isEstimated: false),
                "\(context): packetToFrame")
            #expect(
                parser.frameToPacket(frame)
                    == Translation(value: PacketPosition(packet: target, offsetInPacket: 0), isEstimated: false),
                "\(context): frameToPacket(first frame)")
            if frames > 0 {
                #expect(
                    parser.frameToPacket(frame + frames - 1)
                        == Translation(
                            value: PacketPosition(packet: target, offsetInPacket: frames - 1), isEstimated: false),
                    "\(context): frameToPacket(last frame)")
            }
            // Round trips.
            if let b = parser.packetToByte(target)?.value {
                #expect(parser.byteToPacket(b)?.value.packet == target, "\(context): byte round trip")
            }
            if let f = parser.packetToFrame(target)?.value {
                #expect(parser.frameToPacket(f)?.value.packet == target, "\(context): frame round trip")
            }
        }
    }
}

struct SeekSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
