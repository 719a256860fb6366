/// Where the packets of a frame-sync stream start, for seeking and translations: the offset (relative
/// to the data offset) of every packet parsed in order from the first frame, then the end of the
/// last one, as a compact ``PositionTable``.
///
/// Packets are recorded only while their index is exact and extends the table (`packet` is the
/// table's next index), so a seek backwards replays frames without recording them twice, and an
/// estimated seek records nothing. The table stops growing once it holds more than
/// `ParserLimits.maxPacketTableEntries` entries.
struct FrameOffsetTable {
    /// The offsets: packet `n` starts at `offsets[n]`; the last entry is the end of the last packet.
    private(set) var offsets = PositionTable()
    /// True once the table reached its limit (later packets are not recorded).
    private(set) var isFull = false

    /// The number of packets recorded.
    var packetCount: Int { max(0, offsets.count - 1) }

    /// What ``record(packet:start:end:limit:)`` did.
    enum Recording: Equatable {
        /// Nothing: the packet does not extend the table, or the table is full.
        case skipped
        /// The packet was recorded.
        case recorded
        /// The packet was recorded and filled the table: later packets are not recorded.
        case recordedAndFull
    }

    /// Records packet `packet`, whose bytes span `start..<end` (relative to the data offset; a packet
    /// cut from a frame may start after the frame, several packets of one frame share its start).
    @inline(__always)
    mutating func record(packet: Int64, start: Int64, end: Int64, limit: Int) -> Recording {
        guard !isFull else { return .skipped }
        if offsets.isEmpty {
            guard packet == 0 else { return .skipped }
            offsets = PositionTable([start, end])
        } else {
            guard packet == Int64(offsets.count - 1) else { return .skipped }
            offsets.replaceLast(start)
            offsets.append(end)
        }
        guard offsets.count > limit else { return .recorded }
        isFull = true
        return .recordedAndFull
    }

    /// Records packets `packet`, `packet + 1`, … back to back from `start`: packet `k` (from 0) spans
    /// `steps[k]` bytes (or frames) after the end of packet `k - 1`. The same as one `record` per packet,
    /// with one table access per block of 64 packets when the packets extend the table and do not fill it.
    /// Returns what `record` returned for the last packet (`.skipped` for no packet).
    mutating func record(from packet: Int64, start: Int64, steps: ArraySlice<UInt16>, limit: Int) -> Recording {
        guard !isFull, !offsets.isEmpty, packet == Int64(offsets.count - 1), offsets.count + steps.count <= limit
        else {
            var result = Recording.skipped
            var at = start
            for (k, step) in zip(packet..., steps) {
                result = record(packet: k, start: at, end: at + Int64(step), limit: limit)
                at += Int64(step)
            }
            return result
        }
        guard !steps.isEmpty else { return .skipped }
        offsets.replaceLast(start)
        offsets.append(steps: steps)
        return .recorded
    }

    /// Replaces the end entry (the last packet's end) with `end`, when packets are recorded and the
    /// table is not full: a parser whose provisional end was a landing for the next packet (a transport
    /// stream's PES start) states the true end once the stream is over.
    mutating func replaceEnd(_ end: Int64) {
        guard !isFull, offsets.count >= 2, end >= offsets[offsets.count - 2] else { return }
        offsets.replaceLast(end)
    }

    /// Moves the table out (for a fast path's local copy), leaving it empty.
    mutating func take() -> FrameOffsetTable {
        let taken = self
        self = FrameOffsetTable()
        return taken
    }
}
