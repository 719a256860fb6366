/// One `TrackEntry` of `Tracks` (RFC 9559 §5.1.4.1), with what this library reads of it.
///
/// ```
///  TrackEntry
///  ├─ TrackNumber      uint   the number blocks name (1…)
///  ├─ TrackUID         uint   (Tags name tracks by it)
///  ├─ TrackType        uint   1 video, 2 audio, 3 complex, 16 logo, 17 subtitle, 18 buttons, 32 control
///  ├─ FlagEnabled      uint   default 1
///  ├─ DefaultDuration  uint   nanoseconds per frame (block)
///  ├─ Language         string default "eng"; LanguageBCP47 overrides it
///  ├─ CodecID          string "A_OPUS", "A_VORBIS", "A_AAC", …
///  ├─ CodecPrivate     binary the codec's configuration
///  ├─ CodecDelay       uint   nanoseconds of codec delay (priming)
///  ├─ SeekPreRoll      uint   nanoseconds to decode before a seek target
///  ├─ ContentEncodings master (compression or encryption: not supported)
///  └─ Audio
///     ├─ SamplingFrequency        float (default 8000)
///     ├─ OutputSamplingFrequency  float (SBR: twice the core rate)
///     ├─ Channels                 uint  (default 1)
///     └─ BitDepth                 uint
/// ```
struct MatroskaTrackEntry: Equatable {
    var number: UInt64
    var uid: UInt64?
    var type: UInt64
    var isEnabled = true
    var defaultDuration: UInt64?
    var name: String?
    var language: String?
    var codecID: String
    var codecPrivate: [UInt8]?
    var codecDelay: UInt64 = 0
    var seekPreRoll: UInt64 = 0
    /// True when ContentEncodings is present (header stripping, compression, encryption).
    var hasContentEncodings = false
    var samplingFrequency: Double = 8000
    var outputSamplingFrequency: Double?
    var channels: UInt64 = 1
    var bitDepth: UInt64?

    static let audioType: UInt64 = 2

    var isAudio: Bool { type == Self.audioType }

    /// The handler type a `TrackInfo` shows: `soun`, `vide`, `sbtl`, or the number.
    var handlerType: String {
        switch type {
        case 1: "vide"
        case 2: "soun"
        case 17: "sbtl"
        default: "\(type)"
        }
    }

    /// Decodes the `Tracks` element's entries.
    ///
    /// - Throws: `invalidFile` for an entry without TrackNumber or CodecID, or with TrackNumber 0;
    ///   `limitExceeded` past `maxPacketTableEntries` entries or a CodecPrivate above `maxHeaderChunkBytes`.
    static func decodeTracks(_ tracks: EBMLMaster, depth: Int, limits: ParserLimits) throws(StructureError)
        -> [MatroskaTrackEntry]
    {
        var out: [MatroskaTrackEntry] = []
        for child in tracks.children where child.id == MatroskaElementID.trackEntry {
            guard out.count < min(limits.maxPacketTableEntries, 4096) else {
                throw Structure.mkv("Tracks").limit("more TrackEntry elements than this parser keeps")
            }
            out.append(try decode(try tracks.master(child, depth: depth + 1, limits: limits), depth: depth + 1, limits))
        }
        return out
    }

    static func decode(_ entry: EBMLMaster, depth: Int, _ limits: ParserLimits) throws(StructureError)
        -> MatroskaTrackEntry
    {
        let structure = Structure.mkv("TrackEntry")
        guard let number = entry.unsigned(MatroskaElementID.trackNumber), number > 0 else {
            throw structure.invalid("no TrackNumber, or TrackNumber 0")
        }
        let codec = entry.string(MatroskaElementID.codecID) ?? ""
        var track = MatroskaTrackEntry(
            number: number, type: entry.unsigned(MatroskaElementID.trackType) ?? 0, codecID: codec)
        track.uid = entry.unsigned(MatroskaElementID.trackUID)
        track.isEnabled = entry.unsigned(MatroskaElementID.flagEnabled) != 0
        track.defaultDuration = entry.unsigned(MatroskaElementID.defaultDuration)
        track.name = entry.string(MatroskaElementID.name)
        track.language =
            entry.string(MatroskaElementID.languageBCP47) ?? entry.string(MatroskaElementID.language)
        if let priv = entry.body(MatroskaElementID.codecPrivate) {
            guard priv.count <= limits.maxHeaderChunkBytes else {
                throw structure.limit("CodecPrivate of \(priv.count) bytes exceeds maxHeaderChunkBytes")
            }
            track.codecPrivate = Array(priv)
        }
        track.codecDelay = entry.unsigned(MatroskaElementID.codecDelay) ?? 0
        track.seekPreRoll = entry.unsigned(MatroskaElementID.seekPreRoll) ?? 0
        track.hasContentEncodings = entry.first(MatroskaElementID.contentEncodings) != nil
        if let audio = entry.first(MatroskaElementID.audio) {
            let a = try entry.master(audio, depth: depth + 1, limits: limits)
            if let f = a.float(MatroskaElementID.samplingFrequency), f.isFinite, f > 0 { track.samplingFrequency = f }
            if let f = a.float(MatroskaElementID.outputSamplingFrequency), f.isFinite, f > 0 {
                track.outputSamplingFrequency = f
            }
            track.channels = a.unsigned(MatroskaElementID.channels) ?? 1
            track.bitDepth = a.unsigned(MatroskaElementID.bitDepth)
        }
        return track
    }
}
