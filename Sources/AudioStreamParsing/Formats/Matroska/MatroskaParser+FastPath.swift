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
    /// seek-table steps are appended; the totals, the window and the seek tables are updated once at its
    /// end (the tables with every step at once, or packet by packet by `placeRun` when a seek's landing
    /// records the packets or a step does not fit).
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
        // The run so far: where its description offsets count from, its first description, its totals,
        // and its seek-table steps (local arrays, moved out of `placedRun` and back: no copy, and no
        // uniqueness check per append).
        var run = RunTotals()
        // Below 4 KiB of the chunk left, a run of a few blocks costs more recorded at once than placed one
        // by one (`placeRun`), as does a seek's landing, which records the packets itself.
        let batched = landing == nil && cursor.count - first >= 4096
        var byteSteps = [UInt16]()
        var frameSteps = [UInt16]()
        if batched {
            swap(&byteSteps, &placedRun.byteSteps)
            swap(&frameSteps, &placedRun.frameSteps)
        }
        defer {
            if batched {
                if !byteSteps.isEmpty {
                    byteSteps.removeAll(keepingCapacity: true)
                    frameSteps.removeAll(keepingCapacity: true)
                }
                swap(&byteSteps, &placedRun.byteSteps)
                swap(&frameSteps, &placedRun.frameSteps)
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
            if run.count == 0 {
                run.base = context.beginChunkRun(firstPacketAt: packetStart)
                run.firstDescription = context.descriptions.count
            }
            context.appendChunkRunPacket(offset: packetStart - run.base, size: size, variableFrames: variable)
            run.count += 1
            run.bytes += size
            run.frames += frames
            run.largest = max(run.largest, size)
            // The seek tables keep 16-bit steps: a run with a block or a frame count that does not fit is
            // placed packet by packet.
            if end - i >= 0xFFFF || frames >= 0xFFFF { run.stepsFit = false }
            if batched {
                byteSteps.append(UInt16(truncatingIfNeeded: end - i))
                frameSteps.append(UInt16(truncatingIfNeeded: frames))
            }
            i = end
        }
        guard run.count > 0 else { return false }
        let firstIndex = context.nextPacketIndex
        context.endChunkRun(count: run.count, bytes: run.bytes, frames: run.frames, end: i, consumingTo: i)
        emittedBytes += Int64(run.bytes)
        emittedPackets += Int64(run.count)
        largestPacket = max(largestPacket, run.largest)
        let firstBlock = cursor.base + Int64(first) - (dataOffset ?? 0)
        if batched && run.stepsFit {
            let limit = limits.maxPacketTableEntries
            _ = offsets.record(from: firstIndex, start: firstBlock, steps: byteSteps[...], limit: limit)
            _ = startFrames.record(from: firstIndex, start: nextFrame, steps: frameSteps[...], limit: limit)
            nextFrame += run.frames
        } else {
            placeRun(
                context.descriptions[run.firstDescription..<(run.firstDescription + run.count)],
                firstIndex: firstIndex, firstBlock: firstBlock, firstBlockOffset: first - run.base,
                frames: readsTOC ? .variable : .variableOr(constantFrames))
        }
        waitingEnd = nil
        return true
    }

    /// Places a run's packets one by one (`place`: a seek's landing records them, or a step does not fit
    /// in 16 bits): `descriptions` are the run's, packet `firstIndex` first, whose block starts at
    /// `firstBlock` (relative to `dataOffset`) and at `firstBlockOffset` in the descriptions' offsets; each
    /// block ends where its packet ends.
    mutating func placeRun(
        _ descriptions: ArraySlice<PacketDescription>, firstIndex: Int64, firstBlock: Int64, firstBlockOffset: Int,
        frames: RunPacketFrames
    ) {
        var start = firstBlock
        var previousEnd = Int64(firstBlockOffset)
        for k in descriptions.indices {
            let d = descriptions[k]
            let packetEnd = d.startOffset + Int64(d.dataByteSize)
            let end = start + (packetEnd - previousEnd)
            place(firstIndex + Int64(k - descriptions.startIndex), start: start, end: end, frames: frames.frames(of: d))
            start = end
            previousEnd = packetEnd
        }
    }
}

/// A fast path's run while it is walked: where its description offsets count from (a chunk index), its
/// first description, and its totals.
struct RunTotals {
    var base = 0
    var firstDescription = 0
    var count = 0
    var bytes = 0
    var frames: Int64 = 0
    var largest = 0
    /// Every block's size and frame count is below 0xFFFF (a 16-bit seek-table step).
    var stepsFit = true
}

/// How a run's packet description gives the packet's frames.
enum RunPacketFrames {
    /// Its `variableFramesInPacket` (Opus: 0 for an empty packet).
    case variable
    /// Its `variableFramesInPacket`, or the codec's constant frames when that is 0 (FLAC, constant codecs).
    case variableOr(Int64)

    func frames(of d: PacketDescription) -> Int64 {
        let variable = Int64(d.variableFramesInPacket)
        switch self {
        case .variable: return variable
        case .variableOr(let constant): return variable == 0 ? constant : variable
        }
    }
}

/// Packets the fast path placed back to back, not yet recorded in the seek tables: per packet its
/// block's size and its frames (kept between runs for their capacity).
struct PlacedRun {
    var byteSteps: [UInt16] = []
    var frameSteps: [UInt16] = []
}
