// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "AudioStreamParsing",
    // The oldest Apple systems with what the library calls unconditionally: the async API's
    // `AsyncIteratorProtocol.next(isolation:)` and `String(validating:as:)` (Swift 6.0 runtime).
    // Linux needs no declaration. See docs/architecture.md, "Supported platforms".
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "AudioStreamParsing", targets: ["AudioStreamParsing"]),
        // Audio-only HLS (RFC 8216) on top of the library: playlists, segments, AES-128 (docs/hls.md).
        .library(name: "AudioStreamHLS", targets: ["AudioStreamHLS"]),
        .executable(name: "audioinspect", targets: ["audioinspect"]),
        .executable(name: "audioinspect-http", targets: ["audioinspect-http"]),
    ],
    // Resolved from GitHub (offline machines mirror these repositories with git's url.insteadOf).
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        // AES-128-CBC for HLS segments (AudioStreamHLS only; already in the graph through AsyncHTTPClient's
        // swift-certificates, so it adds no build for the CLI: docs/hls.md, "AES-128").
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // The library: pure Swift, no Foundation, no dependencies.
        .target(name: "AudioStreamParsing", swiftSettings: [.strictMemorySafety()]),
        // Audio-only HLS: playlist parser and a transport-agnostic session (the caller fetches), AES-128 through
        // swift-crypto. The core library does not depend on it.
        .target(
            name: "AudioStreamHLS",
            dependencies: ["AudioStreamParsing", .product(name: "_CryptoExtras", package: "swift-crypto")]
        ),
        // Helpers shared by the tests (chunking verifier, event logs, oracle loading).
        .target(name: "AudioStreamTestSupport", dependencies: ["AudioStreamParsing"]),
        // The CLI: no dependency but the library and the code it shares with its HTTP helper.
        .executableTarget(
            name: "audioinspect",
            dependencies: ["AudioStreamParsing", "AudioStreamHLS", "AudioInspectCommon"],
            // The environment hooks the test scripts use exist only in debug builds (what `swift build` and
            // `swift test` make); a release build has none (TestHooks.swift, docs/cli.md).
            swiftSettings: [.define("AUDIOINSPECT_TEST_HOOKS", .when(configuration: .debug))]
        ),
        // The CLI's HTTP stack (AsyncHTTPClient on SwiftNIO and swift-nio-ssl), in its own executable that
        // `audioinspect` starts for a URL, so that a local file loads none of it (docs/cli.md).
        .executableTarget(
            name: "audioinspect-http",
            dependencies: [
                "AudioInspectCommon", "AudioStreamHLS",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [.define("AUDIOINSPECT_TEST_HOOKS", .when(configuration: .debug))]
        ),
        // What both executables share: URL validation, the terminal sanitizer, the helper's output
        // protocol, the clock. Pure Swift, no dependency.
        .target(name: "AudioInspectCommon"),
        .testTarget(
            name: "AudioStreamParsingTests",
            dependencies: ["AudioStreamParsing", "AudioStreamTestSupport"]
        ),
        .testTarget(
            name: "AudioStreamHLSTests",
            dependencies: ["AudioStreamHLS", "AudioStreamParsing", "AudioStreamTestSupport"]
        ),
        // libogg, the reference Ogg framing implementation, as the oracle of OggReferenceTests only.
        .systemLibrary(name: "COgg", pkgConfig: "ogg", providers: [.apt(["libogg-dev"])]),
        .testTarget(
            name: "OggReferenceTests",
            dependencies: ["COgg", "AudioStreamParsing", "AudioStreamTestSupport"]
        ),
        .testTarget(
            name: "AudioInspectTests",
            dependencies: [
                "audioinspect", "audioinspect-http", "AudioInspectCommon", "AudioStreamParsing",
                "AudioStreamTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
