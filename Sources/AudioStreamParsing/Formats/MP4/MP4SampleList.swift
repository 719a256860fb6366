/// Where one sample property (size, duration) of a run's samples comes from.
enum MP4PerSample: Equatable {
    /// Every sample of the run has this value.
    case constant(UInt32)
    /// Sample `k` of the run has `table[base + k]`.
    case table(base: Int)
    /// (Durations only) from the track's `stts` runs, by decode index `firstSample + k`.
    case timeToSample
}

/// Consecutive samples stored back to back: an MP4 chunk (`stsc`/`stco`) or a track fragment run (`trun`).
struct MP4SampleRun: Equatable {
    /// Absolute stream offset of the first sample.
    var offset: Int64
    /// The number of samples.
    var count: Int
    /// The index of the first sample in the track's decode order.
    var firstSample: Int
    var size: MP4PerSample
    var duration: MP4PerSample
}

/// Per-sample sizes (`stsz`, `stz2`, `trun` entries), in order: 2 bytes a sample while every size fits in
/// a `UInt16` (compressed audio packets do), 4 bytes once one does not.
///
/// ```
/// narrow [ size 0 | size 1 | ... ]  UInt16, while every size is at most 0xFFFF (wide empty)
/// wide   [ size 0 | size 1 | ... ]  UInt32, from the first larger size on (narrow emptied)
/// ```
struct MP4SampleSizes: Equatable {
    private var narrow: [UInt16] = []
    private var wide: [UInt32] = []
    private var isWide = false

    var count: Int { isWide ? wide.count : narrow.count }

    subscript(i: Int) -> UInt32 { isWide ? wide[i] : UInt32(narrow[i]) }

    mutating func append(_ size: UInt32) {
        if !isWide {
            if size <= UInt32(UInt16.max) {
                narrow.append(UInt16(size))
                return
            }
            wide.reserveCapacity(Swift.max(narrow.capacity, narrow.count + 1))
            for s in narrow { wide.append(UInt32(s)) }
            narrow = []
            isWide = true
        }
        wide.append(size)
    }

    mutating func reserveCapacity(_ n: Int) {
        if isWide { wide.reserveCapacity(n) } else { narrow.reserveCapacity(n) }
    }
}

extension MP4SampleSizes: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: UInt32...) {
        for size in elements { append(size) }
    }
}

/// The samples of the parsed track, in the order their bytes come in the file (ascending offset), as runs.
///
/// Built from the `moov` sample tables (`MP4SampleTable.decode`) or appended to fragment by fragment
/// (`trun`). Memory grows with the runs and with the per-sample sizes and durations that the file spells out
/// (each backed by bytes of a table that was read); a run of constant-size samples costs one entry whatever
/// its declared count. The total sample count is bounded by `ParserLimits.maxPacketTableEntries`.
struct MP4SampleList: Equatable {
    var runs: [MP4SampleRun] = []
    var sizes = MP4SampleSizes()
    var durations: [UInt32] = []
    var timeToSample = MP4TimeToSampleBox()
    /// Samples in all runs.
    var count = 0

    func size(_ run: MP4SampleRun, _ k: Int) -> UInt32 {
        switch run.size {
        case .constant(let s): return s
        case .table(let base): return sizes[base + k]
        case .timeToSample: return 0
        }
    }

    func duration(_ run: MP4SampleRun, _ k: Int) -> UInt32 {
        switch run.duration {
        case .constant(let d): return d
        case .table(let base): return durations[base + k]
        case .timeToSample: return timeToSample.delta(ofSample: run.firstSample + k)
        }
    }

    /// The same constant size for every sample, when so.
    var constantSize: UInt32? {
        var size: UInt32?
        for run in runs {
            guard case .constant(let s) = run.size, size == nil || size == s else { return nil }
            size = s
        }
        return size
    }

    /// True when each run starts where the previous one ends (one contiguous byte range).
    var isContiguous: Bool {
        var end: Int64?
        for run in runs {
            if let end, end != run.offset { return false }
            var bytes: Int64 = 0
            if case .constant(let s) = run.size {
                bytes = Int64(run.count) * Int64(s)
            } else {
                for k in 0..<run.count { bytes += Int64(size(run, k)) }
            }
            end = run.offset + bytes
        }
        return true
    }
}
