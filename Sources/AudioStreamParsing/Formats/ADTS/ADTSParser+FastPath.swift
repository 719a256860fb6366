/// The in-sync fast path (the frame-sync engine's hook, ``FrameSyncParser/walkFrames(_:_:)``): a run of
/// single-block frames that lie in the caller's chunk, each followed by an agreeing valid header, is
/// emitted in one step with word loads (no header structs, no per-frame layout arrays).
///
/// It takes exactly the decisions `stepSynced` and `emitFrame` take for such frames, and stops at the
/// first frame that needs anything else (several raw data blocks, a tag, junk, a format change, the end
/// of the readable bytes, packets to skip after a seek); the general path then handles that frame.
/// See `docs/performance.md`.
extension ADTSParser {
    mutating func walkFrames(_ cursor: ChunkCursor, _ context: inout ParseContext) -> Bool {
        guard skipPackets == 0, let header = configuration?.header else { return false }
        var i = cursor.index
        let start = i
        // The fixed fields `ADTSHeader.agrees(with:)` compares, plus the syncword and layer.
        let expected = ADTSFastHeader.fixedBits(of: header)
        let frameSeconds = seconds(of: ADTSFastHeader.oneBlock(header))
        let perBlock = framesPerBlock
        let chunkBase = cursor.base
        var prefetch = HeaderPrefetch()
        defer { engine.prefetchSink = prefetch.touched }
        while let word = cursor.loadBigEndianUInt64(at: i) {
            // This frame: agreeing fixed fields, one raw data block, a length that leaves raw data.
            guard word & ADTSFastHeader.fixedMask == expected, ADTSFastHeader.blockCount(word) == 1 else { break }
            let length = ADTSFastHeader.frameLength(word)
            let headerLength = ADTSFastHeader.protectionAbsent(word) ? ADTSHeader.fixedSize : ADTSHeader.fixedSize + 2
            // Its successor: a valid header that agrees (`ADTSFrameSync.successor` answers `.frame`).
            guard length >= headerLength + 1, let next = cursor.loadBigEndianUInt64(at: i + length) else { break }
            prefetch.frame(in: cursor, at: i)
            guard next & ADTSFastHeader.fixedMask == expected, ADTSFastHeader.isValidLength(next) else { break }
            let frameStart = chunkBase + Int64(i)
            let size = length - headerLength
            context.window.consumeChunk(headerLength)
            let index = context.nextPacketIndex
            context.emitPacketInChunk(size: size, variableFrames: 0, frames: Int64(perBlock))
            i += length
            guard indicesExact && index == totals.packets else {
                if landingRun != nil,
                    recordLanding(
                        frameStart: frameStart, frameLength: length, size: size,
                        frames: perBlock, context.limits)
                {
                    landingRun?.addFrame(length: length, seconds: frameSeconds)
                }
                continue
            }
            record(
                frameStart: frameStart, frameLength: length, size: size, frames: perBlock,
                context.limits)
            finishFrontierFrame(start: frameStart, length: length, seconds: frameSeconds, &context)
        }
        return i != start
    }
}

/// Field access on the first 8 bytes of an ADTS frame read as one big-endian word (the 56 header bits
/// in its top 56 bits; ISO/IEC 13818-7 §6.2.1).
enum ADTSFastHeader {
    /// The bits of field `width` bits wide at bit `offset` of the header.
    @inline(__always)
    static func field(_ word: UInt64, _ offset: Int, _ width: Int) -> UInt64 {
        (word >> UInt64(64 - offset - width)) & ((1 << UInt64(width)) - 1)
    }

    static func mask(_ offset: Int, _ width: Int) -> UInt64 {
        ((1 << UInt64(width)) - 1) << UInt64(64 - offset - width)
    }

    /// syncword, ID, layer, profile, sampling_frequency_index, channel_configuration.
    static let fixedMask: UInt64 = mask(0, 12) | mask(12, 1) | mask(13, 2) | mask(16, 2) | mask(18, 4) | mask(23, 3)

    /// The bits of a header agreeing with `header` under `fixedMask` (layer 0).
    static func fixedBits(of header: ADTSHeader) -> UInt64 {
        0xFFF << 52 | UInt64(header.isMPEG2 ? 1 : 0) << 51 | UInt64(header.profile & 0b11) << 46
            | UInt64(header.samplingFrequencyIndex & 0xF) << 42 | UInt64(header.channelConfiguration & 0b111) << 38
    }

    /// `header` as a one-block frame (for its duration).
    static func oneBlock(_ header: ADTSHeader) -> ADTSHeader {
        var header = header
        header.rawDataBlockCount = 1
        return header
    }

    @inline(__always) static func protectionAbsent(_ word: UInt64) -> Bool { field(word, 15, 1) == 1 }
    @inline(__always) static func frameLength(_ word: UInt64) -> Int { Int(field(word, 30, 13)) }
    @inline(__always) static func blockCount(_ word: UInt64) -> Int { Int(field(word, 54, 2)) + 1 }

    /// The length check `ADTSHeader.decode` makes: the frame leaves room for its raw data blocks (and
    /// their CRCs) after the header.
    @inline(__always)
    static func isValidLength(_ word: UInt64) -> Bool {
        let blocks = blockCount(word)
        let absent = protectionAbsent(word)
        let headerLength = absent ? ADTSHeader.fixedSize : ADTSHeader.fixedSize + 2 * (blocks - 1) + 2
        let bytesPerBlock = absent || blocks == 1 ? 1 : 3
        return frameLength(word) >= headerLength + bytesPerBlock * blocks
    }
}
