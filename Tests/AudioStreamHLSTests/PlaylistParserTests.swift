import AudioStreamHLS
import Foundation
import Testing

/// The playlist parser on the examples of RFC 8216 section 8 (typed in by hand from the RFC; the expected
/// values are read off the RFC text) and on inputs that break its rules.
@Suite struct PlaylistParserTests {
    func parse(_ text: String, limits: HLSLimits = HLSLimits()) throws(HLSError) -> HLSPlaylist {
        try HLSPlaylistParser.parse(Array(text.utf8), url: "http://example.com/p.m3u8", limits: limits)
    }

    func media(_ text: String) throws -> HLSMediaPlaylist {
        guard case .media(let playlist) = try parse(text) else { throw HLSError.cannotSeek(reason: "not media") }
        return playlist
    }

    func master(_ text: String) throws -> HLSMasterPlaylist {
        guard case .master(let playlist) = try parse(text) else { throw HLSError.cannotSeek(reason: "not master") }
        return playlist
    }

    /// Section 8.1, Simple Media Playlist.
    @Test func simpleMediaPlaylist() throws {
        let p = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:3
            #EXTINF:9.009,
            http://media.example.com/first.ts
            #EXTINF:9.009,
            http://media.example.com/second.ts
            #EXTINF:3.003,
            http://media.example.com/third.ts
            #EXT-X-ENDLIST
            """)
        #expect(p.targetDuration == 10)
        #expect(p.version == 3)
        #expect(p.hasEndList && !p.isLive)
        #expect(p.segments.map(\.uri) == ["first", "second", "third"].map { "http://media.example.com/\($0).ts" })
        #expect(p.segments.map(\.duration) == [9.009, 9.009, 3.003])
        #expect(p.segments.map(\.sequenceNumber) == [0, 1, 2])
        #expect(abs(p.totalDuration - 21.021) < 1e-9)
    }

    /// Section 8.2, Live Media Playlist Using HTTPS (with CRLF line ends here).
    @Test func liveMediaPlaylist() throws {
        let p = try media(
            "#EXTM3U\r\n#EXT-X-VERSION:3\r\n#EXT-X-TARGETDURATION:8\r\n#EXT-X-MEDIA-SEQUENCE:2680\r\n\r\n"
                + "#EXTINF:7.975,\r\nhttps://priv.example.com/fileSequence2680.ts\r\n"
                + "#EXTINF:7.941,\r\nhttps://priv.example.com/fileSequence2681.ts\r\n"
                + "#EXTINF:7.975,\r\nhttps://priv.example.com/fileSequence2682.ts\r\n")
        #expect(p.isLive)
        #expect(p.mediaSequence == 2680)
        #expect(p.segments.map(\.sequenceNumber) == [2680, 2681, 2682])
        #expect(p.segments[1].uri == "https://priv.example.com/fileSequence2681.ts")
    }

    /// Section 8.3, Media Playlist with Encrypted Media Segments.
    @Test func encryptedMediaPlaylist() throws {
        let p = try media(
            """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-MEDIA-SEQUENCE:7794
            #EXT-X-TARGETDURATION:15

            #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=52"

            #EXTINF:2.833,
            http://media.example.com/fileSequence52-A.ts
            #EXTINF:15.0,
            http://media.example.com/fileSequence52-B.ts
            #EXTINF:13.333,
            http://media.example.com/fileSequence52-C.ts

            #EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=53"

            #EXTINF:15.0,
            http://media.example.com/fileSequence53-A.ts
            """)
        #expect(p.segments.count == 4)
        #expect(p.segments.map(\.sequenceNumber) == [7794, 7795, 7796, 7797])
        #expect(p.segments[0].key == HLSKey(method: "AES-128", uri: "https://priv.example.com/key.php?r=52"))
        #expect(p.segments[2].key?.uri == "https://priv.example.com/key.php?r=52")
        #expect(p.segments[3].key?.uri == "https://priv.example.com/key.php?r=53")
        #expect(p.segments[0].key?.iv == nil)
    }

    /// Section 8.4, Master Playlist.
    @Test func masterPlaylist() throws {
        let p = try master(
            """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000
            http://example.com/low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2560000,AVERAGE-BANDWIDTH=2000000
            http://example.com/mid.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=7680000,AVERAGE-BANDWIDTH=6000000
            http://example.com/hi.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5"
            http://example.com/audio-only.m3u8
            """)
        #expect(p.variants.map(\.bandwidth) == [1_280_000, 2_560_000, 7_680_000, 65000])
        #expect(p.variants[1].averageBandwidth == 2_000_000)
        #expect(p.variants[3].codecs == ["mp4a.40.5"])
        let chosen = try p.select(.automatic(), url: "m")
        #expect(chosen.uri == "http://example.com/audio-only.m3u8")
        #expect(try p.select(.variant(index: 1), url: "m").uri == "http://example.com/mid.m3u8")
        #expect(throws: HLSError.self) { try p.select(.variant(index: 4), url: "m") }
    }

    /// Section 8.6, Master Playlist with Alternative Audio.
    @Test func alternativeAudio() throws {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,URI="main/english-audio.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="de",NAME="Deutsch",DEFAULT=NO,AUTOSELECT=YES,URI="main/german-audio.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="Commentary",DEFAULT=NO,AUTOSELECT=NO,URI="commentary/audio-only.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.42e00a,mp4a.40.2",AUDIO="aac"
            low/video-only.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="avc1.42e00a,mp4a.40.2",AUDIO="aac"
            mid/video-only.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=7680000,CODECS="avc1.42e00a,mp4a.40.2",AUDIO="aac"
            hi/video-only.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5",AUDIO="aac"
            main/english-audio.m3u8
            """
        let p = try master(text)
        #expect(p.renditions.count == 3)
        #expect(p.renditions.map(\.name) == ["English", "Deutsch", "Commentary"])
        #expect(p.renditions[0].isDefault && p.renditions[0].autoselect && p.renditions[0].language == "en")
        #expect(!p.renditions[1].isDefault && p.renditions[1].autoselect)
        #expect(p.variants[0].audioGroup == "aac")
        #expect(try p.select(.automatic(), url: "m").uri == "main/english-audio.m3u8")
        let german = try p.select(.rendition(name: "Deutsch"), url: "m")
        #expect(german.uri == "main/german-audio.m3u8" && german.rendition?.language == "de")
        // Without the audio-only variant: the video variants' default AUDIO rendition.
        let videoOnly = text.replacingOccurrences(
            of: "#EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS=\"mp4a.40.5\",AUDIO=\"aac\"\nmain/english-audio.m3u8",
            with: "")
        let chosen = try master(videoOnly).select(.automatic(maxBandwidth: 3_000_000), url: "m")
        #expect(chosen.rendition?.name == "English" && chosen.variant?.bandwidth == 2_560_000)
    }

    @Test func byteRangesMapDateTimeAndDiscontinuity() throws {
        let p = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="a.mp4",BYTERANGE="700@0"
            #EXT-X-PROGRAM-DATE-TIME:2010-02-19T14:54:23.031+08:00
            #EXTINF:2,first
            #EXT-X-BYTERANGE:1000@700
            a.mp4
            #EXTINF:2,
            #EXT-X-BYTERANGE:500
            a.mp4
            #EXT-X-DISCONTINUITY
            #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0X0102
            #EXTINF:1.5,
            b.aac
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:1.5,
            c.aac
            """)
        #expect(p.segments[0].byteRange == HLSByteRange(length: 1000, offset: 700))
        #expect(p.segments[1].byteRange == HLSByteRange(length: 500, offset: 1700))
        #expect(p.segments[0].map == HLSMap(uri: "a.mp4", byteRange: HLSByteRange(length: 700, offset: 0)))
        #expect(p.segments[0].title == "first" && p.segments[1].title == nil)
        #expect(p.segments[0].programDateTime == "2010-02-19T14:54:23.031+08:00")
        #expect(p.segments[1].programDateTime == nil)
        #expect(!p.segments[1].isDiscontinuity && p.segments[2].isDiscontinuity)
        #expect(p.segments[2].key?.iv == [UInt8](repeating: 0, count: 14) + [1, 2])
        #expect(p.segments[3].key == nil)
    }

    @Test func rejectsWhatIsNotAPlaylist() {
        #expect(throws: HLSError.notAPlaylist(url: "http://example.com/p.m3u8")) { try parse("<html>") }
        #expect(throws: HLSError.notAPlaylist(url: "http://example.com/p.m3u8")) { try parse("") }
        #expect(throws: HLSError.self) { try parse("#EXTM3U\n#EXTINF:1,\na.ts\n") }  // no TARGETDURATION
        #expect(throws: HLSError.self) { try parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\na.ts\n") }  // no EXTINF
        #expect(throws: HLSError.self) { try parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:x,\na.ts\n") }
        #expect(throws: HLSError.self) {
            try parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n")
        }
        #expect(throws: HLSError.self) {  // BYTERANGE without offset and no previous range
            try parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n#EXT-X-BYTERANGE:10\na.ts\n")
        }
        #expect(throws: HLSError.self) {
            try parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xZZ\n")
        }
        // A UTF-8 byte order mark before #EXTM3U is accepted.
        #expect(throws: Never.self) { try parse("\u{FEFF}#EXTM3U\n#EXT-X-TARGETDURATION:1\n") }
    }

    @Test func limits() {
        var limits = HLSLimits()
        limits.maxEntries = 2
        let three = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n" + String(repeating: "#EXTINF:1,\na.ts\n", count: 3)
        #expect(throws: HLSError.self) { try parse(three, limits: limits) }
        limits = HLSLimits()
        limits.maxLineBytes = 100
        #expect(throws: HLSError.self) {
            try parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#" + String(repeating: "x", count: 200), limits: limits)
        }
        limits.maxPlaylistBytes = 10
        #expect(throws: HLSError.self) { try parse("#EXTM3U\n#EXT-X-TARGETDURATION:1\n", limits: limits) }
    }

    @Test func urlResolution() {
        let base = "http://example.com:8080/live/a/index.m3u8?token=1"
        #expect(HLSURL.resolve("seg1.ts", against: base) == "http://example.com:8080/live/a/seg1.ts")
        #expect(HLSURL.resolve("../b/seg.ts", against: base) == "http://example.com:8080/live/b/seg.ts")
        #expect(HLSURL.resolve("/root.ts", against: base) == "http://example.com:8080/root.ts")
        #expect(HLSURL.resolve("//cdn.example.com/x.ts", against: base) == "http://cdn.example.com/x.ts")
        #expect(HLSURL.resolve("https://other/x.ts", against: base) == "https://other/x.ts")
        #expect(HLSURL.resolve("seg.aac?x=1", against: "/tmp/hls/index.m3u8") == "/tmp/hls/seg.aac?x=1")
        #expect(HLSURL.resolve("../../../x", against: "http://h/a/b.m3u8") == "http://h/x")
        #expect(HLSURL.resolve("seg.ts", against: "index.m3u8") == "seg.ts")
    }

    @Test func packedAudioTimestamp() {
        // ID3v2.4, one PRIV frame, PTS 0x1_0000_0001 (33 bits) — laid out by hand from RFC 8216 3.4.
        let owner = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0]
        let body = owner + [0, 0, 0, 1, 0, 0, 0, 1]
        let frame = Array("PRIV".utf8) + [0, 0, 0, UInt8(body.count)] + [0, 0] + body
        let tag = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame
        #expect(PackedAudioTimestamp.read(tag + [0xFF, 0xF1]) == 0x1_0000_0001)
        #expect(PackedAudioTimestamp.read([0xFF, 0xF1, 0, 0]) == nil)
        #expect(PackedAudioTimestamp.read(Array(tag.prefix(20))) == nil)
    }
}
