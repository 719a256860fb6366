// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "AudioStreamParsing",
    // The oldest Apple systems with what the library calls unconditionally: the async API's
    // `AsyncIteratorProtocol.next(isolation:)` and `String(validating:as:)` (Swift 6.0 runtime).
    // Linux needs no declaration. See docs/architecture.md, "Supported platforms".
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "AudioStreamParsing", targets: ["AudioStreamParsing"]),
        .executable(name: "audioinspect", targets: ["audioinspect"]),
    ],
    // Resolved from GitHub (offline machines mirror these repositories with git's url.insteadOf).
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    ],
    targets: [
        // The library: pure Swift, no Foundation, no dependencies.
        .target(name: "AudioStreamParsing"),
        // Helpers shared by the tests (chunking verifier, event logs, oracle loading).
        .target(name: "AudioStreamTestSupport", dependencies: ["AudioStreamParsing"]),
        // The CLI. Its HTTP stack (AsyncHTTPClient on SwiftNIO, swift-nio-ssl) is its own: the library
        // depends on nothing (docs/cli.md, "URLs and live streams").
        .executableTarget(
            name: "audioinspect",
            dependencies: [
                "AudioStreamParsing",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // The environment hooks scripts/test-streaming.sh uses exist only in debug builds (what
            // `swift build` and `swift test` make); a release build has none (TestHooks.swift, docs/cli.md).
            swiftSettings: [.define("AUDIOINSPECT_TEST_HOOKS", .when(configuration: .debug))]
        ),
        .testTarget(
            name: "AudioStreamParsingTests",
            dependencies: ["AudioStreamParsing", "AudioStreamTestSupport"]
        ),
        // libogg, the reference Ogg framing implementation, as the oracle of OggReferenceTests only.
        .systemLibrary(name: "COgg", pkgConfig: "ogg", providers: [.apt(["libogg-dev"])]),
        .testTarget(
            name: "OggReferenceTests",
            dependencies: ["COgg", "AudioStreamParsing", "AudioStreamTestSupport"]
        ),
        .testTarget(
            name: "AudioInspectTests",
            dependencies: ["audioinspect", "AudioStreamParsing", "AudioStreamTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
