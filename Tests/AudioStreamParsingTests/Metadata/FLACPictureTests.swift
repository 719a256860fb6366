import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// FLAC PICTURE block bodies (RFC 9639 §8.8): hand-built ones, and every picture in the
/// committed fixtures (native FLAC PICTURE blocks, Vorbis comment / OpusTags
/// `METADATA_BLOCK_PICTURE` fields).
@Suite("FLAC pictures")
struct FLACPictureTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

    @Test("fields as laid out in RFC 9639 §8.8")
    func fields() throws {
        let block = VorbisCommentTests.pictureBlock(type: 4, mime: "image/png", description: "Zurück", data: Self.png)
        let picture = try FLACPicture.decode(block[...], limits: ParserLimits())
        #expect(picture.pictureType == 4)
        #expect(picture.mimeType == "image/png")
        #expect(picture.description == "Zurück")
        #expect(picture.width == 16 && picture.height == 16 && picture.depth == 24 && picture.colors == 0)
        #expect(Array(picture.data) == Self.png)
        #expect(picture.artwork == AudioMetadata.Artwork(mimeType: "image/png", pictureType: 4, data: Self.png))
    }

    @Test("an empty MIME type is sniffed from the data; image/jpg becomes image/jpeg")
    func mimeTypes() throws {
        let sniffed = try FLACPicture.decode(
            VorbisCommentTests.pictureBlock(mime: "", data: Self.png)[...], limits: ParserLimits())
        #expect(sniffed.artwork?.mimeType == "image/png")
        let jpg = try FLACPicture.decode(
            VorbisCommentTests.pictureBlock(mime: "image/jpg", data: [0xFF, 0xD8, 0xFF])[...], limits: ParserLimits())
        #expect(jpg.artwork?.mimeType == "image/jpeg")
    }

    @Test("a link (MIME type -->) is not artwork")
    func link() throws {
        let block = VorbisCommentTests.pictureBlock(mime: "-->", data: Array("http://example.com/a.png".utf8))
        #expect(try FLACPicture.decode(block[...], limits: ParserLimits()).isLink)
        guard case .failure(let error) = FLACPicture.artwork(fromBlock: block[...], limits: ParserLimits()) else {
            Issue.record("a link became artwork")
            return
        }
        #expect(error.reason.hasPrefix("flac (PICTURE): "))
    }

    @Test("data over maxArtworkBytes is refused with limitExceeded before it is read")
    func tooBig() throws {
        var limits = ParserLimits()
        limits.maxArtworkBytes = Self.png.count - 1
        let block = VorbisCommentTests.pictureBlock(data: Self.png)
        #expect {
            try FLACPicture.decode(block[...], limits: limits)
        } throws: { ($0 as? StructureError)?.code == .limitExceeded }
        // A declared length of 2^32 − 1 with a few bytes: refused, nothing allocated.
        var hostile = Array(block.dropLast(Self.png.count + 4))
        hostile += [0xFF, 0xFF, 0xFF, 0xFF, 1, 2]
        #expect(throws: StructureError.self) { try FLACPicture.decode(hostile[...], limits: ParserLimits()) }
    }

    @Test("every truncation is a typed error; non-ASCII MIME types are rejected")
    func truncations() throws {
        let block = VorbisCommentTests.pictureBlock(data: Self.png)
        for length in 0..<block.count {
            #expect {
                try FLACPicture.decode(block[..<length], limits: ParserLimits())
            } throws: { ($0 as? StructureError)?.code == .invalidFile }
        }
        let bad = VorbisCommentTests.pictureBlock(mime: "image/pñg", data: Self.png)
        #expect(throws: StructureError.self) { try FLACPicture.decode(bad[...], limits: ParserLimits()) }
    }

    @Test("every picture in the fixtures decodes to an image whose bytes match its MIME type")
    func fixturePictures() throws {
        var blocks: [(Fixture, [UInt8])] = []
        for fixture in XiphTestPackets.fixtures(in: "flac", extensions: ["flac"]) {
            for block in XiphTestPackets.flacMetadataBlocks(try fixture.bytes()) where block.type == 6 {
                blocks.append((fixture, block.body))
            }
        }
        var fromComments = 0
        for (fixture, framing, bytes, _) in try VorbisCommentTests.realBlocks() {
            let comment = try VorbisComment.decode(bytes[...], framing: framing)
            #expect(comment.notes.isEmpty, "\(fixture)")
            for art in comment.metadata.artwork {
                #expect(Self.signatureMatches(art), "\(fixture)")
                fromComments += 1
            }
        }
        for (fixture, body) in blocks {
            let picture = try FLACPicture.decode(body[...], limits: ParserLimits())
            let art = try #require(picture.artwork)
            #expect(Self.signatureMatches(art), "\(fixture)")
        }
        #expect(fromComments + blocks.count > 0)
    }

    static func signatureMatches(_ art: AudioMetadata.Artwork) -> Bool {
        switch art.mimeType {
        case "image/png": art.data.starts(with: [0x89, 0x50, 0x4E, 0x47])
        case "image/jpeg": art.data.starts(with: [0xFF, 0xD8, 0xFF])
        default: !art.data.isEmpty
        }
    }
}
