import AudioStreamParsing

/// An HTTP(S) response body as a blocking `ByteSource` for the inspector.
///
/// `http://` URLs are fetched by `SocketHTTPBody`, a small HTTP/1.1 client on a POSIX socket;
/// `https://` URLs by `SpawnedHTTPSBody`, which runs the `audioinspect-https` executable (Foundation's
/// `URLSession`: FoundationNetworking, libcurl, on Linux) and reads the body from its standard output, so
/// that `audioinspect` itself does not load Foundation (docs/cli.md). The socket client exists because
/// FoundationNetworking rejects header lines without a space after the colon, which Icecast sends
/// (`icy-pub:0`, `icy-metaint:16000`): `URLSession` fails with "Failed writing header" on every Icecast
/// stream. It also accepts SHOUTcast v1's `ICY 200 OK` status line.
///
/// The request sends `Icy-MetaData: 1`; when the server answers with `icy-metaint`, the ICY metadata
/// blocks are removed with `ICYMetadataDemuxer` before the parser sees the bytes, and each block is
/// kept in `titles` with its offset in the audio stream.
final class HTTPInput: ByteSource {
    /// The URL as given.
    let url: WebURL
    /// The `icy-metaint` interval, when the server sent one.
    private(set) var metaInterval: Int?
    /// The response headers.
    let headers: [(String, String)]
    /// ICY metadata blocks read so far, with the audio offset where each takes effect.
    private(set) var titles: [(metadata: ICYMetadata, audioOffset: Int64)] = []
    /// Body bytes received (metadata included).
    var bodyBytes: Int64 { body.received }

    private let body: any HTTPBody
    private var demuxer: ICYMetadataDemuxer?
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// When set (`MonotonicClock` seconds), `read` returns 0 (end) once this time has passed or `stop`
    /// returns true.
    var deadline: Double?
    var stop: () -> Bool = { false }

    /// Sends the request and waits for the response headers.
    ///
    /// - Throws: `InputError` when the request fails or the status is not 2xx.
    init(url: WebURL, timeout: Double = 30) throws(InputError) {
        self.url = url
        let extra = [(ICYHeaders.requestHeaderName, ICYHeaders.requestHeaderValue)]
        let opened: (body: any HTTPBody, headers: [(String, String)])
        if url.scheme == "http" && !TestHooks.sendsHTTPThroughHelper {
            opened = try SocketHTTPBody.open(url, headers: extra, timeout: timeout)
        } else {
            opened = try SpawnedHTTPSBody.open(url, headers: extra, timeout: timeout)
        }
        body = opened.body
        headers = opened.headers
        metaInterval = ICYHeaders.metaInterval(in: headers)
        demuxer = metaInterval.map { ICYMetadataDemuxer(metaInterval: $0) }
    }

    deinit { close() }

    /// Ends the transfer.
    func close() { body.close() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while true {
            if pendingStart < pending.count {
                let n = min(buffer.count, pending.count - pendingStart)
                pending.withUnsafeBytes { raw in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[pendingStart..<(pendingStart + n)]))
                }
                pendingStart += n
                return n
            }
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            switch body.next(until: deadline, stop: stop) {
            case .data(let chunk):
                guard var demuxer else {
                    pending = chunk
                    continue
                }
                for segment in demuxer.demux(chunk) {
                    switch segment {
                    case .audio(let range): pending.append(contentsOf: chunk[range])
                    case .metadata(let metadata, let offset): titles.append((metadata, offset))
                    }
                }
                self.demuxer = demuxer
            case .end:
                return 0
            case .failed(let message):
                throw InputError(message: "cannot read '\(url.absoluteString)': \(message)", offset: body.received)
            }
        }
    }
}

/// What a response body source gives next.
enum BodyChunk {
    case data([UInt8])
    /// The end of the body, the deadline, or a stop request.
    case end
    case failed(String)
}

/// A response body being received.
protocol HTTPBody: AnyObject {
    /// The next bytes; waits at most until `deadline` (`MonotonicClock` seconds), checking `stop` every
    /// 100 ms.
    func next(until deadline: Double?, stop: () -> Bool) -> BodyChunk
    /// Body bytes received so far.
    var received: Int64 { get }
    /// Ends the transfer.
    func close()
}
