import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// Builds ICY bodies by hand: `metaInt` audio bytes, a length byte, the block padded with NULs to a
/// multiple of 16, and so on (the layout in ICYMetadataDemuxer.swift, as Icecast and SHOUTcast send it).
enum ICYBody {
    /// `blocks[k]` is the block after the k-th audio interval (missing: an empty block, length byte 0).
    static func make(audio: [UInt8], metaInt: Int, blocks: [Int: [UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        var k = 0
        var i = 0
        while i < audio.count {
            let n = min(metaInt, audio.count - i)
            out += audio[i..<(i + n)]
            i += n
            if n == metaInt {
                var block = blocks[k] ?? []
                while block.count % 16 != 0 { block.append(0) }
                out.append(UInt8(block.count / 16))
                out += block
                k += 1
            }
        }
        return out
    }

    static func title(_ t: String, url: String? = nil) -> [UInt8] {
        Array("StreamTitle='\(t)';".utf8) + (url.map { Array("StreamUrl='\($0)';".utf8) } ?? [])
    }
}

@Suite("ICY metadata")
struct ICYMetadataTests {
    // MARK: Block parsing

    @Test("StreamTitle and StreamUrl")
    func plain() {
        let m = ICYMetadata(parsing: Array("StreamTitle='Artist - Song';StreamUrl='http://example.com/';".utf8))
        #expect(m.streamTitle == "Artist - Song")
        #expect(m.streamURL == "http://example.com/")
        #expect(m.fields.map(\.key) == ["StreamTitle", "StreamUrl"])
    }

    /// The value ends at `';` followed by a key or the end, so quotes and semicolons inside survive.
    @Test(
        "Quotes and semicolons inside titles",
        arguments: [
            ("StreamTitle='Rock 'n' Roll; Live';StreamUrl='u';", "Rock 'n' Roll; Live", "u"),
            ("StreamTitle='Hello';world';", "Hello';world", nil),
            ("StreamTitle='a';';StreamUrl='';", "a';", ""),
            ("StreamTitle='Guns N' Roses - Sweet Child o' Mine';", "Guns N' Roses - Sweet Child o' Mine", nil),
            ("StreamTitle='x=1;y=2';StreamUrl='http://h/?a=1;b=2';", "x=1;y=2", "http://h/?a=1;b=2"),
            ("StreamTitle='';", "", nil),
            ("StreamTitle='no terminator'", "no terminator", nil),
            ("StreamTitle='no closing quote", "no closing quote", nil),
            ("StreamTitle=bare value;StreamUrl='u';", "bare value", "u"),
            ("  StreamTitle='spaced';  StreamUrl='u';", "spaced", "u"),
            ("streamtitle='lower case key';", "lower case key", nil),
        ] as [(String, String, String?)])
    func tolerant(_ block: String, _ title: String, _ url: String?) {
        let m = ICYMetadata(parsing: Array(block.utf8))
        #expect(m.streamTitle == title, "\(block)")
        #expect(m.streamURL == url, "\(block)")
    }

    @Test("NUL padding is ignored; an all-NUL block has no fields")
    func padding() {
        let m = ICYMetadata(parsing: Array("StreamTitle='x';".utf8) + [UInt8](repeating: 0, count: 16))
        #expect(m.streamTitle == "x")
        #expect(m.fields.count == 1)
        #expect(ICYMetadata(parsing: [UInt8](repeating: 0, count: 32)).fields.isEmpty)
    }

    @Test("UTF-8 titles, and Latin-1 when the bytes are not UTF-8")
    func encodings() {
        let utf8 = ICYMetadata(parsing: Array("StreamTitle='Beyoncé – Halo';".utf8))
        #expect(utf8.streamTitle == "Beyoncé – Halo")
        // "Beyoncé" and "Motörhead" in ISO 8859-1: é = 0xE9, ö = 0xF6.
        let latin1: [UInt8] =
            Array("StreamTitle='Beyonc".utf8) + [0xE9] + Array(" & Mot".utf8) + [0xF6]
            + Array("rhead';".utf8)
        #expect(ICYMetadata(parsing: latin1).streamTitle == "Beyoncé & Motörhead")
    }

    // MARK: Headers

    @Test("Header names are case-insensitive; icy-metaint must be a positive number")
    func headers() {
        for name in ["icy-metaint", "Icy-MetaInt", "ICY-METAINT"] {
            #expect(ICYHeaders.metaInterval(in: [("Content-Type", "audio/mpeg"), (name, "16000")]) == 16000)
            #expect(ICYHeaders.metaInterval(in: [name: " 8192 "]) == 8192)
        }
        #expect(ICYHeaders.metaInterval(in: [("icy-metaint", "0")]) == nil)
        #expect(ICYHeaders.metaInterval(in: [("icy-metaint", "-5")]) == nil)
        #expect(ICYHeaders.metaInterval(in: [("icy-metaint", "12ab")]) == nil)
        #expect(ICYHeaders.metaInterval(in: [("content-type", "audio/mpeg")]) == nil)
        #expect(ICYHeaders.value(named: "ICY-NAME", in: [("icy-name", "Radio")]) == "Radio")
    }

    // MARK: Demuxing

    /// Demuxes `body` cut into `ranges`; returns the audio and the (title, offset) pairs.
    static func demux(_ body: [UInt8], metaInt: Int, ranges: [Range<Int>]) -> ([UInt8], [(String?, Int64)]) {
        var demuxer = ICYMetadataDemuxer(metaInterval: metaInt)
        var audio: [UInt8] = []
        var titles: [(String?, Int64)] = []
        for r in ranges {
            let chunk = Array(body[r])
            for segment in demuxer.demux(chunk) {
                switch segment {
                case .audio(let a): audio += chunk[a]
                case .metadata(let m, let offset): titles.append((m.streamTitle, offset))
                }
            }
        }
        return (audio, titles)
    }

    /// A body with titles of odd lengths (1, 15, 16, 17 bytes of text …), cut in two at every byte
    /// position, and byte by byte, demuxes to the same audio and titles at the right audio offsets.
    @Test("Titles split across chunks at every byte position")
    func everySplit() {
        let metaInt = 37
        let audio = (0..<(metaInt * 6 + 11)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let blocks: [Int: [UInt8]] = [
            0: ICYBody.title("A"), 2: ICYBody.title("it's; ok", url: "http://x/;y"),
            3: ICYBody.title(String(repeating: "z", count: 3)), 5: ICYBody.title("end"),
        ]
        let body = ICYBody.make(audio: audio, metaInt: metaInt, blocks: blocks)
        let expected: [(String?, Int64)] = [
            ("A", 37), ("it's; ok", 111), ("zzz", 148), ("end", 222),
        ]
        for cut in 0...body.count {
            let (a, t) = Self.demux(body, metaInt: metaInt, ranges: [0..<cut, cut..<body.count])
            #expect(a == audio, "cut \(cut)")
            #expect(t.map(\.0) == expected.map(\.0) && t.map(\.1) == expected.map(\.1), "cut \(cut)")
        }
        let (a, t) = Self.demux(body, metaInt: metaInt, ranges: Chunking.bytewise.ranges(count: body.count))
        #expect(a == audio)
        #expect(t.map(\.1) == expected.map(\.1))
        let randomRanges = Chunking.random(seed: 5, maxSize: 9).ranges(count: body.count)
        let (a2, t2) = Self.demux(body, metaInt: metaInt, ranges: randomRanges)
        #expect(a2 == audio)
        #expect(t2.map(\.0) == expected.map(\.0))
    }

    /// Chunks that end exactly at an audio interval, at the length byte, or inside a block; metaint 1
    /// (a length byte after every audio byte); the largest block (255 × 16 bytes).
    @Test("metaint edge cases", arguments: [1, 2, 16, 4080, 8192])
    func metaIntEdges(_ metaInt: Int) {
        let audio = (0..<(metaInt * 4)).map { UInt8(truncatingIfNeeded: $0) }
        let long = ICYBody.title(String(repeating: "x", count: 255 * 16 - 16))  // padded to exactly 4080
        let blocks: [Int: [UInt8]] = [1: ICYBody.title("one"), 2: long, 3: ICYBody.title("last")]
        let body = ICYBody.make(audio: audio, metaInt: metaInt, blocks: blocks)
        for chunk in [metaInt, metaInt + 1, metaInt + 2, 16, 1] {
            let (a, t) = Self.demux(body, metaInt: metaInt, ranges: Chunking.fixed(chunk).ranges(count: body.count))
            #expect(a == audio, "chunk \(chunk)")
            #expect(t.map(\.1) == [Int64(2 * metaInt), Int64(3 * metaInt), Int64(4 * metaInt)], "chunk \(chunk)")
            #expect(t.first?.0 == "one" && t.last?.0 == "last")
            // 4,080 bytes = "StreamTitle='" (13) + 4,064 characters + "';" (2) + 1 NUL.
            #expect(t.dropFirst().first?.0?.count == 255 * 16 - 16)
        }
    }

    // MARK: With the parser

    /// A real MP3 interleaved with titles (metaint 1000) through the async adapter: the packets are the
    /// synchronous parse of the plain file, and each title comes at the first packet that starts at or
    /// after its audio offset, between the packets before and after it.
    @Test(
        "MP3 fixture with interleaved ICY metadata",
        arguments: [Chunking.random(seed: 9, maxSize: 3000), .fixed(1001), .bytewise])
    func mp3WithTitles(_ chunking: Chunking) async throws {
        let mp3 = try FixtureCatalog.fixture("mpeg/mp3-44100-2ch-concat.mp3").bytes()
        let metaInt = 1000
        let blocks: [Int: [UInt8]] = [
            0: ICYBody.title("First"), 1: ICYBody.title("First"),  // repeated: no change
            4: ICYBody.title("Second 'quoted'; x", url: "http://radio/"),
            9: Array("StreamTitle='Caf".utf8) + [0xE9] + Array("';".utf8),
        ]
        let body = ICYBody.make(audio: mp3, metaInt: metaInt, blocks: blocks)
        let reference = ParseRunner.run(mp3, chunking: .whole, checkBytes: false)
        let source = StreamingTestSupport.stream(StreamingTestSupport.chunks(body, chunking))
        let (events, error) = await StreamingTestSupport.collect(source.audioStreamEvents(icyMetaInterval: metaInt))
        #expect(error == nil)
        // Without the titles, the events are the synchronous parse of the plain file.
        let plain = events.filter { if case .streamTitle = $0 { false } else { true } }
        let difference = StreamingTestSupport.firstDifference(
            StreamingTestSupport.lines(plain, error: nil, input: mp3), StreamingTestSupport.lines(reference))
        #expect(difference == nil)
        // Titles: where they take effect, and in order with packets.
        let offsets = reference.packets.map(\.offset)
        func firstPacket(atOrAfter o: Int64) -> Int64 { Int64(offsets.firstIndex { $0 >= o } ?? offsets.count) }
        var titles: [(String?, Int64)] = []
        var nextPacket: Int64 = 0
        for event in events {
            switch event {
            case .packets(let b):
                #expect(b.firstPacketIndex == nextPacket)
                nextPacket = b.firstPacketIndex + Int64(b.packetCount)
            case .streamTitle(let m, let at):
                #expect(at == nextPacket, "title \(m) reported after packet \(nextPacket - 1)")
                titles.append((m.streamTitle, at))
            default: break
            }
        }
        #expect(titles.map(\.0) == ["First", "Second 'quoted'; x", "Café"])
        #expect(
            titles.map(\.1) == [
                firstPacket(atOrAfter: 1000), firstPacket(atOrAfter: 5000), firstPacket(atOrAfter: 10000),
            ])
    }
}
