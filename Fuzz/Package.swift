// swift-tools-version:6.1
// Fuzz harnesses for AudioStreamParsing (libFuzzer). Build and run with ./run.sh; see README.md.
import PackageDescription

let package = Package(
    name: "AudioStreamParsingFuzz",
    dependencies: [.package(name: "AudioStreamParsing", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzAny",
            dependencies: [.product(name: "AudioStreamParsing", package: "AudioStreamParsing")]
        ),
        .executableTarget(
            name: "FuzzChunking",
            dependencies: [.product(name: "AudioStreamParsing", package: "AudioStreamParsing")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
