import AudioStreamTestSupport
import Foundation

@testable import AudioStreamParsing

/// The last announced values of an AIFF parse, for assertions.
struct AIFFParsed {
    let log: EventLog

    init(_ log: EventLog) { self.log = log }

    var error: AudioStreamError? { log.error }
    var values: [AudioStreamPropertyID: AudioStreamPropertyValue] { log.lastValues }

    var fileFormat: AudioFileType? {
        if case .fileFormat(let v)? = values[.fileFormat] { return v } else { return nil }
    }
    var format: StreamDescription? {
        if case .dataFormat(let v)? = values[.dataFormat] { return v } else { return nil }
    }
    var layout: ChannelLayout? {
        if case .channelLayout(let v)? = values[.channelLayout] { return v } else { return nil }
    }
    var dataOffset: Int64? {
        if case .dataOffset(let v)? = values[.dataOffset] { return v } else { return nil }
    }
    var byteCount: UInt64? {
        if case .audioDataByteCount(let v)? = values[.audioDataByteCount] { return v } else { return nil }
    }
    var packetCount: UInt64? {
        if case .audioDataPacketCount(let v)? = values[.audioDataPacketCount] { return v } else { return nil }
    }
    var bitRate: UInt32? {
        if case .bitRate(let v)? = values[.bitRate] { return v } else { return nil }
    }
    var metadata: AudioMetadata? {
        if case .metadata(let v)? = values[.infoDictionary] { return v } else { return nil }
    }
    /// Every packet count announced, in order.
    var announcedPacketCounts: [UInt64] {
        log.entries.compactMap { entry in
            if case .property(.audioDataPacketCount(let v)) = entry { return v } else { return nil }
        }
    }
    /// The diagnostic kinds, in order.
    var diagnosticKinds: [ParserDiagnostic.Kind] { log.diagnostics.map(\.kind) }
    /// The diagnostic messages, in order.
    var diagnostics: [String] {
        log.entries.compactMap { entry in
            if case .diagnostic(let d) = entry { return d.message } else { return nil }
        }
    }
}

/// `Fixtures/aiff` and the ffprobe oracle committed beside each file.
enum AIFFFixtures {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // …/Tests/AudioStreamParsingTests/Formats/AIFFTestSupport.swift → package root.
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/aiff")
    }()

    /// The fixture file names (`.aiff`, `.aifc`).
    static func files() throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".aiff") || $0.hasSuffix(".aifc") }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The figures the tests compare (see reference/ffprobe-oracle.md, "AIFF / AIFC" and "PCM grouping").
    struct Oracle {
        var sampleRate: Int
        var channels: Int
        var firstPos: Int64?
        var bytes: Int64
        var durationSum: Int64
        var tags: [String: String]
    }

    struct OracleError: Error, CustomStringConvertible {
        var description: String
    }

    /// The oracle's figures, or `nil` when ffprobe could not read the file (`ok: false`).
    static func oracle(_ name: String) throws -> Oracle? {
        let data = try Data(contentsOf: directory.appendingPathComponent(name + ".ffprobe.json"))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw OracleError(description: "\(name): oracle is not a JSON object")
        }
        if json["ok"] as? Bool == false { return nil }
        guard let stream = json["stream"] as? [String: Any], let summary = json["summary"] as? [String: Any] else {
            throw OracleError(description: "\(name): oracle lacks stream or summary")
        }
        func int(_ any: Any?) -> Int64? {
            if let n = any as? NSNumber { return n.int64Value }
            if let s = any as? String { return Int64(s) }
            return nil
        }
        guard let rate = int(stream["sample_rate"]), let channels = int(stream["channels"]),
            let bytes = int(summary["bytes"]), let duration = int(summary["duration_sum"])
        else { throw OracleError(description: "\(name): oracle lacks stream or summary figures") }
        let tags = (json["format_tags"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
        return Oracle(
            sampleRate: Int(rate), channels: Int(channels), firstPos: int(summary["first_pos"]), bytes: bytes,
            durationSum: duration, tags: tags)
    }

    /// The info-dictionary key of an ffprobe format tag (FFmpeg's AIFF demuxer names NAME `title`, AUTH
    /// `author`, `(c) ` `copyright`, ANNO `comment`; ID3 frames use their usual names).
    static func infoKey(forFFprobeTag key: String) -> InfoKey? {
        switch key.lowercased() {
        case "title": return InfoKey.title
        case "author", "artist": return InfoKey.artist
        case "album": return InfoKey.album
        case "copyright": return InfoKey.copyright
        case "comment": return InfoKey.comments
        default: return nil
        }
    }

    /// True once `ID3v2TagReader` is implemented (it is a stub returning `nil` until the WAVE branch is
    /// merged): it reads a minimal ID3v2.3 tag with one TIT2 frame.
    static let id3ReaderAvailable: Bool = {
        let frame: [UInt8] = Array("TIT2".utf8) + [0, 0, 0, 2, 0, 0, 0, 0x41]
        let tag: [UInt8] = Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame
        return ID3v2TagReader.read(tag)?.isEmpty == false
    }()
}
