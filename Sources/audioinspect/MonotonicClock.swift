#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on the monotonic clock (`clock_gettime(CLOCK_MONOTONIC)`): deadlines and elapsed times of the
/// URL modes, without Foundation's `Date`.
enum MonotonicClock {
    /// Now, in seconds since an arbitrary origin.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// `seconds` from now.
    static func after(_ seconds: Double) -> Double { now() + seconds }
}
