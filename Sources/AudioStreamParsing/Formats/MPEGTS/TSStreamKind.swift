/// What an elementary stream listed in a PMT carries, from its stream_type and descriptors
/// (ISO/IEC 13818-1 Table 2-34; ATSC A/52 Annex A; ETSI EN 300 468 Annex D; the ID3 timed metadata
/// of Apple's "Timed Metadata for HTTP Live Streaming").
///
/// | stream_type | descriptor | kind |
/// | --- | --- | --- |
/// | 0x03, 0x04 | | MPEG-1/2 audio (Layers I–III) |
/// | 0x0F | | AAC in ADTS |
/// | 0x11 | | AAC in LATM/LOAS (``AudioMuxElement`` payloads) |
/// | 0x81 | | AC-3 (ATSC) |
/// | 0x87 | | E-AC-3 (ATSC) |
/// | 0x06 (private PES) | AC-3 0x6A, registration `AC-3`, ATSC AC-3 0x81 | AC-3 (DVB, System B) |
/// | 0x06 | enhanced AC-3 0x7A, registration `EAC3` | E-AC-3 |
/// | 0x06 | none of the above (Blu-ray's HDMV mode writes AAC so) | private PES: audio when its first PES payload starts with an audio frame (``TSAudioFrame/identify(_:ended:)``) |
/// | 0x15 | registration or metadata descriptor `ID3 ` | ID3 timed metadata |
/// | 0x01, 0x02, 0x10, 0x1B, 0x24, 0x42, 0xD1, 0xEA | | video (skipped) |
enum TSStreamKind: Hashable, Sendable {
    case audio(TSAudioCodec)
    case timedID3
    case video
    /// stream_type 0x06 without a descriptor that names its content: audio only if its bytes say so.
    case privatePES
    case other

    /// The kind of a PMT entry.
    init(_ stream: TSProgramMapSection.Stream) {
        let id = stream.formatIdentifier
        switch stream.streamType {
        case 0x03, 0x04: self = .audio(.mpegAudio)
        case 0x0F: self = .audio(.adts)
        case 0x11: self = .audio(.latm)
        case 0x81: self = .audio(.ac3)
        case 0x87: self = .audio(.enhancedAC3)
        case 0x06 where stream.descriptorTags.contains(0x7A) || id == FourCharCode.value("EAC3"):
            self = .audio(.enhancedAC3)
        case 0x06
        where stream.descriptorTags.contains(0x6A) || stream.descriptorTags.contains(0x81)
            || id == FourCharCode.value("AC-3"):
            self = .audio(.ac3)
        case 0x06: self = .privatePES
        case 0x15 where id == FourCharCode.value("ID3 "): self = .timedID3
        case 0x01, 0x02, 0x10, 0x1B, 0x24, 0x42, 0xD1, 0xEA: self = .video
        default: self = .other
        }
    }

    /// The handler type a ``TrackInfo`` shows (as MP4 and Matroska do): `soun`, `vide`, `meta`, `data`.
    var handlerType: String {
        switch self {
        case .audio: "soun"
        case .video: "vide"
        case .timedID3: "meta"
        case .privatePES, .other: "data"
        }
    }
}

/// The audio codecs a transport stream carries here.
enum TSAudioCodec: Hashable, Sendable {
    case mpegAudio, adts, latm, ac3, enhancedAC3

    /// A short name for ``TrackInfo/sampleEntryType``.
    var name: String {
        switch self {
        case .mpegAudio: "MPEG audio"
        case .adts: "AAC (ADTS)"
        case .latm: "AAC (LATM)"
        case .ac3: "AC-3"
        case .enhancedAC3: "E-AC-3"
        }
    }
}
