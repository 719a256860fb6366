// swift-tools-version:6.1
import PackageDescription

// An example client of AudioStreamParsing: plays an HTTP URL through the parser into a packet sink,
// seeking with HTTP Range requests (docs/streaming.md, "Range seeking"). Its own package so that the
// library keeps no network code; it depends on the library by path.
let package = Package(
    name: "RangePlayer",
    // As the library's (../../Package.swift): a dependency may not require newer systems than its client.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "range-player", targets: ["range-player"]),
        .library(name: "RangePlayerKit", targets: ["RangePlayerKit"]),
    ],
    dependencies: [
        .package(name: "AudioStreamParsing", path: "../..")
    ],
    targets: [
        // The player: a small HTTP/1.1 range client on a POSIX socket, the parser loop, a packet sink.
        .target(
            name: "RangePlayerKit",
            dependencies: [.product(name: "AudioStreamParsing", package: "AudioStreamParsing")]
        ),
        // The command line: range-player URL [--seek-packet N ...] [--json] ...
        .executableTarget(name: "range-player", dependencies: ["RangePlayerKit"]),
    ],
    swiftLanguageModes: [.v6]
)
