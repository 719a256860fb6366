extension FLACParser {
    /// A metadata block header at the position (RFC 9639 §8.1).
    mutating func stepBlockHeader(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        guard let bytes = context.window.peekBytes(count: FLACMetadataBlockHeader.size) else {
            return .needMoreData(atLeast: FLACMetadataBlockHeader.size)
        }
        let header = FLACMetadataBlockHeader(bytes[0], bytes[1], bytes[2], bytes[3])
        if header.type == .forbidden {
            throw context.error(.invalidFile, Self.metadataBlocks, "forbidden block type 127")
        }
        if blockIndex == 0 && header.type != .streamInfo {
            throw context.error(.invalidFile, Self.metadataBlocks, "the first block is not STREAMINFO")
        }
        context.window.consume(FLACMetadataBlockHeader.size)
        blockIndex += 1
        state = .blockBody(header)
        return .continue
    }

    /// The body of `header`'s block at the position.
    mutating func stepBlockBody(
        _ header: FLACMetadataBlockHeader, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        let length = header.length
        let start = context.window.position - Int64(FLACMetadataBlockHeader.size)
        /// The whole body, or `nil` (after asking for it) while it is incomplete.
        func body(_ context: inout ParseContext) -> [UInt8]? {
            context.window.peekBytes(count: length)
        }
        var step = ParseStep.continue
        switch header.type {
        case .streamInfo where streamInfo == nil:
            if length < FLACStreamInfo.size {
                throw context.error(.invalidFile, at: start, Self.streamInfoBlock, "block shorter than 34 bytes")
            }
            if length > context.limits.maxHeaderChunkBytes {
                throw context.error(
                    .limitExceeded, at: start, Self.streamInfoBlock, "block exceeds maxHeaderChunkBytes")
            }
            guard let bytes = body(&context) else { return .needMoreData(atLeast: length) }
            do { streamInfo = try FLACStreamInfo.decode(bytes) } catch { throw context.error(error, at: start) }
            context.window.consume(length)
        case .streamInfo:
            context.diagnose(
                .duplicateStructure, at: start, Self.streamInfoBlock, "a second STREAMINFO block is skipped")
            step = .skip(Int64(length))
        case .seekTable where length <= context.limits.maxHeaderChunkBytes:
            guard let bytes = body(&context) else { return .needMoreData(atLeast: length) }
            if length % FLACSeekTable.pointSize != 0 {
                context.diagnose(
                    .sizeCorrected, at: start, Self.structure("SEEKTABLE"), "length \(length) is not a multiple of 18")
            }
            seekTable = FLACSeekTable.decode(bytes, maxPoints: context.limits.maxPacketTableEntries)
            context.window.consume(length)
        case .cueSheet where length <= context.limits.maxTagBytes:
            guard let bytes = body(&context) else { return .needMoreData(atLeast: length) }
            if let sheet = FLACCueSheet.decode(bytes), let info = streamInfo {
                metadata.chapters.append(contentsOf: sheet.chapters(sampleRate: info.sampleRate))
            } else {
                context.diagnose(
                    .damagedMetadata, at: start, Self.structure("CUESHEET"),
                    "block shorter than its track list; ignored")
            }
            context.window.consume(length)
        case .vorbisComment where length <= context.limits.maxTagBytes:
            guard let bytes = body(&context) else { return .needMoreData(atLeast: length) }
            do {
                let comment = try VorbisComment.decode(bytes[...], framing: .flacBlock, limits: context.limits)
                for note in comment.notes { context.diagnose(note, at: start) }
                metadata = metadata.merging(comment.metadata)
            } catch {
                context.diagnose(.damagedMetadata, at: start, "\(error.reason); VORBIS_COMMENT ignored")
            }
            context.window.consume(length)
        case .picture where length <= min(context.limits.maxArtworkBytes, context.limits.maxBufferedBytes):
            guard let bytes = body(&context) else { return .needMoreData(atLeast: length) }
            switch FLACPicture.artwork(fromBlock: bytes[...], limits: context.limits) {
            case .success(let artwork): metadata.artwork.append(artwork)
            case .failure(let failure):
                context.diagnose(DiagnosticNote(failure, whenInvalid: .damagedMetadata), at: start)
            }
            context.window.consume(length)
        case .seekTable, .cueSheet, .vorbisComment, .picture:
            context.diagnose(
                .limitExceeded, at: start, Self.structure("\(header.type)"),
                "\(length)-byte block exceeds the limits; skipped")
            step = .skip(Int64(length))
        case .padding, .application:
            step = .skip(Int64(length))
        default:
            context.diagnose(
                .unknownStructure, at: start, Self.metadataBlocks,
                "unknown block \(header.type) of \(length) bytes skipped")
            step = .skip(Int64(length))
        }
        if header.isLast {
            // The frames start after this block.
            var end = context.window.position
            if case .skip(let n) = step { end += n }
            dataOffset = end
            totals.end = end
            state = .searching(Search(cause: "at the first frame"))
            expectedNumber = 0
            publishHeader(&context)
        } else {
            state = .blockHeader
        }
        return step
    }

    /// Announces the stream's properties (at the end of the metadata).
    mutating func publishHeader(_ context: inout ParseContext) {
        guard let info = streamInfo else { return }
        var values: [AudioStreamPropertyValue] = [
            .dataFormat(info.streamDescription), .magicCookie(info.magicCookie),
            .packetSizeUpperBound(UInt32(clamping: frameBound(context.limits))),
        ]
        if let layout = Self.channelLayout(channels: info.channels) { values.append(.channelLayout(layout)) }
        if info.maximumFrameSize > 0 { values.append(.maximumPacketSize(info.maximumFrameSize)) }
        if info.totalSamples > 0 {
            var remainder: Int64 = 0
            if info.hasFixedBlockSize {
                let n = UInt64(info.maximumBlockSize)
                let packets = (info.totalSamples + n - 1) / n
                declaredPacketCount = Int64(packets)
                values.append(.audioDataPacketCount(packets))
                remainder = Int64(packets * n - info.totalSamples)
            }
            values.append(
                .packetTableInfo(
                    PacketTableInfo(
                        numberValidFrames: Int64(info.totalSamples), primingFrames: 0,
                        remainderFrames: Int32(clamping: remainder))))
        }
        if !metadata.isEmpty { values.append(.metadata(metadata)) }
        context.publishHeader(values, dataOffset: dataOffset)
    }

    /// The channel layout of FLAC's channel assignments (RFC 9639 §9.1.3). 1–6 channels by the tags
    /// Apple's own FLAC sample code maps them to (`FLACAudioFile.cpp`, `gFLACChannelConfigToLayoutTag`),
    /// whose channel orders are FLAC's: Mono, Stereo, MPEG_3_0_A (L R C), Quadraphonic (L R Ls Rs),
    /// MPEG_5_0_A (L R C Ls Rs), MPEG_5_1_A (L R C LFE Ls Rs). 7 and 8 channels (no tag with FLAC's
    /// order) as a channel bitmap with the WAVEFORMATEXTENSIBLE masks the RFC names (0x70F, 0x63F), whose
    /// bits are CoreAudio's channel bits.
    static func channelLayout(channels: UInt32) -> ChannelLayout? {
        switch channels {
        case 1: return ChannelLayout(tag: ChannelLayout.Tag.mono)
        case 2: return ChannelLayout(tag: ChannelLayout.Tag.stereo)
        case 3: return ChannelLayout(tag: .mpeg_3_0_A)
        case 4: return ChannelLayout(tag: .quadraphonic)
        case 5: return ChannelLayout(tag: .mpeg_5_0_A)
        case 6: return ChannelLayout(tag: .mpeg_5_1_A)
        case 7: return ChannelLayout(tag: ChannelLayout.Tag.useChannelBitmap, bitmap: 0x70F)
        case 8: return ChannelLayout(tag: ChannelLayout.Tag.useChannelBitmap, bitmap: 0x63F)
        default: return nil
        }
    }
}
