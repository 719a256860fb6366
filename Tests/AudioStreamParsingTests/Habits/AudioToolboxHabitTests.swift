import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// The habits of real Audio File Stream Services clients (issue 16, "Habits that must work";
/// docs/porting-from-audiotoolbox.md), replayed over every fixture the conformance suite parses, at
/// 97, 1,000 and 4,096-byte chunks:
///
/// - (a) `.discontinuity` on every `parse` until the first packet arrives (AudioStreamer, StreamingKit,
///   AudioStreaming set it from `redy` until their packets callback runs);
/// - (b) a listener that reads the header's values in its `dataFormat` callback (StreamingKit reads the
///   magic cookie there, AudioStreaming the packet size bounds);
/// - (c) zero-byte `parse` calls between the chunks, and a stream that simply stops (`finish()` right
///   after the last bytes, no flush).
///
/// Each run must give the whole-input parse's event log: the same properties, packets (offsets, sizes,
/// frames, indices) and packet bytes (checked against the input at each packet's offset and by a hash
/// over all of them). The whole-input log is the one `FixtureConformanceTests` compares with the
/// fixture's ffprobe oracle; the habit (a) run at 97 bytes is compared with the oracle here too.
@Suite("AudioToolbox habits", .timeLimit(.minutes(5)))
struct AudioToolboxHabitTests {
    /// The chunk sizes of issue 16: smaller than most packets, about a packet, a few packets.
    static let chunkSizes = [97, 1000, 4096]

    /// The fixtures the conformance suite parses (documented gaps left out).
    static let fixtures: [Fixture] = FixtureCatalog.all.filter { ConformanceInput.knownGap($0) == nil }

    // MARK: (a) and (b): a StreamingKit-like client

    /// `.discontinuity` on every call until the first packet, and a listener that reads every header value
    /// in its `dataFormat` callback (both StreamingKit habits, in one run).
    @Test(arguments: fixtures)
    func discontinuityUntilTheFirstPacketAndHeaderValuesInTheDataFormatCallback(_ fixture: Fixture) throws {
        let input = try ConformanceInput.input(for: fixture)
        let options = ConformanceInput.options(for: fixture)
        let reference = ParseRunner.run(input.bytes, chunking: .whole, options: options)
        try #require(reference.error == nil, "\(fixture): \(String(describing: reference.error))")
        let header = Self.headerValues(reference)
        for size in Self.chunkSizes {
            let where_ = "\(fixture) at \(size)-byte chunks"
            var seen: HeaderSnapshot?
            let log = HabitRunner.run(
                input.bytes, chunkSize: size, options: options, habits: [.discontinuityUntilFirstPacket]
            ) {
                parser, id in
                if id == .dataFormat && seen == nil { seen = HeaderSnapshot(parser) }
            }
            Self.expectSameLog(log, reference, where_)
            if size == Self.chunkSizes[0] {
                var expected = try FixtureConformanceTests.expectation(for: fixture).shifted(by: input.shift)
                // Tags the oracle shows differently are the conformance suite's business (same log).
                expected.info = [:]
                for mismatch in FixtureConformanceTests.compare(log.events, with: expected) {
                    Issue.record("\(where_): \(mismatch)  [expected from \(expected.source)]")
                }
            }
            let snapshot = try #require(seen, "\(where_): no dataFormat callback")
            Self.expectHeader(snapshot, header, where_)
        }
    }

    // MARK: (c) zero-byte parses, and a stream that simply stops

    /// A zero-byte `parse` before every chunk and two after the last one (one flagged `.discontinuity`, a
    /// flush some clients send), then `finish()`: the empty calls deliver nothing, and `finish()` delivers
    /// what the stream's end completes: the last frame of MPEG audio, ADTS and FLAC when nothing follows it
    /// (`framedFileTypes`), none of the other formats' packets.
    @Test(arguments: fixtures)
    func emptyParsesAndAPlainFinishLoseNothing(_ fixture: Fixture) throws {
        let input = try ConformanceInput.input(for: fixture)
        let options = ConformanceInput.options(for: fixture)
        let reference = ParseRunner.run(input.bytes, chunking: .whole, options: options)
        try #require(reference.error == nil, "\(fixture): \(String(describing: reference.error))")
        for size in Self.chunkSizes {
            let where_ = "\(fixture) at \(size)-byte chunks with empty parses"
            let log = HabitRunner.run(input.bytes, chunkSize: size, options: options, habits: [.emptyParses])
            Self.expectSameLog(log, reference, where_)
            #expect(log.eventsDuringEmptyParses == 0, "\(where_): an empty parse produced events")
            let held = log.events.packetCount - log.packetsBeforeFinish
            let fileType = reference.lastValues[.fileFormat]
            let framed = fileType.map { Self.framedFileTypes.contains($0) } ?? false
            // AMR believes a frame once two frame headers follow it (docs/porting-from-audiotoolbox.md).
            let allowed = fileType == .fileFormat(.amr) ? 2 : framed ? 1 : 0
            #expect(held >= 0 && held <= allowed, "\(where_): \(held) packets delivered only by finish()")
        }
    }

    /// The containers whose last frame waits for `finish()` (or for what follows it: a tag): MPEG
    /// audio and ADTS confirm a frame by the sync that follows it, FLAC frames end where the next one starts,
    /// an AC-3/E-AC-3 packet ends at the next independent frame (raw, or in a transport stream).
    static let framedFileTypes: [AudioStreamPropertyValue] = [
        .fileFormat(.mp1), .fileFormat(.mp2), .fileFormat(.mp3), .fileFormat(.aacADTS), .fileFormat(.flac),
        .fileFormat(.ac3), .fileFormat(.enhancedAC3), .fileFormat(.mpeg2TransportStream),
    ]

    // MARK: Helpers

    /// The value of every property announced up to `readyToProducePackets` (the header), but `redy`.
    static func headerValues(_ log: EventLog) -> [AudioStreamPropertyID: AudioStreamPropertyValue] {
        var values: [AudioStreamPropertyID: AudioStreamPropertyValue] = [:]
        for case .property(let value) in log.entries {
            if value.id == .readyToProducePackets { break }
            values[value.id] = value
        }
        return values
    }

    static func expectHeader(
        _ snapshot: HeaderSnapshot, _ header: [AudioStreamPropertyID: AudioStreamPropertyValue], _ where_: String
    ) {
        for (id, value) in header.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            #expect(snapshot.values[id] == value, "\(where_): \(id) in the dataFormat callback")
        }
        for id in snapshot.values.keys where header[id] == nil {
            Issue.record("\(where_): \(id) readable in the dataFormat callback but not announced before redy")
        }
        #expect(snapshot.gettersAgree, "\(where_): the typed getters differ from value(of:)")
        #expect(!snapshot.isReady, "\(where_): redy already set in the dataFormat callback")
        if let format = snapshot.format, format.bytesPerPacket == 0 {
            #expect(
                snapshot.values[.packetSizeUpperBound] != nil,
                "\(where_): variable-size packets without a packet size upper bound in the dataFormat callback")
        }
    }

    static func expectSameLog(_ log: HabitLog, _ reference: EventLog, _ where_: String) {
        if let error = log.events.error { Issue.record("\(where_): \(error)") }
        if log.events != reference {
            let differences = log.events.differences(from: reference).joined(separator: "; ")
            Issue.record(
                "\(where_): \(log.events.packetCount) packets (whole: \(reference.packetCount)); \(differences)")
        }
        #expect(log.events.payloadHash == reference.payloadHash, "\(where_): packet bytes differ")
        #expect(log.events.bytesMismatches.isEmpty, "\(where_): \(log.events.bytesMismatches)")
    }
}

/// What a listener reads in its `dataFormat` callback.
struct HeaderSnapshot {
    /// `value(of:)` of every stored property that is readable.
    var values: [AudioStreamPropertyID: AudioStreamPropertyValue] = [:]
    var format: StreamDescription?
    var isReady: Bool
    /// The typed getters return what `value(of:)` does.
    var gettersAgree: Bool

    init(_ parser: AudioStreamParser) {
        let ids: [AudioStreamPropertyID] = [
            .fileFormat, .dataFormat, .formatList, .magicCookieData, .audioDataByteCount, .audioDataPacketCount,
            .maximumPacketSize, .dataOffset, .channelLayout, .restrictsRandomAccess, .packetTableInfo,
            .packetSizeUpperBound, .averageBytesPerPacket, .bitRate, .infoDictionary,
        ]
        for id in ids {
            if let value = try? parser.value(of: id) { values[id] = value }
        }
        format = parser.dataFormat
        isReady = parser.isReadyToProducePackets
        gettersAgree =
            values[.magicCookieData] == parser.magicCookie.map { .magicCookie($0) }
            && values[.packetSizeUpperBound] == parser.packetSizeUpperBound.map { .packetSizeUpperBound($0) }
            && values[.maximumPacketSize] == parser.maximumPacketSize.map { .maximumPacketSize($0) }
            && values[.dataOffset] == parser.dataOffset.map { .dataOffset($0) }
            && values[.formatList] == parser.formatList.map { .formatList($0) }
            && values[.channelLayout] == parser.channelLayout.map { .channelLayout($0) }
            && values[.audioDataByteCount] == parser.audioDataByteCount.map { .audioDataByteCount($0) }
            && values[.audioDataPacketCount] == parser.audioDataPacketCount.map { .audioDataPacketCount($0) }
            && values[.bitRate] == parser.bitRate.map { .bitRate($0) }
    }
}

/// The log of a habit run.
struct HabitLog {
    var events: EventLog
    /// Callbacks that ran during a zero-byte `parse` (must be none).
    var eventsDuringEmptyParses = 0
    /// Packets delivered before `finish()`.
    var packetsBeforeFinish = 0
}

/// Feeds an input the way an Audio File Stream Services client does.
enum HabitRunner {
    struct Habits: OptionSet {
        let rawValue: Int
        /// `.discontinuity` on every call until the packets handler has run once.
        static let discontinuityUntilFirstPacket = Habits(rawValue: 1)
        /// A zero-byte `parse` before every chunk and after the last one (with `.discontinuity` too,
        /// as some clients flush), then `finish()`.
        static let emptyParses = Habits(rawValue: 2)
    }

    static func run(
        _ input: [UInt8], chunkSize: Int, options: ParserOptions, habits: Habits,
        listener: ((AudioStreamParser, AudioStreamPropertyID) -> Void)? = nil
    ) -> HabitLog {
        let parser = AudioStreamParser(options: options)
        let recorder = EventRecorder(parser, input: input)
        var sawPacket = false
        var callbacks = 0
        var packets = 0
        let recordPackets = parser.packetsHandler
        parser.packetsHandler = { batch in
            sawPacket = true
            callbacks += 1
            packets += batch.packetCount
            recordPackets?(batch)
        }
        let recordProperty = parser.propertyListener
        parser.propertyListener = { parser, id in
            callbacks += 1
            listener?(parser, id)
            recordProperty?(parser, id)
        }
        let recordDiagnostic = parser.diagnosticHandler
        parser.diagnosticHandler = { diagnostic in
            callbacks += 1
            recordDiagnostic?(diagnostic)
        }
        var duringEmpty = 0
        var beforeFinish = 0
        func emptyParse(_ flags: ParseFlags) throws(AudioStreamError) {
            let before = callbacks
            try parser.parse([UInt8](), flags: flags)
            duringEmpty += callbacks - before
        }
        do throws(AudioStreamError) {
            for start in stride(from: 0, to: input.count, by: chunkSize) {
                if habits.contains(.emptyParses) { try emptyParse([]) }
                let flags: ParseFlags =
                    habits.contains(.discontinuityUntilFirstPacket) && !sawPacket ? .discontinuity : []
                try parser.parse(input[start..<min(input.count, start + chunkSize)], flags: flags)
            }
            if habits.contains(.emptyParses) {
                try emptyParse([])
                try emptyParse(.discontinuity)
            }
            beforeFinish = packets
            try parser.finish()
        } catch {
            recorder.log.error = error
        }
        return HabitLog(events: recorder.log, eventsDuringEmptyParses: duringEmpty, packetsBeforeFinish: beforeFinish)
    }
}
