/// Reassembles the PSI sections of one PID from the payloads of its packets (ISO/IEC 13818-1
/// §2.4.4.1–§2.4.4.2): a packet whose payload_unit_start_indicator is set begins with a pointer_field
/// (the bytes before the next section's start, which end the section in progress); a section's length
/// is 3 + section_length (12 bits, at most 1021 for the PAT and PMT); 0xFF bytes after a section are
/// stuffing. A section is handed out only when whole; a gap (lost packet) drops the one in progress.
struct TSSectionAssembler {
    /// The bytes of the section in progress.
    private var bytes: [UInt8] = []
    /// Whether a section is in progress (its start was seen).
    private var collecting = false

    /// The largest section of a PAT or PMT (§2.4.4.3, §2.4.4.8: section_length ≤ 1021).
    static let maxSectionBytes = 1024

    /// Feeds one packet's payload; returns the sections completed in it.
    mutating func feed(_ payload: ArraySlice<UInt8>, unitStart: Bool) -> [[UInt8]] {
        var sections: [[UInt8]] = []
        var rest = payload
        if unitStart {
            guard let pointer = rest.first else { return [] }
            rest = rest.dropFirst()
            let end = rest.startIndex + min(Int(pointer), rest.count)
            if collecting { append(rest[rest.startIndex..<end], into: &sections) }
            rest = rest[end...]
            bytes.removeAll(keepingCapacity: true)
            collecting = true
        } else if !collecting {
            return []
        }
        append(rest, into: &sections)
        return sections
    }

    /// Drops the section in progress (a continuity gap).
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        collecting = false
    }

    private mutating func append(_ data: ArraySlice<UInt8>, into sections: inout [[UInt8]]) {
        var data = data
        while !data.isEmpty, collecting {
            if bytes.isEmpty, data.first == 0xFF {
                // Stuffing: no section until the next unit start.
                collecting = false
                return
            }
            let need = (bytes.count < 3 ? 3 : Self.length(bytes)) - bytes.count
            let take = min(need, data.count)
            bytes.append(contentsOf: data.prefix(take))
            data = data.dropFirst(take)
            guard bytes.count >= 3 else { continue }
            let total = Self.length(bytes)
            guard total <= Self.maxSectionBytes else {
                bytes.removeAll(keepingCapacity: true)
                collecting = false
                return
            }
            if bytes.count == total {
                sections.append(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
    }

    /// 3 + section_length of a section whose first 3 bytes are in `header`.
    private static func length(_ header: [UInt8]) -> Int {
        3 + (Int(header[1] & 0x0F) << 8 | Int(header[2]))
    }
}
