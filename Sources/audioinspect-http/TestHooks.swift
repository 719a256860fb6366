/// Behaviour that only the test scripts switch on, from the environment (docs/cli.md, "Test hooks"),
/// compiled only into debug builds (`AUDIOINSPECT_TEST_HOOKS`, Package.swift); a release build reads
/// none of these variables.
enum TestHooks {
    #if AUDIOINSPECT_TEST_HOOKS
    /// `AUDIOINSPECT_TEST_CA_FILE=<PEM file>`: a certificate trusted as a root besides the system's, so
    /// the loopback tests can serve `https://` with a test CA (and check that a certificate from another
    /// CA or a self-signed one is still refused).
    static let extraTrustRootFile = HelperIO.environment("AUDIOINSPECT_TEST_CA_FILE")

    /// `AUDIOINSPECT_TEST_IDLE_SECONDS=<s>`: the idle timeout of an HTTP body (default 30 s), so the
    /// hostile-server tests see a stalled body fail in seconds.
    static let idleSeconds = HelperIO.environment("AUDIOINSPECT_TEST_IDLE_SECONDS").flatMap { Double($0) }
    #else
    static var extraTrustRootFile: String? { nil }
    static var idleSeconds: Double? { nil }
    #endif
}
