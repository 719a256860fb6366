import AudioStreamTestSupport
import Foundation
import Testing

@testable import AudioStreamParsing

/// The oddities the tag readers find reach the stream's diagnostics with the kind the reader gave
/// them, whichever container carries the tag: a leading ID3v2 tag and one cut by the end of an MPEG
/// stream (the streaming ID3v2 reader), ID3v2 in WAVE and AIFF `id3 ` chunks (the in-memory reader),
/// Vorbis comments in FLAC and Ogg Opus, a FLAC PICTURE block. Every damaged tag is laid out here
/// from its specification (ID3v2.3/2.4, RFC 9639 §8.6/§8.8, RFC 7845 §5.2); the audio around it is
/// a committed fixture or a hand-built stream.
@Suite("Tag diagnostics keep their kinds")
struct TagDiagnosticKindTests {
    typealias B = TagBytes

    /// Kind and message of every diagnostic, in order.
    static func notes(_ log: EventLog) -> [DiagnosticNote] {
        log.diagnostics.map { DiagnosticNote($0.kind, $0.message) }
    }

    /// A 2.3 tag with a text frame of an undefined encoding (7; §4.2 defines 0 and 1) and a frame
    /// whose compression flag (§3.3.1 format flags, 0x80) is set.
    static let damagedID3v23 = B.tag(
        3,
        B.frame23("TIT2", B.text(7, B.latin1("?"))) + B.frame23("TPE1", B.be32(10) + [0x78, 0x9C], format: 0x80)
            + B.frame23("TALB", B.latin1Text("Kept")))
    static let damagedID3v23Notes = [
        DiagnosticNote(.damagedMetadata, "id3v2 (TIT2): unknown text encoding 7; frame ignored"),
        DiagnosticNote(
            .unsupportedFeature, "id3v2 (TPE1): compressed (zlib) frame of 6 bytes kept raw (hex), not decoded"),
    ]

    @Test("a leading ID3v2 tag (MPEG): damaged and compressed frames, in every chunking")
    func leadingID3v2() throws {
        let audio = try MPEGFixtures.bytes("mpeg/mp3-16000-2ch-lame-lsf-notag.mp3")
        let (log, failures) = ChunkingVerifier.verify(Self.damagedID3v23 + audio)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil)
        #expect(Self.notes(log) == Self.damagedID3v23Notes)
    }

    @Test("an MPEG stream that ends inside an ID3v2 tag between frames: truncated")
    func streamEndsInsideID3v2() throws {
        let audio = try MPEGFixtures.bytes("mpeg/mp3-16000-2ch-lame-lsf-notag.mp3")
        let tag = B.tag(4, B.frame24("TIT2", B.latin1Text("Kept")) + B.frame24("TPE1", B.latin1Text("Lost")))
        let (log, failures) = ChunkingVerifier.verify(audio + tag.dropLast(2))
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil)
        // Read when the stream ends: the header (10) and TIT2 (10 + 5); TPE1 is cut.
        #expect(
            Self.notes(log) == [
                DiagnosticNote(.truncated, "id3v2: stream ends 25 bytes into a tag of \(tag.count) bytes")
            ])
    }

    @Test("ID3v2 in a WAVE id3 chunk: the reader's kinds, at the chunk")
    func waveID3Chunk() throws {
        let W = WAVEBuilder.self
        let bytes = W.file([
            W.chunk("fmt ", W.format(channels: 1, rate: 8000, bits: 16)), W.chunk("data", [0, 0, 1, 0]),
            W.chunk("id3 ", Self.damagedID3v23),
        ])
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(Self.notes(log) == Self.damagedID3v23Notes)
        // At the id3 chunk's body: RIFF header 12, fmt 8 + 16, data 8 + 4, id3 header 8.
        #expect(log.diagnostics.map(\.byteOffset) == [56, 56])
    }

    @Test("ID3v2 in an AIFF id3 chunk: a picture over maxArtworkBytes is limitExceeded, an overrun damagedMetadata")
    func aiffID3Chunk() throws {
        let A = AIFFTestBuilder.self
        let tag = B.tag(
            3,
            B.frame23("APIC", B.apic(mime: "image/jpeg", type: 3, B.jpeg(3000))) + B.frame23("TIT2", B.latin1Text("T"))
                + B.frame23("TPE1", B.latin1Text("B"), size: 500))
        let bytes = A.form([
            A.chunk("COMM", A.comm(channels: 1, frames: 1, bits: 16)), A.chunk("SSND", A.ssnd([0, 1])),
            A.chunk("id3 ", tag),
        ])
        let options = ParserOptions(limits: ParserLimits(maxArtworkBytes: 1000))
        let (log, failures) = ChunkingVerifier.verify(bytes, options: options)
        #expect(failures.isEmpty, "\(failures)")
        #expect(
            Self.notes(log) == [
                DiagnosticNote(
                    .limitExceeded, "id3v2 (APIC): picture of 3000 bytes exceeds maxArtworkBytes (1000); skipped"),
                DiagnosticNote(
                    .damagedMetadata,
                    "id3v2 (TPE1): frame of 500 bytes overruns the tag (2 left); the rest of the tag is ignored"),
            ])
    }

    /// `bytes` (a FLAC stream) with `blocks` (type, body) inserted after STREAMINFO (RFC 9639 §8.1:
    /// header byte with the last-block flag 0x80 and the type, 24-bit big-endian length). The last
    /// flag moves from STREAMINFO to the last inserted block when STREAMINFO had it.
    static func flac(_ bytes: [UInt8], inserting blocks: [(type: UInt8, body: [UInt8])]) -> [UInt8] {
        let streamInfoEnd = 4 + 4 + 34
        let wasLast = bytes[4] & 0x80 != 0
        var out = Array(bytes[0..<streamInfoEnd])
        out[4] &= 0x7F
        for (i, block) in blocks.enumerated() {
            let last: UInt8 = wasLast && i == blocks.count - 1 ? 0x80 : 0
            let n = block.body.count
            out += [last | block.type, UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + block.body
        }
        return out + bytes[streamInfoEnd...]
    }

    @Test("FLAC: a VORBIS_COMMENT field without '=' is damagedMetadata, a PICTURE link unsupportedFeature")
    func flacCommentAndPicture() throws {
        let audio = try FixtureCatalog.fixture("flac/flac-44100-2ch-s16.flac").bytes()
        let comments = VorbisCommentTests.list(["TITLE=T", "NOEQUALS"])
        let link = VorbisCommentTests.pictureBlock(mime: "-->", data: Array("http://example.org/c.png".utf8))
        let bytes = Self.flac(audio, inserting: [(4, comments), (6, link)])
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil)
        #expect(
            Self.notes(log) == [
                DiagnosticNote(.damagedMetadata, "flac (VORBIS_COMMENT): comment 2 has no '='; skipped"),
                DiagnosticNote(.unsupportedFeature, "flac (PICTURE): picture is a link (MIME type -->); skipped"),
            ])
    }

    @Test("Ogg Opus: a METADATA_BLOCK_PICTURE link in OpusTags is unsupportedFeature, an overrun damagedMetadata")
    func oggOpusTags() throws {
        let link = VorbisCommentTests.pictureBlock(mime: "-->", data: Array("http://example.org/c.png".utf8))
        var list = VorbisCommentTests.list(["METADATA_BLOCK_PICTURE=" + VorbisCommentTests.base64(link), "A=b"])
        list.removeLast(1)  // the second comment overruns the packet
        let tags = Array("OpusTags".utf8) + list
        let O = OggTests.self
        let audio = O.opusPacket(20, fill: 1)
        let bytes =
            O.page(type: 2, granule: 0, sequence: 0, lacing: O.lacing(O.opusHead.count), body: O.opusHead)
            + O.page(type: 0, granule: 0, sequence: 1, lacing: O.lacing(tags.count), body: tags)
            + O.page(type: 4, granule: 312 + 960, sequence: 2, lacing: O.lacing(audio.count), body: audio)
        let (log, failures) = ChunkingVerifier.verify(bytes)
        #expect(failures.isEmpty, "\(failures)")
        #expect(log.error == nil)
        #expect(
            Self.notes(log).filter { $0.message.hasPrefix("opus (OpusTags)") } == [
                // The block's own notes first, then the fields'.
                DiagnosticNote(
                    .damagedMetadata, "opus (OpusTags): comment 2 of 3 bytes overruns the block; the rest is ignored"),
                DiagnosticNote(
                    .unsupportedFeature,
                    "opus (OpusTags): METADATA_BLOCK_PICTURE (comment 1): flac (PICTURE): picture is a link "
                        + "(MIME type -->); skipped"),
            ])
    }

    @Test("no diagnostic of any fixture, well-formed or malformed, has kind other")
    func noOtherKind() throws {
        let malformed = FixtureCatalog.malformed.map { Fixture(path: $0.file, root: FixtureCatalog.malformedRoot) }
        var diagnosed = 0
        for fixture in FixtureCatalog.mediaFiles + malformed {
            let log = ParseRunner.run(try fixture.bytes(), chunking: .whole)
            #expect(!log.diagnostics.contains { $0.kind == .other }, "\(fixture.path): \(log.diagnostics)")
            diagnosed += log.diagnostics.count
        }
        #expect(diagnosed > 100)
    }
}
