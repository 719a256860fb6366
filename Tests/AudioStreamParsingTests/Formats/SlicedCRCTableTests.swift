import Testing

@testable import AudioStreamParsing

/// `SlicedCRCTable.update` over buffers (16 bytes per step, two lanes for long runs) against a bit-by-bit
/// polynomial division written from the definition (MSB first, initial value given, no final XOR), for
/// the FLAC CRC-16 (0x8005) and the Ogg CRC-32 (0x04C11DB7), at every length around the lane and step
/// boundaries and from non-zero starting values.
@Suite("Sliced CRC tables")
struct SlicedCRCTableTests {
    /// The register after shifting in `bytes` bit by bit (no tables).
    static func bitwise<W: FixedWidthInteger & UnsignedInteger>(_ bytes: [UInt8], from start: W, polynomial: W) -> W {
        var c = start
        for byte in bytes {
            for i in (0..<8).reversed() {
                let top = c >> (W.bitWidth - 1) & 1
                let bit = W(byte >> UInt8(i) & 1)
                c = c << 1
                if top ^ bit == 1 { c ^= polynomial }
            }
        }
        return c
    }

    /// Deterministic pseudo-random bytes (a 64-bit LCG's high bytes).
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var x = seed
        return (0..<count).map { _ in
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: x >> 56)
        }
    }

    static let lengths: [Int] = {
        let lane = SlicedCRCTable<UInt32>.laneBytes
        let around = [
            0, 1, 15, 16, 17, 31, 32, 33, 2 * lane - 17, 2 * lane - 1, 2 * lane, 2 * lane + 1, 2 * lane + 16,
            4 * lane - 1, 4 * lane, 4 * lane + 15, 6 * lane + 7, 4096, 8191,
        ]
        return around
    }()

    @Test(arguments: lengths)
    func crc32MatchesTheBitwiseDivision(_ count: Int) {
        let data = Self.bytes(count, seed: UInt64(count) + 1)
        for start: UInt32 in [0, 0xDEAD_BEEF, 0xFFFF_FFFF] {
            let expected = Self.bitwise(data, from: start, polynomial: UInt32(0x04C1_1DB7))
            let got = withBorrowedBytes(of: data) { OggCRC.table.update(start, $0) }
            #expect(got == expected, "length \(count), start \(start)")
        }
    }

    @Test(arguments: lengths)
    func crc16MatchesTheBitwiseDivision(_ count: Int) {
        let data = Self.bytes(count, seed: UInt64(count) + 77)
        for start: UInt16 in [0, 0xBEEF, 0xFFFF] {
            let expected = Self.bitwise(data, from: start, polynomial: UInt16(0x8005))
            let got = withBorrowedBytes(of: data) { FLACCRC.table16.update(start, $0) }
            #expect(got == expected, "length \(count), start \(start)")
        }
    }

    /// The lane shift table advances a value over `laneBytes` zero bytes, as the bitwise division does.
    @Test func shiftTableAdvancesOverZeroBytes() {
        let zeros = [UInt8](repeating: 0, count: SlicedCRCTable<UInt32>.laneBytes)
        for start: UInt32 in [1, 0x8000_0000, 0x1234_5678, 0xFFFF_FFFF] {
            let got = OggCRC.table.shift.withUnsafeBufferPointer {
                SlicedCRCTable<UInt32>.advance(start, $0.baseAddress!)
            }
            #expect(got == Self.bitwise(zeros, from: start, polynomial: UInt32(0x04C1_1DB7)))
        }
    }
}
