/// Sequential access to a sample list for the per-sample loops (packet emission, the packet map, the header
/// totals): each value in O(1), where `MP4SampleList.duration(_:_:)` searches the `stts` runs per sample.

/// The conversion of sample durations (media timescale) to sample frames, with the format's constants,
/// taken once per loop instead of per sample (`MP4Parser.frames(_:)` is the same conversion).
struct MP4FrameScale {
    /// Sample rate of the format.
    let rate: Double
    /// The media timescale (`mdhd`).
    let timescale: UInt32
    /// True when durations already are sample frames (timescale 0 or equal to the rate).
    let isIdentity: Bool
    /// The format's frames per packet (0: variable).
    let framesPerPacket: Int64
    /// The format's bytes per packet (0: variable).
    let bytesPerPacket: Int64

    init(rate: Double, timescale: UInt32, framesPerPacket: UInt32, bytesPerPacket: UInt32) {
        self.rate = rate
        self.timescale = timescale
        isIdentity = timescale == 0 || Double(timescale) == rate
        self.framesPerPacket = Int64(framesPerPacket)
        self.bytesPerPacket = Int64(bytesPerPacket)
    }

    /// A duration in sample frames (rounded; a conversion that is not finite or absurdly large gives the
    /// duration unchanged, so that a rate the entry got wrong cannot trap).
    @inline(__always)
    func frames(_ delta: UInt32) -> Int64 {
        if isIdentity { return Int64(delta) }
        return convert(delta)
    }

    private func convert(_ delta: UInt32) -> Int64 {
        let f = (Double(delta) * rate / Double(timescale)).rounded()
        guard f.isFinite, f >= 0, f < 1e15 else { return Int64(delta) }
        return Int64(f)
    }
}

/// The durations of a run's samples in order, from sample `k` on (`MP4SampleList.duration(run, k)`,
/// `k`, `k + 1`, …), without a search per sample.
struct MP4DurationWalker {
    private enum Source {
        case constant(UInt32)
        case table(index: Int)
        case timeToSample(run: Int, left: Int)
    }

    private var source: Source
    private let durations: [UInt32]
    private let counts: [UInt32]
    private let deltas: [UInt32]

    init(_ list: MP4SampleList, _ run: MP4SampleRun, from k: Int) {
        durations = list.durations
        let tts = list.timeToSample
        counts = tts.counts
        deltas = tts.deltas
        switch run.duration {
        case .constant(let d):
            source = .constant(d)
        case .table(let base):
            source = .table(index: base + k)
        case .timeToSample:
            let sample = run.firstSample + k
            if tts.starts.isEmpty {
                source = .constant(0)
            } else if sample >= tts.sampleCount {
                // Past the table: the last delta.
                source = .constant(tts.deltas[tts.deltas.count - 1])
            } else {
                let i = PacketMap.lastIndex(in: tts.starts, notAbove: Int64(sample))
                source = .timeToSample(run: i, left: Int(tts.counts[i]) - (sample - Int(tts.starts[i])))
            }
        }
    }

    /// The duration of the next sample.
    @inline(__always)
    mutating func next() -> UInt32 {
        switch source {
        case .constant(let d):
            return d
        case .table(let index):
            source = .table(index: index + 1)
            return durations[index]
        case .timeToSample(let run, let left):
            let d = deltas[run]
            if left > 1 {
                source = .timeToSample(run: run, left: left - 1)
            } else if run + 1 < counts.count {
                source = .timeToSample(run: run + 1, left: Int(counts[run + 1]))
            } else {
                // Past the table: the last delta from now on.
                source = .constant(d)
            }
            return d
        }
    }
}
