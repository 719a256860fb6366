/// The search of a time seek refined by byte-range requests: the last sync point at or before a target
/// frame, found by interpolation and bisection between the points read so far. Shared by the parsers
/// whose units carry timestamps (Ogg pages and their granule positions, MPEG-TS PES packets and their
/// PTS); see docs/streaming.md, "Refined time seeks".
///
/// A *sync point* is a unit the parser can resume at (a page, a PES packet): its first byte, the byte
/// after it, and its timestamp as a frame on the parser's timeline. The parser defines the timestamp so
/// that a point whose frame is at or before the target is a landing that does not pass the target (an
/// Ogg page's granule position, the end of its last packet; a PES packet's PTS, the start of its first
/// frame). Points are assumed to grow with their offsets.
///
/// Contract with the format parser: after an estimated seek it reads the units at the landing without
/// delivering packets and reports the first sync point after each jump to `reached(below:)` or
/// `reached(above:)`, and each further point it reads in order to `reached(below:)` (a point above the
/// target read in order after one below is the landing itself: the parser settles there on its own).
/// The answer says what to do next: read on, or ask for the bytes at an offset (`ParseStep.request`,
/// announced as `requestedByteOffset`; the caller feeds from there with `.discontinuity`). After
/// `maxRequests` requests, or when the bracket cannot be narrowed, it settles on the best point below
/// the target. Without byte-range requests no bisection is started (the estimated landing stands).
struct SeekBisection: Equatable {
    /// A unit the parser can resume at: its first byte, the byte after it (absolute offsets) and its
    /// timestamp as a frame.
    struct Point: Equatable {
        var offset: Int64
        var end: Int64
        var frame: Int64
    }

    /// What the parser does next.
    enum Next: Equatable {
        /// Read the next units in order (the target is near ahead).
        case readOn
        /// Ask for the bytes from this absolute offset and search the next unit there.
        case request(Int64)
        /// Stop searching: resume at this point (the request budget is spent or nothing is left between
        /// the bounds).
        case settle(Point)
    }

    /// The frame searched for, on the parser's timeline.
    let target: Int64
    /// The latest point known at or before the target (the stream's start, a table entry, a point read).
    private(set) var lower: Point
    /// The earliest point known past the target, once one was read.
    private(set) var upper: Point?
    /// Requests made so far.
    private(set) var requests = 0
    /// The most requests made before settling.
    let maxRequests: Int
    /// Bytes per frame, for estimates before an upper bound is known.
    let bytesPerFrame: Double
    /// Read on rather than request when the target is estimated at most this many bytes ahead (about two
    /// units: a request costs a round trip, reading a unit or two costs less).
    let readOnBytes: Int64
    /// The last probe did not halve the bracket: the next one is at its middle (interpolation alone can
    /// creep along a bracket whose bit rate is uneven; alternating bounds the steps by about
    /// 2 × log2(span ÷ unit)).
    private var halveNext = false
    /// The offset of the last request.
    private var lastRequest: Int64?

    /// Starts a search for `target` from `lower` (a point known at or before it).
    init(target: Int64, lower: Point, bytesPerFrame: Double, readOnBytes: Int64, maxRequests: Int) {
        self.target = target
        self.lower = lower
        self.bytesPerFrame = bytesPerFrame.isFinite && bytesPerFrame > 0 ? bytesPerFrame : 1
        self.readOnBytes = max(1, readOnBytes)
        self.maxRequests = max(1, maxRequests)
    }

    /// A request budget for a search across about `span` bytes of units of about `unit` bytes:
    /// 2 × ⌈log2(span ÷ unit)⌉ + 4.
    static func requestBudget(span: Int64, unit: Int64) -> Int {
        let units = max(2, span / max(1, unit))
        return 2 * (Int64.bitWidth - (units - 1).leadingZeroBitCount) + 4
    }

    /// The bytes estimated between `point`'s end and the target.
    private func bytesAhead(of point: Point) -> Double {
        var rate = bytesPerFrame
        if let upper, upper.frame > point.frame {
            rate = Double(upper.offset - point.offset) / Double(upper.frame - point.frame)
        }
        return Double(target - point.frame) * rate
    }

    /// A point at or before the target was read: it becomes the lower bound; read on when the target is
    /// near, otherwise probe further.
    mutating func reached(below point: Point) -> Next {
        let span = upper.map { $0.offset - lower.end }
        if point.offset >= lower.offset { lower = point }
        if let upper, upper.offset - lower.end <= readOnBytes { return .readOn }
        if bytesAhead(of: lower) <= Double(readOnBytes) { return .readOn }
        noteNarrowing(from: span)
        return probe()
    }

    /// The first point read after a jump is past the target: it becomes the upper bound; probe between
    /// the bounds.
    mutating func reached(above point: Point) -> Next {
        let span = upper.map { $0.offset - lower.end }
        // Read in order from the lower bound's end, the next unit is past the target: the lower bound is
        // the landing.
        if lastRequest == lower.end { return .settle(lower) }
        if let upper, point.offset >= upper.offset {
            // The probe found no unit before the upper bound: read the bracket in order instead.
            guard requests < maxRequests else { return .settle(lower) }
            return ask(lower.end)
        }
        upper = point
        noteNarrowing(from: span)
        return probe()
    }

    /// Whether the bracket shrank by half since `span` (else the next probe is at the middle).
    private mutating func noteNarrowing(from span: Int64?) {
        guard let span, let upper else { return }
        halveNext = (upper.offset - lower.end) * 2 > span
    }

    /// The next offset to ask for, or settling when the budget is spent or nothing is left to search.
    private mutating func probe() -> Next {
        guard requests < maxRequests else { return .settle(lower) }
        let from = lower.end
        var offset: Double
        if let upper {
            let span = upper.offset - from
            // Nothing between the bounds but a unit or two: read them in order from the lower bound.
            if span <= readOnBytes { return ask(from) }
            if halveNext || upper.frame <= lower.frame {
                offset = Double(from) + Double(span) / 2
            } else {
                let share = Double(target - lower.frame) / Double(upper.frame - lower.frame)
                offset = Double(lower.offset) + share * Double(upper.offset - lower.offset)
            }
            // Land a little early: a search lands on the next unit after the offset.
            offset -= Double(readOnBytes) / 2
            offset = min(max(offset, Double(from)), Double(upper.offset - 1))
        } else {
            offset = Double(extrapolated())
        }
        return ask(Int64(offset))
    }

    /// Where to look first (the seek's landing, before any request): the lower bound itself when the target
    /// is near (read on from it), else a step ahead of it (`extrapolated`).
    func firstProbe() -> Int64 {
        bytesAhead(of: lower) <= Double(readOnBytes) ? lower.offset : extrapolated()
    }

    /// No unit past the target read yet: three quarters of the estimated distance past the lower bound (at
    /// least two units), a unit early. The estimate comes from the bytes per frame before the landing and
    /// the stream's end is not known: a full step could pass the end where the bit rate falls (a request
    /// past the end finds nothing); a shorter one converges from below and finds an upper bound on the way.
    private func extrapolated() -> Int64 {
        let step = max(Double(readOnBytes), bytesAhead(of: lower) * 3 / 4) - Double(readOnBytes) / 2
        return Int64(min(max(Double(lower.end) + step, Double(lower.end)), 9e18))
    }

    private mutating func ask(_ offset: Int64) -> Next {
        requests += 1
        lastRequest = offset
        return .request(offset)
    }
}
