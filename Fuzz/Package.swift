// swift-tools-version:6.1
// Not used to build the fuzzers: Fuzz/run.sh compiles one libFuzzer binary with swiftc (the library's
// sources, the harnesses in Tests/AudioStreamParsingTests/FuzzHarnesses/ and Sources/FuzzMain as one
// module, -sanitize=fuzzer,address). This manifest only keeps `swift package` tooling in this folder
// from picking up the parent package. See docs/fuzzing.md.
import PackageDescription

let package = Package(
    name: "AudioStreamParsingFuzz",
    targets: [],
    swiftLanguageModes: [.v6]
)
