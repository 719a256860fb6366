// The fuzz harnesses. These files are compiled twice: into the libFuzzer binary by `Fuzz/run.sh`
// (with the library's sources as one module, `-D FUZZ_SINGLE_MODULE`), and into the unit-test target,
// where `FailCaseReplayTests` replays every file under `Fuzz/FailCases/<harness>/` through the same
// checks. A check that fails throws `FuzzCheckFailure`: the libFuzzer entry traps on it, the test
// records it. No Foundation, no Testing here.

#if canImport(Glibc)
import Glibc
#endif
#if !FUZZ_SINGLE_MODULE
import AudioStreamTestSupport
@testable import AudioStreamParsing
#endif

/// A harness check that failed (an invariant or the chunking differential).
struct FuzzCheckFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The registry of harnesses: name → body. A body parses or decodes the input, touches every byte it
/// is handed back, and throws `FuzzCheckFailure` when an invariant does not hold. Any
/// `AudioStreamError` (or a decoder's `nil`/error) is an acceptable outcome; a trap, a hang or an
/// allocation beyond the limits is a bug.
enum FuzzHarness {
    typealias Body = @Sendable ([UInt8]) throws -> Void

    /// Every harness, in the order `Fuzz/run.sh --list` prints them.
    static let all: [(name: String, body: Body)] = [
        ("FuzzAny", { try FuzzFormat.run($0, only: nil) }),
        ("FuzzChunking", { try FuzzChunking.run($0) }),
        ("FuzzMPEG", { try FuzzFormat.run($0, only: [.mp3, .mp2, .mp1]) }),
        ("FuzzADTS", { try FuzzFormat.run($0, only: [.aacADTS]) }),
        ("FuzzWAVE", { try FuzzFormat.run($0, only: [.wave, .rf64, .bw64, .wave64]) }),
        ("FuzzAIFF", { try FuzzFormat.run($0, only: [.aiff, .aifc]) }),
        ("FuzzCAF", { try FuzzFormat.run($0, only: [.caf]) }),
        ("FuzzNeXT", { try FuzzFormat.run($0, only: [.next]) }),
        ("FuzzMP4", { try FuzzFormat.run($0, only: [.m4a, .m4b, .mpeg4, .threeGP, .threeGP2, .quickTime]) }),
        ("FuzzOgg", { try FuzzFormat.run($0, only: [.ogg]) }),
        ("FuzzFLAC", { try FuzzFormat.run($0, only: [.flac]) }),
        ("FuzzID3v2", { try FuzzTags.id3v2($0) }),
        ("FuzzID3v1", { try FuzzTags.id3v1($0) }),
        ("FuzzAPEv2", { try FuzzTags.apev2($0) }),
        ("FuzzVorbisComment", { try FuzzTags.vorbisComment($0) }),
        ("FuzzMP4ItemList", { try FuzzTags.mp4ItemList($0) }),
        ("FuzzFLACPicture", { try FuzzTags.flacPicture($0) }),
        ("FuzzChunkText", { try FuzzTags.chunkText($0) }),
        ("FuzzICY", { try FuzzTags.icy($0) }),
        ("FuzzCodecHeaders", { try FuzzCodecHeaders.run($0) }),
        ("FuzzMatroska", { try FuzzFormat.run($0, only: [.matroska, .webM]) }),
        ("FuzzAMR", { try FuzzFormat.run($0, only: [.amr]) }),
        ("FuzzMPEGTS", { try FuzzFormat.run($0, only: [.mpeg2TransportStream]) }),
        ("FuzzAC3", { try FuzzFormat.run($0, only: [.ac3, .enhancedAC3]) }),
        ("FuzzEBML", { try FuzzEBML.run($0) }),
        ("FuzzChunkingMatroska", { try FuzzChunking.run($0, only: [.matroska, .webM]) }),
        ("FuzzLOAS", { try FuzzFormat.run($0, only: [.latmInLOAS]) }),
    ]

    static func named(_ name: String) -> Body? { all.first { $0.name == name }?.body }

    /// Tight limits, so that a length field that inflates memory past them shows up under
    /// `-malloc_limit_mb`/`-rss_limit_mb` as a finding (docs/fuzzing.md, "Limits").
    static let limits = ParserLimits(
        maxBufferedBytes: 4 << 20, maxHeaderChunkBytes: 1 << 20, maxTagBytes: 1 << 20, maxArtworkBytes: 1 << 20,
        maxPacketTableEntries: 1 << 18, maxNestingDepth: 32, maxPacketBytes: 1 << 20,
        maxSyncScanBytes: 1 << 20)

    static func options(only: Set<AudioFileType>?) -> ParserOptions {
        var options = ParserOptions(limits: limits)
        options.onlyFileTypes = only
        return options
    }

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzCheckFailure) {
        if !condition { throw FuzzCheckFailure(message()) }
    }
}

/// One observable event of a parse, normalised so that it does not depend on how the input was cut
/// (packets one by one, not by batch).
enum FuzzEvent: Equatable, CustomStringConvertible {
    case property(AudioStreamPropertyValue)
    /// `count` packets back to back from `offset`, numbered from `index` (their bytes are checked against
    /// the input as they arrive).
    case packets(index: Int64, offset: Int64, size: Int, frames: UInt32, count: Int)
    case diagnostic(ParserDiagnostic)

    var description: String {
        switch self {
        case .property(let v): return "property \(v.id): \(v)"
        case .packets(let i, let o, let s, let f, let n):
            return "packets[\(i)..<\(i + Int64(n))] @\(o) size \(s) frames \(f)"
        case .diagnostic(let d): return "diagnostic \(d)"
        }
    }
}

/// Records a parser's callbacks and checks each packet against the input as it arrives.
final class FuzzRecorder {
    var events: [FuzzEvent] = []
    var failures: [String] = []
    var packetCount: Int64 = 0
    /// Input index of stream offset 0: bytes dropped before a `.discontinuity` shift the input
    /// against the offsets the parser counts.
    var shift: Int64 = 0
    /// Packets must not overlap or go backwards until a seek or discontinuity.
    var lastPacketEnd: Int64 = -1
    /// The previous packet's offset (several packets of one LATM frame share it).
    var lastPacketStart: Int64 = -1
    var ready = false
    /// The next packets start a new run (set at a discontinuity, so runs before and after it stay apart).
    var breakRun = false
    /// The stream the parser is fed, which packets are checked against (offset + `shift`).
    private(set) var input: [UInt8]
    private var oggBodies: OggPageBodies?
    private var tsPayloads: TSPayloadBytes??
    /// Where the bytes the parser sees end, when it is fed a prefix (after a seek): a transport stream's
    /// reading at its end (units confirmed by fewer sync bytes) is that of the prefix, not of the whole input.
    private var visibleEnd: Int?

    /// `count` bytes at `start` of the input are left out and the parser is not told (a `.discontinuity`
    /// before the first packet is ignored, `ParseFlags.discontinuity`): it sees one stream, the input without
    /// them, and packets are checked against that. Only before any packet was checked.
    func dropUnannounced(_ count: Int, at start: Int) {
        precondition(packetCount == 0, "dropUnannounced after packets were checked")
        input.removeSubrange(start..<(start + count))
        oggBodies = nil
        tsPayloads = nil
    }

    /// The parser is now fed only `input[..<end]` (from wherever it resumes): packets of a transport stream
    /// are checked against that prefix's payloads.
    func limitView(to end: Int) {
        visibleEnd = end
        tsPayloads = nil
    }
    private let maxPacketBytes: Int

    init(_ parser: AudioStreamParser, input: [UInt8]) {
        self.input = input
        self.maxPacketBytes = parser.options.limits.maxPacketBytes
        parser.propertyListener = { [unowned self] parser, id in
            guard let value = try? parser.value(of: id) else {
                fail("property \(id) announced but value(of:) throws")
                return
            }
            events.append(.property(value))
            if id == .readyToProducePackets {
                ready = true
                if parser.dataFormat == nil { fail("readyToProducePackets without a dataFormat") }
            }
        }
        parser.diagnosticHandler = { [unowned self] d in events.append(.diagnostic(d)) }
        parser.packetsHandler = { [unowned self] batch in record(batch) }
    }

    func fail(_ message: String) {
        if failures.count < 8 { failures.append(message) }
    }

    private func record(_ batch: PacketBatch) {
        if !ready { fail("packets before readyToProducePackets") }
        if let size = batch.constantPacketSize {
            // Constant-size packets lie back to back: check them as one range.
            let count = batch.packetCount
            guard count > 0 else { return }
            append(index: batch.firstPacketIndex, offset: batch.fileOffset, size: size, frames: 0, count: count)
            check(offset: batch.fileOffset, size: size, count: count, bytes: batch.bytes)
            return
        }
        for (i, d) in batch.descriptions.enumerated() {
            let offset = batch.fileOffset + d.startOffset
            let bytes = batch.packetBytes(at: i)
            let size = Int(d.dataByteSize)
            append(
                index: batch.firstPacketIndex + Int64(i), offset: offset, size: size,
                frames: d.variableFramesInPacket, count: 1)
            if bytes.count != size { fail("packet at \(offset): \(bytes.count) bytes for a size of \(size)") }
            check(offset: offset, size: size, count: 1, bytes: bytes)
        }
    }

    /// Appends packets, merged into the previous event when they continue its run (so batch boundaries,
    /// which depend on chunking, do not show).
    private func append(index: Int64, offset: Int64, size: Int, frames: UInt32, count: Int) {
        packetCount += Int64(count)
        if breakRun {
            breakRun = false
            events.append(.packets(index: index, offset: offset, size: size, frames: frames, count: count))
        } else if case .packets(let i, let o, let s, let f, let n)? = events.last, s == size, f == frames,
            i + Int64(n) == index, o + Int64(n * s) == offset
        {
            events[events.count - 1] = .packets(index: i, offset: o, size: s, frames: f, count: n + count)
        } else {
            events.append(.packets(index: index, offset: offset, size: size, frames: frames, count: count))
        }
    }

    /// Checks `count` packets of `size` bytes from `offset`, whose bytes are `bytes`.
    private func check(offset: Int64, size: Int, count: Int, bytes: UnsafeRawBufferPointer) {
        if size > maxPacketBytes { fail("packet at \(offset): size \(size) above maxPacketBytes") }
        let start = offset + shift
        let inInput = start >= 0 && start + Int64(bytes.count) <= Int64(input.count)
        let s = Int(clamping: start)
        let equal =
            inInput
            && input.withUnsafeBytes { raw in
                bytes.isEmpty || memcmp(raw.baseAddress! + s, bytes.baseAddress!, bytes.count) == 0
            }
        // The sub-frames of one LATM frame (a LOAS file, a transport stream's 0x11 stream) are packets at
        // the frame's offset, each copied out of it bit-aligned (LOASParser's contract): a packet may
        // share the previous packet's offset when its bytes are not the input's there.
        let sharesFrame = count == 1 && offset == lastPacketStart && (bytes.isEmpty || !equal)
        if offset < lastPacketEnd && !sharesFrame {
            fail("packet at \(offset) size \(size) starts before the previous packet's end \(lastPacketEnd)")
        }
        let total = Int64(size) * Int64(count)
        lastPacketStart = offset
        lastPacketEnd = max(lastPacketEnd, offset + total)
        guard inInput else {
            fail("packet at \(offset) size \(size) lies outside the input (\(input.count) bytes, shift \(shift))")
            return
        }
        if !equal {
            // An Ogg packet continued across pages: its pieces lie in consecutive page bodies.
            if oggBodies == nil { oggBodies = OggPageBodies(input) }
            // A frame of a transport stream: its pieces lie in consecutive payloads of its PID (an LATM
            // payload: at some bit of the LOAS frame that starts there).
            if tsPayloads == nil {
                tsPayloads = .some(TSPayloadBytes(visibleEnd.map { Array(input.prefix($0)) } ?? input))
            }
            let inTS = count == 1 && (tsPayloads ?? nil)?.contains(start: start, bytes: bytes) == true
            if !inTS && (count != 1 || oggBodies?.matches(input, start: s, bytes: bytes) != true) {
                fail("packet at \(offset) size \(size): bytes differ from the input at \(start)")
            }
        }
    }

    func throwIfFailed(_ what: String) throws(FuzzCheckFailure) {
        if let first = failures.first {
            throw FuzzCheckFailure("\(what): \(first)" + (failures.count > 1 ? " (+\(failures.count - 1) more)" : ""))
        }
    }
}
