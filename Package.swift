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
        .executable(name: "audioinspect", targets: ["audioinspect"]),
        .executable(name: "audioinspect-https", targets: ["audioinspect-https"]),
    ],
    targets: [
        // The library: pure Swift, no Foundation, no dependencies.
        .target(name: "AudioStreamParsing", swiftSettings: [.strictMemorySafety()]),
        // Helpers shared by the tests (chunking verifier, event logs, oracle loading).
        .target(name: "AudioStreamTestSupport", dependencies: ["AudioStreamParsing"]),
        .executableTarget(
            name: "audioinspect",
            dependencies: ["AudioStreamParsing"],
            // The environment hooks scripts/test-streaming.sh uses exist only in debug builds (what
            // `swift build` and `swift test` make); a release build has none (TestHooks.swift, docs/cli.md).
            swiftSettings: [.define("AUDIOINSPECT_TEST_HOOKS", .when(configuration: .debug))]
        ),
        // The https:// client `audioinspect` spawns (URLSession), so that audioinspect links no Foundation.
        .executableTarget(name: "audioinspect-https"),
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
