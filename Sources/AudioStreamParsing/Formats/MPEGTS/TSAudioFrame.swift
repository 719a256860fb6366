/// One frame of an audio elementary stream, decoded by the codec's own header decoder (``MPEGFrameHeader``,
/// ``ADTSHeader``, ``AC3SyncFrame``, ``AudioSyncStreamHeader``): what a transport stream's packets carry,
/// and what they announce.
enum TSAudioFrame: Hashable, Sendable {
    case mpeg(MPEGFrameHeader)
    /// An ADTS frame; `implicitSBR` when the stream's first raw data block carried SBR data (HE-AAC with
    /// implicit signalling): its packets are then counted at the output rate, twice the header's.
    case adts(ADTSHeader, implicitSBR: Bool)
    case ac3(AC3SyncFrame)
    /// A LOAS frame, with the LATM configuration in force once its AudioMuxElement is read (`nil` from
    /// ``decode(_:_:at:)``, which reads only the sync header); `implicitSBR` as for ADTS.
    case loas(AudioSyncStreamHeader, StreamMuxConfig?, implicitSBR: Bool)

    /// The bytes a header decoder reads.
    static func headerByteCount(_ codec: TSAudioCodec) -> Int {
        switch codec {
        case .mpegAudio: MPEGFrameHeader.byteCount
        case .adts: ADTSHeader.fixedSize
        case .latm: AudioSyncStreamHeader.byteCount
        case .ac3, .enhancedAC3: AC3SyncFrame.headerByteCount
        }
    }

    /// What the bytes at `i` in `es` are for `codec`: a frame, no frame (skip a byte), or too few bytes.
    enum Decoded {
        case frame(TSAudioFrame)
        case noFrame
        case needMoreData
    }

    /// Decodes the header at `i` in `es`.
    static func decode(_ codec: TSAudioCodec, _ es: [UInt8], at i: Int) -> Decoded {
        let n = headerByteCount(codec)
        guard i + n <= es.count else { return .needMoreData }
        let bits = es[i..<(i + n)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        switch codec {
        case .mpegAudio:
            guard let header = MPEGFrameHeader(UInt32(truncatingIfNeeded: bits)), !header.isFreeFormat else {
                return .noFrame
            }
            return .frame(.mpeg(header))
        case .adts:
            guard case .valid(let header) = ADTSHeader.decode(bits) else { return .noFrame }
            return .frame(.adts(header, implicitSBR: false))
        case .latm:
            guard let header = AudioSyncStreamHeader(UInt32(truncatingIfNeeded: bits)) else { return .noFrame }
            return .frame(.loas(header, nil, implicitSBR: false))
        case .ac3, .enhancedAC3:
            guard case .valid(let frame) = AC3SyncFrame.decode(bits), frame.startsPacket else { return .noFrame }
            return .frame(.ac3(frame))
        }
    }

    /// What ``identify(_:ended:)`` found.
    enum Identification: Equatable {
        case codec(TSAudioCodec)
        /// The bytes start no audio frame of any codec here.
        case none
        case needMoreData
    }

    /// The codecs tried, in order, on a private PES stream (stream_type 0x06 without a descriptor).
    private static let privateCandidates: [TSAudioCodec] = [.adts, .latm, .ac3, .mpegAudio]

    /// The codec of a private PES stream's data from its first bytes (a PES payload start, where a
    /// muxer aligns a frame): a frame of that codec at offset 0 followed by another of the same codec
    /// at its length, or ending the data when the PES packet `ended`. AC-3 frames of E-AC-3 syntax
    /// give `enhancedAC3`.
    static func identify(_ es: [UInt8], ended: Bool) -> Identification {
        // No data yet (the first PES packet is starting): nothing to decide.
        guard !es.isEmpty else { return .needMoreData }
        var waiting = false
        for codec in privateCandidates {
            guard case .frame(let frame) = decode(codec, es, at: 0) else {
                if es.count < headerByteCount(codec) { waiting = true }
                continue
            }
            let found: TSAudioCodec
            if case .ac3(let f) = frame, f.syntax == .enhanced { found = .enhancedAC3 } else { found = codec }
            switch decode(codec, es, at: frame.length) {
            case .frame: return .codec(found)
            case .noFrame: continue
            case .needMoreData:
                if ended && es.count == frame.length { return .codec(found) }
                if !ended { waiting = true }
            }
        }
        return waiting && !ended ? .needMoreData : .none
    }

    /// The frame's length in the elementary stream, header included.
    var length: Int {
        switch self {
        case .mpeg(let h): h.frameLength ?? MPEGFrameHeader.byteCount
        case .adts(let h, _): h.frameLength
        case .ac3(let f): f.frameLength
        case .loas(let h, _, _): h.frameLength
        }
    }

    /// Where the packet starts in the frame: after the ADTS header (stripped as for `.aac` files), else 0.
    var packetStart: Int {
        if case .adts(let h, _) = self { return h.headerLength }
        return 0
    }

    /// Sample frames in the packet, at ``sampleRate``.
    var frames: Int64 {
        switch self {
        case .mpeg(let h): Int64(h.samplesPerFrame)
        case .adts(let h, let sbr): Int64(ADTSFrameLayout.framesPerBlock * h.rawDataBlockCount) * Self.sbrFactor(sbr)
        case .ac3(let f): Int64(f.samples)
        case .loas(_, let config, let sbr): Int64(config?.audioSpecificConfig.frameLength ?? 1024) * Self.sbrFactor(sbr)
        }
    }

    /// The sample rate the stream is reported at: with implicit SBR the output rate, twice the core's.
    var sampleRate: Double {
        switch self {
        case .mpeg(let h): Double(h.sampleRate)
        case .adts(let h, let sbr): Double(h.samplingFrequency) * Double(Self.sbrFactor(sbr))
        case .ac3(let f): Double(f.sampleRate)
        case .loas(_, let config, let sbr):
            Double(config?.audioSpecificConfig.samplingFrequency ?? 0) * Double(Self.sbrFactor(sbr))
        }
    }

    /// 2 with implicit SBR (a decoder outputs twice the core's frames at twice its rate, ISO/IEC 14496-3
    /// §4.6.18.2), else 1.
    private static func sbrFactor(_ implicitSBR: Bool) -> Int64 { implicitSBR ? 2 : 1 }

    /// This frame with implicit SBR looked for in `firstPacket` (the frame's first raw data block or LATM
    /// payload), when it starts a stream or a new format: the ADTS and LOAS cases come back flagged when
    /// the block carries SBR data, with the text of a diagnostic when the block could not be read to its
    /// end (the core is then reported, as a raw ADTS or LOAS stream does). Other codecs come back as they
    /// are.
    func lookingForImplicitSBR(in firstPacket: ArraySlice<UInt8>) -> (frame: TSAudioFrame, problem: String?) {
        let config: AudioSpecificConfig
        switch self {
        case .adts(let h, _): config = AudioSpecificConfig(adtsHeader: h, programConfigElement: nil)
        case .loas(_, let mux?, _): config = mux.audioSpecificConfig
        case .mpeg, .ac3, .loas(_, nil, _): return (self, nil)
        }
        // Signalled explicitly (LATM with an extension object type): nothing is implicit.
        guard config.allowsImplicitSBR else { return (self, nil) }
        let report = config.reportedWithProblem(firstRawDataBlock: firstPacket)
        let found = report.config.extensionAudioObjectType != nil
        switch self {
        case .adts(let h, _): return (.adts(h, implicitSBR: found), report.problem)
        case .loas(let h, let mux, _): return (.loas(h, mux, implicitSBR: found), report.problem)
        case .mpeg, .ac3: return (self, nil)
        }
    }

    /// This frame with the implicit-SBR flag of `format`, the stream's announced frame, when both are
    /// ADTS or both LOAS (a frame decoded from its header alone is never flagged).
    func inheritingImplicitSBR(from format: TSAudioFrame) -> TSAudioFrame {
        switch (self, format) {
        case (.adts(let h, _), .adts(_, let sbr)): .adts(h, implicitSBR: sbr)
        case (.loas(let h, let mux, _), .loas(_, _, let sbr)): .loas(h, mux, implicitSBR: sbr)
        default: self
        }
    }

    /// The largest packet the stream's format allows.
    var packetSizeUpperBound: Int {
        switch self {
        case .mpeg(let h): h.largestFrameLength
        case .adts: ADTSParser.packetSizeUpperBound
        case .ac3(let f): f.syntax == .ac3 ? 3840 : AC3Parser.maxFramesPerPacket * 4096
        // A payload lies inside one AudioMuxElement.
        case .loas: 8191
        }
    }

    /// The properties a stream of this frame announces (as the raw format's parser announces them):
    /// dataFormat, formatList, magicCookie (AAC), channelLayout, bitRate (MPEG audio: the first frame's); `firstPacket` is the packet's bytes
    /// (an ADTS frame's raw data block, for channel configuration 0).
    func propertyValues(firstPacket: ArraySlice<UInt8>) -> [AudioStreamPropertyValue] {
        var values: [AudioStreamPropertyValue]
        switch self {
        case .mpeg(let h):
            // The first frame's bit rate, as the raw format's parser announces it with the header: a
            // decoder's pre-roll over the bit reservoir is counted in frames of that size.
            values = [.dataFormat(h.streamDescription), .bitRate(h.bitRate)]
        case .adts(let h, let sbr):
            values =
                ADTSConfiguration(header: h, firstRawDataBlock: Array(firstPacket), readsImplicitSBR: sbr)
                .propertyValues
        case .ac3(let f):
            values = [.dataFormat(f.streamDescription)]
            if let layout = f.channelLayout { values.append(.channelLayout(layout)) }
        case .loas(_, let config, let sbr):
            values =
                config.map {
                    AACStreamFormat.latmPropertyValues(
                        sbr ? $0.audioSpecificConfig.reported(firstRawDataBlock: firstPacket) : $0.audioSpecificConfig)
                } ?? []
        }
        let bound = UInt32(packetSizeUpperBound)
        values += [.packetSizeUpperBound(bound), .maximumPacketSize(bound), .restrictsRandomAccess(false)]
        return values
    }
}
