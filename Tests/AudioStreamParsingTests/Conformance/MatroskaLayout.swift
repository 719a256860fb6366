/// Where the audio of a Matroska/WebM file lies, read from the bytes alone (RFC 8794 §4–§5, RFC 9559
/// §10.1–§10.3), independently of the library: ffprobe reports a Matroska packet's `pos` as the start
/// of its block's body (the track number), and the frames of a laced block share it
/// (docs/testing.md, "Matroska"). The expected packet is the frame itself: after the block header and
/// lacing, then after the frames of the block before it.
enum MatroskaLayout {
    /// A variable-length integer at `p`: (value without the marker, length).
    static func vint(_ b: [UInt8], _ p: Int) -> (value: UInt64, length: Int)? {
        guard p < b.count, b[p] != 0 else { return nil }
        let length = b[p].leadingZeroBitCount + 1
        guard p + length <= b.count else { return nil }
        var value = UInt64(b[p]) & (0xFF >> UInt64(length))
        for k in 1..<max(1, length) where k < length { value = value << 8 | UInt64(b[p + k]) }
        return (value, length)
    }

    /// The offset of the first Cluster element (after the EBML header and the Segment's header).
    static func firstCluster(_ b: [UInt8]) throws(ExpectationError) -> Int64 {
        func header(_ p: Int) throws(ExpectationError) -> (id: UInt64, headerLength: Int, size: UInt64) {
            guard let id = vint(b, p), let size = vint(b, p + id.length) else {
                throw ExpectationError("no element header at \(p)")
            }
            let raw = b[p..<(p + id.length)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return (raw, id.length + size.length, size.value)
        }
        let ebml = try header(0)
        guard ebml.id == 0x1A45_DFA3 else { throw ExpectationError("no EBML header") }
        var p = ebml.headerLength + Int(ebml.size)
        let segment = try header(p)
        guard segment.id == 0x1853_8067 else { throw ExpectationError("no Segment at \(p)") }
        p += segment.headerLength
        while p < b.count {
            let e = try header(p)
            if e.id == 0x1F43_B675 { return Int64(p) }
            p += e.headerLength + Int(e.size)
        }
        throw ExpectationError("no Cluster")
    }

    /// The bytes from a block body's start to its first frame: track number, timestamp (2), flags
    /// (1) and, for a laced block, the frame count and the lace sizes.
    static func blockHeaderLength(_ b: [UInt8], bodyAt pos: Int) throws(ExpectationError) -> Int {
        guard let track = vint(b, pos), pos + track.length + 3 <= b.count else {
            throw ExpectationError("no block header at \(pos)")
        }
        var p = pos + track.length + 3
        let lacing = b[p - 1] >> 1 & 3
        if lacing == 0 { return p - pos }
        let frames = Int(b[p]) + 1
        p += 1
        switch lacing {
        case 1:  // Xiph: each size a run of 255s ending below 255
            for _ in 0..<(frames - 1) {
                while p < b.count, b[p] == 0xFF { p += 1 }
                p += 1
            }
        case 3:  // EBML: a size, then signed differences, each a variable-length integer
            for _ in 0..<(frames - 1) {
                guard let v = vint(b, p) else { throw ExpectationError("bad EBML lace at \(p)") }
                p += v.length
            }
        default:  // fixed: no sizes
            break
        }
        return p - pos
    }

    /// The expected packets of the oracle's `(pos, size)` list: each frame at its block's first frame
    /// plus the sizes of the frames before it in the same block.
    static func packets(_ b: [UInt8], oracle: [(pos: Int64, size: Int64)]) throws(ExpectationError) -> [PacketSpan] {
        var out: [PacketSpan] = []
        var blockPos: Int64 = -1
        var next: Int64 = 0
        for p in oracle {
            if p.pos != blockPos {
                blockPos = p.pos
                next = p.pos + Int64(try blockHeaderLength(b, bodyAt: Int(p.pos)))
            }
            out.append(PacketSpan(offset: next, size: p.size))
            next += p.size
        }
        return out
    }
}
