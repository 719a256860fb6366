/// The elementary stream bytes of every PID of an MPEG-2 transport stream, with their file offsets
/// (ISO/IEC 13818-1 §2.4.3: 188-byte packets, or 192-byte units with a 4-byte prefix, or 204 with 16
/// FEC bytes, told apart by the sync spacing; adaptation fields and, at each payload_unit_start, the
/// PES header skipped). A packet cut from a transport stream is not one range of the file: its pieces
/// lie in consecutive payloads of its PID, which `matches` checks. Test code, independent of the
/// library. Built lazily by `EventRecorder` when a packet's bytes are not the input's at its offset. An
/// input that is no transport stream is one elementary stream: the file itself (raw LOAS).
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

    /// An input that is no transport stream, as one elementary stream (a raw LOAS file, whose packets are
    /// copied out of their AudioMuxElements as in a transport stream).
    private var raw: [UInt8]?

    package init?(_ file: [UInt8]) {
        guard let (unit, prefix) = Self.unitLayout(file) else {
            raw = file
            return
        }
        var start = 0
        var synced = true
        var counters: [Int: UInt8] = [:]
        var acrossLostSync: Set<Int> = []
        while start + unit <= file.count {
            let p = start + prefix
            // Lost sync (garbage between packets): on to the next sync byte that starts 4 units in a row (2 at
            // least at the end of the file), so that a 0x47 inside garbage is not taken for a packet.
            guard file[p] == 0x47, synced || Self.runOfUnits(file, at: p, unit: unit) else {
                // §2.4.3.3: duplicates are consecutive packets; junk lies between the last packets before
                // a lost sync and the first after it.
                if synced { acrossLostSync = Set(counters.keys) }
                synced = false
                start += 1
                continue
            }
            synced = true
            start += unit
            let pid = Int(file[p + 1] & 0x1F) << 8 | Int(file[p + 2])
            let control = file[p + 3] >> 4 & 3
            // §2.4.3.2: a packet with transport_error_indicator, a scrambled one (transport_scrambling_control
            // not 0) and a null packet carry nothing to reassemble.
            guard control & 1 == 1, file[p + 1] & 0x80 == 0, file[p + 3] & 0xC0 == 0, pid != 0x1FFF else { continue }
            var payload = p + 4
            if control & 2 != 0 { payload += 1 + Int(file[p + 4]) }
            // §2.4.3.5: an adaptation_field_length that runs past the packet leaves no payload to locate: the
            // packet is damaged, read like one with transport_error_indicator (its counter not taken either).
            guard payload <= p + 188 else { continue }
            // §2.4.3.3: a packet with the previous packet's continuity_counter is a duplicate.
            let counter = file[p + 3] & 0x0F
            let afterLostSync = acrossLostSync.remove(pid) != nil
            if counters[pid] == counter && !afterLostSync { continue }
            counters[pid] = counter
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

    /// Whether the sync byte at `p` starts 4 units in a row with sync bytes (those the file holds; 2 at least).
    private static func runOfUnits(_ file: [UInt8], at p: Int, unit: Int) -> Bool {
        var count = 0
        var at = p
        while count < 4 && at < file.count {
            guard file[at] == 0x47 else { return false }
            count += 1
            at += unit
        }
        return count >= 2
    }

    /// Whether `bytes` are a packet the demultiplexer may have cut from the stream at file offset `start`:
    /// the elementary stream bytes from there on (``matches(start:bytes:)``) or, for LATM, bits inside the
    /// LOAS frame that starts there (``matchesInsideLOASFrame(start:bytes:)``).
    package func contains<Bytes: Collection<UInt8>>(start: Int64, bytes: Bytes) -> Bool {
        matches(start: start, bytes: bytes) || matchesInsideLOASFrame(start: start, bytes: bytes)
    }

    /// Whether `bytes` are the elementary stream bytes from the one at file offset `start` on.
    package func matches<Bytes: Collection<UInt8>>(start: Int64, bytes: Bytes) -> Bool {
        guard let (stream, position) = locate(start), position + bytes.count <= stream.count else { return false }
        return stream[position..<(position + bytes.count)].elementsEqual(bytes)
    }

    /// The elementary stream holding the byte at file offset `start`, and the byte's index in it.
    private func locate(_ start: Int64) -> (stream: [UInt8], position: Int)? {
        if let raw {
            guard start >= 0, start < Int64(raw.count) else { return nil }
            return (raw, Int(start))
        }
        guard let (pid, position) = index[start], let stream = streams[pid] else { return nil }
        return (stream, position)
    }

    /// Whether `bytes` lie, at any bit position, inside the LOAS frame (ISO/IEC 14496-3 §1.7.2: syncword
    /// 0x2B7 in 11 bits, 13-bit audioMuxLengthBytes) that starts at file offset `start`: an LATM payload is
    /// copied out of its AudioMuxElement from whatever bit it starts at. A search, not a parse of the
    /// element.
    package func matchesInsideLOASFrame<Bytes: Collection<UInt8>>(start: Int64, bytes: Bytes) -> Bool {
        guard let (stream, position) = locate(start), position + 3 <= stream.count,
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
