import AudioStreamParsing
import Benchmark
import Foundation

// Benchmarks of issue 7 (see docs/performance.md):
//
// - `<format> 60m <N>` : the 60-minute input parsed from memory in N-byte chunks (1 KiB, 64 KiB, 1 MiB),
//   and `whole`: the whole input in one `parse` call.
// - `<format> <15s|60s> 1B`: the 15 s and 60 s inputs fed one byte at a time. Their `ps/byte` must be equal
//   (linear cost) and `x 64KiB` is the slowdown against 64 KiB chunks of the same input.
//
// Every iteration checks that the packets handler saw exactly the packets (count and byte sum) of a
// whole-buffer parse of the same input, and throws otherwise.
//
// Custom metrics (measured per iteration with a monotonic clock around parse + finish):
// - `MB/s`     input bytes / time, 10^6 bytes per MB
// - `packets/s` packets delivered / time
// - `ps/byte`  picoseconds per input byte
// - `x 64KiB`  (1-byte benchmarks) time per byte / time per byte at 64 KiB chunks of the same input, x100
//              (so 2500 = 25x; the integer metric type would round small ratios away)

enum Metric {
    static let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
    static let packetsPerSecond = BenchmarkMetric.custom(
        "packets/s", polarity: .prefersLarger, useScalingFactor: false)
    static let picosecondsPerByte = BenchmarkMetric.custom(
        "ps/byte", polarity: .prefersSmaller, useScalingFactor: false)
    static let slowdownPercent = BenchmarkMetric.custom(
        "x 64KiB (x100)", polarity: .prefersSmaller, useScalingFactor: false)
}

/// Seconds since an arbitrary origin, monotonic.
@inline(__always)
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Times one parse of `input` at `chunkSize`, verifies it, and returns (seconds, totals).
func timedParse(_ input: Inputs.Loaded, chunkSize: Int) throws -> (Double, ParseTotals) {
    let start = now()
    let totals = try parse(input.buffer, chunkSize: chunkSize)
    let elapsed = now() - start
    try verify(totals, input, chunkSize: chunkSize)
    return (elapsed, totals)
}

func record(_ benchmark: Benchmark, _ input: Inputs.Loaded, seconds: Double, totals: ParseTotals) {
    let bytes = Double(input.count)
    benchmark.measurement(Metric.megabytesPerSecond, Int((bytes / seconds / 1e6).rounded()))
    benchmark.measurement(Metric.packetsPerSecond, Int((Double(totals.packets) / seconds).rounded()))
    benchmark.measurement(Metric.picosecondsPerByte, Int((seconds / bytes * 1e12).rounded()))
}

let benchmarks: @Sendable () -> Void = {
    let commonMetrics: [BenchmarkMetric] = [
        .wallClock, .mallocCountTotal, Metric.megabytesPerSecond, Metric.packetsPerSecond,
        Metric.picosecondsPerByte,
    ]
    Benchmark.defaultConfiguration = .init(
        metrics: commonMetrics,
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(4),
        maxIterations: 15
    )

    let chunkSizes: [(String, Int)] = [("1KiB", 1 << 10), ("64KiB", 1 << 16), ("1MiB", 1 << 20), ("whole", Int.max)]
    var missing: [String] = []

    for format in BenchFormat.all {
        let long = format.path(Inputs.longLength)
        if Inputs.exists(long) {
            for (label, chunkSize) in chunkSizes {
                Benchmark("\(format.name) \(Inputs.longLength) \(label)") { benchmark in
                    let input = try Inputs.load(long)
                    _ = try expectedTotals(input)
                    benchmark.startMeasurement()
                    for _ in benchmark.scaledIterations {
                        let (seconds, totals) = try timedParse(input, chunkSize: chunkSize)
                        record(benchmark, input, seconds: seconds, totals: totals)
                    }
                    benchmark.stopMeasurement()
                }
            }
        } else {
            missing.append(long)
        }

        // 1-byte feeding at two input sizes.
        for length in ["15s", "60s"] {
            let path = format.path(length)
            guard Inputs.exists(path) else {
                missing.append(path)
                continue
            }
            Benchmark(
                "\(format.name) \(length) 1B",
                configuration: .init(
                    metrics: commonMetrics + [Metric.slowdownPercent], maxDuration: .seconds(4), maxIterations: 5)
            ) { benchmark in
                let input = try Inputs.load(path)
                _ = try expectedTotals(input)
                if input.secondsPerByteAt64K == nil {
                    // Reference: the fastest of 5 parses of the same input at 64 KiB chunks.
                    var best = Double.infinity
                    for _ in 0..<5 { best = min(best, try timedParse(input, chunkSize: 1 << 16).0) }
                    input.secondsPerByteAt64K = best / Double(input.count)
                }
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    let (seconds, totals) = try timedParse(input, chunkSize: 1)
                    record(benchmark, input, seconds: seconds, totals: totals)
                    if let reference = input.secondsPerByteAt64K, reference > 0 {
                        let ratio = seconds / Double(input.count) / reference
                        benchmark.measurement(Metric.slowdownPercent, Int((ratio * 100).rounded()))
                    }
                }
                benchmark.stopMeasurement()
            }
        }
    }
    if !missing.isEmpty {
        let list = missing.joined(separator: "\n  ")
        FileHandle.standardError.write(
            Data("ParserBenchmarks: skipped (missing inputs; run Benchmarks/make-inputs.sh):\n  \(list)\n".utf8))
    }
}
