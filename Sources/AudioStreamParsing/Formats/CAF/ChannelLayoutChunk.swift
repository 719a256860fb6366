/// The body of a CAF `chan` chunk, an `AudioChannelLayout` (Apple "Core Audio Format Specification",
/// "Channel Layout", "Channel Layout Chunk").
///
/// ```
/// offset  size  field                        type
///      0     4  mChannelLayoutTag            UInt32 (layout id << 16 | channels, or 0 / 0x10000)
///      4     4  mChannelBitmap               UInt32 (used when the tag is UseChannelBitmap)
///      8     4  mNumberChannelDescriptions   UInt32
///     12  20×n  mChannelDescriptions         n × AudioChannelDescription:
///                 +0   4  mChannelLabel      UInt32
///                 +4   4  mChannelFlags      UInt32
///                 +8  12  mCoordinates       3 × Float32
/// ```
enum ChannelLayoutChunk {
    /// The chunk, for messages.
    static let structure = Structure("caf", "chan")
    /// The fixed part's size.
    static let headerByteCount = 12
    /// One channel description's size.
    static let descriptionByteCount = 20

    /// Decodes a whole `chan` body.
    ///
    /// - Returns: the layout, or `nil` when the body is shorter than 12 bytes or than the descriptions
    ///   it declares (the count is checked against the body before anything is read).
    static func decode(_ bytes: [UInt8]) -> ChannelLayout? {
        var r = ByteReader(bytes)
        guard let tag = r.readInteger(as: UInt32.self, endianness: .big),
            let bitmap = r.readInteger(as: UInt32.self, endianness: .big),
            let count = r.readInteger(as: UInt32.self, endianness: .big)
        else { return nil }
        // Safe: count < 2^32, so count × 20 fits in Int64.
        guard Int64(count) * Int64(descriptionByteCount) <= Int64(r.remaining) else { return nil }
        var descriptions: [ChannelDescription] = []
        for _ in 0..<count {
            guard let label = r.readInteger(as: UInt32.self, endianness: .big),
                let flags = r.readInteger(as: UInt32.self, endianness: .big),
                let x = r.readInteger(as: UInt32.self, endianness: .big),
                let y = r.readInteger(as: UInt32.self, endianness: .big),
                let z = r.readInteger(as: UInt32.self, endianness: .big)
            else { return nil }
            descriptions.append(
                ChannelDescription(
                    label: label, flags: flags,
                    coordinates: [Float(bitPattern: x), Float(bitPattern: y), Float(bitPattern: z)]))
        }
        return ChannelLayout(tag: ChannelLayout.Tag(rawValue: tag), bitmap: bitmap, channelDescriptions: descriptions)
    }
}
