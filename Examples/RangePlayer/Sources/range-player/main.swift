import AudioStreamParsing
import Foundation
import RangePlayerKit

// range-player URL [--seek-packet N ...] [--packets-after-seek K] [--initial-packets N]
//              [--window BYTES] [--read-size BYTES] [--json] [--list-packets] [--async]
//
// Plays URL through the parser into a counting packet sink with HTTP Range requests (see
// RangePlayer.swift). Without --seek-packet it plays to the end; with seeks it first plays
// --initial-packets packets (default 1), then for each --seek-packet N seeks there and plays
// --packets-after-seek packets (default 16). Prints bytes fetched and time to the first packet, and
// for each seek the landed packet (index, offset, size). Exit status 1 on an error or a sink problem.
// --async plays through AudioStreamEventSequence (the async adapter) instead of the synchronous API; it
// follows the parser's byte requests (MP4 with the moov at the end) with Iterator.followByteRequest(from:).

let usage = """
    usage: range-player URL [--seek-packet N ...] [--packets-after-seek K] [--initial-packets N]
                            [--window BYTES] [--read-size BYTES] [--json] [--list-packets] [--async]
    """

func die(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

struct Configuration {
    var url = ""
    var seeks: [Int64] = []
    var afterSeek = 16
    var initial: Int?
    var window: Int64 = 16 * 1024
    var readSize = 16 * 1024
    var json = false
    var listPackets = false
    var async = false
}

func parseArguments(_ list: [String]) -> Configuration {
    var config = Configuration()
    var arguments = list[...]
    func number<T: LosslessStringConvertible>(_ name: String) -> T {
        guard let text = arguments.popFirst(), let v = T(text) else { die("\(name) needs a number\n\(usage)") }
        return v
    }
    var sawURL = false
    while let argument = arguments.popFirst() {
        switch argument {
        case "--seek-packet": config.seeks.append(number(argument))
        case "--packets-after-seek": config.afterSeek = number(argument)
        case "--initial-packets": config.initial = number(argument) as Int
        case "--window": config.window = number(argument)
        case "--read-size": config.readSize = number(argument)
        case "--json": config.json = true
        case "--list-packets": config.listPackets = true
        case "--async": config.async = true
        case "-h", "--help":
            print(usage)
            exit(0)
        default:
            if argument.hasPrefix("-") || sawURL { die(usage) }
            config.url = argument
            sawURL = true
        }
    }
    if !sawURL { die(usage) }
    return config
}

let config = parseArguments(Array(CommandLine.arguments.dropFirst()))
let urlString = config.url
let (seeks, afterSeek, initial, json, listPackets) =
    (config.seeks, config.afterSeek, config.initial, config.json, config.listPackets)
guard let url = URL(string: urlString) else { die(usage) }

let sink = CountingSink()
var outcomes: [RangePlayer.SeekOutcome] = []
var failure: String?
var stats = RangePlayer.Statistics()
var fileType: AudioFileType?
var format: StreamDescription?
var dataOffset: Int64?
if config.async {
    // The async adapter (AudioStreamEventSequence) with Iterator.seek(toPacket:from:).
    do {
        let result = try await AsyncRangePlayer.run(
            url: url, sink: sink, seeks: seeks, initial: initial, after: afterSeek,
            window: config.window > 0 ? config.window : 16 * 1024, readSize: config.readSize)
        (stats, outcomes) = (result.statistics, result.outcomes)
        (fileType, format, dataOffset) = (result.fileType, result.dataFormat, result.dataOffset)
    } catch {
        failure = "\(error)"
    }
} else {
    // The synchronous API: RangePlayer's own read loop.
    let player = RangePlayer(url: url, sink: sink, window: config.window, readSize: config.readSize)
    do {
        try player.play(packets: seeks.isEmpty ? initial : (initial ?? 1))
        sink.resourceLength = player.statistics.resourceLength
        for packet in seeks {
            outcomes.append(try player.seek(toPacket: packet, packets: afterSeek))
        }
    } catch {
        failure = "\(error)"
    }
    stats = player.statistics
    (fileType, format, dataOffset) = (player.parser.fileFormat, player.parser.dataFormat, player.parser.dataOffset)
}
if json {
    func q(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if c.value < 0x20 { out += String(format: "\\u%04x", c.value) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }
    func opt<T>(_ v: T?) -> String { v.map { "\($0)" } ?? "null" }
    func packets(_ list: [ReceivedPacket]) -> String {
        "[" + list.map { "[\($0.index),\($0.offset),\($0.size)]" }.joined(separator: ",") + "]"
    }
    var members: [String] = [
        "\"url\":\(q(urlString))",
        "\"fileType\":\(fileType.map { q("\($0)") } ?? "null")",
        "\"formatID\":\(format.map { q("\($0.formatID)") } ?? "null")",
        "\"dataOffset\":\(opt(dataOffset))",
        "\"resourceLength\":\(opt(stats.resourceLength))",
        "\"requests\":\(stats.requests)",
        "\"bytesFetched\":\(stats.bytesFetched)",
        "\"bytesBeforeFirstPacket\":\(opt(stats.bytesBeforeFirstPacket))",
        "\"firstPacketSeconds\":\(opt(stats.firstPacketSeconds))",
        "\"followedByteRequests\":[\(stats.followedByteRequests.map(String.init).joined(separator: ","))]",
        "\"packets\":\(sink.totalPackets)",
    ]
    if listPackets { members.append("\"initialPackets\":\(packets(sink.segments[0]))") }
    var seekTexts: [String] = []
    for (i, o) in outcomes.enumerated() {
        let segment = o.target == nil ? [] : sink.segments[min(i + 1, sink.segments.count - 1)]
        var m = [
            "\"packet\":\(o.packet)",
            "\"targetOffset\":\(opt(o.target?.absoluteOffset))",
            "\"estimated\":\(opt(o.target?.isEstimated))",
            "\"error\":\(o.error.map { q($0.code.description) } ?? "null")",
            "\"firstPacketSeconds\":\(opt(o.firstPacketSeconds))",
            "\"bytesBeforeFirstPacket\":\(opt(o.bytesBeforeFirstPacket))",
            "\"reachedEnd\":\(o.reachedEnd)",
        ]
        if let first = segment.first {
            m.append("\"landed\":{\"index\":\(first.index),\"offset\":\(first.offset),\"size\":\(first.size)}")
        } else {
            m.append("\"landed\":null")
        }
        if listPackets { m.append("\"packets\":\(packets(segment))") }
        seekTexts.append("{" + m.joined(separator: ",") + "}")
    }
    members.append("\"seeks\":[\(seekTexts.joined(separator: ","))]")
    members.append("\"problems\":[\(sink.problems.map(q).joined(separator: ","))]")
    members.append("\"error\":\(failure.map(q) ?? "null")")
    print("{" + members.joined(separator: ",") + "}")
} else {
    print("URL             \(urlString)")
    if let format, let type = fileType {
        print("Format          \(type) '\(format.formatID)', \(format.sampleRate) Hz, \(format.channelsPerFrame) ch")
    }
    let total = stats.resourceLength.map { " of \($0)" } ?? ""
    if let bytes = stats.bytesBeforeFirstPacket, let seconds = stats.firstPacketSeconds {
        print(
            "First packet    after \(bytes) bytes\(total) fetched, "
                + String(format: "%.2f ms", seconds * 1000))
    }
    if !stats.followedByteRequests.isEmpty {
        print("Byte requests   \(stats.followedByteRequests.map(String.init).joined(separator: ", ")) (followed)")
    }
    for (i, o) in outcomes.enumerated() {
        if let error = o.error {
            print("Seek \(o.packet)  refused: \(error)")
            continue
        }
        let segment = sink.segments[min(i + 1, sink.segments.count - 1)]
        let target = o.target.map { "offset \($0.absoluteOffset)\($0.isEstimated ? " (estimated)" : "")" } ?? "?"
        if let first = segment.first {
            print(
                "Seek \(o.packet)  \(target): landed on packet \(first.index) @\(first.offset) size \(first.size), "
                    + "\(segment.count) packets, " + String(format: "%.2f ms", (o.firstPacketSeconds ?? 0) * 1000))
        } else {
            print("Seek \(o.packet)  \(target): no packet (end of the resource)")
        }
    }
    print(
        "Total           \(sink.totalPackets) packets, \(stats.bytesFetched) bytes fetched\(total) "
            + "in \(stats.requests) requests")
    for problem in sink.problems { print("Problem         \(problem)") }
    if let failure { print("Error           \(failure)") }
}
exit(failure == nil && sink.problems.isEmpty ? 0 : 1)
