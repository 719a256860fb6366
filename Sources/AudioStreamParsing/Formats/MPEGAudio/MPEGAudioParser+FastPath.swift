/// The in-sync fast path (the frame-sync engine's hook, ``FrameSyncParser/walkFrames(_:_:)``): a run of
/// frames that lie in the caller's chunk, each followed by a readable valid header, is emitted in one step
/// with word loads (no window copies, no header structs).
///
/// It takes exactly the decisions `stepInSync` takes for such frames (a frame that agrees with the stream,
/// whose end is proven by a valid header of any stream, is emitted) and stops at the first frame that
/// needs anything else (free format, a tag, junk, the end of the readable bytes, a new signature); the
/// general path then handles that frame. See `docs/performance.md`.
extension MPEGAudioParser {
    mutating func walkFrames(_ cursor: ChunkCursor, _ context: inout ParseContext) -> Bool {
        guard let signature = stream?.signature, stream?.isFreeFormat == false,
            let framesPerPacket = stream?.framesPerPacket, let dataOffset = stream?.dataOffset
        else { return false }
        if frameTable?.signature != signature { frameTable = MPEGFrameTable(signature) }
        // Safe to force unwrap: set just above.
        let table = frameTable!
        var i = cursor.index
        guard cursor.count - i >= 8 else { return false }
        let needsRunningValues = stream?.declaredPacketCount == nil || stream?.declaredByteCount == nil
        let frames = Int64(framesPerPacket)
        var announcedMaximum = context.announced.maximumPacketSize
        let continuous = isContinuous
        let start = i
        let chunkBase = cursor.base
        let maxEntries = context.limits.maxPacketTableEntries
        // Work on local copies (written back before anything reads them).
        var stats = statistics
        var offsets = engine.offsets.take()
        let recording = packetIndicesAreExact
        // Header addresses depend on each other: overlap their cache misses (HeaderPrefetch).
        var prefetch = HeaderPrefetch()
        defer {
            statistics = stats
            engine.offsets = offsets
            engine.prefetchSink = prefetch.touched
        }
        while let word = cursor.loadBigEndianUInt32(at: i) {
            guard let (length, bitRate) = table.frame(word), length > MPEGFrameHeader.byteCount,
                let next = cursor.loadBigEndianUInt32(at: i + length)
            else { break }
            prefetch.frame(in: cursor, at: i)
            guard MPEGFrameTable.isValidHeader(next) else { break }
            let position = chunkBase + Int64(i)
            if recording {
                // `recordOffset`, inline.
                let offset = position - dataOffset
                let recorded = offsets.record(
                    packet: context.nextPacketIndex, start: offset, end: offset + Int64(length), limit: maxEntries)
                if recorded == .recordedAndFull { Self.reportFullOffsetTable(&context) }
            }
            context.emitPacketInChunk(size: length, variableFrames: 0, frames: frames)
            if continuous {
                stats.add(bitRate: bitRate, length: length, at: position)
            } else {
                stats.largest = max(stats.largest, length)
            }
            let largest = UInt32(stats.largest)
            if announcedMaximum != largest {
                context.announce(.maximumPacketSize(largest))
                announcedMaximum = largest
            }
            let n = stats.packets
            if continuous, needsRunningValues, n >= 16, n & (n - 1) == 0, let stream {
                statistics = stats
                announceRunningValues(stream, &context)
            }
            i += length
        }
        return i != start
    }
}

/// Frame lengths and bit rates by bitrate_index for one stream signature (version, layer, sampling
/// frequency, mono or not), so the fast path decodes a header word with a mask and a table lookup.
struct MPEGFrameTable {
    let signature: MPEGFrameHeader.Signature
    /// The bits a header of the signature has under `mask`: syncword, version, layer, sampling frequency.
    let expected: UInt32
    static let mask: UInt32 = 0xFFFE_0C00
    let slotSize: Int
    /// The length without padding and the bit rate by bitrate_index (0, free format, and 15 are 0).
    let lengths: [Int]
    let bitRates: [UInt32]

    init(_ signature: MPEGFrameHeader.Signature) {
        self.signature = signature
        let versionBits: UInt32
        switch signature.version {
        case .mpeg1: versionBits = 0b11
        case .mpeg2: versionBits = 0b10
        case .mpeg25: versionBits = 0b00
        }
        let layerBits = UInt32(4 - signature.layer) & 0b11
        expected = 0xFFE0_0000 | versionBits << 19 | layerBits << 17 | UInt32(signature.sampleRateIndex & 0b11) << 10
        slotSize = signature.layer == 1 ? 4 : 1
        var lengths = [Int](repeating: 0, count: 16)
        var bitRates = [UInt32](repeating: 0, count: 16)
        for index in 1..<15 {
            // A header word of the signature, unpadded, mono or not as the signature says.
            let word = expected | UInt32(index) << 12 | (signature.isMono ? 0b11 << 6 : 0)
            if let header = MPEGFrameHeader(word), let length = header.frameLength {
                lengths[index] = length
                bitRates[index] = header.bitRate
            }
        }
        self.lengths = lengths
        self.bitRates = bitRates
    }

    /// The frame length and bit rate of a header `word` that agrees with the signature and is not free
    /// format; `nil` otherwise.
    @inline(__always)
    func frame(_ word: UInt32) -> (length: Int, bitRate: UInt32)? {
        guard word & Self.mask == expected, ((word >> 6) & 0b11 == 0b11) == signature.isMono else { return nil }
        let index = Int((word >> 12) & 0xF)
        let length = lengths[index]
        guard length > 0 else { return nil }
        return (length + Int((word >> 9) & 1) * slotSize, bitRates[index])
    }

    /// True when `word` is a valid header of any stream (``MPEGFrameHeader/init(_:)`` accepts it).
    @inline(__always)
    static func isValidHeader(_ word: UInt32) -> Bool {
        word & 0xFFE0_0000 == 0xFFE0_0000 && (word >> 19) & 0b11 != 0b01 && (word >> 17) & 0b11 != 0
            && (word >> 12) & 0xF != 0xF && (word >> 10) & 0b11 != 0b11
    }
}
