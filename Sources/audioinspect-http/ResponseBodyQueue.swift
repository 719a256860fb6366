import AudioInspectCommon
import Dispatch
import NIOCore
import Synchronization

/// The bounded hand-over between the network (NIO event loops, an async task) and the blocking reader
/// the inspector calls: body chunks of one response, then its end or its failure.
///
/// Memory is bounded by `capacity`: a producer that finds the queue full is told to stop (`push` returns
/// false) and is called back once the reader has drained it below half, so the connection is read no
/// further ahead than that and TCP flow control slows the server. The reader waits in slices of at most
/// 100 ms so that deadlines and ^C end a wait promptly.
final class ResponseBodyQueue: Sendable {
    /// What the reader gets next.
    enum Next {
        case data(ByteBuffer)
        /// The body ended where its framing says it ends (or the connection closed a body delimited by the
        /// close).
        case end
        case failed(any Error)
        /// `deadline` passed.
        case deadline
        /// Nothing arrived for `idleSeconds`.
        case idle
        /// `stop` returned true.
        case stopped
    }

    private struct State {
        /// Chunks not yet read from `first` on; the ones before it were read and are `nil` (released as
        /// they are taken: a reader that never empties the queue must not keep what it has read).
        var chunks: [ByteBuffer?] = []
        var first = 0
        var queuedBytes = 0
        var end: Result<Void, any Error>?
        var closed = false
        /// Called when the queue has room again (a producer that was told to stop).
        var whenSpace: (@Sendable () -> Void)?
        /// Called once by `close()` (cancels the transfer).
        var onClose: (@Sendable () -> Void)?
    }

    /// The most bytes queued before the producer is told to stop.
    let capacity: Int
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    init(capacity: Int = 1 << 20) {
        self.capacity = capacity
    }

    // MARK: Producer side (any thread)

    /// Queues `buffer`. Returns true when the producer may push more now; false when it must wait until
    /// `whenSpace` is called (it is called exactly once, also when the reader closes the queue).
    func push(_ buffer: ByteBuffer, whenSpace: @escaping @Sendable () -> Void) -> Bool {
        let (more, call) = state.withLock { s -> (Bool, (@Sendable () -> Void)?) in
            if s.closed { return (false, whenSpace) }
            if buffer.readableBytes > 0 {
                s.chunks.append(buffer)
                s.queuedBytes += buffer.readableBytes
            }
            if s.queuedBytes < capacity { return (true, nil) }
            s.whenSpace = whenSpace
            return (false, nil)
        }
        wake.signal()
        call?()
        return more
    }

    /// Queues `buffer`, suspending while the queue is full. Returns false once the reader closed the queue.
    func push(_ buffer: ByteBuffer) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if push(buffer, whenSpace: { continuation.resume() }) { continuation.resume() }
        }
        return !isClosed
    }

    /// Ends the body: `nil` at its regular end, else the error that cut it.
    func finish(_ error: (any Error)?) {
        state.withLock { s in
            if s.end == nil { s.end = error.map { .failure($0) } ?? .success(()) }
        }
        wake.signal()
    }

    /// True once the reader closed the queue.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Sets what `close()` calls to end the transfer (called at once when the queue is already closed).
    func setOnClose(_ body: @escaping @Sendable () -> Void) {
        let closed = state.withLock { s -> Bool in
            if !s.closed { s.onClose = body }
            return s.closed
        }
        if closed { body() }
    }

    // MARK: Reader side (one thread)

    /// The next chunk, waiting at most until `deadline` (`MonotonicClock` seconds) and at most
    /// `idleSeconds` for something to arrive, and checking `stop` at least every 100 ms.
    func next(until deadline: Double?, idleSeconds: Double, stop: () -> Bool) -> Next {
        let idleDeadline = MonotonicClock.after(idleSeconds)
        while true {
            // Checked before taking a chunk too: a server that floods the queue must not keep the reader
            // past its deadline or a stop request.
            if stop() { return .stopped }
            if let deadline, MonotonicClock.now() >= deadline { return .deadline }
            let (next, call) = state.withLock { s -> (Next?, (@Sendable () -> Void)?) in
                if s.first < s.chunks.count, let chunk = s.chunks[s.first] {
                    s.chunks[s.first] = nil
                    s.first += 1
                    s.queuedBytes -= chunk.readableBytes
                    if s.first == s.chunks.count {
                        s.chunks.removeAll(keepingCapacity: true)
                        s.first = 0
                    } else if s.first >= 256 && s.first * 2 >= s.chunks.count {
                        // A producer that keeps the queue from emptying: drop the read slots now and then, so
                        // the array stays proportional to what is queued (amortised O(1) per chunk).
                        s.chunks.removeFirst(s.first)
                        s.first = 0
                    }
                    var call: (@Sendable () -> Void)?
                    if s.queuedBytes <= capacity / 2 {
                        call = s.whenSpace
                        s.whenSpace = nil
                    }
                    return (.data(chunk), call)
                }
                switch s.end {
                case .success: return (.end, nil)
                case .failure(let error): return (.failed(error), nil)
                case nil: return (nil, nil)
                }
            }
            call?()
            if let next { return next }
            let now = MonotonicClock.now()
            if now >= idleDeadline { return .idle }
            let wait = min(0.1, idleDeadline - now, (deadline ?? .infinity) - now)
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(max(0.001, wait) * 1e9)))
        }
    }

    /// Ends the transfer from the reader's side: queued chunks are dropped, a waiting producer is released
    /// and told the queue is closed, and the transfer is cancelled.
    func close() {
        let (space, cancel) = state.withLock { s -> ((@Sendable () -> Void)?, (@Sendable () -> Void)?) in
            if s.closed { return (nil, nil) }
            s.closed = true
            s.chunks.removeAll()
            s.first = 0
            s.queuedBytes = 0
            defer { (s.whenSpace, s.onClose) = (nil, nil) }
            return (s.whenSpace, s.onClose)
        }
        space?()
        cancel?()
    }
}
