/// Behaviour that only the test scripts switch on, from the environment (docs/cli.md, "Test hooks"; the
/// hooks of the HTTP stack are `audioinspect-http`'s).
///
/// The hooks are compiled only when `AUDIOINSPECT_TEST_HOOKS` is defined, which Package.swift does for
/// debug builds (`swift build`, `swift test`, what `scripts/test.sh` runs). A release build
/// (`swift build -c release`, what is installed and benchmarked) has the constant answers of the `#else`
/// branch: it reads none of these variables.
enum TestHooks {
    #if AUDIOINSPECT_TEST_HOOKS
    /// `AUDIOINSPECT_TEST_RECV_SEED=<n>`: the state of the xorshift generator behind `receiveSize`, or
    /// `nil` when the variable is not set.
    nonisolated(unsafe) private static var receiveState: UInt64? =
        Platform.environment("AUDIOINSPECT_TEST_RECV_SEED").flatMap { UInt64($0) }.map { $0 | 1 }

    /// How many bytes one read of an HTTP body hands to the parser, out of `capacity`: with
    /// `AUDIOINSPECT_TEST_RECV_SEED=<n>`, a pseudo-random 1…8192 (seeded), so the loopback tests parse
    /// each file from reads of random sizes; otherwise `capacity`.
    static func receiveSize(_ capacity: Int) -> Int {
        guard var x = receiveState else { return capacity }
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
        receiveState = x
        return min(capacity, 1 + Int(x % 8192))
    }
    #else

    @inline(__always)
    static func receiveSize(_ capacity: Int) -> Int { capacity }
    #endif
}
