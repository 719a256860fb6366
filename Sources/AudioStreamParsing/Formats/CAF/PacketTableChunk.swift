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

/// The packets of a variable-size or variable-duration CAF stream, built from the `pakt` entries as
/// their bytes arrive.
///
/// Only what varies is stored: the start offset of every packet (relative to the first audio byte)
/// when sizes vary, the start frame of every packet when durations vary, each with one extra entry
/// for the end. The tables grow as entries are read, never from `mNumberPackets`.
struct CAFPacketTable {
    /// `mBytesPerPacket` (0 when sizes vary).
    let constantSize: Int64
    /// `mFramesPerPacket` (0 when durations vary).
    let constantFrames: Int64
    /// Start offset of each packet plus the end (`count + 1` entries) when sizes vary, else `[]`.
    private(set) var offsets: PositionTable = []
    /// Start frame of each packet plus the total (`count + 1` entries) when durations vary, else `[]`.
    private(set) var frameStarts: PositionTable = []
    /// The number of packets.
    private(set) var count = 0
    /// The largest packet.
    private(set) var maximumSize: Int64 = 0

    init(bytesPerPacket: UInt32, framesPerPacket: UInt32) {
        constantSize = Int64(bytesPerPacket)
        constantFrames = Int64(framesPerPacket)
        if constantSize == 0 { offsets = [0] }
        if constantFrames == 0 { frameStarts = [0] }
        maximumSize = constantSize
    }

    /// True when each entry carries a size.
    var hasVariableSizes: Bool { constantSize == 0 }
    /// True when each entry carries a frame count.
    var hasVariableFrames: Bool { constantFrames == 0 }

    /// The bytes of all packets.
    var totalBytes: Int64 { hasVariableSizes ? offsets.last ?? 0 : constantSize * Int64(count) }
    /// The frames of all packets.
    var totalFrames: Int64 { hasVariableFrames ? frameStarts.last ?? 0 : constantFrames * Int64(count) }

    /// The offset of packet `index` (0…count) from the first audio byte.
    func offset(of index: Int) -> Int64 { hasVariableSizes ? offsets[index] : constantSize * Int64(index) }
    /// The size of packet `index` (0..<count).
    func size(of index: Int) -> Int64 {
        hasVariableSizes ? offsets.step(after: index) : constantSize
    }
    /// The frames of packet `index` (0..<count).
    func frames(of index: Int) -> Int64 {
        hasVariableFrames ? frameStarts.step(after: index) : constantFrames
    }

    /// Appends one packet; false (and nothing appended) when a running total would overflow.
    mutating func append(size: Int64, frames: Int64) -> Bool {
        let next = Int64(count) + 1
        var end: (bytes: Int64, frames: Int64) = (0, 0)
        var overflow = false
        // Constant fields: the totals are products; checking them here keeps every later read in range.
        if hasVariableSizes {
            (end.bytes, overflow) = (offsets.last ?? 0).addingReportingOverflow(size)
        } else {
            overflow = constantSize.multipliedReportingOverflow(by: next).overflow
        }
        if overflow { return false }
        if hasVariableFrames {
            (end.frames, overflow) = (frameStarts.last ?? 0).addingReportingOverflow(frames)
        } else {
            overflow = constantFrames.multipliedReportingOverflow(by: next).overflow
        }
        if overflow { return false }
        if hasVariableSizes {
            offsets.append(end.bytes)
            maximumSize = max(maximumSize, size)
        }
        if hasVariableFrames { frameStarts.append(end.frames) }
        count += 1
        return true
    }

    /// The index of the first packet that starts at or after `byte` (relative to the first audio byte),
    /// or `count` when there is none.
    func firstPacket(atOrAfter byte: Int64) -> Int {
        if byte <= 0 { return 0 }
        if !hasVariableSizes {
            let index = (byte + constantSize - 1) / constantSize
            return Int(min(index, Int64(count)))
        }
        if byte > offsets.last ?? 0 { return count }
        let i = offsets.lastIndex(notAbove: byte)
        return offsets[i] == byte ? i : i + 1
    }

    /// The geometry for translations and seeking.
    var packetMap: PacketMap {
        PacketMap(
            bytesPerPacket: hasVariableSizes ? nil : constantSize,
            framesPerPacket: hasVariableFrames ? nil : constantFrames,
            packetOffsets: hasVariableSizes ? offsets : nil,
            packetFrames: hasVariableFrames ? frameStarts : nil,
            packetCount: Int64(count))
    }
}
