// The libFuzzer entry points of the one fuzz binary (`Fuzz/.build-fuzz/fuzz`). The harness is chosen
// once, in `LLVMFuzzerInitialize`: the `FUZZ_HARNESS` environment variable, else the name the binary
// was started by (`Fuzz/run.sh` makes a symlink per harness: `Fuzz/.build-fuzz/FuzzWAVE crash-…`
// reproduces a finding). The harness bodies live in Tests/AudioStreamParsingTests/FuzzHarnesses/,
// shared with the FailCase replay test.

#if canImport(Glibc)
import Glibc
#endif

nonisolated(unsafe) private var selectedHarness: FuzzHarness.Body?
nonisolated(unsafe) private var selectedName = ""

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    var name = ""
    if let value = getenv("FUZZ_HARNESS") {
        name = String(cString: value)
    } else if let args = argv.pointee, let arg0 = args[0] {
        let path = String(cString: arg0)
        name = String(path.split(separator: "/").last ?? "")
    }
    guard let body = FuzzHarness.named(name) else {
        let names = FuzzHarness.all.map(\.name).joined(separator: " ")
        printToStandardError("fuzz: unknown harness '\(name)'; set FUZZ_HARNESS to one of: \(names)\n")
        exit(2)
    }
    selectedHarness = body
    selectedName = name
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    do {
        try selectedHarness?(input)
    } catch {
        printToStandardError("\(selectedName): \(error)\n")
        abort()
    }
    return 0
}

private func printToStandardError(_ message: String) {
    var message = message
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
