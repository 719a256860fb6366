/// The chunk walk: chunk headers, sizes, pad bytes, and the bodies of header and tag chunks.
extension WAVEParser {
    /// Reads a chunk header and decides what to do with the chunk.
    mutating func stepChunkHeader(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        let position = context.window.position
        guard let chunk = RIFFChunkHeader.peek(context.window, bigEndian: isBigEndian) else {
            // Also past the RIFF end: what a final partial header means is decided at `finish`.
            return .needMoreData(atLeast: RIFFChunkHeader.byteCount)
        }
        if let end = riffEnd, position + Int64(RIFFChunkHeader.byteCount) > end {
            // Past the RIFF size. Writers that append a chunk without updating the size exist: a
            // printable ID is taken as a chunk; anything else is trailing junk.
            guard RIFFChunkHeader.isPlausibleID(chunk.id) else {
                state = .ignoring(IgnoredBytes(start: position, reason: .afterRIFF))
                return .continue
            }
            context.diagnose("wave: chunk '\(chunk.name)' starts past the RIFF size (\(end)); the RIFF size is ignored")
            riffEnd = nil
        }
        let kind = WAVEChunkRegistry.kind(of: chunk.id)
        if kind == .data {
            return try startData(chunk, &context)
        }
        context.window.consume(RIFFChunkHeader.byteCount)
        let bodyStart = position + Int64(RIFFChunkHeader.byteCount)
        let declared = declaredSize(of: chunk)
        var size = declared
        if let end = riffEnd, kind != .format, kind != .dataSize64, size > UInt64(max(0, end - bodyStart)) {
            size = UInt64(max(0, end - bodyStart))
            context.diagnose(
                at: position,
                "wave: chunk '\(chunk.name)' declares \(declared) bytes, past the RIFF size; cut to \(size)")
        }
        var pending = PendingChunk(header: chunk, kind: kind, bodyStart: bodyStart, bodySize: 0, declaredSize: declared)
        switch kind {
        case .format, .dataSize64:
            let unwanted =
                kind == .format
                ? (format != nil || audio != nil)
                : (!(fileHeader?.kind.usesDataSize64 ?? false) || dataSize64 != nil || audio != nil)
            if unwanted { return skip(pending, size, &context, "not expected here; skipped") }
            guard size <= UInt64(context.limits.maxHeaderChunkBytes) else {
                throw context.error(
                    .limitExceeded, at: position,
                    "wave (\(chunk.name)): chunk of \(size) bytes exceeds maxHeaderChunkBytes")
            }
        case .fact:
            guard size <= UInt64(context.limits.maxHeaderChunkBytes) else {
                return skip(pending, size, &context, "larger than maxHeaderChunkBytes; skipped")
            }
        case .list, .broadcastExtension, .id3:
            if tagChunksRead.contains(bodyStart) {
                // Read before (the stream was fed again after a seek): nothing new.
                state = declared % 2 == 1 ? .padByte : .chunkHeader
                return size > 0 ? .skip(Int64(clamping: size)) : .continue
            }
            guard size <= UInt64(context.limits.maxTagBytes) else {
                return skip(pending, size, &context, "larger than maxTagBytes; skipped")
            }
        case .data, .other:
            return skip(pending, size, &context, "skipped")
        }
        // Safe: `size` is at most one of the limits, which are `Int`s.
        pending.bodySize = Int(size)
        state = .chunkBody(pending)
        return .continue
    }

    /// The body size a chunk declares: its 32-bit size, or for 0xFFFFFFFF in RF64/BW64 the `ds64`
    /// table's entry for it.
    func declaredSize(of chunk: RIFFChunkHeader) -> UInt64 {
        if chunk.size == 0xFFFF_FFFF, fileHeader?.kind.usesDataSize64 ?? false,
            let size = dataSize64?.chunkSizes[chunk.id]
        {
            return size
        }
        return UInt64(chunk.size)
    }

    /// Skips a chunk body (not buffered) with a diagnostic naming the chunk, then its pad byte.
    private mutating func skip(
        _ pending: PendingChunk, _ size: UInt64, _ context: inout ParseContext, _ why: String
    ) -> ParseStep {
        let position = pending.bodyStart - Int64(RIFFChunkHeader.byteCount)
        context.diagnose(at: position, "wave: chunk '\(pending.header.name)' (\(size) bytes) \(why)")
        state = pending.declaredSize % 2 == 1 ? .padByte : .chunkHeader
        let count = Int64(clamping: size)
        return count > 0 ? .skip(count) : .continue
    }

    /// Reads a header or tag chunk's body whole, then interprets it.
    mutating func stepChunkBody(
        _ pending: PendingChunk, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        var pending = pending
        if pending.kind == .list && !pending.listTypeChecked && pending.bodySize >= 4 {
            guard let type = context.window.peekInteger(at: 0, as: UInt32.self, endianness: .big) else {
                return .needMoreData(atLeast: 4)
            }
            guard UInt32(type) == WAVEChunkRegistry.infoListType else {
                context.diagnose(
                    "wave: LIST chunk of type '\(FourCharCode.string(UInt32(type)))' (\(pending.bodySize) bytes) "
                        + "skipped"
                )
                state = pending.declaredSize % 2 == 1 ? .padByte : .chunkHeader
                return .skip(Int64(pending.bodySize))
            }
            pending.listTypeChecked = true
            state = .chunkBody(pending)
        }
        guard let body = context.window.peekBytes(count: pending.bodySize) else {
            return .needMoreData(atLeast: pending.bodySize)
        }
        try interpret(pending, body, &context)
        if pending.kind == .list || pending.kind == .broadcastExtension || pending.kind == .id3 {
            tagChunksRead.insert(pending.bodyStart)
        }
        context.window.consume(pending.bodySize)
        state = pending.declaredSize % 2 == 1 ? .padByte : .chunkHeader
        return .continue
    }

    /// Interprets a whole chunk body. Called with the window at the body's start.
    private mutating func interpret(
        _ pending: PendingChunk, _ body: [UInt8], _ context: inout ParseContext
    ) throws(AudioStreamError) {
        var notes: [String] = []
        do throws(WAVEChunkError) {
            switch pending.kind {
            case .format:
                let decoded = try WAVEStreamFormat(
                    WAVEFormatChunk.decode(body, bigEndian: isBigEndian), bigEndian: isBigEndian)
                notes = decoded.notes
                format = decoded
            case .dataSize64:
                // A ds64 too short to hold its sizes is ignored: 0xFFFFFFFF sizes then run to the end.
                do throws(WAVEChunkError) {
                    let decoded = try DataSize64Chunk.decode(body)
                    notes = decoded.notes
                    dataSize64 = decoded
                    adoptRIFFSize(from: decoded, &context)
                } catch {
                    notes.append(error.reason + "; ignored")
                }
            case .fact:
                readFact(pending, body, &context)
            case .list:
                if body.count < 4 { notes.append("wave: LIST chunk of \(body.count) bytes has no list type; ignored") }
                notes += RIFFInfoList.read(body, bigEndian: isBigEndian, into: &metadata)
                announceMetadataAfterData(&context)
            case .broadcastExtension:
                notes = BroadcastExtensionChunk.read(body, bigEndian: isBigEndian, into: &metadata)
                announceMetadataAfterData(&context)
            case .id3:
                if let tag = ID3v2Tag.parse(body, limits: context.limits) {
                    metadata = metadata.merging(tag.metadata)
                    notes += tag.diagnostics
                    announceMetadataAfterData(&context)
                } else {
                    notes.append("wave: chunk '\(pending.header.name)' does not hold an ID3v2 tag; ignored")
                }
            case .data, .other:
                break
            }
        } catch {
            throw context.error(error.code, error.reason)
        }
        for note in notes { context.diagnose(note) }
    }

    /// Takes the RIFF end from `ds64` (EBU Tech 3306 §3.4).
    private mutating func adoptRIFFSize(from chunk: DataSize64Chunk, _ context: inout ParseContext) {
        guard fileHeader?.size == 0xFFFF_FFFF else { return }
        if chunk.riffSize >= 4 && chunk.riffSize <= UInt64(Int64.max - 8) {
            riffEnd = 8 + Int64(chunk.riffSize)
        } else {
            context.diagnose(
                "wave (ds64): RIFF size \(chunk.riffSize) is not usable; chunks are read to the end of the stream")
        }
    }

    /// Records the `fact` sample length; a malformed `fact` is ignored with a diagnostic.
    private mutating func readFact(_ pending: PendingChunk, _ body: [UInt8], _ context: inout ParseContext) {
        do throws(WAVEChunkError) {
            let fact = try FactChunk.decode(body, bigEndian: isBigEndian)
            if fact.sampleLength == 0xFFFF_FFFF, fileHeader?.kind.usesDataSize64 ?? false, let ds64 = dataSize64 {
                factSampleLength = ds64.sampleCount
            } else {
                factSampleLength = UInt64(fact.sampleLength)
            }
        } catch {
            context.diagnose(error.reason + "; ignored")
        }
    }

    /// Metadata found after the data chunk's header is announced at once (the listener hears it
    /// change); before that it is part of the header announcement.
    private mutating func announceMetadataAfterData(_ context: inout ParseContext) {
        if audio != nil && !metadata.isEmpty { context.announce(.metadata(metadata)) }
    }

    /// Consumes the pad byte after an odd-sized chunk.
    ///
    /// A missing pad byte is tolerated: at the end of the stream, at the RIFF end, and where the byte
    /// is not zero and starts a chunk ID while the four bytes after it do not (a writer that did not
    /// pad). "Chunk ID" means a registered one (`data`, `LIST`, …), or failing that four printable
    /// characters.
    mutating func stepPadByte(_ context: inout ParseContext) -> ParseStep {
        let position = context.window.position
        if let end = riffEnd, position >= end {
            state = .chunkHeader
            return .continue
        }
        guard let pad = context.window.peekUInt8() else { return .needMoreData(atLeast: 1) }
        if pad != 0 {
            if context.window.readable < 5 && !context.window.isFinal { return .needMoreData(atLeast: 5) }
            if let here = context.window.peekInteger(at: 0, as: UInt32.self, endianness: .big).map({ UInt32($0) }),
                let next = context.window.peekInteger(at: 1, as: UInt32.self, endianness: .big).map({ UInt32($0) }),
                Self.startsChunk(here, rather: next)
            {
                context.diagnose("wave: pad byte missing after an odd-sized chunk")
                state = .chunkHeader
                return .continue
            }
        }
        context.window.consume(1)
        state = .chunkHeader
        return .continue
    }

    /// Whether `here` looks more like a chunk ID than `next` (the same bytes shifted by one).
    static func startsChunk(_ here: UInt32, rather next: UInt32) -> Bool {
        let hereKnown = WAVEChunkRegistry.kind(of: here) != .other
        let nextKnown = WAVEChunkRegistry.kind(of: next) != .other
        if hereKnown != nextKnown { return hereKnown }
        return RIFFChunkHeader.isPlausibleID(here) && !RIFFChunkHeader.isPlausibleID(next)
    }
}
