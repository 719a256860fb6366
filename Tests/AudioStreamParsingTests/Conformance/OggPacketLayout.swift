import AudioStreamTestSupport

/// Where the packets of an Ogg file's first audio stream begin, derived from the page headers alone
/// (RFC 3533 §5-6, independent of the library): ffprobe reports an Ogg packet's `pos` as the start of the
/// page where the packet begins (ffprobe-oracle.md), so the oracle's k-th audio packet is the k-th packet
/// of the stream after its header packets, and it must begin on the page the oracle names.
struct OggPacketLayout {
    struct Start {
        /// Absolute offset of the packet's first byte.
        var offset: Int64
        /// Absolute offset of the page where it begins.
        var page: Int64
    }

    /// The serial of the first logical stream whose identification packet is Vorbis, Opus or FLAC.
    var serial: UInt32
    /// Every packet of that stream (header packets included), in order.
    var starts: [Start]
    /// Header packets before the audio: Vorbis 3, Opus 2, FLAC 1 + the mapping header's count.
    var headerPackets: Int

    init(_ file: [UInt8]) throws(ExpectationError) {
        var p = 0
        var chosen: UInt32?
        var starts: [Start] = []
        var headers = 0
        var inPacket = false
        while p + 27 <= file.count {
            guard file[p] == 0x4F, file[p + 1] == 0x67, file[p + 2] == 0x67, file[p + 3] == 0x53 else {
                throw ExpectationError("no Ogg page at \(p)")
            }
            let type = file[p + 5]
            let serial = (0..<4).reduce(UInt32(0)) { $0 | UInt32(file[p + 14 + $1]) << (8 * $1) }
            let n = Int(file[p + 26])
            let lacing = Array(file[(p + 27)..<(p + 27 + n)])
            let body = p + 27 + n
            if chosen == nil, type & 2 != 0 {
                let magic = Array(file[body..<min(file.count, body + 8)])
                if magic.starts(with: Array("OpusHead".utf8)) {
                    chosen = serial
                    headers = 2
                } else if magic.starts(with: [1] + Array("vorbis".utf8)) {
                    chosen = serial
                    headers = 3
                } else if magic.starts(with: [0x7F] + Array("FLAC".utf8)) {
                    chosen = serial
                    headers = 1 + Int(file[body + 7]) << 8 + Int(file[body + 8])
                }
            }
            if serial == chosen {
                var offset = body
                var continued = type & 1 != 0 && inPacket
                for value in lacing {
                    // A packet begins here unless the segment continues one; an empty packet (a lone 0) is
                    // no packet for ffprobe (nor for us).
                    if !continued && !inPacket && value > 0 {
                        starts.append(Start(offset: Int64(offset), page: Int64(p)))
                    }
                    continued = false
                    inPacket = value == 255
                    offset += Int(value)
                }
            }
            p = body + lacing.reduce(0) { $0 + Int($1) }
        }
        guard let chosen else { throw ExpectationError("no Vorbis, Opus or FLAC stream") }
        serial = chosen
        self.starts = starts
        headerPackets = headers
    }

    /// The audio packets (headers dropped).
    var audio: ArraySlice<Start> { starts.dropFirst(headerPackets) }
}
