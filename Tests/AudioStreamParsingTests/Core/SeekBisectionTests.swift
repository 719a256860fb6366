import Testing

@testable import AudioStreamParsing

/// The search of refined time seeks (`SeekBisection`) on synthetic streams of units: it must end on the
/// last unit whose frame is at or before the target, within its request budget, whatever the bit rate's
/// shape. A unit's frame is its first frame (the MPEG-TS reading: a PES packet's PTS).
@Suite("Seek bisection")
struct SeekBisectionTests {
    /// Units of `sizes` bytes and `frames` frames each, back to back from offset 0.
    struct Stream {
        var offsets: [Int64] = []
        var startFrames: [Int64] = []
        var size: Int64 = 0

        init(sizes: [Int64], frames: Int64) {
            for s in sizes {
                offsets.append(size)
                startFrames.append(Int64(offsets.count - 1) * frames)
                size += s
            }
        }

        func point(_ i: Int) -> SeekBisection.Point {
            SeekBisection.Point(
                offset: offsets[i], end: i + 1 < offsets.count ? offsets[i + 1] : size, frame: startFrames[i])
        }

        /// Searches `target` from the search's first probe, as a parser does: the first unit at or after each
        /// offset; reading on unit by unit; a unit past the target after one at or before it is the landing
        /// (the one before). Returns the landing unit and the requests made.
        func search(_ target: Int64, budget: Int) -> (unit: Int, requests: Int) {
            let average = Double(size) / Double(startFrames.last! + 1)
            var b = SeekBisection(
                target: target, lower: point(0), bytesPerFrame: average, readOnBytes: 2 * (size / Int64(offsets.count)),
                maxRequests: budget)
            var position = b.firstProbe()
            var below: Int?
            while true {
                guard let i = offsets.firstIndex(where: { $0 >= position }) else {
                    return (below ?? offsets.lastIndex { $0 <= b.lower.offset }!, b.requests)
                }
                let p = point(i)
                let next: SeekBisection.Next
                if p.frame <= target {
                    next = b.reached(below: p)
                    below = i
                } else if let below {
                    return (below, b.requests)
                } else {
                    next = b.reached(above: p)
                }
                switch next {
                case .readOn:
                    position = p.end
                case .request(let offset):
                    if offset != p.end { below = nil }
                    position = offset
                case .settle(let lower):
                    return (offsets.firstIndex(of: lower.offset)!, b.requests)
                }
            }
        }
    }

    static func budget(_ s: Stream) -> Int {
        SeekBisection.requestBudget(span: 2 * s.size, unit: 2 * (s.size / Int64(s.offsets.count)))
    }

    @Test(arguments: ["steady", "front-loaded", "alternating", "one burst"])
    func findsTheLastUnitAtOrBeforeTheTarget(_ shape: String) {
        let count = 4000
        let sizes: [Int64] = (0..<count).map { i in
            switch shape {
            case "steady": 500
            case "front-loaded": i < count / 4 ? 2000 : 200
            case "alternating": i % 2 == 0 ? 100 : 900
            default: (1800..<1900).contains(i) ? 20_000 : 300
            }
        }
        let stream = Stream(sizes: sizes, frames: 1024)
        let budget = Self.budget(stream)
        // Near the end of a stream whose bit rate falls steeply (tenfold here), a step past the lower bound can
        // pass the stream's end, and a request past the end finds nothing (docs/streaming.md, "Refined time
        // seeks"): those targets are tried on the even shapes only.
        let even = shape == "steady" || shape == "alternating"
        for fraction in [0.01, 0.2, 0.47, 0.5, 0.73] + (even ? [0.9, 0.99] : []) {
            let target = Int64(Double(count * 1024) * fraction) + 17
            let wanted = stream.startFrames.lastIndex { $0 <= target }!
            let found = stream.search(target, budget: budget)
            #expect(found.unit == wanted, "\(shape) at \(fraction): unit \(found.unit), wanted \(wanted)")
            #expect(found.requests <= budget, "\(shape) at \(fraction): \(found.requests) requests of \(budget)")
        }
    }

    @Test func theBudgetGrowsWithTheLogarithmOfTheSpan() {
        #expect(SeekBisection.requestBudget(span: 1000, unit: 1000) == 6)
        #expect(SeekBisection.requestBudget(span: 1 << 20, unit: 1 << 10) == 24)
        #expect(SeekBisection.requestBudget(span: 0, unit: 0) == 6)
    }
}
