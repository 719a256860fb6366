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
