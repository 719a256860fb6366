/// The registered chunks: what each means, and the bodies of header and tag chunks.
extension WAVEParser {
    /// Only `LIST` chunks of type `INFO` hold tags: while one is read, its list type is looked at first
    /// and other types are skipped unbuffered.
    mutating func skipListOtherThanInfo(_ context: inout ParseContext) -> ParseStep? {
        guard case .body(let chunk) = walker.state, chunk.id == WAVEContainer.list, let size = chunk.size, size >= 4
        else { return nil }
        guard let type = context.window.peekInteger(at: 0, as: UInt32.self, endianness: .big) else {
            return .needMoreData(atLeast: 4)
        }
        guard type != WAVEContainer.infoListType else { return nil }
        context.diagnose(
            .unknownStructure, WAVEContainer.structure,
            "LIST chunk of type '\(FourCharCode.string(type))' (\(size) bytes) skipped")
        return walker.skipBody(of: chunk, &context)
    }

    /// Decides what to do with a registered chunk whose header is at the position.
    mutating func handle(
        _ chunk: ChunkHeader, _ role: WAVEChunkRole, _ context: inout ParseContext
    ) throws(AudioStreamError) -> ParseStep {
        switch role {
        case .data:
            return try startData(chunk, &context)
        case .format:
            if format != nil || audio != nil { return skipUnexpected(chunk, .duplicateStructure, &context) }
            return try walker.read(chunk, within: .headerChunk, &context)
        case .dataSize64:
            if !(fileHeader?.kind.usesDataSize64 ?? false) || audio != nil {
                return skipUnexpected(chunk, .structureSkipped, &context)
            }
            if dataSize64 != nil { return skipUnexpected(chunk, .duplicateStructure, &context) }
            return try walker.read(chunk, within: .headerChunk, &context)
        case .fact:
            return try walker.read(chunk, within: .optionalHeaderChunk, &context)
        case .list, .broadcastExtension, .id3:
            // Read before (the stream was fed again after a seek): nothing new.
            if tagChunksRead.contains(chunk.bodyStart) { return walker.skip(chunk, &context) }
            return try walker.read(chunk, within: .tag, &context)
        }
    }

    /// Skips a chunk that may not appear here (a second `fmt `, a `ds64` outside RF64/BW64).
    private mutating func skipUnexpected(
        _ chunk: ChunkHeader, _ kind: ParserDiagnostic.Kind, _ context: inout ParseContext
    ) -> ParseStep {
        context.diagnose(kind, at: chunk.offset, WAVEContainer.skipped(chunk, "not expected here; skipped"))
        return walker.skip(chunk, &context)
    }

    /// Interprets a whole chunk body. Called with the window at the body's start.
    mutating func interpret(
        _ chunk: ChunkHeader, _ role: WAVEChunkRole, _ body: [UInt8], _ context: inout ParseContext
    ) throws(AudioStreamError) {
        var notes: [DiagnosticNote] = []
        switch role {
        case .format:
            do throws(StructureError) {
                let decoded = try WAVEStreamFormat(
                    WAVEFormatChunk.decode(body, endianness: endianness), endianness: endianness)
                notes = decoded.notes
                format = decoded
            } catch {
                throw context.error(error)
            }
        case .dataSize64:
            // A ds64 too short to hold its sizes is ignored: 0xFFFFFFFF sizes then run to the end.
            do throws(StructureError) {
                let decoded = try DataSize64Chunk.decode(body)
                notes = decoded.notes
                dataSize64 = decoded
                walker.largeChunkSizes = decoded.chunkSizes
                adoptRIFFSize(from: decoded, &context)
            } catch {
                notes.append(DiagnosticNote(.truncated, error.reason + "; ignored"))
            }
        case .fact:
            readFact(body, &context)
        case .list:
            if body.count < 4 {
                notes.append(
                    DiagnosticNote(
                        .damagedMetadata,
                        WAVEContainer.structure.message("LIST chunk of \(body.count) bytes has no list type; ignored")))
            }
            notes += RIFFInfoList.read(body, endianness: endianness, into: &metadata)
            announceMetadataAfterData(&context)
        case .broadcastExtension:
            notes = BroadcastExtensionChunk.read(body, endianness: endianness, into: &metadata)
            announceMetadataAfterData(&context)
        case .id3:
            if let tag = ID3v2Tag.parse(body, limits: context.limits) {
                metadata = metadata.merging(tag.metadata)
                notes += tag.notes
                announceMetadataAfterData(&context)
            } else {
                notes.append(
                    DiagnosticNote(
                        .damagedMetadata,
                        WAVEContainer.structure.message("chunk '\(chunk.name)' does not hold an ID3v2 tag; ignored")))
            }
        case .data:
            break
        }
        for note in notes { context.diagnose(note) }
        if role.isTag { tagChunksRead.insert(chunk.bodyStart) }
    }

    /// Takes the RIFF end from `ds64` (EBU Tech 3306 §3.4).
    private mutating func adoptRIFFSize(from chunk: DataSize64Chunk, _ context: inout ParseContext) {
        guard fileHeader?.size == 0xFFFF_FFFF else { return }
        if chunk.riffSize >= 4 && chunk.riffSize <= UInt64(Int64.max - 8 - fileHeaderOffset) {
            walker.containerEnd = fileHeaderOffset + 8 + Int64(chunk.riffSize)
        } else {
            context.diagnose(
                .sizeCorrected, DataSize64Chunk.structure,
                "RIFF size \(chunk.riffSize) is not usable; chunks are read to the end of the stream")
        }
    }

    /// Records the `fact` sample length; a malformed `fact` is ignored with a diagnostic.
    private mutating func readFact(_ body: [UInt8], _ context: inout ParseContext) {
        if fileHeader?.kind == .wave64, body.count >= 8 {
            // Wave64 writers (FFmpeg, libsndfile) give the sample length 64 bits.
            var reader = ByteReader(body)
            factSampleLength = reader.readInteger(as: UInt64.self, endianness: .little)
            return
        }
        do throws(StructureError) {
            let fact = try FactChunk.decode(body, endianness: endianness)
            if fact.sampleLength == 0xFFFF_FFFF, fileHeader?.kind.usesDataSize64 ?? false, let ds64 = dataSize64 {
                factSampleLength = ds64.sampleCount
            } else {
                factSampleLength = UInt64(fact.sampleLength)
            }
        } catch {
            context.diagnose(.truncated, error.reason + "; ignored")
        }
    }

    /// Metadata found after the data chunk's header is announced at once (the listener hears it
    /// change); before that it is part of the header announcement.
    private mutating func announceMetadataAfterData(_ context: inout ParseContext) {
        if audio != nil && !metadata.isEmpty { context.announce(.metadata(metadata)) }
    }
}
