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
        // Placed in one step per table at the end of the run (`recordRun`) when at least 4 KiB of the chunk
        // are left (a run of a few blocks costs more batched than placed one by one), unless a seek's
        // landing records them.
        let batched = landing == nil && cursor.count - cursor.index >= 4096
        let maxBody = min(limits.maxPacketBytes, limits.maxBufferedBytes - 16)
        let dataStart = dataOffset ?? 0
        // The chunk index where the Cluster ends (past the chunk: the chunk's end bounds the walk first).
        let clusterEnd = cluster.end.map { end in Int(clamping: end - cursor.base) } ?? Int.max
        var i = cursor.index
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
            let headerSize = 1 + sizeLength
            let bodyStart = i + headerSize
            let end = bodyStart + bodySize
            // Whole in the chunk and in its Cluster (past it: the general path's "runs past its parent").
            guard end <= cursor.count, end <= clusterEnd, let body = cursor.loadBigEndianUInt64(at: bodyStart) else {
                break
            }
            // Track number (1 byte), timestamp (2), flags (1), then the frame's first bytes.
            guard body >> 56 == trackByte, (body >> 33) & 3 == 0 else { break }
            let size = bodySize - 4
            var frames = constantFrames
            var variable: UInt32 = 0
            let blockStart = cursor.base + Int64(i) - dataStart
            context.window.consumeChunk(headerSize + 4)
            if readsTOC {
                frames = OpusPacket.frames(
                    size: size, toc: UInt8(truncatingIfNeeded: body >> 24),
                    second: UInt8(truncatingIfNeeded: body >> 16))
                variable = UInt32(frames)
            } else if let flac {
                // The frame header at the window's position (now the packet's first byte) gives the block size.
                (frames, variable) = Self.flacFrames(context.window, info: flac, constant: constantFrames)
            }
            let index = context.nextPacketIndex
            context.emitPacketInChunk(size: size, variableFrames: variable, frames: frames)
            let blockSize = headerSize + bodySize
            if batched && blockSize < 0xFFFF && frames >= 0 && frames < 0xFFFF {
                if placedRun.byteSteps.isEmpty {
                    placedRun.firstPacket = index
                    placedRun.start = blockStart
                    placedRun.firstFrame = nextFrame
                }
                placedRun.byteSteps.append(UInt16(truncatingIfNeeded: blockSize))
                placedRun.frameSteps.append(UInt16(truncatingIfNeeded: frames))
                nextFrame += frames
            } else {
                recordRun()
                place(index, start: blockStart, end: blockStart + Int64(blockSize), frames: frames)
            }
            emittedBytes += Int64(size)
            emittedPackets += 1
            largestPacket = max(largestPacket, size)
            i = end
        }
        recordRun()
        guard i != cursor.index else { return false }
        waitingEnd = nil
        return true
    }

    /// Records the run's packets in the seek tables: what `place` of each does with no landing. The two
    /// tables grow in step (`place` records a packet's frames exactly when it records its offset, so they
    /// always hold the same packets and fill together), so each is given the whole run.
    mutating func recordRun() {
        guard !placedRun.byteSteps.isEmpty else { return }
        let limit = limits.maxPacketTableEntries
        _ = offsets.record(
            from: placedRun.firstPacket, start: placedRun.start, steps: placedRun.byteSteps[...], limit: limit)
        _ = startFrames.record(
            from: placedRun.firstPacket, start: placedRun.firstFrame, steps: placedRun.frameSteps[...], limit: limit)
        placedRun.byteSteps.removeAll(keepingCapacity: true)
        placedRun.frameSteps.removeAll(keepingCapacity: true)
    }
}

/// Packets the fast path placed back to back, not yet recorded in the seek tables: the first one's index,
/// block start and first frame, and per packet its block's size and its frames (each below 0xFFFF).
struct PlacedRun {
    var firstPacket: Int64 = 0
    var start: Int64 = 0
    var firstFrame: Int64 = 0
    var byteSteps: [UInt16] = []
    var frameSteps: [UInt16] = []
}
