/// The header of a CAF `pakt` chunk (`CAFPacketTableHeader`; Apple "Core Audio Format Specification",
/// "Required Chunks", "Packet Table Chunk").
///
/// ```
/// offset  size  field                type
///      0     8  mNumberPackets       SInt64: packets in the audio data
///      8     8  mNumberValidFrames   SInt64: frames left after trimming priming and remainder
///     16     4  mPrimingFrames       SInt32: frames to drop at the start
///     20     4  mRemainderFrames     SInt32: frames to drop at the end
///     24     …  mPacketDescriptions  one entry per packet, each made of variable-length integers:
///                                    the packet's byte size      (only when mBytesPerPacket == 0)
///                                    then its frame count        (only when mFramesPerPacket == 0)
/// ```
///
/// A variable-length integer is big-endian base-128: each byte carries 7 bits, the high bit is set on
/// every byte but the last (`0x8C 0x24` = 12 × 128 + 36 = 1572).
struct PacketTableChunk: Equatable {
    /// The chunk, for messages.
    static let structure = Structure("caf", "pakt")
    /// The header's size in bytes.
    static let headerByteCount = 24

    var numberPackets: Int64
    var numberValidFrames: Int64
    var primingFrames: Int32
    var remainderFrames: Int32

    /// Decodes the 24-byte header, or `nil` when `bytes` is shorter.
    static func decodeHeader(_ bytes: [UInt8]) -> PacketTableChunk? {
        var r = ByteReader(bytes)
        guard let packets = r.readInteger(as: UInt64.self, endianness: .big),
            let valid = r.readInteger(as: UInt64.self, endianness: .big),
            let priming = r.readInteger(as: UInt32.self, endianness: .big),
            let remainder = r.readInteger(as: UInt32.self, endianness: .big)
        else { return nil }
        return PacketTableChunk(
            numberPackets: Int64(bitPattern: packets), numberValidFrames: Int64(bitPattern: valid),
            primingFrames: Int32(bitPattern: priming), remainderFrames: Int32(bitPattern: remainder))
    }

    /// The gapless information, when it is consistent with `totalFrames` (the nominal frames of all
    /// packets): `totalFrames − priming − remainder == numberValidFrames`, none of them negative.
    func packetTableInfo(totalFrames: Int64) -> PacketTableInfo? {
        guard numberValidFrames >= 0, primingFrames >= 0, remainderFrames >= 0 else { return nil }
        let trimmed = Int64(primingFrames) + Int64(remainderFrames)
        let (sum, overflow) = numberValidFrames.addingReportingOverflow(trimmed)
        guard !overflow, sum == totalFrames else { return nil }
        return PacketTableInfo(
            numberValidFrames: numberValidFrames, primingFrames: primingFrames, remainderFrames: remainderFrames)
    }
}

/// One variable-length integer of a `pakt` entry, as far as the readable bytes tell.
enum CAFVarint: Equatable {
    /// The value and the bytes it took.
    case value(UInt64, byteCount: Int)
    /// More bytes are needed, and the chunk still has them.
    case needMoreData
    /// The integer's continuation bits run past the end of the chunk.
    case pastChunkEnd
    /// More than 10 bytes, or a value that does not fit in 64 bits.
    case tooLong

    /// The longest integer accepted (10 × 7 = 70 bits; anything that does not fit 64 bits is refused).
    static let maximumByteCount = 10

    /// Decodes the integer `offset` bytes after the window's position; `chunkBytes` is how many bytes
    /// of the chunk remain from `offset`.
    static func peek(_ window: InputWindow, at offset: Int, chunkBytes: Int64) -> CAFVarint {
        var value: UInt64 = 0
        var count = 0
        while true {
            if Int64(count) >= chunkBytes { return .pastChunkEnd }
            if count == maximumByteCount { return .tooLong }
            guard let byte = window.peekUInt8(at: offset + count) else { return .needMoreData }
            if value > UInt64.max >> 7 { return .tooLong }
            value = value << 7 | UInt64(byte & 0x7F)
            count += 1
            if byte & 0x80 == 0 { return .value(value, byteCount: count) }
        }
    }
}
