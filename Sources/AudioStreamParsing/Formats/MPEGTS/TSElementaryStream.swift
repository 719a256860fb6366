/// The elementary stream of one PID, reassembled from its PES packets (ISO/IEC 13818-1 §2.4.3.6): the
/// PES header is read when a packet starts a unit, the data after it is appended to ``bytes`` with a
/// mark of the file offset each run came from, so that a frame's first byte has an absolute offset even
/// when the frame spans several transport packets or PES packets.
///
/// Bounded: at most ``maxBufferedBytes`` of data wait for a frame; a PES header is at most 264 bytes.
struct TSElementaryStream {
    /// Data not yet taken out as frames.
    private(set) var bytes: [UInt8] = []
    /// Where a run of data came from: its index in `bytes`, its absolute file offset, and the offset of
    /// the transport packet that started its PES packet.
    struct Mark {
        var index: Int
        var offset: Int64
        var unit: Int64
    }
    /// The runs appended, ascending.
    private var marks: [Mark] = []
    /// The offset of the transport packet that started the current PES packet.
    private(set) var unit: Int64 = 0
    /// The bytes of a PES header still incomplete (it straddles transport packets).
    private var header: [UInt8] = []
    /// Whether the data after a PES header is being appended (false until the first unit start and
    /// after a gap).
    private(set) var inUnit = false
    /// The PTS of the latest PES packet, and where its data starts in `bytes`.
    private(set) var latestPTS: (pts: Int64, index: Int)?
    /// PES headers read so far, and the PTS of the latest (`nil` when it had none): a seek's search
    /// reads them (`MPEGTSParser+Seek.swift`).
    private(set) var headersRead = 0
    private(set) var latestHeaderPTS: Int64?

    /// The most data held without a frame being taken out: a frame never needs more.
    static let maxBufferedBytes = 1 << 17

    /// What feeding a payload did.
    enum Fed: Equatable {
        case ok
        /// The PES header was not one (why): the unit is dropped.
        case invalidHeader(String)
        /// More than ``maxBufferedBytes`` waited: the oldest were dropped.
        case overflow(Int)
    }

    /// Appends the payload of the transport packet at absolute offset `unitOffset` (its prefix
    /// included), whose payload starts at absolute offset `offset`.
    mutating func feed(_ payload: ArraySlice<UInt8>, at offset: Int64, unitOffset: Int64, unitStart: Bool) -> Fed {
        var payload = payload
        var offset = offset
        if unitStart {
            unit = unitOffset
            header.removeAll(keepingCapacity: true)
            inUnit = false
            header.append(contentsOf: payload)
            payload = payload[payload.endIndex...]
        } else if !inUnit {
            guard !header.isEmpty else { return .ok }
            let before = header.count
            header.append(contentsOf: payload.prefix(TSPESHeader.maxHeaderLength))
            payload = payload[payload.endIndex...]
            offset -= Int64(before)
        }
        if !header.isEmpty {
            switch TSPESHeader.decode(header[...]) {
            case .needMoreData:
                if header.count > TSPESHeader.maxHeaderLength { header.removeAll() }
                return .ok
            case .invalid(let why):
                header.removeAll()
                return .invalidHeader(why)
            case .header(let pes):
                let data = header[pes.headerLength...]
                let dataOffset = offset + Int64(pes.headerLength)
                header.removeAll(keepingCapacity: true)
                inUnit = true
                if let pts = pes.pts { latestPTS = (pts, bytes.count) }
                headersRead &+= 1
                latestHeaderPTS = pes.pts
                append(data, at: dataOffset)
                return checkBound()
            }
        }
        guard inUnit else { return .ok }
        append(payload, at: offset)
        return checkBound()
    }

    private mutating func append(_ data: ArraySlice<UInt8>, at offset: Int64) {
        guard !data.isEmpty else { return }
        marks.append(Mark(index: bytes.count, offset: offset, unit: unit))
        bytes.append(contentsOf: data)
    }

    private mutating func checkBound() -> Fed {
        guard bytes.count > Self.maxBufferedBytes else { return .ok }
        let dropped = bytes.count - Self.maxBufferedBytes / 2
        removeFirst(dropped)
        return .overflow(dropped)
    }

    /// The absolute offset of `bytes[index]`, and the offset of the transport packet that started its
    /// PES packet.
    func position(of index: Int) -> (offset: Int64, unit: Int64) {
        var low = 0
        var high = marks.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if marks[mid].index <= index { low = mid } else { high = mid }
        }
        guard marks.indices.contains(low) else { return (0, 0) }
        let mark = marks[low]
        return (mark.offset + Int64(index - mark.index), mark.unit)
    }

    /// Drops the first `count` bytes (taken out as frames, or junk).
    mutating func removeFirst(_ count: Int) {
        let count = min(count, bytes.count)
        guard count > 0 else { return }
        bytes.removeFirst(count)
        var kept: [Mark] = []
        kept.reserveCapacity(marks.count)
        for (i, mark) in marks.enumerated() {
            let end = i + 1 < marks.count ? marks[i + 1].index : Int.max
            if end <= count { continue }
            if mark.index >= count {
                kept.append(Mark(index: mark.index - count, offset: mark.offset, unit: mark.unit))
            } else {
                kept.append(Mark(index: 0, offset: mark.offset + Int64(count - mark.index), unit: mark.unit))
            }
        }
        marks = kept
        if let latest = latestPTS { latestPTS = latest.index >= count ? (latest.pts, latest.index - count) : nil }
    }

    /// Drops everything (a continuity gap, a seek): the next unit start begins afresh.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        marks.removeAll(keepingCapacity: true)
        header.removeAll(keepingCapacity: true)
        inUnit = false
        latestPTS = nil
    }
}
