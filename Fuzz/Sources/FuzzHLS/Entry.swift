// The libFuzzer entry of the HLS playlist harness (`Fuzz/run-hls.sh`): AudioStreamHLS's playlist parser,
// attribute lists, variant choice, URI resolution and the packed-audio PRIV reader, compiled with the
// harness as one module (they import nothing; the session, which needs swift-crypto, is not in it).
// Invariants checked on every input that parses: the limits hold, sequence numbers count up by one,
// byte ranges do not overflow, every choice either picks a listed URI or fails with a typed error.

#if canImport(Glibc)
import Glibc
#endif

struct InvariantBroken: Error { var what: String }

func fuzzPlaylist(_ input: [UInt8]) throws {
    var limits = HLSLimits()
    limits.maxEntries = 2_000
    limits.maxLineBytes = 4_096
    _ = PackedAudioTimestamp.read(input)
    let playlist: HLSPlaylist
    do {
        playlist = try HLSPlaylistParser.parse(input, url: "http://h/a/b.m3u8?x", limits: limits)
    } catch {
        _ = error.description
        return
    }
    switch playlist {
    case .master(let master):
        guard master.variants.count + master.renditions.count <= limits.maxEntries else {
            throw InvariantBroken(what: "entries over the limit")
        }
        let choices: [HLSVariantChoice] = [
            .automatic(), .automatic(maxBandwidth: 100_000), .variant(index: 0), .variant(index: -1),
            .rendition(name: master.renditions.first?.name ?? "x"),
        ]
        for choice in choices {
            guard let selection = try? master.select(choice, url: "u") else { continue }
            let listed = master.variants.map(\.uri) + master.renditions.compactMap(\.uri)
            guard listed.contains(selection.uri) else { throw InvariantBroken(what: "selected an unlisted URI") }
            _ = HLSURL.resolve(selection.uri, against: "http://h/a/b.m3u8")
        }
    case .media(let media):
        guard media.segments.count <= limits.maxEntries else { throw InvariantBroken(what: "segments over the limit") }
        for (index, segment) in media.segments.enumerated() {
            guard segment.sequenceNumber == media.mediaSequence &+ Int64(index) else {
                throw InvariantBroken(what: "sequence numbers do not count up")
            }
            if let range = segment.byteRange {
                guard range.offset >= 0, range.length >= 0, !range.offset.addingReportingOverflow(range.length).overflow
                else { throw InvariantBroken(what: "byte range \(range)") }
            }
            if let iv = segment.key?.iv, iv.count != 16 { throw InvariantBroken(what: "IV of \(iv.count) bytes") }
            _ = HLSURL.resolve(segment.uri, against: "http://h/a/b.m3u8?x")
            _ = HLSURL.resolve(segment.uri, against: "/local/dir/p.m3u8")
        }
        _ = media.totalDuration
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    do {
        try fuzzPlaylist(input)
    } catch {
        var message = "FuzzHLSPlaylist: \(error)\n"
        message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        abort()
    }
    return 0
}
