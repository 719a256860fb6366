import AudioStreamParsing
import AudioStreamTestSupport
import Testing

/// The code examples of docs/porting-from-audiotoolbox.md, snippet by snippet (keep them in step), run
/// over a fixture so that they are known to compile and to do what the guide says.
@Suite("Porting guide examples")
struct PortingGuideExamples {
    @Test(arguments: ["mpeg/mp3-44100-2ch-lame-cbr128.mp3", "mp4/aac-44100-2ch-faststart.m4a"])
    func aPortedPlayer(_ path: String) throws {
        let file = try FixtureCatalog.fixture(path).bytes()
        let chunks = stride(from: 0, to: file.count, by: 97).map { Array(file[$0..<min(file.count, $0 + 97)]) }
        func fetch(from offset: Int64) -> ArraySlice<UInt8> { file[Int(offset)...] }
        let reference = ParseRunner.run(file, chunking: .whole)

        // Snippet 1: open the parser and install the listener.
        let parser = AudioStreamParser()
        var discontinuous = false
        var converterFormat: StreamDescription?
        var cookie: [UInt8]?
        var packetBufferSize = 2048
        parser.propertyListener = { parser, property in
            switch property {
            case .dataFormat:
                // StreamingKit and AudioStreaming read the cookie and the packet size bounds here.
                converterFormat = parser.dataFormat
                cookie = parser.magicCookie
                packetBufferSize = Int(parser.packetSizeUpperBound ?? parser.maximumPacketSize ?? 2048)
            case .readyToProducePackets:
                discontinuous = true
            default:
                break
            }
        }

        // Snippet 2: the packets handler copies what it keeps.
        var queued: [[UInt8]] = []
        parser.packetsHandler = { batch in
            discontinuous = false
            for index in 0..<batch.packetCount {
                queued.append(batch.copyPacket(at: index))  // a safe copy; decode in place with forEachPacket
            }
        }

        // Snippet 3: feed, flagging every call until the first packet; finish.
        for chunk in chunks {
            try parser.parse(chunk, flags: discontinuous ? .discontinuity : [])
        }
        try parser.finish()

        #expect(queued.count == reference.packetCount)
        #expect(converterFormat == parser.dataFormat)
        #expect(cookie == parser.magicCookie)
        #expect(packetBufferSize == Int(try #require(parser.packetSizeUpperBound)))
        let sizes = reference.packets.map(\.size)
        #expect(queued.map(\.count) == sizes)

        // Snippet 4: seek.
        queued = []
        let target = try parser.seek(toPacket: 10)
        let rest = fetch(from: target.absoluteOffset)  // e.g. an HTTP Range request
        try parser.parse(rest, flags: .discontinuity)
        #expect(queued.map(\.count) == Array(sizes[10...].prefix(queued.count)))
        #expect(!queued.isEmpty)

        try Self.snippet5(parser)

        // Snippet 6: Apple's packet description fields, for a C decoder.
        var described = 0
        parser.packetsHandler = { batch in
            let base = batch.bytes.baseAddress
            for description in batch.descriptions {
                let start = description.startOffset  // mStartOffset, relative to `base`
                let frames = description.variableFramesInPacket  // mVariableFramesInPacket
                let size = description.dataByteSize  // mDataByteSize
                _ = (base, start, frames, size)
                described += 1
            }
        }
        _ = try parser.seek(toPacket: 0)
        try parser.parse(fetch(from: try #require(parser.dataOffset)), flags: .discontinuity)
        try parser.finish()
        #expect(described == reference.packetCount)
    }

    /// Snippet 5: a property outside a callback, with Apple's error codes.
    static func snippet5(_ parser: AudioStreamParser) throws {
        do {
            let value = try parser.value(of: .bitRate)
            if case .bitRate(let bitsPerSecond) = value { print(bitsPerSecond) }
        } catch  where error.code == .valueUnknown {
            // The stream does not say (Apple: kAudioFileStreamError_ValueUnknown).
        }
    }
}
