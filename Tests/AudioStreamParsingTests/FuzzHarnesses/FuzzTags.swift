#if !FUZZ_SINGLE_MODULE
@testable import AudioStreamParsing
#endif

/// The tag-reader harnesses: the input is the tag (or chunk body) itself, decoded by the reader's
/// entry point. Checks: no trap; artwork kept is at most `maxArtworkBytes`; every string is touched.
enum FuzzTags {
    static var limits: ParserLimits { FuzzHarness.limits }

    /// Touches every value and checks what the limits promise.
    static func check(_ metadata: AudioMetadata?, _ what: String) throws {
        guard let metadata else { return }
        var n = 0
        for (k, v) in metadata.info { n &+= k.rawValue.utf8.count &+ v.utf8.count }
        for t in metadata.tags { n &+= t.key.utf8.count &+ t.value.utf8.count &+ t.source.utf8.count }
        for c in metadata.chapters {
            n &+= c.title.utf8.count
            try FuzzHarness.check(!c.startSeconds.isNaN, "\(what): chapter start is NaN")
        }
        for a in metadata.artwork {
            n &+= a.mimeType.utf8.count
            try FuzzHarness.check(
                a.data.count <= limits.maxArtworkBytes,
                "\(what): artwork of \(a.data.count) bytes above maxArtworkBytes")
        }
        _ = n
    }

    /// ID3v2: the whole-tag reader, the consecutive-tags reader, and the streaming reader through the
    /// facade (an MPEG stream after the tag, as `FuzzMPEG` runs it).
    static func id3v2(_ input: [UInt8]) throws {
        try check(ID3v2Tag.parse(input, limits: limits)?.metadata, "ID3v2Tag.parse")
        for tag in ID3v2Tag.parseConsecutive(input, limits: limits) { try check(tag.metadata, "parseConsecutive") }
        if let entries = ID3v2TagReader.read(input) {
            var metadata = AudioMetadata()
            ID3v2TagReader.merge(entries, into: &metadata)
            try check(metadata, "ID3v2TagReader")
        }
        _ = ID3v2Tag.removeUnsynchronisation(input[...])
        try FuzzFormat.run(input, only: [.mp3, .mp2, .mp1])
    }

    /// ID3v1 (and the trailing-tag locator over the same bytes).
    static func id3v1(_ input: [UInt8]) throws {
        if let tag = ID3v1Tag.parse(input) { try check(tag.metadata, "ID3v1Tag") }
        if input.count >= 128, let tag = ID3v1Tag.parse(input[(input.count - 128)...]) {
            try check(tag.metadata, "ID3v1Tag (last 128 bytes)")
        }
        try trailing(input)
    }

    /// APEv2 (the whole tag, header or footer first) and the trailing-tag locator.
    static func apev2(_ input: [UInt8]) throws {
        if let tag = APEv2Tag.parse(input, limits: limits) { try check(tag.metadata, "APEv2Tag") }
        _ = APEv2Tag.Header.decode(input)
        try trailing(input)
    }

    /// `TrailingTagLocator.locate`: every range it finds ends within the bytes and starts at or after
    /// the layout's start (a negative lower bound is allowed: the tag began before the bytes held), and
    /// each tag held whole goes through its reader.
    static func trailing(_ input: [UInt8]) throws {
        let layout = TrailingTagLocator.locate(in: input)
        try FuzzHarness.check(layout.start <= input.count, "trailing tags start \(layout.start) after the input")
        for (name, range) in [
            ("id3v1", layout.id3v1), ("lyrics3", layout.lyrics3), ("ape", layout.ape), ("id3v2", layout.id3v2),
        ] {
            guard let range else { continue }
            try FuzzHarness.check(
                range.lowerBound >= layout.start && range.upperBound <= input.count,
                "trailing \(name) range \(range) outside \(layout.start)..<\(input.count)")
        }
        func held(_ r: Range<Int>?) -> ArraySlice<UInt8>? {
            guard let r, r.lowerBound >= 0 else { return nil }
            return input[r]
        }
        if let b = held(layout.ape), let tag = APEv2Tag.parse(b, limits: limits) { try check(tag.metadata, "APE") }
        if let b = held(layout.id3v1), let tag = ID3v1Tag.parse(b) { try check(tag.metadata, "ID3v1") }
        if let b = held(layout.id3v2), let tag = ID3v2Tag.parse(b, limits: limits) { try check(tag.metadata, "ID3v2") }
    }

    /// Vorbis comment: the first byte chooses the framing (Vorbis header packet, OpusTags, FLAC
    /// block body); the rest is the packet or body. Also the base64 decoder of embedded pictures.
    static func vorbisComment(_ input: [UInt8]) throws {
        guard let first = input.first else { return }
        let framings: [VorbisComment.Framing] = [.vorbisHeader, .opusTags, .flacBlock]
        let body = input[1...]
        if let comment = try? VorbisComment.decode(body, framing: framings[Int(first) % 3], limits: limits) {
            try check(comment.metadata, "VorbisComment")
        }
        if let decoded = Base64.decode(body, maxDecodedBytes: 4096) {
            try FuzzHarness.check(decoded.count <= 4096, "Base64 decoded \(decoded.count) bytes above its cap")
        }
    }

    /// iTunes `meta`/`ilst` item list, Nero chapters, the iTunSMPB gapless string.
    static func mp4ItemList(_ input: [UInt8]) throws {
        let decoded = MP4ItemList.decode(meta: input[...], limits: limits)
        try check(decoded.metadata, "MP4ItemList")
        if let chapters = try? MP4Chapters.decodeNero(chpl: input[...]) {
            try check(AudioMetadata(chapters: chapters), "chpl")
        }
        _ = MP4Chapters.decodeTextSample(input[...])
        _ = MP4Gapless.fromITunSMPB(String(decoding: input.prefix(256), as: UTF8.self))
    }

    /// FLAC PICTURE block body (also METADATA_BLOCK_PICTURE once base64-decoded).
    static func flacPicture(_ input: [UInt8]) throws {
        if case .success(let artwork) = FLACPicture.artwork(fromBlock: input[...], limits: limits) {
            try check(AudioMetadata(artwork: [artwork]), "FLACPicture")
        }
    }

    /// The text chunks of the chunked containers: the first byte chooses the reader, the rest is the
    /// chunk body.
    static func chunkText(_ input: [UInt8]) throws {
        guard let first = input.first else { return }
        let body = Array(input[1...])
        var metadata = AudioMetadata()
        switch first % 8 {
        case 0: _ = RIFFInfoList.read(body, endianness: first & 0x80 != 0 ? .big : .little, into: &metadata)
        case 1: _ = BroadcastExtensionChunk.read(body, endianness: first & 0x80 != 0 ? .big : .little, into: &metadata)
        case 2: AIFFText.readTextChunk(body, id: FourCharCode.value("NAME"), infoKey: InfoKey.title, into: &metadata)
        case 3: _ = AIFFText.readCommentsChunk(body, into: &metadata)
        case 4: if let contents = InformationChunk.decode(body) { InformationChunk.add(contents, to: &metadata) }
        case 5: metadata = NeXTAnnotation.metadata(body) ?? metadata
        case 6: _ = ChannelLayoutChunk.decode(body)
        default: _ = ICYMetadata(parsing: body)
        }
        try check(metadata, "chunk text reader \(first % 8)")
    }

    /// The ICY (Shoutcast) metadata demuxer: the first two bytes give `metaint`; the rest is demuxed
    /// whole and in small chunks, which must give the same audio bytes and metadata.
    static func icy(_ input: [UInt8]) throws {
        guard input.count >= 2 else { return }
        let interval = 1 + (Int(input[0]) << 8 | Int(input[1])) % 2048
        let stream = Array(input[2...])
        func demux(_ sizes: [Int]) -> (audio: [UInt8], metadata: [String]) {
            var demuxer = ICYMetadataDemuxer(metaInterval: interval)
            var audio: [UInt8] = []
            var metadata: [String] = []
            var offset = 0
            var i = 0
            while offset < stream.count {
                let end = min(stream.count, offset + sizes[i % sizes.count])
                let chunk = Array(stream[offset..<end])
                for segment in demuxer.demux(chunk) {
                    switch segment {
                    case .audio(let r): audio += chunk[r]
                    case .metadata(let m, let at): metadata.append("\(at): \(m)")
                    }
                }
                offset = end
                i += 1
            }
            return (audio, metadata)
        }
        let whole = demux([stream.count])
        let chunked = demux([1, 0, 7, 3, 64, 2])
        try FuzzHarness.check(whole.audio == chunked.audio, "ICY: chunking changed the audio bytes")
        try FuzzHarness.check(whole.metadata == chunked.metadata, "ICY: chunking changed the metadata")
    }
}
