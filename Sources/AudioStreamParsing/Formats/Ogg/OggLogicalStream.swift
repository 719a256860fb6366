/// The codec a logical stream carries, recognised from its first packet (the identification header
/// on the beginning-of-stream page).
enum OggCodec: Equatable, CustomStringConvertible {
    case vorbis
    case opus
    case flac
    /// Not audio this library maps (Theora, Skeleton, Kate, Speex…): skipped.
    case other

    /// Recognises the first packet of a logical stream from its first bytes.
    init(firstPacket b: [UInt8]) {
        if b.starts(with: OpusHead.magic) {
            self = .opus
        } else if VorbisIdentificationHeader.isHeader(b[...], type: 1) {
            self = .vorbis
        } else if b.starts(with: OggFLACMappingHeader.magic) {
            self = .flac
        } else {
            self = .other
        }
    }

    var description: String {
        switch self {
        case .vorbis: "vorbis"
        case .opus: "opus"
        case .flac: "flac"
        case .other: "other"
        }
    }
}

/// What a codec mapping made of a stream's header packets: the values announced for it.
struct OggStreamFormat: Equatable {
    var streamDescription: StreamDescription
    var magicCookie: [UInt8]?
    var channelLayout: ChannelLayout?
    var metadata: AudioMetadata?
    var bitRate: UInt32?
    var packetSizeUpperBound: UInt32?
    /// Frames the decoder discards at the start (Opus pre-skip).
    var primingFrames: Int64 = 0
}

/// A codec mapping's state while it reads the header packets, and afterwards what it needs to count
/// the frames of each audio packet.
enum OggMapping {
    /// Opus (RFC 7845 §5): OpusHead, then OpusTags, then audio.
    case opus(head: OpusHead, tagsRead: Bool, metadata: AudioMetadata?)
    /// Vorbis (Vorbis I §4.2): identification, comment, setup; then the mode table counts each audio
    /// packet's frames.
    case vorbis(VorbisStreamHeaders)
    /// FLAC (Ogg mapping 1.0): the mapping header, then one metadata block per packet.
    case flac(header: OggFLACMappingHeader, blocksRead: Int, metadata: AudioMetadata?)

    /// Starts a mapping from the identification packet.
    ///
    /// - Throws: the codec header's error; `unsupportedDataFormat` for a stream that is not audio.
    static func start(_ codec: OggCodec, _ packet: [UInt8]) throws(StructureError) -> OggMapping {
        switch codec {
        case .opus:
            return .opus(head: try OpusHead.decode(packet), tagsRead: false, metadata: nil)
        case .vorbis:
            let id = try VorbisIdentificationHeader.decode(packet[...])
            return .vorbis(VorbisStreamHeaders(identification: id, packets: [packet]))
        case .flac:
            return .flac(header: try OggFLACMappingHeader.decode(packet), blocksRead: 0, metadata: nil)
        case .other:
            throw OggParser.ogg.unsupported("not an audio mapping")
        }
    }

    /// Whether every header packet has been read.
    var headersComplete: Bool {
        switch self {
        case .opus(_, let tagsRead, _): return tagsRead
        case .vorbis(let v): return v.durations != nil
        case .flac(let header, let blocksRead, _):
            return header.headerPacketCount != 0 && blocksRead >= Int(header.headerPacketCount)
        }
    }

    /// Whether a packet starting with `first` is audio rather than a header packet. For FLAC with an
    /// unknown header count, a frame sync byte starts audio.
    func isAudioPacket(first: UInt8?) -> Bool {
        if case .flac(let header, _, _) = self, header.headerPacketCount == 0 { return first == 0xFF }
        return headersComplete
    }

    /// What `readHeader` made of a packet.
    enum HeaderOutcome {
        /// The packet was the header the mapping expected (or stood in for a lost one).
        case header
        /// The headers that carry only metadata were lost with damaged pages, and this packet is the first
        /// audio packet: the mapping now counts its headers as complete; hand the packet out as audio.
        case audio
    }

    /// Takes one header packet after the identification packet. Oddities that do not stop the stream
    /// (a malformed comment block) are appended to `notes`, to be reported at the packet.
    ///
    /// Pages lost before the headers were complete (`afterLostPages`) cost only the metadata when the
    /// headers that went with them carried nothing else (docs/formats/ogg.md, "Damaged header pages"):
    /// - Opus: a packet that is not OpusTags is the first audio packet (no tags).
    /// - Vorbis: a setup header where the comment header was expected: an empty comment header stands in
    ///   for the lost one (the magic cookie needs all three), then the setup header is read.
    /// - FLAC: a frame (sync byte 0xFF) where a metadata block was expected: the blocks left are lost.
    /// Each is a `damagedMetadata` note.
    ///
    /// - Throws: when the packet is not the header the mapping expects next, or the Vorbis setup
    ///   header does not decode.
    mutating func readHeader(
        _ packet: [UInt8], limits: ParserLimits, afterLostPages: Bool, notes: inout [DiagnosticNote]
    ) throws(StructureError) -> HeaderOutcome {
        switch self {
        case .opus(let head, _, _):
            guard packet.starts(with: VorbisComment.Framing.opusTags.magic) else {
                let structure = VorbisComment.Framing.opusTags.structure
                guard afterLostPages else { throw structure.invalid("second packet is not OpusTags") }
                notes.append(
                    DiagnosticNote(
                        .damagedMetadata, structure, "OpusTags lost with damaged pages: no tags; the audio is kept"))
                self = .opus(head: head, tagsRead: true, metadata: nil)
                return .audio
            }
            let metadata = Self.comments(packet[...], .opusTags, limits, &notes)
            self = .opus(head: head, tagsRead: true, metadata: metadata)
        case .vorbis(var v):
            if v.packets.count == 1 {
                if afterLostPages && VorbisIdentificationHeader.isHeader(packet[...], type: 5) {
                    notes.append(
                        DiagnosticNote(
                            .damagedMetadata, VorbisComment.Framing.vorbisHeader.structure,
                            "comment header lost with damaged pages: no tags; an empty comment header stands in "
                                + "for it in the magic cookie"))
                    v.packets.append(VorbisComment.emptyCommentHeader)
                    self = .vorbis(v)
                    return try readHeader(packet, limits: limits, afterLostPages: afterLostPages, notes: &notes)
                }
                guard VorbisIdentificationHeader.isHeader(packet[...], type: 3) else {
                    let comment = VorbisComment.Framing.vorbisHeader.structure
                    throw comment.invalid("second packet is not the comment header")
                }
                v.metadata = Self.comments(packet[...], .vorbisHeader, limits, &notes)
            } else {
                guard VorbisIdentificationHeader.isHeader(packet[...], type: 5) else {
                    throw VorbisSetupHeader.structure.invalid("third packet is not the setup header")
                }
                let setup = try VorbisSetupHeader.decode(packet[...], channels: v.identification.channels)
                v.durations = VorbisPacketDuration(identification: v.identification, setup: setup)
            }
            v.packets.append(packet)
            self = .vorbis(v)
        case .flac(let header, let blocksRead, var metadata):
            if afterLostPages, packet.first == 0xFF, header.headerPacketCount != 0 {
                notes.append(
                    DiagnosticNote(
                        .damagedMetadata, Structure("flac", "ogg"),
                        "metadata blocks lost with damaged pages (\(blocksRead) of \(header.headerPacketCount) "
                            + "read); the audio is kept"))
                self = .flac(header: header, blocksRead: Int(header.headerPacketCount), metadata: metadata)
                return .audio
            }
            guard let first = packet.first, first & 0x7F != 0x7F, packet.count >= 4 else {
                throw Structure("flac", "ogg").invalid("header packet is not a metadata block")
            }
            let body = packet[4...]
            switch FLACMetadataBlockHeader.BlockType(rawValue: first & 0x7F) {
            case .vorbisComment:
                // VORBIS_COMMENT (RFC 9639 §8.6).
                let comments = Self.comments(body, .flacBlock, limits, &notes)
                metadata = (metadata ?? AudioMetadata()).merging(comments ?? AudioMetadata())
            case .picture:
                // PICTURE (RFC 9639 §8.8).
                switch FLACPicture.artwork(fromBlock: body, limits: limits) {
                case .success(let art):
                    var m = metadata ?? AudioMetadata()
                    m.artwork.append(art)
                    metadata = m
                case .failure(let e):
                    notes.append(DiagnosticNote(e, whenInvalid: .damagedMetadata))
                }
            default:
                break
            }
            self = .flac(header: header, blocksRead: blocksRead + 1, metadata: metadata)
        }
        return .header
    }

    /// A comment block's metadata; a block that cannot be read is a diagnostic, not an error.
    static func comments(
        _ bytes: ArraySlice<UInt8>, _ framing: VorbisComment.Framing, _ limits: ParserLimits,
        _ notes: inout [DiagnosticNote]
    ) -> AudioMetadata? {
        do {
            let c = try VorbisComment.decode(bytes, framing: framing, limits: limits)
            notes += c.notes
            return c.metadata
        } catch {
            notes.append(DiagnosticNote(.damagedMetadata, error.reason))
            return nil
        }
    }

    /// The values to announce once the headers are read (Vorbis's priming frames are known only from the
    /// first audio packet: `OggPacketClock.primingFrames`).
    var format: OggStreamFormat {
        switch self {
        case .opus(let head, _, let metadata):
            return OggStreamFormat(
                streamDescription: head.streamDescription, magicCookie: head.rawBytes,
                channelLayout: head.channelLayout, metadata: metadata, primingFrames: Int64(head.preSkip))
        case .vorbis(let v):
            let id = v.identification
            let cookie =
                v.packets.count == 3
                ? VorbisMagicCookie.make(
                    identification: v.packets[0][...], comment: v.packets[1][...], setup: v.packets[2][...])
                : nil
            return OggStreamFormat(
                streamDescription: id.streamDescription, magicCookie: cookie,
                channelLayout: VorbisChannelLayout.layout(channels: id.channels), metadata: v.metadata,
                bitRate: id.bitrateNominal > 0 ? UInt32(id.bitrateNominal) : nil,
                primingFrames: 0)
        case .flac(let header, _, let metadata):
            let info = header.streamInfo
            return OggStreamFormat(
                streamDescription: info.streamDescription, magicCookie: info.magicCookie,
                channelLayout: FLACParser.channelLayout(channels: info.channels), metadata: metadata,
                packetSizeUpperBound: info.maximumFrameSize > 0 ? info.maximumFrameSize : nil)
        }
    }
}

/// The per-packet part of a mapping, made from it when the first audio packet arrives: counts each
/// audio packet's frames from its first bytes. Kept apart from the header state (`OggMapping`: header
/// packets, metadata) so that the per-packet path neither copies nor retains any of that.
struct OggPacketClock {
    enum Kind {
        case opus
        case vorbis
        case flac
        /// Ogg FLAC whose mapping header does not count the header packets: a frame sync byte starts
        /// audio.
        case flacUncounted
    }

    let kind: Kind
    /// Vorbis: the mode table and the previous block size.
    var vorbis: VorbisPacketDuration?
    /// Vorbis: the first audio packet's frames that a decoder does not return (`nil` before it).
    var primingFrames: Int64?

    init(_ mapping: OggMapping) {
        switch mapping {
        case .opus: kind = .opus
        case .vorbis(let v):
            kind = .vorbis
            vorbis = v.durations
        case .flac(let header, _, _): kind = header.headerPacketCount == 0 ? .flacUncounted : .flac
        }
    }

    /// Whether a packet starting with `first` is audio (the clock exists once the headers are read).
    func isAudioPacket(first: UInt8?) -> Bool { kind == .flacUncounted ? first == 0xFF : true }

    /// Whether counting frames needs the packet's first 16 bytes (FLAC) rather than its first two.
    var needsHead: Bool { kind == .flac || kind == .flacUncounted }

    /// Frames of the stream before its granule positions start counting: Vorbis's first packet (FFmpeg
    /// counts it, a decoder returns nothing for it: Vorbis I §1.3.2); 0 for Opus, whose granule positions
    /// include the pre-skip (RFC 7845 §4.3).
    var framesBeforeGranuleZero: Int64 { primingFrames ?? 0 }

    /// Forgets what the frame count of the next packet depends on (Vorbis: the previous block size), after
    /// a discontinuity or a seek.
    mutating func reset() { vorbis?.reset() }

    /// `frames` for a non-empty audio packet of an Opus or Vorbis stream (the per-packet path: no head
    /// bytes; a FLAC clock, which needs them, does not take it and gives 0).
    @inline(__always)
    mutating func frames(first: UInt8, second: UInt8?) throws(StructureError) -> Int64 {
        switch kind {
        case .opus: return OpusPacket.frames(toc: first, second: second)
        case .vorbis: return Int64(try vorbis?.frames(first: first) ?? 0)
        case .flac, .flacUncounted: return 0
        }
    }

    /// Whether `frames(first:second:)` gives this clock's counts: Opus, or Vorbis once its first packet
    /// (the priming) was counted.
    var countsFromFirstBytes: Bool { kind == .opus || (kind == .vorbis && primingFrames != nil) }

    /// The frames an audio packet decodes to, from its first two bytes (`head`: its first 16 bytes, for
    /// FLAC); 0 when unknown.
    mutating func frames(first: UInt8?, second: UInt8?, head: [UInt8]) throws(StructureError) -> Int64 {
        switch kind {
        case .opus:
            return OpusPacket.frames(toc: first, second: second)
        case .vorbis:
            guard vorbis != nil, let packet = try vorbis?.measure(first: first) ?? nil else { return 0 }
            if primingFrames == nil { primingFrames = Int64(packet.frames - packet.decodedFrames) }
            return Int64(packet.frames)
        case .flac, .flacUncounted:
            return FLACFrameBlockSize.of(head) ?? 0
        }
    }
}

/// The Vorbis headers read so far.
struct VorbisStreamHeaders {
    var identification: VorbisIdentificationHeader
    /// The header packets as they appear in the stream (for the magic cookie).
    var packets: [[UInt8]]
    var metadata: AudioMetadata?
    /// The frame counter, once the setup header is read.
    var durations: VorbisPacketDuration?
}

/// A packet being reassembled from pieces on consecutive pages.
struct OggPartialPacket {
    var bytes: [UInt8]
    /// Absolute offset of its first byte.
    var fileOffset: Int64
    /// Absolute offset of the page where it begins.
    var pageOffset: Int64
}

/// The logical stream the parser follows.
struct OggLogicalStream {
    let serialNumber: UInt32
    let codec: OggCodec
    var mapping: OggMapping?
    /// The sequence number the next page must have; `nil` after a discontinuity.
    var nextSequence: UInt32?
    var partial: OggPartialPacket?
    /// The end-of-stream page was seen.
    var ended = false
    /// Pages were lost (a discontinuity or a sequence gap) since the stream began.
    var lostPages = false
    /// Its header packets were lost: its pages are skipped until the next group.
    var unusable = false
    /// Whether audio packets were delivered for this stream.
    var deliveredAudio = false
    /// The format announced for this stream, once.
    var announcedFormat: OggStreamFormat?
    /// `announcedFormat != nil`, kept apart so that the per-packet path tests it without copying the format.
    var hasAnnouncedFormat = false
    /// Counts the audio packets' frames: made from the mapping at the first audio packet.
    var clock: OggPacketClock?

    // End trimming (RFC 7845 §4.4, Vorbis I §A.2): granule of the last page, and the frames of the
    // packets that ended on or before it.
    var lastGranule: Int64 = -1
    /// Frames of every audio packet delivered for this stream (nominal, before trimming).
    var frames: Int64 = 0
    /// The audio packets counted in `frames`.
    var packets: Int64 = 0
    /// The granule position of the start of the stream: the first granule minus the frames that end
    /// on its page (RFC 7845 §4.5); `nil` until known.
    var granuleBase: Int64?
    /// The frame (counted over all links, as `packetToFrame` counts) where its first audio packet begins,
    /// when its packets were delivered with exact indices; `nil` otherwise.
    var firstFrame: Int64?
}
