/// Seconds on a monotonic clock (`ContinuousClock`) from an origin fixed when it is first read: deadlines
/// and elapsed times of the URL modes, in `audioinspect` and `audioinspect-http`.
package enum MonotonicClock {
    private static let origin = ContinuousClock.now

    /// Now, in seconds since the origin.
    package static func now() -> Double {
        let elapsed = (ContinuousClock.now - origin).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// `seconds` from now.
    package static func after(_ seconds: Double) -> Double { now() + seconds }
}
