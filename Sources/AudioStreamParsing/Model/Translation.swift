/// A value from a translation (packet ↔ frame ↔ byte), and whether it is exact.
public struct Translation<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The translated value.
    public var value: Value
    /// True when the value is an estimate (CoreAudio's `kBytePacketTranslationFlag_IsEstimate`).
    public var isEstimated: Bool

    /// Creates a translation.
    public init(value: Value, isEstimated: Bool) {
        self.value = value
        self.isEstimated = isEstimated
    }
}
