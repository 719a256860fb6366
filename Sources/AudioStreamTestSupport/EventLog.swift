import AudioStreamParsing

/// A normalised record of everything a parse produced, independent of how the input was chunked.
///
/// Packets are stored as maximal runs of back-to-back packets of equal size (so batch boundaries,
/// which legitimately depend on chunking, do not matter), each with its absolute file offset.
package struct EventLog: Equatable, CustomStringConvertible {
    /// A run of back-to-back packets of equal size and frame count.
    package struct PacketRun: Equatable, CustomStringConvertible {
        package var fileOffset: Int64
        package var size: Int
        package var frames: UInt32
        package var count: Int
        package var firstPacketIndex: Int64
        package var description: String {
            "packets[\(firstPacketIndex)..<\(firstPacketIndex + Int64(count))] @\(fileOffset) size \(size) frames \(frames)"
        }
    }

    /// One event in stream order.
    package enum Entry: Equatable, CustomStringConvertible {
        case property(AudioStreamPropertyValue)
        case packets(PacketRun)
        case diagnostic(ParserDiagnostic)

        package var description: String {
            switch self {
            case .property(let v): return "property \(v.id): \(v)"
            case .packets(let r): return r.description
            case .diagnostic(let d): return "diagnostic \(d)"
            }
        }
    }

    package var entries: [Entry] = []
    package var error: AudioStreamError?
    /// FNV-1a over every packet's bytes in order.
    package var payloadHash: UInt64 = 0xcbf2_9ce4_8422_2325
    /// Packets whose bytes differed from the input at their claimed offset (when checked).
    package var bytesMismatches: [String] = []

    package init() {}

    /// Every packet, expanded: (absolute offset, size, frames).
    package var packets: [(offset: Int64, size: Int, frames: UInt32)] {
        var out: [(Int64, Int, UInt32)] = []
        for case .packets(let r) in entries {
            for i in 0..<r.count { out.append((r.fileOffset + Int64(i * r.size), r.size, r.frames)) }
        }
        return out
    }

    /// The number of packets.
    package var packetCount: Int {
        var n = 0
        for case .packets(let r) in entries { n += r.count }
        return n
    }

    /// The last announced value of each property.
    package var lastValues: [AudioStreamPropertyID: AudioStreamPropertyValue] {
        var d: [AudioStreamPropertyID: AudioStreamPropertyValue] = [:]
        for case .property(let v) in entries { d[v.id] = v }
        return d
    }

    /// The IDs of the announced properties, in order.
    package var propertyOrder: [AudioStreamPropertyID] {
        entries.compactMap { if case .property(let v) = $0 { return v.id } else { return nil } }
    }

    mutating func appendPacket(offset: Int64, size: Int, frames: UInt32, index: Int64) {
        if case .packets(var last)? = entries.last, last.size == size, last.frames == frames,
            last.fileOffset + Int64(last.count * last.size) == offset,
            last.firstPacketIndex + Int64(last.count) == index
        {
            last.count += 1
            entries[entries.count - 1] = .packets(last)
        } else {
            entries.append(
                .packets(PacketRun(fileOffset: offset, size: size, frames: frames, count: 1, firstPacketIndex: index)))
        }
    }

    mutating func hash(_ bytes: UnsafeRawBufferPointer) {
        var h = payloadHash
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        payloadHash = h
    }

    package var description: String {
        var lines = entries.map(\.description)
        if let error { lines.append("error \(error)") }
        return lines.joined(separator: "\n")
    }

    /// A readable list of the first differences from `other`.
    package func differences(from other: EventLog, limit: Int = 5) -> [String] {
        var out: [String] = []
        let n = max(entries.count, other.entries.count)
        for i in 0..<n where out.count < limit {
            let a = i < entries.count ? entries[i].description : "<none>"
            let b = i < other.entries.count ? other.entries[i].description : "<none>"
            if a != b || (i < entries.count && i < other.entries.count && entries[i] != other.entries[i]) {
                out.append("#\(i): \(a)  ≠  \(b)")
            }
        }
        if error != other.error {
            out.append("error: \(String(describing: error)) ≠ \(String(describing: other.error))")
        }
        if payloadHash != other.payloadHash { out.append("payload hash differs") }
        return out
    }
}
