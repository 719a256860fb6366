import AudioStreamTestSupport
import COgg

/// What libogg (the reference Ogg framing implementation) makes of a byte stream: its pages, through
/// `ogg_sync_pageseek` (which also says how many bytes it skipped while resynchronising), and each logical
/// stream's packets, through `ogg_stream_pagein`/`ogg_stream_packetout`.
struct LiboggPage: Equatable, CustomStringConvertible {
    var offset: Int64
    var size: Int
    var serial: UInt32
    var sequence: UInt32
    var granule: Int64
    var isBeginning: Bool
    var isEnd: Bool
    var isContinued: Bool
    /// The first bytes of the body (to recognise a codec on a beginning-of-stream page).
    var head: [UInt8]

    var description: String {
        "page @\(offset)+\(size) serial \(serial) seq \(sequence) granule \(granule)"
            + (isBeginning ? " BOS" : "") + (isEnd ? " EOS" : "") + (isContinued ? " cont" : "")
    }
}

enum Libogg {
    /// Feeds `bytes` to an `ogg_sync_state` cut by `chunking`: every page, and the packets of every
    /// logical stream (each packet's bytes, holes skipped as `ogg_stream_packetout` reports them).
    static func read(_ bytes: [UInt8], chunking: Chunking = .whole) -> (
        pages: [LiboggPage], packets: [UInt32: [[UInt8]]]
    ) {
        var sync = ogg_sync_state()
        ogg_sync_init(&sync)
        defer { ogg_sync_clear(&sync) }
        var streams: [UInt32: ogg_stream_state] = [:]
        defer {
            for key in streams.keys { ogg_stream_clear(&streams[key]!) }
        }
        var pages: [LiboggPage] = []
        var packets: [UInt32: [[UInt8]]] = [:]
        var offset: Int64 = 0
        for range in chunking.ranges(count: bytes.count) where !range.isEmpty {
            guard let buffer = ogg_sync_buffer(&sync, range.count) else { break }
            bytes[range].withUnsafeBufferPointer { source in
                UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: range.count)
            }
            ogg_sync_wrote(&sync, range.count)
            var page = ogg_page()
            while true {
                let result = ogg_sync_pageseek(&sync, &page)
                if result == 0 { break }
                if result < 0 {
                    offset += Int64(-result)
                    continue
                }
                let serial = UInt32(bitPattern: ogg_page_serialno(&page))
                let body = UnsafeRawBufferPointer(start: page.body, count: page.body_len)
                pages.append(
                    LiboggPage(
                        offset: offset, size: Int(result), serial: serial,
                        sequence: UInt32(truncatingIfNeeded: ogg_page_pageno(&page)),
                        granule: ogg_page_granulepos(&page), isBeginning: ogg_page_bos(&page) != 0,
                        isEnd: ogg_page_eos(&page) != 0, isContinued: ogg_page_continued(&page) != 0,
                        head: Array(body.prefix(16))))
                offset += Int64(result)
                if streams[serial] == nil {
                    var state = ogg_stream_state()
                    ogg_stream_init(&state, Int32(bitPattern: serial))
                    streams[serial] = state
                }
                _ = ogg_stream_pagein(&streams[serial]!, &page)
                var packet = ogg_packet()
                while true {
                    let r = ogg_stream_packetout(&streams[serial]!, &packet)
                    if r == 0 { break }
                    if r < 0 { continue }  // A hole: pages were lost.
                    packets[serial, default: []].append(
                        Array(UnsafeRawBufferPointer(start: packet.packet, count: Int(packet.bytes))))
                }
            }
        }
        return (pages, packets)
    }

    /// The packets our parser must deliver with the default selection: for each group of
    /// beginning-of-stream pages (a link of a chain), the first Vorbis, Opus or FLAC stream's packets
    /// after its header packets, empty packets left out.
    static func expectedAudioPackets(_ bytes: [UInt8], selecting pick: (_ group: [LiboggPage]) -> UInt32? = firstAudio)
        -> [[UInt8]]
    {
        let (pages, packets) = read(bytes)
        var groups: [[LiboggPage]] = []
        var previousWasBeginning = false
        for page in pages {
            if page.isBeginning {
                if !previousWasBeginning { groups.append([]) }
                groups[groups.count - 1].append(page)
            }
            previousWasBeginning = page.isBeginning
        }
        var out: [[UInt8]] = []
        var used: [UInt32: Int] = [:]
        for group in groups {
            guard let serial = pick(group), let bos = group.first(where: { $0.serial == serial }) else { continue }
            let all = packets[serial] ?? []
            // A serial that appears in two links (the same file concatenated twice): take its packets in turn.
            let start = used[serial] ?? 0
            let headers = headerCount(bos.head)
            var index = start + headers
            var taken = 0
            while index < all.count {
                // The next link of the same serial begins with an identification header again.
                if taken > 0, Codec(all[index]) != nil { break }
                if !all[index].isEmpty { out.append(all[index]) }
                index += 1
                taken += 1
            }
            used[serial] = index
        }
        return out
    }

    static func firstAudio(_ group: [LiboggPage]) -> UInt32? {
        group.first { Codec($0.head) != nil }?.serial
    }

    enum Codec {
        case vorbis, opus, flac
        init?(_ head: [UInt8]) {
            if head.starts(with: Array("OpusHead".utf8)) {
                self = .opus
            } else if head.starts(with: [1] + Array("vorbis".utf8)) {
                self = .vorbis
            } else if head.starts(with: [0x7F] + Array("FLAC".utf8)) {
                self = .flac
            } else {
                return nil
            }
        }
    }

    /// Header packets of a mapping: Vorbis 3 (Vorbis I §4.2), Opus 2 (RFC 7845 §3), FLAC 1 + the count in
    /// the mapping header's bytes 7-8.
    static func headerCount(_ head: [UInt8]) -> Int {
        switch Codec(head) {
        case .vorbis: return 3
        case .opus: return 2
        case .flac: return head.count >= 9 ? 1 + Int(head[7]) << 8 + Int(head[8]) : 1
        case nil: return 0
        }
    }
}
