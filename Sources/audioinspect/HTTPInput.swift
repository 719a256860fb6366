import AudioStreamParsing
import NIOCore
import NIOHTTP1

/// An HTTP(S) response body as a blocking `ByteSource` for the inspector, fetched by `HTTPFetch` (one
/// stack for both schemes: AsyncHTTPClient, plus the ICY status-line layer; docs/cli.md).
///
/// The request sends `Icy-MetaData: 1`; when the server answers with `icy-metaint`, the ICY metadata
/// blocks are removed with `ICYMetadataDemuxer` before the parser sees the bytes. Titles are events, not
/// a list: `onTitle` is called for each block that differs from the one before (a repeated block is no
/// change), with the audio offset where it takes effect, and nothing is kept here.
///
/// Memory: the body queue (`ResponseBodyQueue`, 1 MiB) plus one network buffer; a server that sends
/// nothing for `HTTPTimeouts.idle` seconds fails the read.
final class HTTPInput: ByteSource {
    /// The URL as given.
    let url: WebURL
    /// The final response's status, headers and URL.
    let head: ResponseHead
    /// The `icy-metaint` interval, when the server sent one.
    let metaInterval: Int?
    /// The response headers.
    var headers: [(String, String)] { head.headers }
    /// Called for every ICY metadata change, with the audio offset where it takes effect.
    var onTitle: (ICYMetadata, Int64) -> Void = { _, _ in }
    /// Body bytes received (metadata included).
    private(set) var bodyBytes: Int64 = 0
    /// Bytes handed to the reader (audio only).
    private(set) var bytesRead: Int64 = 0
    /// When set (`MonotonicClock` seconds), `read` returns 0 (end) once this time has passed.
    var deadline: Double?
    /// Checked at least every 100 ms while waiting; when it returns true, `read` returns 0.
    var stop: () -> Bool = { false }

    private let fetch: HTTPFetch
    private let body: ResponseBodyQueue
    private let timeouts: HTTPTimeouts
    private var demuxer: ICYMetadataDemuxer?
    private var lastTitle: ICYMetadata?
    private var pending: ByteBuffer?

    /// Sends the request and waits for the response head (following redirects).
    ///
    /// - Parameters:
    ///   - deadline: the `--max-seconds` deadline, which also bounds the connect and head timeouts.
    ///   - stop: checked while waiting (^C).
    /// - Throws: `InputError` when the request fails or the final status is not 2xx.
    init(url: WebURL, timeouts: HTTPTimeouts = HTTPTimeouts(), deadline: Double?, stop: @escaping () -> Bool)
        throws(InputError)
    {
        self.url = url
        self.timeouts = timeouts
        self.deadline = deadline
        self.stop = stop
        (fetch, head, body) = try HTTPFetch.open(url, timeouts: timeouts, deadline: deadline, stop: stop)
        metaInterval = ICYHeaders.metaInterval(in: head.headers)
        demuxer = metaInterval.map { ICYMetadataDemuxer(metaInterval: $0) }
    }

    deinit { close() }

    /// Ends the transfer.
    func close() {
        body.close()
        fetch.close()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while true {
            if var chunk = pending, chunk.readableBytes > 0 {
                let n = min(buffer.count, chunk.readableBytes, TestHooks.receiveSize(buffer.count))
                chunk.withUnsafeReadableBytes { raw in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[0..<n]))
                }
                chunk.moveReaderIndex(forwardBy: n)
                pending = chunk
                bytesRead += Int64(n)
                return n
            }
            pending = nil
            switch body.next(until: deadline, idleSeconds: timeouts.idle, stop: stop) {
            case .data(let chunk):
                bodyBytes += Int64(chunk.readableBytes)
                pending = demux(chunk)
            case .end, .deadline, .stopped:
                return 0
            case .idle:
                throw InputError(
                    message: "cannot read '\(url.absoluteString)': no data from the server for "
                        + "\(InspectionReport.number(timeouts.idle)) s",
                    offset: bytesRead)
            case .failed(let error):
                let reason =
                    (error as? HTTPParserError).map(HTTPFetch.describe)
                    ?? HTTPFetch.describe(error, url: url, deadline: deadline)
                throw InputError(message: "cannot read '\(url.absoluteString)': \(reason)", offset: bytesRead)
            }
        }
    }

    /// The audio bytes of `chunk` (all of it without ICY metadata); reports title changes.
    private func demux(_ chunk: ByteBuffer) -> ByteBuffer {
        guard var demuxer else { return chunk }
        let segments = demuxer.demux(chunk.readableBytesView)
        self.demuxer = demuxer
        var audio: ByteBuffer?
        for segment in segments {
            switch segment {
            case .audio(let range):
                guard let slice = chunk.getSlice(at: chunk.readerIndex + range.lowerBound, length: range.count) else {
                    continue
                }
                if audio == nil && range.count == chunk.readableBytes {
                    audio = slice
                } else {
                    var joined = audio ?? ByteBufferAllocator().buffer(capacity: chunk.readableBytes)
                    var part = slice
                    joined.writeBuffer(&part)
                    audio = joined
                }
            case .metadata(let metadata, let offset):
                if metadata != lastTitle {
                    lastTitle = metadata
                    onTitle(metadata, offset)
                }
            }
        }
        return audio ?? ByteBuffer()
    }
}
