// swift-tools-version:6.1
// Benchmarks for AudioStreamParsing (a separate package, so that the library itself keeps no dependency).
// Run from this folder: `swift package benchmark` (see docs/performance.md). Inputs: `./make-inputs.sh`.
import PackageDescription

let package = Package(
    name: "AudioStreamParsingBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "AudioStreamParsing", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // In-process parsing benchmarks (ordo-one/benchmark discovers targets under Benchmarks/).
        .executableTarget(
            name: "ParserBenchmarks",
            dependencies: [
                .product(name: "AudioStreamParsing", package: "AudioStreamParsing"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ParserBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // One file parsed from memory, packets counted: a small dynamically linked executable for
        // callgrind instruction counts and quick timings (see its main.swift).
        .executableTarget(
            name: "parse-count",
            dependencies: [.product(name: "AudioStreamParsing", package: "AudioStreamParsing")],
            path: "Tools/parse-count"
        ),
    ],
    swiftLanguageModes: [.v6]
)
