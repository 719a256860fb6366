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

    static func fullParse(_ input: [UInt8], options: ParserOptions = ParserOptions()) throws -> FullParse {
        let parser = AudioStreamParser(options: options)
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

    /// How packet positions relate to the file.
    enum PositionModel {
        /// Chunk and box containers (WAVE, AIFF, CAF, NeXT, MP4): a packet is a file range inside the data chunk, and
        /// every position is exact (constant sizes or a packet table).
        case exact
        /// Framed streams (ADTS; MPEG audio): a frame header precedes each packet's bytes, a seek lands on
        /// the frame (before the packet), positions not parsed yet are estimated, and packet indices after
        /// a discontinuity without seek are not exact (docs/formats/adts.md, "Seeking and translations").
        case framed
    }

    static func model(_ fixture: Fixture) -> PositionModel {
        // MPEG audio in WAVE and Wave64 is framed: its packets are frames found by their headers.
        if fixture.folder == "wav" && fixture.name.hasPrefix("mp") { return .framed }
        return ["wav", "aiff", "caf", "au", "mp4"].contains(tableFolder(fixture)) ? .exact : .framed
    }

    /// The fixture's folder, or for a file other projects made (`external/`) the folder of its container's
    /// own fixtures, by extension.
    static func tableFolder(_ fixture: Fixture) -> String {
        guard fixture.folder == "external" else { return fixture.folder }
        switch fixture.name.split(separator: ".").last.map(String.init) ?? "" {
        case "wav": return "wav"
        case "aiff", "aifc": return "aiff"
        case "au": return "au"
        default: return "external"
        }
    }

    /// The largest frame header that may precede a packet in a framed stream (ADTS: 7 bytes, + 2 CRC,
    /// + 2 per raw-data-block position; generous).
    static let maxFrameHeader: Int64 = 32

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

    static func prepare(
        _ input: [UInt8], _ preparation: Preparation, options: ParserOptions = ParserOptions()
    ) throws -> (AudioStreamParser, EventRecorder) {
        let parser = AudioStreamParser(options: options)
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
        if ConformanceInput.knownGap(fixture) != nil || ConformanceInput.seekGap(fixture) != nil { return }
        let input = try ConformanceInput.input(for: fixture).bytes
        let options = ConformanceInput.options(for: fixture)
        let full = try Self.fullParse(input, options: options)
        for preparation in Preparation.allCases {
            for target in Self.targets(count: full.packets.count) {
                let (parser, recorder) = try Self.prepare(input, preparation, options: options)
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
                    // A framed stream whose header declares its packet count (an MPEG Xing/Info/VBRI frame count)
                    // bounds seeking by it until more is parsed: a target at or past the declared count is `pck?`
                    // (the concatenated MP3 fixture holds 81 frames behind an Info tag that declares 40).
                    if preparation == .headerOnly && error.code == .invalidPacketOffset,
                        case .audioDataPacketCount(let declared)? = recorder.log.lastValues[.audioDataPacketCount],
                        target >= Int64(declared)
                    {
                        continue
                    }
                    Issue.record("\(context): seek threw \(error)")
                    continue
                }
                let want = full.packets[Int(target)]
                let model = Self.model(fixture)
                if model == .exact || !seek.isEstimated {
                    if model == .exact {
                        #expect(seek.absoluteOffset == want.offset, "\(context): absolute offset")
                        #expect(!seek.isEstimated, "\(context): offset estimated")
                    } else {
                        // The seek lands on the start of the frame that holds the packet, which the full parse's
                        // translation names (checked in translationsAgreeWithPacketOffsets).
                        let frameStart = full.parser.packetToByte(target).map { $0.value + full.dataOffset }
                        let frame = frameStart.map(String.init) ?? "unknown"
                        // A transport stream that has not seen the target's PES packet yet lands at the last
                        // PES packet it saw (the target begins there or later; the packets before it are
                        // dropped): at or before the full parse's landing, the packets delivered checked below.
                        // A Matroska stream seeked to the packet right after those it parsed (the header of an
                        // A_AAC track is held for its first frame, which is then parsed too) lands where they end:
                        // blocks of other tracks may lie between, and the walk from there delivers the target.
                        let justAfterParsed = fixture.folder == "mkv" && target == Int64(recorder.log.packetCount)
                        let early =
                            (fixture.folder == "ts" || justAfterParsed)
                            && frameStart.map { seek.absoluteOffset <= $0 } == true
                        #expect(
                            (seek.absoluteOffset == frameStart || early) && seek.absoluteOffset <= want.offset,
                            "\(context): absolute offset \(seek.absoluteOffset), frame at \(frame)")
                    }
                    #expect(seek.byteOffset == seek.absoluteOffset - full.dataOffset, "\(context): byte offset")
                }
                recorder.log = EventLog()
                let start = Int(min(max(seek.absoluteOffset, 0), Int64(input.count)))
                let error = parser.feed(
                    input[start...], chunking: .random(seed: UInt64(target) &+ 7, maxSize: 997),
                    firstFlags: .discontinuity)
                #expect(error == nil, "\(context): \(String(describing: error))")
                let got = recorder.log.indexedPackets
                if model == .exact || !seek.isEstimated {
                    let expected = Array(full.packets[Int(target)...])
                    if let difference = describeFirstDifference(got: got, expected: expected) {
                        Issue.record("\(context): packets \(difference)")
                    }
                } else {
                    // Estimated: the parser resumes at the first frame it confirms at or after the offset,
                    // numbers it `target`, and continues from there: a contiguous tail of the reference
                    // packets (offsets and sizes), indices counting up from the target.
                    let spans = full.packets.map { PacketSpan(offset: $0.offset, size: Int64($0.size)) }
                    let gotSpans = got.map { PacketSpan(offset: $0.offset, size: Int64($0.size)) }
                    var k = spans.firstIndex { $0.offset >= Int64(start) } ?? spans.count
                    if ["ogg", "mkv", "ts"].contains(fixture.folder) {
                        // Ogg: the parser resynchronises at the next page; packets that begin in the page the
                        // offset fell into cannot be delimited (their lacing is in that page's header), so the
                        // tail starts with the first packet that begins on a page at or after the offset.
                        // Matroska likewise at the next block (or Cluster): the frames of a laced block (PCM
                        // sample frames, Xiph/EBML/fixed lacing) are delimited by its header, and packetToByte
                        // is the block's start (docs/formats/matroska.md, "Seeking and translations"). A transport
                        // stream at the next PES packet of its stream (a frame header inside a PES packet is not
                        // searched for: docs/formats/mpeg-ts.md, "Seeking").
                        k =
                            full.packets.indices.first { i in
                                (full.parser.packetToByte(Int64(i)).map { $0.value + full.dataOffset } ?? 0)
                                    >= Int64(start)
                            } ?? spans.count
                    }
                    // The offset may fall inside the header of packet k's frame: then the tail starts at k + 1.
                    if k + 1 < spans.count && gotSpans.first == spans[k + 1] { k += 1 }
                    // AMR (no sync word) drops the first frame of the chain it resynchronises on, and never starts
                    // on a one-byte NO_DATA frame (docs/formats/amr.md, "Sync and damage"): the tail starts at a
                    // later frame with payload, within a few frames of the offset.
                    if fixture.folder == "amr", let first = gotSpans.first, let i = spans.firstIndex(of: first),
                        i >= k, i <= k + 8
                    {
                        k = i
                    }
                    // FLAC with a fixed block size (native, or one Ogg link): the frame header's frame number
                    // is the packet index, so the indices are exact (docs/formats/flac.md, docs/formats/ogg.md),
                    // and the landing aims at the target's first frame: the frames before it are skipped
                    // (docs/streaming.md, "Refined packet seeks").
                    let isFLAC =
                        fixture.folder == "flac" || (fixture.folder == "ogg" && fixture.name.hasPrefix("flac-"))
                    let fixedBlocks = isFLAC && full.dataFormat.framesPerPacket > 0 && full.parser.links.count <= 1
                    if fixedBlocks { k = min(spans.count, max(k, Int(target))) }
                    var tail = Array(spans[k...])
                    if fixture.folder == "ogg", let lost = Self.oggLinkWithLostHeaders(input, cut: Int64(start)) {
                        // Landed in a chained link's header pages: that link is skipped (see below).
                        tail.removeAll { lost.contains($0.offset) }
                    }
                    if let difference = describeFirstDifference(got: gotSpans, expected: tail) {
                        Issue.record("\(context) (estimated offset \(seek.absoluteOffset)): packets \(difference)")
                    }
                    let indices = got.map(\.index)
                    let first = fixedBlocks ? Int64(k) : target
                    let counting = indices.isEmpty ? [] : Array(first..<(first + Int64(indices.count)))
                    #expect(indices == counting, "\(context): indices after an estimated seek")
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
        if ConformanceInput.knownGap(fixture) != nil || ConformanceInput.seekGap(fixture) != nil { return }
        let input = try ConformanceInput.input(for: fixture).bytes
        let options = ConformanceInput.options(for: fixture)
        let full = try Self.fullParse(input, options: options)
        let n = Int64(full.packets.count)
        // A fresh parser each time: a thrown error makes a parser terminal.
        for target in [-1, n + 1, n + 100] {
            let (parser, _) = try Self.prepare(input, .wholeFile, options: options)
            do {
                let t = try parser.seek(toPacket: target)
                Issue.record("\(fixture): seek to \(target) of \(n) packets returned \(t) instead of throwing pck?")
            } catch {
                #expect(error.code == .invalidPacketOffset, "\(fixture): seek to \(target) of \(n): \(error)")
            }
        }
        let (parser, recorder) = try Self.prepare(input, .wholeFile, options: options)
        let end = full.packets.last.map { $0.offset + Int64($0.size) } ?? full.dataOffset
        let seek = try parser.seek(toPacket: n)
        if ["ts", "loas"].contains(fixture.folder) {
            // A transport stream's packets are copied out of interleaved transport packets (and LATM payloads,
            // also in raw LOAS, out of bits): the last one's offset + size is not where it ends in the file. The
            // end lies after the last packet's first byte, inside the file (docs/formats/mpeg-ts.md,
            // "Seeking"; docs/formats/loas.md).
            let last = full.packets.last?.offset ?? full.dataOffset
            #expect(
                seek.absoluteOffset > last && seek.absoluteOffset <= Int64(input.count),
                "\(fixture): seek to the packet count \(n): \(seek.absoluteOffset)")
        } else {
            #expect(seek.absoluteOffset == end, "\(fixture): seek to the packet count \(n)")
        }
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
    /// When `cut` falls inside the header pages of an Ogg chain link after the first (pages with granule
    /// position 0 after a beginning-of-stream page, RFC 7845 §4 / Vorbis I §A.2), the byte range of that
    /// link (to the next beginning-of-stream page or the end).
    static func oggLinkWithLostHeaders(_ input: [UInt8], cut: Int64) -> Range<Int64>? {
        var p = 0
        var links: [Int] = []
        var headerPages: [Range<Int>] = []
        var previousBOS = false
        while p + 27 <= input.count, input[p] == 0x4F, input[p + 1] == 0x67 {
            let n = Int(input[p + 26])
            guard p + 27 + n <= input.count else { break }
            let size = 27 + n + input[(p + 27)..<(p + 27 + n)].reduce(0) { $0 + Int($1) }
            let bos = input[p + 5] & 2 != 0
            let granule = (0..<8).reduce(UInt64(0)) { $0 | UInt64(input[p + 6 + $1]) << (8 * $1) }
            if bos && !previousBOS { links.append(p) }
            if !bos && granule == 0 { headerPages.append(p..<(p + size)) }
            previousBOS = bos
            p += size
        }
        guard links.count > 1, headerPages.contains(where: { $0.contains(Int(cut)) }) else { return nil }
        guard let link = links.lastIndex(where: { $0 <= Int(cut) }), link > 0 else { return nil }
        let end = link + 1 < links.count ? links[link + 1] : input.count
        return Int64(links[link])..<Int64(end)
    }

    @Test(arguments: FixtureCatalog.all)
    func discontinuityInsideTheDataRealigns(_ fixture: Fixture) throws {
        if ConformanceInput.knownGap(fixture) != nil { return }
        let input = try ConformanceInput.input(for: fixture).bytes
        // MP4 with the moov after the mdat: the media is held back until the moov arrives; a discontinuity
        // drops what was held, so its packets cannot come back (MP4FixtureTests checks the recovery instead).
        if MP4Layout(input)?.movieFollowsMedia == true { return }
        let options = ConformanceInput.options(for: fixture)
        let full = try Self.fullParse(input, options: options)
        guard let first = full.packets.first, let last = full.packets.last else { return }
        let dataEnd = last.offset + Int64(last.size)
        // Cuts: one byte into the first packet, and one byte past the middle of the data.
        for cut in Set([first.offset + 1, first.offset + (dataEnd - first.offset) / 2 + 1]) where cut < dataEnd {
            let parser = AudioStreamParser(options: options)
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
            let got = recorder.log.indexedPackets
            var missing: [LoggedPacket]
            if Self.model(fixture) == .exact {
                let reference = Dictionary(uniqueKeysWithValues: full.packets.map { ($0.index, $0) })
                for p in got where reference[p.index] != p {
                    let r = reference[p.index].map { "\($0)" } ?? "none"
                    Issue.record("\(context): delivered \(p), reference \(r)")
                    break
                }
                let delivered = Set(got.map(\.index))
                missing = full.packets.filter { $0.offset >= cut && !delivered.contains($0.index) }
            } else {
                // Framed streams: indices are not exact after a discontinuity without seek; offsets and
                // sizes are.
                let reference = Dictionary(uniqueKeysWithValues: full.packets.map { ($0.offset, $0.size) })
                for p in got where reference[p.offset] != p.size {
                    Issue.record("\(context): delivered \(p), which is no reference packet")
                    break
                }
                // Every packet whose frame starts after the cut (packetToByte: the frame start) must come back;
                // the rest of a frame the cut went through is dropped with it.
                let delivered = Set(got.map(\.offset))
                missing = full.packets.filter { p in
                    let frameStart = full.parser.packetToByte(p.index).map { $0.value + full.dataOffset } ?? p.offset
                    return frameStart >= cut && !delivered.contains(p.offset)
                }
                // Resynchronising after the cut confirms a frame only by what follows it: another frame, a tag or
                // the end (docs/formats/mpeg-audio.md, "Sync rule"). The first frame after the cut, when junk
                // follows it (its end is not where the next reference packet starts), cannot be confirmed and is
                // skipped as junk; every later frame must still come back.
                // AMR drops the first frame of the chain it resynchronises on (docs/formats/amr.md).
                if fixture.folder == "amr", !missing.isEmpty { missing.removeFirst() }
                if let first = missing.first, first.index + 1 < full.packets.count,
                    first.offset + Int64(first.size) != full.packets[Int(first.index) + 1].offset,
                    !full.packets.contains(where: { $0.offset >= cut && $0.offset < first.offset }),
                    fixture.name.hasSuffix(".mp3") || fixture.name.hasSuffix(".mp2")
                {
                    missing.removeFirst()
                }
            }
            if fixture.folder == "ogg", let lost = Self.oggLinkWithLostHeaders(input, cut: cut) {
                // The cut went through a chained link's header pages: that link cannot be decoded and is
                // skipped (docs/formats/ogg.md, "Discontinuities"); every packet after it must come back.
                missing.removeAll { lost.contains($0.offset) }
            }
            let firstMissing = missing.first.map { "\($0)" } ?? ""
            #expect(missing.isEmpty, "\(context): \(missing.count) later packets missing, first \(firstMissing)")
            #expect(recorder.log.bytesMismatches.isEmpty, "\(context): \(recorder.log.bytesMismatches)")
        }
    }

    @Test(arguments: FixtureCatalog.all)
    func translationsAgreeWithPacketOffsets(_ fixture: Fixture) throws {
        if ConformanceInput.knownGap(fixture) != nil { return }
        let input = try ConformanceInput.input(for: fixture).bytes
        let options = ConformanceInput.options(for: fixture)
        let full = try Self.fullParse(input, options: options)
        let parser = full.parser
        let exact = Self.model(fixture) == .exact
        for target in Self.targets(count: full.packets.count) {
            let p = full.packets[Int(target)]
            let byte = p.offset - full.dataOffset
            let frame = full.startFrames[Int(target)]
            let frames = full.startFrames[Int(target) + 1] - frame
            let context = "\(fixture) packet \(target)"
            func position(_ packet: Int64, _ offset: Int64) -> Translation<PacketPosition> {
                Translation(value: PacketPosition(packet: packet, offsetInPacket: offset), isEstimated: false)
            }
            if exact {
                #expect(
                    parser.packetToByte(target) == Translation(value: byte, isEstimated: false),
                    "\(context): packetToByte")
                #expect(parser.byteToPacket(byte) == position(target, 0), "\(context): byteToPacket(first byte)")
                #expect(
                    parser.byteToPacket(byte + Int64(p.size) - 1) == position(target, Int64(p.size) - 1),
                    "\(context): byteToPacket(last byte)")
            } else {
                // Framed: packetToByte is where the packet's frame starts (feeding resumes there): at or before
                // the packet, after the previous packet unless both are blocks of one frame (same start), and
                // byteToPacket maps it back to the frame's first packet.
                let frameStart = parser.packetToByte(target)
                #expect(frameStart?.isEstimated == false, "\(context): packetToByte estimated after a full parse")
                if let start = frameStart?.value {
                    #expect(start <= byte && start >= 0, "\(context): packetToByte \(start) after the packet")
                    if target > 0, let previous = parser.packetToByte(target - 1)?.value, previous != start {
                        let before = full.packets[Int(target) - 1]
                        #expect(
                            start >= before.offset + Int64(before.size) - full.dataOffset,
                            "\(context): frame start \(start) inside packet \(target - 1)")
                    }
                    let back = parser.byteToPacket(start)?.value
                    let first = back.map { $0.packet <= target && $0.offsetInPacket == 0 }
                    #expect(
                        first == true && parser.packetToByte(back?.packet ?? -1)?.value == start,
                        "\(context): byteToPacket(\(start)) = \(String(describing: back))")
                }
            }
            // A framed stream whose frames hold a varying number of blocks kept as one packet (ADTS multi-block
            // frames without CRC) may not translate frames at all (docs/formats/adts.md): nil, never a wrong
            // exact answer.
            let variable = full.packets.contains { $0.variableFrames != 0 }
            if !exact && variable && parser.packetToFrame(target) == nil && parser.frameToPacket(frame) == nil {
                continue
            }
            #expect(
                parser.packetToFrame(target) == Translation(value: frame, isEstimated: false),
                "\(context): packetToFrame")
            #expect(parser.frameToPacket(frame) == position(target, 0), "\(context): frameToPacket(first frame)")
            if frames > 0 {
                #expect(
                    parser.frameToPacket(frame + frames - 1) == position(target, frames - 1),
                    "\(context): frameToPacket(last frame)")
            }
            // Round trips.
            if let b = parser.packetToByte(target)?.value, exact {
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
