/// Seconds on the monotonic clock (`clock_gettime(CLOCK_MONOTONIC)`): deadlines and elapsed times of the
/// URL modes, without Foundation's `Date`.
enum MonotonicClock {
    /// Now, in seconds since an arbitrary origin.
    static func now() -> Double { Platform.monotonicSeconds() }

    /// `seconds` from now.
    static func after(_ seconds: Double) -> Double { now() + seconds }
}
