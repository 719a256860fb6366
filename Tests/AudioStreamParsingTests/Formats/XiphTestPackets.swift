import AudioStreamTestSupport
import Foundation

/// Test-only extraction of codec header packets from committed fixtures, independent of the
/// library's Ogg and FLAC parsers: a minimal Ogg page walker (RFC 3533 §6: capture pattern,
/// 27-byte header, segment table, packets ending at a lacing value < 255, reassembled per serial
/// number) and a FLAC metadata block walker (RFC 9639 §8.1). No CRC checks: the fixtures are
/// well-formed, and these only feed the pure decoders under test.
enum XiphTestPackets {
    /// One reassembled Ogg packet.
    struct OggPacket {
        /// The serial number of its logical stream.
        var serial: UInt32
        /// The offset of the page the packet begins on (ffprobe's packet `pos`).
        var pageOffset: Int
        var bytes: [UInt8]
    }

    /// Every complete packet of every logical stream, in the order they complete.
    static func oggPackets(_ data: [UInt8]) -> [OggPacket] {
        var out: [OggPacket] = []
        var partial: [UInt32: (start: Int, bytes: [UInt8])] = [:]
        var pos = 0
        while pos + 27 <= data.count {
            guard data[pos..<(pos + 4)].elementsEqual("OggS".utf8) else {
                pos += 1
                continue
            }
            let serial = (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[pos + 14 + $1]) << (8 * UInt32($1)) }
            let segmentCount = Int(data[pos + 26])
            guard pos + 27 + segmentCount <= data.count else { break }
            let lacing = data[(pos + 27)..<(pos + 27 + segmentCount)]
            var body = pos + 27 + segmentCount
            if data[pos + 5] & 1 == 0 { partial[serial] = nil }  // not a continuation: drop leftovers
            for value in lacing {
                let end = min(data.count, body + Int(value))
                var current = partial[serial] ?? (pos, [])
                current.bytes += data[body..<end]
                body = end
                if value < 255 {
                    out.append(OggPacket(serial: serial, pageOffset: current.start, bytes: current.bytes))
                    partial[serial] = nil
                } else {
                    partial[serial] = current
                }
            }
            pos = body
        }
        return out
    }

    /// The packets of each logical stream, by serial, in stream order of first appearance.
    static func oggStreams(_ data: [UInt8]) -> [(serial: UInt32, packets: [OggPacket])] {
        var order: [UInt32] = []
        var bySerial: [UInt32: [OggPacket]] = [:]
        for packet in oggPackets(data) {
            if bySerial[packet.serial] == nil { order.append(packet.serial) }
            bySerial[packet.serial, default: []].append(packet)
        }
        return order.map { ($0, bySerial[$0] ?? []) }
    }

    /// One Ogg page (RFC 3533 §6).
    struct OggPage {
        var offset: Int
        /// Header, segment table and body.
        var size: Int
        var serial: UInt32
        /// The granule position (-1: no packet ends on the page).
        var granule: Int64
    }

    /// The pages from the start of `data`, back to back, up to the first bytes that are not a whole page.
    static func oggPages(_ data: [UInt8]) -> [OggPage] {
        var out: [OggPage] = []
        var pos = 0
        while pos + 27 <= data.count, data[pos..<(pos + 4)].elementsEqual("OggS".utf8) {
            let segmentCount = Int(data[pos + 26])
            guard pos + 27 + segmentCount <= data.count else { break }
            let body = data[(pos + 27)..<(pos + 27 + segmentCount)].reduce(0) { $0 + Int($1) }
            let serial = (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[pos + 14 + $1]) << (8 * UInt32($1)) }
            let granule = (0..<8).reduce(Int64(0)) { $0 | Int64(data[pos + 6 + $1]) << (8 * Int64($1)) }
            out.append(OggPage(offset: pos, size: 27 + segmentCount + body, serial: serial, granule: granule))
            pos += 27 + segmentCount + body
        }
        return out
    }

    /// The metadata blocks of a native FLAC stream (after an optional leading ID3v2 tag):
    /// `(type, body)`, up to and including the last-block one.
    static func flacMetadataBlocks(_ data: [UInt8]) -> [(type: UInt8, body: [UInt8])] {
        var pos = 0
        if data.count >= 10, data.starts(with: "ID3".utf8) {
            let size = data[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            pos = 10 + size + (data[5] & 0x10 != 0 ? 10 : 0)
        }
        guard pos + 4 <= data.count, data[pos..<(pos + 4)].elementsEqual("fLaC".utf8) else { return [] }
        pos += 4
        var blocks: [(UInt8, [UInt8])] = []
        while pos + 4 <= data.count {
            let header = data[pos]
            let length = Int(data[pos + 1]) << 16 | Int(data[pos + 2]) << 8 | Int(data[pos + 3])
            guard pos + 4 + length <= data.count else { break }
            blocks.append((header & 0x7F, Array(data[(pos + 4)..<(pos + 4 + length)])))
            pos += 4 + length
            if header & 0x80 != 0 { break }
        }
        return blocks
    }

    /// Fixtures of a folder whose names end with one of `extensions`.
    static func fixtures(in folder: String, extensions: [String]) -> [Fixture] {
        FixtureCatalog.mediaFiles.filter { fixture in
            fixture.folder == folder && extensions.contains { fixture.name.lowercased().hasSuffix("." + $0) }
        }
    }

    /// Ogg Vorbis streams in the committed fixtures: each with its fixture and packets.
    static func vorbisStreams() throws -> [(fixture: Fixture, serial: UInt32, packets: [OggPacket], streamCount: Int)] {
        var out: [(Fixture, UInt32, [OggPacket], Int)] = []
        for fixture in fixtures(in: "ogg", extensions: ["ogg", "oga"]) {
            let streams = oggStreams(try fixture.bytes())
            for stream in streams where stream.packets.first?.bytes.starts(with: [0x01] + Array("vorbis".utf8)) == true
            {
                out.append((fixture, stream.serial, stream.packets, streams.count))
            }
        }
        return out
    }

    /// Bytes of a hex string ("0a1B…").
    static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8?
        for c in text.utf8 {
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: continue
            }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return out
    }
}
