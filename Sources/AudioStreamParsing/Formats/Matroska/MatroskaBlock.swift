/// The header of a `SimpleBlock` or `Block` body and its lacing (RFC 9559 §10.1–§10.3): where each
/// frame of the block lies.
///
/// ```
///  Track Number   1–8 bytes, a variable-length integer (the track's TrackNumber)
///  Timestamp      2 bytes, signed big-endian, relative to the Cluster's Timestamp
///  Flags          1 byte:  0x80 keyframe (SimpleBlock), 0x08 invisible, 0x06 lacing, 0x01 discardable
///                          lacing 00 none, 01 Xiph, 11 EBML, 10 fixed-size
///  [lacing]       frame count − 1 (1 byte), then the sizes of all frames but the last:
///                 Xiph   each size as a run of 0xFF bytes plus a final byte below 0xFF, summed
///                 EBML   the first size as a variable-length integer, then each next size as a signed
///                        difference (a variable-length integer minus 2^(7n−1) − 1)
///                 fixed  none: the frames share the rest equally
///  frames         back to back; the last one takes what remains of the body
/// ```
struct MatroskaBlock: Equatable {
    /// The TrackNumber the block belongs to.
    var track: UInt64
    /// The timestamp relative to the Cluster's, in TimestampScale units.
    var relativeTimestamp: Int16
    var flags: UInt8
    /// Bytes from the body's start to the first frame (header and lacing).
    var headerLength: Int
    /// Each frame's size, in order (one for an unlaced block).
    var frameSizes: [Int]

    /// What reading a block header gave.
    enum Decoded: Equatable {
        case block(MatroskaBlock)
        /// This many body bytes must be readable first.
        case needMoreData(Int)
        case invalid(String)
    }

    /// The track number alone, from the body's first bytes: (number, its length), `nil` when not
    /// readable or malformed.
    static func trackNumber(in bytes: some ElementBytes, at offset: Int) -> (number: UInt64, length: Int)? {
        guard let first = bytes.peekUInt8(at: offset), let length = EBMLSyntax.vintLength(first),
            let raw = bytes.peekBigEndian(at: offset, byteCount: length)
        else { return nil }
        return (raw & (1 << UInt64(7 * length) - 1), length)
    }

    /// Decodes the block header whose body starts `offset` bytes into `bytes` and is `bodySize`
    /// bytes long. Reads only the header and lacing bytes.
    static func decode(in bytes: some ElementBytes, at offset: Int, bodySize: Int) -> Decoded {
        guard let first = bytes.peekUInt8(at: offset) else { return .needMoreData(1) }
        guard let trackLength = EBMLSyntax.vintLength(first) else { return .invalid("malformed track number") }
        let fixedHeader = trackLength + 3
        guard bodySize >= fixedHeader else { return .invalid("block of \(bodySize) bytes is shorter than its header") }
        guard let (track, _) = trackNumber(in: bytes, at: offset),
            let time = bytes.peekBigEndian(at: offset + trackLength, byteCount: 2),
            let flags = bytes.peekUInt8(at: offset + trackLength + 2)
        else { return .needMoreData(fixedHeader) }
        var block = MatroskaBlock(
            track: track, relativeTimestamp: Int16(truncatingIfNeeded: time), flags: flags, headerLength: fixedHeader,
            frameSizes: [])
        let lacing = flags >> 1 & 3
        if lacing == 0 {
            block.frameSizes = [bodySize - fixedHeader]
            return .block(block)
        }
        guard bodySize > fixedHeader else { return .invalid("laced block without a frame count") }
        guard let countByte = bytes.peekUInt8(at: offset + fixedHeader) else { return .needMoreData(fixedHeader + 1) }
        let count = Int(countByte) + 1
        var at = fixedHeader + 1
        var sizes: [Int] = []
        sizes.reserveCapacity(count)
        switch lacing {
        case 1:  // Xiph
            for _ in 0..<(count - 1) {
                var size = 0
                while true {
                    guard at < bodySize else { return .invalid("Xiph lacing runs past the block") }
                    guard let b = bytes.peekUInt8(at: offset + at) else { return .needMoreData(at + 1) }
                    at += 1
                    size += Int(b)
                    if b != 0xFF { break }
                }
                sizes.append(size)
            }
        case 3:  // EBML
            var previous = 0
            for i in 0..<(count - 1) {
                guard at < bodySize else { return .invalid("EBML lacing runs past the block") }
                guard let b = bytes.peekUInt8(at: offset + at) else { return .needMoreData(at + 1) }
                guard let n = EBMLSyntax.vintLength(b), at + n <= bodySize else {
                    return .invalid("malformed EBML lace size")
                }
                guard let raw = bytes.peekBigEndian(at: offset + at, byteCount: n) else { return .needMoreData(at + n) }
                at += n
                let value = Int64(bitPattern: raw & (1 << UInt64(7 * n) - 1))
                if i == 0 {
                    guard value <= Int64(bodySize) else { return .invalid("EBML lace size past the block") }
                    previous = Int(value)
                } else {
                    let bias = Int64(1) << Int64(7 * n - 1) - 1
                    let next = Int64(previous) + (value - bias)
                    guard next >= 0, next <= Int64(bodySize) else { return .invalid("EBML lace size out of range") }
                    previous = Int(next)
                }
                sizes.append(previous)
            }
        default:  // fixed
            let rest = bodySize - at
            guard rest % count == 0 else { return .invalid("fixed-size lacing: \(rest) bytes for \(count) frames") }
            block.headerLength = at
            block.frameSizes = Array(repeating: rest / count, count: count)
            return .block(block)
        }
        let listed = sizes.reduce(0, +)
        guard listed <= bodySize - at else { return .invalid("laced frames exceed the block") }
        sizes.append(bodySize - at - listed)
        block.headerLength = at
        block.frameSizes = sizes
        return .block(block)
    }
}
