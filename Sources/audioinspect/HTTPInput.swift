import AudioInspectCommon
import AudioStreamParsing

/// An HTTP(S) response body as a blocking `ByteSource` for the inspector, fetched by the HTTP stack in
/// the `audioinspect-http` helper (`HTTPHelper`; one stack for both schemes: AsyncHTTPClient plus the
/// ICY status-line layer, docs/cli.md) and read from its output.
///
/// The request sends `Icy-MetaData: 1`; when the server answers with `icy-metaint`, the ICY metadata
/// blocks are removed with `ICYMetadataDemuxer` before the parser sees the bytes. Titles are events, not
/// a list: `onTitle` is called for each block that differs from the one before (a repeated block is no
/// change), with the audio offset where it takes effect, and nothing is kept here.
///
/// Memory: one pipe read (64 KiB) here; the helper holds at most its 1 MiB queue and reads the
/// connection no further ahead (a server that sends nothing for 30 s fails the transfer there).
final class HTTPInput: ByteSource {
    /// The URL as given.
    let url: WebURL
    /// The final response's status, headers and URL.
    let head: HelperProtocol.Head
    /// The `icy-metaint` interval, when the server sent one.
    let metaInterval: Int?
    /// The response headers.
    var headers: [(String, String)] { head.headers.map { ($0.name, $0.value) } }
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

    private let helper: HTTPHelper
    private var demuxer: ICYMetadataDemuxer?
    private var lastTitle: ICYMetadata?
    private var pending: [UInt8] = []
    private var pendingStart = 0

    /// Sends the request and waits for the response head (following redirects).
    ///
    /// - Parameters:
    ///   - maxSeconds: `--max-seconds`, which also bounds the connect and head timeouts.
    ///   - deadline: the same as a `MonotonicClock` time.
    ///   - stop: checked while waiting (^C).
    /// - Throws: `InputError` when the request fails or the final status is not 2xx.
    ///   - hls: the URL is an HLS playlist: the helper plays it and the body is its segments (docs/hls.md).
    init(url: WebURL, maxSeconds: Double?, deadline: Double?, hls: Bool = false, stop: @escaping () -> Bool)
        throws(InputError)
    {
        self.url = url
        self.deadline = deadline
        self.stop = stop
        do {
            (helper, head) = try HTTPHelper.start(
                url, headers: hls ? [] : [(ICYHeaders.requestHeaderName, ICYHeaders.requestHeaderValue)],
                maxSeconds: maxSeconds, deadline: deadline, hls: hls, stop: stop)
        } catch {
            throw InputError(message: "cannot get '\(url.absoluteString)': \(error.reason)", offset: nil)
        }
        metaInterval = ICYHeaders.metaInterval(in: head.headers.map { ($0.name, $0.value) })
        demuxer = metaInterval.map { ICYMetadataDemuxer(metaInterval: $0) }
    }

    deinit { close() }

    /// Ends the transfer.
    func close() { helper.close() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while true {
            if pendingStart < pending.count {
                let n = min(buffer.count, pending.count - pendingStart, TestHooks.receiveSize(buffer.count))
                pending.withUnsafeBytes { raw in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[pendingStart..<(pendingStart + n)]))
                }
                pendingStart += n
                bytesRead += Int64(n)
                return n
            }
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            switch helper.next(until: deadline, stop: stop) {
            case .data(let chunk):
                bodyBytes += Int64(chunk.count)
                demux(chunk)
            case .end, .stopped:
                return 0
            case .failed(let reason):
                throw InputError(message: "cannot read '\(url.absoluteString)': \(reason)", offset: bytesRead)
            }
        }
    }

    /// Moves the audio bytes of `chunk` (all of it without ICY metadata) to `pending`; reports title
    /// changes.
    private func demux(_ chunk: [UInt8]) {
        guard var demuxer else {
            pending = chunk
            return
        }
        for segment in demuxer.demux(chunk) {
            switch segment {
            case .audio(let range):
                pending.append(contentsOf: chunk[range])
            case .metadata(let metadata, let offset):
                if metadata != lastTitle {
                    lastTitle = metadata
                    onTitle(metadata, offset)
                }
            }
        }
        self.demuxer = demuxer
    }
}
