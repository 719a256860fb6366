/// The in-Cluster fast path: a run of unlaced `SimpleBlock`s of the parsed track that lie whole in the
/// caller's chunk is emitted in one step with word loads (no `EBMLHeader`, no `MatroskaBlock` and its
/// frame-size array, no registry lookup per block).
///
/// ```
///  SimpleBlock element (RFC 8794 §4-§6, RFC 9559 §10.2), as the fast path reads it:
///  0xA3                 the SimpleBlock ID (1 byte)
///  1sssssss | 01ssssss ssssssss | …   Element Data Size, 1-7 bytes (not the unknown size)
///  1nnnnnnn             Track Number, 1 byte (TrackNumber 1-126)
///  tttttttt tttttttt    Timestamp (not read)
///  kxxx xll d           Flags: lacing `ll` must be 00 (one frame)
///  frame …              the packet: bodySize − 4 bytes; Opus: its TOC byte and the next one give its
///                       duration; FLAC: its frame header's block size (RFC 9639 §9.1)
/// ```
///
/// It takes exactly the decisions `stepElement`, `stepBlock` and `emitFrame` take for such a block, and
/// stops at the first element that needs anything else (another element, another track, lacing, a
/// block past the chunk or its Cluster, a block over the size limits, a seek's packets to drop, a codec
/// whose frame count is not read from the packet's own header: Vorbis, PCM); the general path handles
/// that one. So
/// the events are those of the general path, whatever the chunking.
extension MatroskaParser {
    /// Emits the run of blocks at the window's position; true when it emitted at least one. The caller
    /// is `stepElement` with the `EBML` header read and no Cues being fetched.
    ///
    /// The run is one batch (`ParseContext.beginChunkRun`): per block, one description and two 16-bit
    /// seek-table steps are appended, and the totals and the window are updated once at its end. The steps
    /// are recorded in the seek tables a run at a time (`recordSteps`); a block whose step does not fit in
    /// 16 bits, every block of a short run and a seek's landing are placed one by one (`place`).
    mutating func walkBlocks(_ context: inout ParseContext) -> Bool {
        // The Cluster must be the innermost element entered (not a BlockGroup, nor an unknown-size
        // element entered to skip its children).
        guard published, packetsToDrop == 0, framesToDrop == 0, let cluster = open.last,
            cluster.id == MatroskaElementID.cluster, let track, let codec, track.number < 0x7F,
            let cursor = context.window.chunkCursor
        else { return false }
        let readsTOC: Bool
        var flac: FLACStreamInfo?
        switch codec.frameCounter {
        case .opus: readsTOC = true
        case .constant: readsTOC = false
        case .flac(let info):
            readsTOC = false
            flac = info
        case .vorbis, .pcm: return false
        }
        let constantFrames = Int64(codec.streamDescription.framesPerPacket)
        let trackByte = UInt64(0x80 | track.number)
        let maxBody = min(limits.maxPacketBytes, limits.maxBufferedBytes - 16)
        // The chunk index where the Cluster ends (past the chunk: the chunk's end bounds the walk first).
        let clusterEnd = cluster.end.map { end in Int(clamping: end - cursor.base) } ?? Int.max
        let first = cursor.index
        var i = first
        let dataStart = dataOffset ?? 0
        // Packet indices advance once, at the run's end (`endChunkRun`): block k of the run is packet
        // `firstIndex + k`.
        let firstIndex = context.nextPacketIndex
        var run = RunTotals()
        // Below 4 KiB of the chunk left, a run of a few blocks costs more recorded at once than placed one
        // by one, as does a seek's landing, which records the packets itself. The steps go into local
        // arrays, moved out of `placedRun` and back (no copy; they keep their capacity).
        let batched = landing == nil && cursor.count - first >= 4096
        var steps = PlacedRun()
        if batched { swap(&steps, &placedRun) }
        defer {
            if batched {
                steps.removeAll()
                swap(&steps, &placedRun)
            }
        }
        // Each block's address depends on the one before: overlap their cache misses by sweeping ahead
        // (`HeaderPrefetch`), only past small blocks (Opus packets, a few hundred bytes): past large ones
        // (FLAC, kilobytes) the sweep would load every cache line of the audio, which the walk never reads.
        var prefetch = HeaderPrefetch()
        defer { prefetchSink = prefetch.touched }
        while i < clusterEnd, let word = cursor.loadBigEndianUInt64(at: i) {
            // The ID and the size: 0xA3, then a size of 1-7 bytes (the word holds it whole).
            guard word >> 56 == 0xA3 else { break }
            let sizeFirst = UInt8(truncatingIfNeeded: word >> 48)
            guard sizeFirst > 1 else { break }
            let sizeLength = sizeFirst.leadingZeroBitCount + 1
            let valueBits = UInt64(7 * sizeLength)
            let bodySize = Int(truncatingIfNeeded: (word >> UInt64(56 - 8 * sizeLength)) & (1 << valueBits - 1))
            // Unknown size, an empty body or one too short for its header, over the limits: general path.
            guard bodySize != 1 << valueBits - 1, bodySize >= 4, bodySize <= maxBody else { break }
            let bodyStart = i + 1 + sizeLength
            let end = bodyStart + bodySize
            // Whole in the chunk and in its Cluster (past it: the general path's "runs past its parent").
            guard end <= cursor.count, end <= clusterEnd, let body = cursor.loadBigEndianUInt64(at: bodyStart) else {
                break
            }
            // Track number (1 byte), timestamp (2), flags (1), then the frame's first bytes.
            guard body >> 56 == trackByte, (body >> 33) & 3 == 0 else { break }
            if bodySize < HeaderPrefetch.distance / 8 { prefetch.frame(in: cursor, at: i) }
            let size = bodySize - 4
            let packetStart = bodyStart + 4
            var frames = constantFrames
            var variable: UInt32 = 0
            if readsTOC {
                frames = OpusPacket.frames(
                    size: size, toc: UInt8(truncatingIfNeeded: body >> 24),
                    second: UInt8(truncatingIfNeeded: body >> 16))
                variable = UInt32(truncatingIfNeeded: frames)
            } else if let flac {
                // The frame header at the packet's first byte gives the block size.
                (frames, variable) = Self.flacFrames(
                    context.window, at: packetStart - first, info: flac, constant: constantFrames)
            }
            if run.count == 0 { run.base = context.beginChunkRun(firstPacketAt: packetStart) }
            context.appendChunkRunPacket(offset: packetStart - run.base, size: size, variableFrames: variable)
            let index = firstIndex + Int64(run.count)
            let blockStart = cursor.base + Int64(i) - dataStart
            if batched && end - i < 0xFFFF && frames < 0xFFFF {
                if steps.byteSteps.isEmpty { steps.begin(packet: index, start: blockStart) }
                steps.append(blockSize: end - i, frames: frames)
            } else {
                // The seek tables keep 16-bit steps: a block or a frame count that does not fit is placed
                // alone, after the steps before it.
                recordSteps(&steps)
                place(index, start: blockStart, end: blockStart + Int64(end - i), frames: frames)
            }
            run.count += 1
            run.bytes += size
            run.frames += frames
            run.largest = max(run.largest, size)
            i = end
        }
        guard run.count > 0 else { return false }
        recordSteps(&steps)
        context.endChunkRun(count: run.count, bytes: run.bytes, frames: run.frames, end: i, consumingTo: i)
        emittedBytes += Int64(run.bytes)
        emittedPackets += Int64(run.count)
        largestPacket = max(largestPacket, run.largest)
        waitingEnd = nil
        return true
    }

    /// Records the steps gathered so far in the seek tables, what `place` of each packet does with no
    /// landing, and empties them. The two tables grow in step (`place` records a packet's frames exactly
    /// when it records its offset, so they always hold the same packets and fill together), so each is given
    /// the whole run.
    mutating func recordSteps(_ steps: inout PlacedRun) {
        guard !steps.byteSteps.isEmpty else { return }
        let limit = limits.maxPacketTableEntries
        _ = offsets.record(from: steps.firstPacket, start: steps.start, steps: steps.byteSteps[...], limit: limit)
        _ = startFrames.record(from: steps.firstPacket, start: nextFrame, steps: steps.frameSteps[...], limit: limit)
        nextFrame += steps.frames
        steps.removeAll()
    }
}

/// A fast path's run while it is walked: where its description offsets count from (a chunk index) and its
/// totals.
struct RunTotals {
    var base = 0
    var count = 0
    var bytes = 0
    var frames: Int64 = 0
    var largest = 0
}

/// Packets the fast path placed back to back, not yet recorded in the seek tables: the first one's index
/// and block start (relative to `dataOffset`), per packet its block's size and its frames (each below
/// 0xFFFF), and their frames in all. `MatroskaParser.placedRun` keeps the arrays between runs for their
/// capacity.
struct PlacedRun {
    var firstPacket: Int64 = 0
    var start: Int64 = 0
    var frames: Int64 = 0
    var byteSteps: [UInt16] = []
    var frameSteps: [UInt16] = []

    /// Starts a new run of steps at packet `packet`, whose block starts at `start`.
    mutating func begin(packet: Int64, start: Int64) {
        firstPacket = packet
        self.start = start
        frames = 0
    }

    @inline(__always)
    mutating func append(blockSize: Int, frames: Int64) {
        byteSteps.append(UInt16(truncatingIfNeeded: blockSize))
        frameSteps.append(UInt16(truncatingIfNeeded: frames))
        self.frames += frames
    }

    /// Empties the steps, keeping their capacity.
    mutating func removeAll() {
        guard !byteSteps.isEmpty else { return }
        byteSteps.removeAll(keepingCapacity: true)
        frameSteps.removeAll(keepingCapacity: true)
    }
}
