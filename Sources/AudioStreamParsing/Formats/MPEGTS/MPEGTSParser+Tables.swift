extension MPEGTSParser {
    /// Handles the unit at the position (its header decoded): the PAT, a PMT, the selected stream or an
    /// ID3 stream; every other PID by its header alone.
    mutating func packet(_ header: TSPacketHeader, _ context: inout ParseContext) throws(AudioStreamError) {
        let pid = header.pid
        guard pid != TSPacketHeader.nullPID, !header.transportError, !header.scrambled, header.hasPayload else {
            return
        }
        let isAudio = pid == selection?.pid
        let isMetadata = metadataStreams[pid] != nil
        let isTable = pid == TSPacketHeader.patPID || pmtSections[pid] != nil
        guard isAudio || isMetadata || isTable else { return }
        let position = context.window.position
        guard let bytes = context.window.peekBytes(at: layout.syncOffset, count: TSPacketHeader.packetSize) else {
            return
        }
        let packet = bytes[...]
        guard let (start, discontinuity) = header.payloadStart(packet) else {
            context.diagnose(
                .inconsistentValues, at: position, Self.structure,
                "adaptation_field_length runs past the transport packet; packet skipped")
            return
        }
        if let last = continuity[pid] {
            // The first packet of a PID after lost sync does not follow its last one (junk lay between,
            // which may have replaced packets): the same counter is a gap there, not a duplicate.
            let afterLostSync = pidsAcrossLostSync.remove(pid) != nil
            if header.continuityCounter == last && !discontinuity && !afterLostSync { return }  // a duplicate
            if header.continuityCounter != (last &+ 1) & 0x0F && !discontinuity {
                gap(pid, expected: (last &+ 1) & 0x0F, got: header.continuityCounter, &context)
            }
        }
        continuity[pid] = header.continuityCounter
        let payload = packet[start...]
        let payloadOffset = position + Int64(layout.syncOffset + start)
        if isAudio {
            feedAudio(payload, at: payloadOffset, unitOffset: position, unitStart: header.payloadUnitStart, &context)
        } else if isMetadata {
            if header.payloadUnitStart { takeMetadata(pid, &context, flush: true) }
            _ = metadataStreams[pid]?.feed(
                payload, at: payloadOffset, unitOffset: position, unitStart: header.payloadUnitStart)
            takeMetadata(pid, &context, flush: false)
        } else if pid == TSPacketHeader.patPID {
            for section in patSections.feed(payload, unitStart: header.payloadUnitStart) {
                guard checked(section, TSProgramAssociationSection.structure, at: position, &context),
                    let table = TSProgramAssociationSection.decode(section)
                else { continue }
                adopt(table, &context)
            }
        } else {
            // Safe to force unwrap: isTable and not the PAT.
            let sections = pmtSections[pid]!.feed(payload, unitStart: header.payloadUnitStart)
            for section in sections {
                guard checked(section, TSProgramMapSection.structure, at: position, &context),
                    let table = TSProgramMapSection.decode(section)
                else { continue }
                try adopt(table, &context)
            }
        }
    }

    /// A continuity_counter gap on `pid`: reported, and what was in progress there dropped.
    private mutating func gap(_ pid: UInt16, expected: UInt8, got: UInt8, _ context: inout ParseContext) {
        context.diagnose(
            .discontinuity, Self.structure,
            "continuity_counter gap on PID \(pid) at \(context.window.position) (expected \(expected), got \(got)); "
                + "the data in progress is dropped")
        if pid == selection?.pid {
            takeFrames(&context, flush: false)
            audio.reset()
        } else if metadataStreams[pid] != nil {
            metadataStreams[pid]?.reset()
        } else if pid == TSPacketHeader.patPID {
            patSections.reset()
        } else {
            pmtSections[pid]?.reset()
        }
    }

    /// True when the section's CRC_32 holds; otherwise reported (`checksumMismatch`) and ignored.
    private func checked(_ section: [UInt8], _ structure: Structure, at offset: Int64, _ context: inout ParseContext)
        -> Bool
    {
        guard TSSectionCRC.isValid(section[...]) else {
            context.diagnose(.checksumMismatch, at: offset, structure, "CRC_32 mismatch; the section is ignored")
            return false
        }
        return true
    }

    /// A PAT: the PMT PIDs to follow (a new version replaces them).
    private mutating func adopt(_ table: TSProgramAssociationSection, _ context: inout ParseContext) {
        guard table != pat else { return }
        if let pat, pat.version != table.version {
            context.diagnose(
                .formatChange, Self.structure, "the PAT changes to version \(table.version); its programs are followed")
        }
        pat = table
        for program in table.programs where pmtSections[program.pmtPID] == nil {
            pmtSections[program.pmtPID] = TSSectionAssembler()
        }
    }

    /// A PMT: stored; the stream is chosen once a PMT lists audio.
    private mutating func adopt(_ table: TSProgramMapSection, _ context: inout ParseContext) throws(AudioStreamError) {
        if let known = pmts[table.programNumber] {
            guard known != table else { return }
            context.diagnose(
                .formatChange, Self.structure,
                "the PMT of program \(table.programNumber) changes to version \(table.version)")
        }
        pmts[table.programNumber] = table
        guard selection == nil else { return }
        try select(&context)
    }

    /// Chooses the stream to demultiplex from the PMTs seen: the `trackID` one, else the first audio
    /// stream, else the first private PES stream (stream_type 0x06 without a descriptor) not yet found
    /// to carry something else, identified by its data.
    mutating func select(_ context: inout ParseContext) throws(AudioStreamError) {
        let programs = (pat?.programs.map(\.number) ?? []).filter { pmts[$0] != nil }
        var candidates: [(TSProgramMapSection.Stream, TSAudioCodec?, UInt16)] = []
        var privateStreams: [(TSProgramMapSection.Stream, TSAudioCodec?, UInt16)] = []
        for number in programs {
            // Safe to force unwrap: filtered above.
            for stream in pmts[number]!.streams {
                switch TSStreamKind(stream) {
                case .audio(let codec): candidates.append((stream, codec, number))
                case .privatePES where !notAudioPIDs.contains(stream.pid): privateStreams.append((stream, nil, number))
                default: break
                }
            }
        }
        let chosen: (TSProgramMapSection.Stream, TSAudioCodec?, UInt16)?
        if let trackID {
            chosen = (candidates + privateStreams).first { UInt32($0.0.pid) == trackID }
            // Not listed yet: another program's PMT may list it.
            if chosen == nil && programs.count < (pat?.programs.count ?? 0) { return }
            if chosen == nil {
                throw context.error(
                    .unsupportedFileType, Self.structure, "no audio stream with PID \(trackID) (trackID) in the PMTs")
            }
        } else {
            chosen = candidates.first ?? privateStreams.first
        }
        guard let (stream, codec, program) = chosen else { return }
        let pick = Selection(pid: stream.pid, codec: codec, program: program)
        selection = pick
        // The ID3 timed metadata of the same program.
        for s in pmts[program]?.streams ?? [] where TSStreamKind(s) == .timedID3 {
            metadataStreams[s.pid] = TSElementaryStream()
        }
    }

    /// Every elementary stream of the PMTs seen, in program order, the demultiplexed one selected;
    /// `id` is the PID.
    var tracks: [TrackInfo] {
        let programs = pat?.programs.map(\.number) ?? []
        return programs.compactMap { pmts[$0] }.flatMap { pmt in
            pmt.streams.map { stream in
                let kind = TSStreamKind(stream)
                var name = "stream_type 0x" + FourCharCode.hex(UInt32(stream.streamType), digits: 2)
                if case .audio(let codec) = kind { name = codec.name }
                if stream.pid == selection?.pid, let codec = selection?.codec { name = codec.name }
                if kind == .timedID3 { name = "ID3 timed metadata" }
                return TrackInfo(
                    id: UInt32(stream.pid), handlerType: stream.pid == selection?.pid ? "soun" : kind.handlerType,
                    sampleEntryType: name, timescale: 90000,
                    duration: 0, sampleCount: 0, language: stream.language, isSelected: stream.pid == selection?.pid,
                    isChapterTrack: false)
            }
        }
    }
}
