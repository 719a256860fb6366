import AudioStreamParsing
import AudioStreamTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot HTTP server on 127.0.0.1 (an ephemeral port): accepts one connection, keeps the request
/// head, answers with `head` and `body` written in small pieces, and closes.
final class OneShotServer: @unchecked Sendable {
    let port: UInt16
    private let socket: Int32
    private let lock = NSLock()
    private var requestHead = ""
    private let finished = DispatchSemaphore(value: 0)

    init(head: String, body: [UInt8]) throws {
        #if canImport(Glibc)
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        socket = fd
        Thread.detachNewThread { [self] in
            let client = accept(socket, nil, nil)
            defer {
                if client >= 0 { close(client) }
                close(socket)
                finished.signal()
            }
            guard client >= 0 else { return }
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)), request.count < 65536 {
                let n = recv(client, &buffer, buffer.count, 0)
                if n <= 0 { return }
                request += buffer[0..<n]
            }
            lock.withLock { requestHead = String(decoding: request, as: UTF8.self) }
            let response = Array(head.utf8) + body
            var offset = 0
            while offset < response.count {
                let end = min(response.count, offset + 777)
                let sent = response[offset..<end].withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// The request head, once the response was sent.
    func request() -> String {
        _ = finished.wait(timeout: .now() + 30)
        return lock.withLock { requestHead }
    }
}

@Suite("audioinspect URL mode")
struct URLModeTests {
    /// An MP3 fixture served as an ICY stream (`Icy-MetaInt: 1000`, titles after the 1st, 4th and 9th
    /// intervals) is demuxed: `--follow --json --packets` prints the packets of the plain file, each
    /// title before the first packet at or after its audio offset, and the request asked for metadata.
    @Test("ICY stream with --follow --json --packets")
    func icyFollow() throws {
        let mp3 = try FixtureCatalog.fixture("mpeg/mp3-44100-2ch-concat.mp3").bytes()
        let titles: [Int: String] = [0: "First", 3: "Second; it's", 8: "Third"]
        var body: [UInt8] = []
        for (k, start) in stride(from: 0, to: mp3.count, by: 1000).enumerated() {
            let chunk = mp3[start..<min(mp3.count, start + 1000)]
            body += chunk
            guard chunk.count == 1000 else { break }
            var block = titles[k].map { Array("StreamTitle='\($0)';".utf8) } ?? []
            while block.count % 16 != 0 { block.append(0) }
            body.append(UInt8(block.count / 16))
            body += block
        }
        let server = try OneShotServer(
            head: "HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nIcy-MetaInt: 1000\r\nicy-name: Loopback\r\n\r\n",
            body: body)
        let run = try AudioInspectTests.runBinary(
            ["--follow", "--json", "--packets", "--max-seconds", "20", "http://127.0.0.1:\(server.port)/live"],
            stdin: [])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.request().lowercased().contains("icy-metadata: 1"))
        let lines = run.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let reference = ParseRunner.run(mp3, chunking: .whole).packets
        let packets = lines.filter { $0["event"] as? String == "packet" }
        #expect(packets.map { $0["offset"] as? Int64 } == reference.map { Optional($0.offset) })
        #expect(packets.map { $0["size"] as? Int } == reference.map { Optional($0.size) })
        // Each title comes right before the packet it names, which is the first at or after its offset.
        var seen: [(String, Int)] = []
        var packetsSoFar = 0
        for line in lines {
            if line["event"] as? String == "packet" { packetsSoFar += 1 }
            if line["event"] as? String == "title", let t = line["title"] as? String, let p = line["packet"] as? Int {
                #expect(p == packetsSoFar)
                seen.append((t, p))
            }
        }
        func first(atOrAfter o: Int64) -> Int { reference.firstIndex { $0.offset >= o } ?? reference.count }
        #expect(seen.map(\.0) == ["First", "Second; it's", "Third"])
        #expect(seen.map(\.1) == [first(atOrAfter: 1000), first(atOrAfter: 4000), first(atOrAfter: 9000)])
        #expect(lines.last?["event"] as? String == "end")
        #expect(lines.last?["reason"] as? String == "end")
    }

    /// A plain HTTP body without `--follow` gives the same document as the file (except `source`).
    @Test("Plain HTTP body gives the file's JSON document")
    func plainBody() throws {
        let path = "wav/pcm_s16le-8000-1ch.wav"
        let bytes = try FixtureCatalog.fixture(path).bytes()
        let server = try OneShotServer(
            head: "HTTP/1.1 200 OK\r\nContent-Type: audio/wav\r\nContent-Length: \(bytes.count)\r\n"
                + "Connection: close\r\n\r\n",
            body: bytes)
        let url = "http://127.0.0.1:\(server.port)/a.wav"
        let network = try AudioInspectTests.runBinary(["--json", url], stdin: [])
        let local = try AudioInspectTests.runBinary(["--json", "-"], stdin: bytes)
        #expect(network.status == 0)
        #expect(network.stdout.replacingOccurrences(of: url, with: "-") == local.stdout)
    }

    /// `Transfer-Encoding: chunked` bodies (chunk sizes 1 to 997 bytes, one with an extension) are
    /// decoded by the HTTP stack: the document equals the file's.
    @Test("Chunked transfer encoding")
    func chunkedBody() throws {
        let bytes = try FixtureCatalog.fixture("mpeg/mp3-44100-2ch-concat.mp3").bytes()
        var body: [UInt8] = []
        var rng = SplitMix64(seed: 11)
        var i = 0
        while i < bytes.count {
            let n = min(bytes.count - i, 1 + Int(rng.next() % 997))
            let ext = i == 0 ? ";name=value" : ""
            body += Array("\(String(n, radix: 16))\(ext)\r\n".utf8) + bytes[i..<(i + n)] + Array("\r\n".utf8)
            i += n
        }
        body += Array("0\r\n\r\n".utf8)
        let server = try OneShotServer(
            head: "HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg\r\nTransfer-Encoding: chunked\r\n\r\n", body: body)
        let url = "http://127.0.0.1:\(server.port)/c.mp3"
        let network = try AudioInspectTests.runBinary(["--json", "--packets", url], stdin: [])
        let local = try AudioInspectTests.runBinary(["--json", "--packets", "-"], stdin: bytes)
        #expect(network.status == 0, "\(network.stderr)")
        #expect(network.stdout.replacingOccurrences(of: url, with: "-") == local.stdout)
    }

    /// A chained Ogg Opus stream (the fixture is `opus-48000-2ch-64k-opusenc.opus`, made with
    /// `opusenc --title "Opus Title"`, followed by a link without a title): `--follow --json` prints a
    /// `metadata` event with the first link's title before packet 0 and one without a title before
    /// the second link's first packet, 51 (the first link's packet count in its ffprobe oracle).
    @Test("--follow prints each chained Ogg link's metadata before its first packet")
    func chainedOggMetadata() throws {
        let bytes = try FixtureCatalog.fixture("ogg/opus-chained-2ch-1ch.opus").bytes()
        let oracle = try FixtureCatalog.fixture("ogg/opus-48000-2ch-64k-opusenc.opus").oracle()
        let firstLinkPackets = try #require(oracle.summary?.packets)
        let server = try OneShotServer(
            head: "HTTP/1.1 200 OK\r\nContent-Type: audio/ogg\r\nContent-Length: \(bytes.count)\r\n\r\n",
            body: bytes)
        let run = try AudioInspectTests.runBinary(
            ["--follow", "--json", "--packets", "http://127.0.0.1:\(server.port)/chain.opus"], stdin: [])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        var packets = 0
        var seen: [(title: String?, packet: Int)] = []
        for line in lines {
            if line["event"] as? String == "packet" { packets += 1 }
            if line["event"] as? String == "metadata", let p = line["packet"] as? Int {
                #expect(p == packets)
                seen.append((line["title"] as? String, p))
            }
        }
        #expect(seen.map(\.title) == ["Opus Title", nil])
        #expect(seen.map(\.packet) == [0, firstLinkPackets])
    }

    @Test("--follow and --max-seconds need a URL; a 404 is an io error")
    func usage() throws {
        let usage = try AudioInspectTests.runBinary(["--follow", "x.mp3"], stdin: [])
        #expect(usage.status == 64)
        let server = try OneShotServer(head: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", body: [])
        let missing = try AudioInspectTests.runBinary(["http://127.0.0.1:\(server.port)/none.mp3"], stdin: [])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("audioinspect: error io: cannot get"))
        #expect(missing.stderr.contains("404"))
    }
}
