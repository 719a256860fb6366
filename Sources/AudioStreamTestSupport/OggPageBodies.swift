/// Where the page bodies of an Ogg stream lie, so that a packet continued across pages (whose bytes are
/// not one contiguous range of the input: page headers lie between its pieces) can still be checked
/// against the input.
///
/// Pages are found independently of the library: every "OggS" whose header is complete and whose
/// CRC-32 (RFC 3533 §6: polynomial 0x04C11DB7, MSB first, initial 0, checksum field as zero) matches.
package struct OggPageBodies {
    package struct Body {
        package var range: Range<Int>
        package var serial: UInt32
    }

    package let bodies: [Body]

    package init(_ input: [UInt8]) {
        var out: [Body] = []
        var i = 0
        while i + 27 <= input.count {
            guard input[i] == 0x4F, input[i + 1] == 0x67, input[i + 2] == 0x67, input[i + 3] == 0x53 else {
                i += 1
                continue
            }
            let segments = Int(input[i + 26])
            guard i + 27 + segments <= input.count else { break }
            let bodySize = input[(i + 27)..<(i + 27 + segments)].reduce(0) { $0 + Int($1) }
            let end = i + 27 + segments + bodySize
            guard end <= input.count, Self.checksum(input[i..<end]) == Self.storedChecksum(input, at: i) else {
                i += 1
                continue
            }
            let serial = (0..<4).reduce(UInt32(0)) { $0 | UInt32(input[i + 14 + $1]) << (8 * $1) }
            out.append(Body(range: (i + 27 + segments)..<end, serial: serial))
            i = end
        }
        bodies = out
    }

    /// True when `bytes` equal the input from `start` on, continuing into the bodies of the following
    /// pages of the same logical stream when a body ends.
    package func matches(_ input: [UInt8], start: Int, bytes: some Collection<UInt8>) -> Bool {
        guard let first = bodies.firstIndex(where: { $0.range.contains(start) }) else { return false }
        let serial = bodies[first].serial
        var position = start
        var index = first
        var iterator = bytes.makeIterator()
        var left = bytes.count
        while left > 0 {
            let body = bodies[index].range
            while position < body.upperBound && left > 0 {
                guard iterator.next() == input[position] else { return false }
                position += 1
                left -= 1
            }
            guard left > 0 else { break }
            guard let next = bodies[(index + 1)...].firstIndex(where: { $0.serial == serial }) else { return false }
            index = next
            position = bodies[index].range.lowerBound
        }
        return true
    }

    static func storedChecksum(_ input: [UInt8], at i: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(input[i + 22 + $1]) << (8 * $1) }
    }

    package static func checksum(_ page: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for (k, byte) in page.enumerated() {
            let b = (22..<26).contains(k) ? 0 : byte
            crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ b)]
        }
        return crc
    }

    static let table: [UInt32] = (0..<256).map { i -> UInt32 in
        var r = UInt32(i) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }
}
