import AsyncHTTPClient
import AudioInspectCommon
import NIOCore
import NIOHTTP1
import NIOPosix

/// SHOUTcast v1 (and SHOUTcast 2 in its legacy mode) answers `ICY 200 OK` instead of `HTTP/1.x 200 OK`.
/// AsyncHTTPClient's parser (llhttp) refuses that status line ("invalid constant string"), so `HTTPFetch`
/// asks again through this thin layer: a NIO channel with the same HTTP/1 decoder, behind a handler that
/// rewrites a leading `ICY ` to `HTTP/1.0 ` (the body of such a response runs to the end of the
/// connection, as an HTTP/1.0 body without `Content-Length` does). Everything else, header limits,
/// lengths, chunk sizes and 1xx responses included, is the decoder's, as in the client. Plain `http://`
/// only (SHOUTcast v1 has no TLS).
enum ICYStatusLine {
    /// Connects, sends `GET` with `headers`, and waits for the response head; the body then streams into
    /// the returned queue (bounded: reading stops while it is full). Close the channel when done.
    static func request(
        _ url: WebURL, headers: [(String, String)], group: any EventLoopGroup, connectTimeout: TimeAmount,
        deadline: NIODeadline
    ) async throws -> (HTTPResponseHead, ResponseBodyQueue, any Channel) {
        let queue = ResponseBodyQueue()
        let fields = HTTPHeaders([("Host", url.hostHeader)] + headers)
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: url.pathAndQuery, headers: fields)
        let loop = group.next()
        let promise = loop.makePromise(of: HTTPResponseHead.self)
        let channel = try await ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(StatusLineRewriter())
                    try sync.addHandler(HTTPRequestEncoder())
                    try sync.addHandler(
                        ByteToMessageHandler(
                            HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop)
                        ))
                    try sync.addHandler(ResponseHandler(request: head, head: promise, queue: queue))
                }
            }
            .connect(host: url.host, port: url.port ?? 80).get()
        let timer = loop.scheduleTask(deadline: deadline) {
            promise.fail(HTTPClientError.deadlineExceeded)
            channel.close(promise: nil)
        }
        do {
            let response = try await promise.futureResult.get()
            timer.cancel()
            return (response, queue, channel)
        } catch {
            timer.cancel()
            channel.close(promise: nil)
            throw error
        }
    }

    /// Rewrites a response that starts with `ICY ` to start with `HTTP/1.0 `, then passes bytes through.
    final class StatusLineRewriter: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private var start: ByteBuffer?
        private var decided = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = unwrapInboundIn(data)
            guard !decided else {
                context.fireChannelRead(data)
                return
            }
            var buffer = start ?? context.channel.allocator.buffer(capacity: 16)
            var incoming = bytes
            buffer.writeBuffer(&incoming)
            guard buffer.readableBytes >= 4 else {
                start = buffer
                return
            }
            decided = true
            start = nil
            if buffer.readableBytesView.starts(with: "ICY ".utf8) {
                var rewritten = context.channel.allocator.buffer(capacity: buffer.readableBytes + 5)
                rewritten.writeString("HTTP/1.0 ")
                buffer.moveReaderIndex(forwardBy: 4)
                rewritten.writeBuffer(&buffer)
                context.fireChannelRead(wrapInboundOut(rewritten))
            } else {
                context.fireChannelRead(wrapInboundOut(buffer))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if let start, !decided { context.fireChannelRead(wrapInboundOut(start)) }
            start = nil
            context.fireChannelInactive()
        }
    }

    /// Sends the request, hands the head to a promise and the body to the queue, and holds the channel's
    /// reads while the queue is full.
    final class ResponseHandler: ChannelDuplexHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundIn = HTTPClientRequestPart
        typealias OutboundOut = HTTPClientRequestPart

        private let request: HTTPRequestHead
        private let head: EventLoopPromise<HTTPResponseHead>
        private let queue: ResponseBodyQueue
        private var paused = false
        private var readPending = false

        init(request: HTTPRequestHead, head: EventLoopPromise<HTTPResponseHead>, queue: ResponseBodyQueue) {
            (self.request, self.head, self.queue) = (request, head, queue)
        }

        func channelActive(context: ChannelHandlerContext) {
            context.write(wrapOutboundOut(.head(request)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let response):
                head.succeed(response)
            case .body(let buffer):
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                let more = queue.push(buffer) {
                    bound.eventLoop.execute { bound.value.0.resume(bound.value.1) }
                }
                if !more { paused = true }
            case .end:
                queue.finish(nil)
                context.close(promise: nil)
            }
        }

        func read(context: ChannelHandlerContext) {
            if paused {
                readPending = true
            } else {
                context.read()
            }
        }

        private func resume(_ context: ChannelHandlerContext) {
            paused = false
            if readPending {
                readPending = false
                context.read()
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            head.fail(error)
            queue.finish(error)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            head.fail(HTTPParserError.invalidEOFState)
            queue.finish(HTTPParserError.invalidEOFState)
            context.fireChannelInactive()
        }
    }
}
