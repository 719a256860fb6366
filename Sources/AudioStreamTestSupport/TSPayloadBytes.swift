/// The elementary stream bytes of every PID of an MPEG-2 transport stream, with their file offsets
/// (ISO/IEC 13818-1 §2.4.3: 188-byte packets, or 192-byte units with a 4-byte prefix, or 204 with 16
/// FEC bytes, told apart by the sync spacing; adaptation fields and, at each payload_unit_start, the
/// PES header skipped). A packet cut from a transport stream is not one range of the file: its pieces
/// lie in consecutive payloads of its PID, which `matches` checks. Test code, independent of the
/// library. Built lazily by `EventRecorder` when a packet's bytes are not the input's at its offset.
package struct TSPayloadBytes {
    /// For a file offset inside a payload: the PID's elementary stream and the byte's index in it.
    private var index: [Int64: (pid: Int, position: Int)] = [:]
    private var streams: [Int: [UInt8]] = [:]

    /// The unit size (188, 192 or 204) and where the sync byte lies in a unit, from the first two units.
    package static func unitLayout(_ file: [UInt8]) -> (unit: Int, prefix: Int)? {
        for (size, sync) in [(188, 0), (192, 4), (204, 0)]
        where file.count >= 2 * size && file[sync] == 0x47 && file[size + sync] == 0x47 {
            return (size, sync)
        }
        return nil
    }

    package init?(_ file: [UInt8]) {
        guard let (unit, prefix) = Self.unitLayout(file) else { return nil }
        var start = 0
        while start + unit <= file.count {
            let p = start + prefix
            // Lost sync (garbage between packets): on to the next sync byte.
            guard file[p] == 0x47 else {
                start += 1
                continue
            }
            start += unit
            let pid = Int(file[p + 1] & 0x1F) << 8 | Int(file[p + 2])
            let control = file[p + 3] >> 4 & 3
            guard control & 1 == 1 else { continue }
            var payload = p + 4
            if control & 2 != 0 { payload += 1 + Int(file[p + 4]) }
            if file[p + 1] & 0x40 != 0, payload + 9 <= p + 188, file[payload] == 0, file[payload + 1] == 0,
                file[payload + 2] == 1
            {
                payload += 9 + Int(file[payload + 8])
            }
            guard payload < p + 188 else { continue }
            for k in payload..<(p + 188) {
                index[Int64(k)] = (pid, streams[pid, default: []].count)
                streams[pid, default: []].append(file[k])
            }
        }
    }

    /// Whether `bytes` are the elementary stream bytes from the one at file offset `start` on.
    package func matches<Bytes: Collection<UInt8>>(start: Int64, bytes: Bytes) -> Bool {
        guard let (pid, position) = index[start], let stream = streams[pid], position + bytes.count <= stream.count
        else { return false }
        return stream[position..<(position + bytes.count)].elementsEqual(bytes)
    }

    /// Whether `bytes` lie, at any bit position, inside the LOAS frame (ISO/IEC 14496-3 §1.7.2: syncword
    /// 0x2B7 in 11 bits, 13-bit audioMuxLengthBytes) that starts at file offset `start`: an LATM payload is
    /// copied out of its AudioMuxElement from whatever bit it starts at. A search, not a parse of the
    /// element.
    package func matchesInsideLOASFrame<Bytes: Collection<UInt8>>(start: Int64, bytes: Bytes) -> Bool {
        guard let (pid, position) = index[start], let stream = streams[pid], position + 3 <= stream.count,
            stream[position] == 0x56, stream[position + 1] & 0xE0 == 0xE0
        else { return false }
        let length = 3 + (Int(stream[position + 1] & 0x1F) << 8 | Int(stream[position + 2]))
        guard position + length <= stream.count else { return false }
        let frame = Array(stream[position..<(position + length)])
        let wanted = Array(bytes)
        let bits = wanted.count * 8
        guard bits <= frame.count * 8 else { return false }
        func bit(_ i: Int) -> UInt8 { frame[i >> 3] >> (7 - UInt8(i & 7)) & 1 }
        for first in stride(from: 24, through: frame.count * 8 - bits, by: 1) {
            var k = 0
            while k < bits, bit(first + k) == wanted[k >> 3] >> (7 - UInt8(k & 7)) & 1 { k += 1 }
            if k == bits { return true }
        }
        return false
    }
}
