import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// Vorbis comments in their three framings: real Vorbis comment headers and OpusTags packets
/// from the committed Ogg fixtures and VORBIS_COMMENT blocks of FLAC fixtures (checked against
/// ffprobe's tags), and hand-built blocks laid out from Vorbis I §5.2.1.
@Suite("Vorbis comments")
struct VorbisCommentTests {
    // MARK: Real blocks against ffprobe's tags

    /// Every comment block in the fixtures: (fixture, framing, bytes, ffprobe's tags for it).
    static func realBlocks() throws -> [(Fixture, VorbisComment.Framing, [UInt8], [String: String]?)] {
        var out: [(Fixture, VorbisComment.Framing, [UInt8], [String: String]?)] = []
        for fixture in XiphTestPackets.fixtures(in: "ogg", extensions: ["ogg", "oga", "opus"]) {
            let streams = XiphTestPackets.oggStreams(try fixture.bytes())
            // ffprobe's stream tags are those of the one stream of a single-stream file.
            let tags = streams.count == 1 ? try oracleTags(fixture, stream: true) : nil
            for (_, packets) in streams where packets.count > 1 {
                let first = packets[0].bytes
                if first.starts(with: [0x01] + Array("vorbis".utf8)) {
                    out.append((fixture, .vorbisHeader, packets[1].bytes, tags))
                } else if first.starts(with: Array("OpusHead".utf8)) {
                    out.append((fixture, .opusTags, packets[1].bytes, tags))
                } else if first.starts(with: [0x7F] + Array("FLAC".utf8)),
                    let block = packets.dropFirst().first(where: { $0.bytes.first.map { $0 & 0x7F == 4 } ?? false })
                {
                    out.append((fixture, .flacBlock, Array(block.bytes.dropFirst(4)), tags))
                }
            }
        }
        for fixture in XiphTestPackets.fixtures(in: "flac", extensions: ["flac"]) {
            let bytes = try fixture.bytes()
            // Behind an ID3v2 tag, ffprobe's format tags are the ID3v2 tag's, not the comment block's.
            let tags = bytes.starts(with: Array("ID3".utf8)) ? nil : try oracleTags(fixture, stream: false)
            for block in XiphTestPackets.flacMetadataBlocks(bytes) where block.type == 4 {
                out.append((fixture, .flacBlock, block.body, tags))
            }
        }
        return out
    }

    /// ffprobe's tags: the stream's (Ogg) or the format's (native FLAC).
    static func oracleTags(_ fixture: Fixture, stream: Bool) throws -> [String: String]? {
        let oracle = try fixture.oracle()
        guard stream else { return oracle.formatTags }
        guard case .object(let tags)? = oracle.stream?.fields["tags"] else { return [:] }
        return tags.compactMapValues(\.string)
    }

    /// FFmpeg's `ff_vorbiscomment_metadata_conv`: field names it renames.
    static let ffmpegNames = [
        "ALBUMARTIST": "ALBUM_ARTIST", "TRACKNUMBER": "TRACK", "DISCNUMBER": "DISC",
        "DESCRIPTION": "COMMENT",
    ]

    @Test("real comment blocks exist in the fixtures")
    func realBlocksExist() throws {
        #expect(try !Self.realBlocks().isEmpty)
    }

    @Test("raw tags equal ffprobe's tags (names case-insensitive, repeated values joined with ';')")
    func rawTagsMatchFFprobe() throws {
        var compared = 0
        for (fixture, framing, bytes, tags) in try Self.realBlocks() {
            let comment = try VorbisComment.decode(bytes[...], framing: framing)
            #expect(comment.notes.isEmpty, "\(fixture): \(comment.notes)")
            #expect(!comment.vendor.isEmpty)
            guard let tags else { continue }
            // FFmpeg turns CHAPTERxxx into chapters and pictures into streams; the rest are tags.
            var ours: [String: [String]] = [:]
            // FFmpeg's FLAC demuxer turns WAVEFORMATEXTENSIBLE_CHANNEL_MASK into the channel layout.
            for tag in comment.metadata.tags
            where !tag.key.uppercased().hasPrefix("CHAPTER")
                && tag.key.uppercased() != "WAVEFORMATEXTENSIBLE_CHANNEL_MASK"
            {
                #expect(tag.source == "vorbis")
                let name = Self.ffmpegNames[tag.key.uppercased()] ?? tag.key.uppercased()
                ours[name, default: []].append(tag.value)
            }
            let theirs = Dictionary(uniqueKeysWithValues: tags.map { ($0.key.uppercased(), $0.value) })
            #expect(ours.mapValues { $0.joined(separator: ";") } == theirs, "\(fixture)")
            compared += 1
        }
        #expect(compared > 0)
    }

    @Test("every truncation of a real comment block gives a result or a typed error")
    func truncations() throws {
        for (_, framing, bytes, _) in try Self.realBlocks().prefix(6) {
            // Every length of small blocks; about 3000 spread lengths of big ones (debug builds are slow).
            let step = max(1, bytes.count / 3000)
            for length in stride(from: 0, to: bytes.count, by: step) {
                do {
                    let comment = try VorbisComment.decode(bytes[..<length], framing: framing)
                    if framing != .flacBlock || length < bytes.count {
                        #expect(!comment.notes.isEmpty || comment.declaredCount == 0 || framing == .opusTags)
                    }
                } catch {
                    #expect(error.code == .invalidFile)
                }
            }
        }
    }

    // MARK: Hand-built blocks (§5.2.1)

    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// A comment list: vendor, count, each field.
    static func list(vendor: String = "test vendor", _ fields: [String], count: Int? = nil) -> [UInt8] {
        var out = le32(vendor.utf8.count) + Array(vendor.utf8) + le32(count ?? fields.count)
        for field in fields { out += le32(field.utf8.count) + Array(field.utf8) }
        return out
    }

    static func vorbisHeader(_ fields: [String]) -> [UInt8] {
        [0x03] + Array("vorbis".utf8) + list(fields) + [0x01]
    }

    @Test("the three framings decode the same list")
    func framings() throws {
        let fields = ["TITLE=Song", "artist=Someone"]
        let vorbis = try VorbisComment.decode(Self.vorbisHeader(fields)[...], framing: .vorbisHeader)
        let opus = try VorbisComment.decode(
            (Array("OpusTags".utf8) + Self.list(fields) + [0x00, 0xAA])[...], framing: .opusTags)
        let flac = try VorbisComment.decode(Self.list(fields)[...], framing: .flacBlock)
        for comment in [vorbis, opus, flac] {
            #expect(comment.vendor == "test vendor")
            #expect(comment.metadata.info[InfoKey.title] == "Song")
            #expect(comment.metadata.info[InfoKey.artist] == "Someone")
            #expect(comment.metadata.tags.map(\.key) == ["TITLE", "artist"])
            #expect(comment.notes.isEmpty)
        }
        #expect(throws: StructureError.self) { try VorbisComment.decode(Self.list(fields)[...], framing: .opusTags) }
        #expect(throws: StructureError.self) {
            try VorbisComment.decode(Self.vorbisHeader(fields)[...], framing: .opusTags)
        }
    }

    @Test("info keys from field names, case-insensitive; the first value wins, repeats stay raw tags")
    func infoKeys() throws {
        let comment = try VorbisComment.decode(
            Self.list([
                "Title=T", "ARTIST=A1", "artist=A2", "ALBUM=Al", "DATE=2019-03-04", "GENRE=Jazz", "TRACKNUMBER=4",
                "TRACKTOTAL=11", "DESCRIPTION=d", "COMPOSER=C", "COPYRIGHT=(c)", "ISRC=USRC17607839",
                "ENCODER=enc", "LYRICIST=L", "BPM=120", "ALBUMARTIST=AA",
            ])[...], framing: .flacBlock)
        let info = comment.metadata.info
        #expect(info[InfoKey.title] == "T")
        #expect(info[InfoKey.artist] == "A1")
        #expect(info[InfoKey.album] == "Al")
        #expect(info[InfoKey.year] == "2019")
        #expect(info[InfoKey.recordedDate] == "2019-03-04")
        #expect(info[InfoKey.genre] == "Jazz")
        #expect(info[InfoKey.trackNumber] == "4/11")
        #expect(info[InfoKey.comments] == "d")
        #expect(info[InfoKey.composer] == "C")
        #expect(info[InfoKey.copyright] == "(c)")
        #expect(info[InfoKey.isrc] == "USRC17607839")
        #expect(info[InfoKey.encodingApplication] == "enc")
        #expect(info[InfoKey.lyricist] == "L")
        #expect(info[InfoKey.tempo] == "120")
        #expect(comment.metadata.tags.count == 16)
        #expect(comment.metadata.tags.filter { $0.key.uppercased() == "ARTIST" }.map(\.value) == ["A1", "A2"])
    }

    @Test("the vendor string is the encoding application when no ENCODER field says otherwise")
    func vendorAsEncodingApplication() throws {
        let comment = try VorbisComment.decode(
            Self.list(vendor: "Xiph.Org libVorbis I 20200704", [])[...], framing: .flacBlock)
        #expect(comment.metadata.info == [InfoKey.encodingApplication: "Xiph.Org libVorbis I 20200704"])
        #expect(comment.metadata.tags.isEmpty)
    }

    @Test("a track number with its own total is kept as written")
    func trackNumberWithTotal() throws {
        let comment = try VorbisComment.decode(
            Self.list(["TRACKNUMBER=2/9", "TOTALTRACKS=10"])[...], framing: .flacBlock)
        #expect(comment.metadata.info[InfoKey.trackNumber] == "2/9")
    }

    @Test("CHAPTERnnn and CHAPTERnnnNAME become chapters, ends at the next start")
    func chapters() throws {
        let comment = try VorbisComment.decode(
            Self.list([
                "CHAPTER002=00:01:30.250", "CHAPTER001=00:00:00.000", "CHAPTER001NAME=Intro", "CHAPTER002NAME=Verse",
                "CHAPTER003=01:00:00", "CHAPTER004=bad", "CHAPTER001URL=http://x",
            ])[...], framing: .flacBlock)
        let chapters = comment.metadata.chapters
        #expect(chapters.map(\.title) == ["Intro", "Verse", "Chapter 3"])
        #expect(chapters.map(\.startSeconds) == [0, 90.25, 3600])
        #expect(chapters.map(\.endSeconds) == [90.25, 3600, nil])
        #expect(comment.metadata.tags.count == 7)
        #expect(
            comment.notes == [
                DiagnosticNote(
                    .damagedMetadata, "flac (VORBIS_COMMENT): CHAPTER004 time 'bad' is not HH:MM:SS.fff; skipped")
            ])
        #expect(VorbisCommentMetadataBuilder.chapterTime("00:60:00") == nil)
        #expect(VorbisCommentMetadataBuilder.chapterTime("1:02:03.5") == 3723.5)
    }

    /// A FLAC PICTURE block laid out from RFC 9639 §8.8.
    static func pictureBlock(type: Int = 3, mime: String = "image/png", description: String = "cover", data: [UInt8])
        -> [UInt8]
    {
        func be(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return be(type) + be(mime.utf8.count) + Array(mime.utf8) + be(description.utf8.count) + Array(description.utf8)
            + be(16) + be(16) + be(24) + be(0) + be(data.count) + data
    }

    /// RFC 4648 base64, written here independently of the library's decoder.
    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    @Test("METADATA_BLOCK_PICTURE (base64 FLAC picture) becomes artwork, not a raw tag")
    func pictureField() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(0..<100)
        let field = "METADATA_BLOCK_PICTURE=" + Self.base64(Self.pictureBlock(data: png))
        let comment = try VorbisComment.decode(Self.list(["TITLE=x", field])[...], framing: .flacBlock)
        #expect(comment.metadata.artwork == [AudioMetadata.Artwork(mimeType: "image/png", pictureType: 3, data: png)])
        #expect(comment.metadata.tags.map(\.key) == ["TITLE"])
        #expect(comment.notes.isEmpty)
    }

    @Test("legacy COVERART with COVERARTMIME becomes artwork of type 0")
    func legacyCoverArt() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        let comment = try VorbisComment.decode(
            Self.list(["COVERART=" + Self.base64(jpeg), "COVERARTMIME=image/jpeg"])[...], framing: .flacBlock)
        #expect(comment.metadata.artwork == [AudioMetadata.Artwork(mimeType: "image/jpeg", pictureType: 0, data: jpeg)])
    }

    @Test("pictures over maxArtworkBytes and bad base64 are skipped with a diagnostic")
    func pictureLimits() throws {
        let block = Self.pictureBlock(data: [UInt8](repeating: 7, count: 5000))
        var limits = ParserLimits()
        limits.maxArtworkBytes = 1000
        let big = try VorbisComment.decode(
            Self.list(["METADATA_BLOCK_PICTURE=" + Self.base64(block)])[...], framing: .flacBlock, limits: limits)
        #expect(big.metadata.artwork.isEmpty && big.notes.map(\.kind) == [.limitExceeded])
        limits.maxTagBytes = 10
        let huge = try VorbisComment.decode(
            Self.list(["METADATA_BLOCK_PICTURE=" + Self.base64(block)])[...], framing: .flacBlock, limits: limits)
        #expect(huge.metadata.artwork.isEmpty && huge.notes.map(\.kind) == [.limitExceeded])
        let bad = try VorbisComment.decode(Self.list(["METADATA_BLOCK_PICTURE=ab$d"])[...], framing: .flacBlock)
        #expect(
            bad.metadata.artwork.isEmpty
                && bad.notes == [
                    DiagnosticNote(
                        .damagedMetadata, "flac (VORBIS_COMMENT): METADATA_BLOCK_PICTURE is not valid base64; skipped")
                ])
    }

    @Test("a METADATA_BLOCK_PICTURE that is a link (MIME type -->) is skipped as an unsupported feature")
    func pictureLink() throws {
        let link = Self.pictureBlock(mime: "-->", data: Array("http://example.org/cover.png".utf8))
        let comment = try VorbisComment.decode(
            Self.list(["METADATA_BLOCK_PICTURE=" + Self.base64(link)])[...], framing: .flacBlock)
        #expect(comment.metadata.artwork.isEmpty)
        #expect(comment.notes.map(\.kind) == [.unsupportedFeature])
        #expect(
            comment.notes.first?.message.hasPrefix("flac (VORBIS_COMMENT): METADATA_BLOCK_PICTURE (comment 1): ")
                == true)
    }

    @Test("text past maxTagBytes is skipped with a diagnostic, the fields before kept")
    func textLimit() throws {
        var limits = ParserLimits()
        limits.maxTagBytes = 11  // "12345" fits; "1234567" would make 12; the last alone is 14
        let comment = try VorbisComment.decode(
            Self.list(["A=12345", "B=1234567", "C=12345678901234"])[...], framing: .flacBlock, limits: limits)
        #expect(comment.metadata.tags.map(\.key) == ["A"])
        #expect(comment.notes.map(\.kind) == [.limitExceeded, .limitExceeded])
    }

    @Test("a comment overrunning the block ends the walk, keeping the ones before")
    func overrun() throws {
        var bytes = Self.list(["TITLE=ok", "ARTIST=cut"])
        bytes.removeLast(3)
        let comment = try VorbisComment.decode(bytes[...], framing: .flacBlock)
        #expect(comment.metadata.tags.map(\.key) == ["TITLE"])
        #expect(comment.notes.map(\.kind) == [.damagedMetadata])
    }

    @Test("a huge comment count is reported and the walk stays linear")
    func hugeCount() throws {
        let start = ContinuousClock.now
        let comment = try VorbisComment.decode(Self.list(["A=1"], count: Int(UInt32.max))[...], framing: .flacBlock)
        #expect(comment.metadata.tags.count == 1)
        #expect(comment.declaredCount == UInt32.max)
        #expect(comment.notes.map(\.kind) == [.damagedMetadata, .damagedMetadata])  // cannot fit; ends after 1
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test("structural errors throw: vendor overrun, missing count; fields without '=' are skipped")
    func structuralErrors() throws {
        #expect(throws: StructureError.self) {
            try VorbisComment.decode((Self.le32(100) + [1, 2])[...], framing: .flacBlock)
        }
        #expect(throws: StructureError.self) {
            try VorbisComment.decode((Self.le32(0) + [0])[...], framing: .flacBlock)
        }
        #expect(throws: StructureError.self) { try VorbisComment.decode([][...], framing: .flacBlock) }
        let noEquals = try VorbisComment.decode(Self.list(["NOEQUALS"])[...], framing: .flacBlock)
        #expect(
            noEquals.metadata.tags.isEmpty
                && noEquals.notes == [
                    DiagnosticNote(.damagedMetadata, "flac (VORBIS_COMMENT): comment 1 has no '='; skipped")
                ])
        var unframed = Self.vorbisHeader(["A=b"])
        unframed[unframed.count - 1] = 0
        #expect(
            try VorbisComment.decode(unframed[...], framing: .vorbisHeader).notes == [
                DiagnosticNote(.damagedMetadata, "vorbis (comment): framing bit is not set")
            ])
    }

    // MARK: Base64 (RFC 4648 §10 test vectors)

    @Test("base64 decodes the RFC 4648 test vectors and rejects bad input")
    func base64Vectors() {
        let vectors = [
            "": "", "Zg==": "f", "Zm8=": "fo", "Zm9v": "foo", "Zm9vYg==": "foob", "Zm9vYmE=": "fooba",
            "Zm9vYmFy": "foobar", "Zm9vYg": "foob", "Zm9v\r\nYmFy": "foobar",
        ]
        for (text, plain) in vectors {
            #expect(Base64.decode(Array(text.utf8), maxDecodedBytes: 100) == Array(plain.utf8), "\(text)")
        }
        for bad in ["Z", "Zm9vY", "Zm=9", "Zm9v====", "Zm9*", "Zg==Zg=="] {
            #expect(Base64.decode(Array(bad.utf8), maxDecodedBytes: 100) == nil, "\(bad)")
        }
        #expect(Base64.decode(Array("Zm9vYmFy".utf8), maxDecodedBytes: 5) == nil)
        #expect(Base64.decode(Array("Zm9vYmFy".utf8), maxDecodedBytes: 6) == Array("foobar".utf8))
        #expect(Base64.decode(Array("Zm9v".utf8), maxDecodedBytes: Int.min) == nil)
    }
}
