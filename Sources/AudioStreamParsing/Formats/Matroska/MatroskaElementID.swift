/// The EBML and Matroska element IDs this library knows (RFC 8794 §11.2 for the EBML header, RFC 9559
/// §5.1 for the Matroska schema), with their names and levels, as data.
///
/// The level is the depth of the schema `path` (`\Segment` 0, `\Segment\Cluster` 1,
/// `\Segment\Cluster\SimpleBlock` 2): an element of unknown size ends at the first element whose
/// level is its own or lower (RFC 8794 §6.2). Global elements (Void, CRC-32) may occur at any level
/// and have none; they never end an element.
enum MatroskaElementID {
    // EBML header (RFC 8794 §11.2)
    static let ebml: UInt32 = 0x1A45_DFA3
    static let ebmlVersion: UInt32 = 0x4286
    static let ebmlReadVersion: UInt32 = 0x42F7
    static let ebmlMaxIDLength: UInt32 = 0x42F2
    static let ebmlMaxSizeLength: UInt32 = 0x42F3
    static let docType: UInt32 = 0x4282
    static let docTypeVersion: UInt32 = 0x4287
    static let docTypeReadVersion: UInt32 = 0x4285
    // Global (RFC 8794 §11.3)
    static let void: UInt32 = 0xEC
    static let crc32: UInt32 = 0xBF
    // Segment and its children (RFC 9559 §5.1)
    static let segment: UInt32 = 0x1853_8067
    static let seekHead: UInt32 = 0x114D_9B74
    static let seek: UInt32 = 0x4DBB
    static let seekID: UInt32 = 0x53AB
    static let seekPosition: UInt32 = 0x53AC
    static let info: UInt32 = 0x1549_A966
    static let timestampScale: UInt32 = 0x2AD7B1
    static let duration: UInt32 = 0x4489
    static let title: UInt32 = 0x7BA9
    static let muxingApp: UInt32 = 0x4D80
    static let writingApp: UInt32 = 0x5741
    static let dateUTC: UInt32 = 0x4461
    static let cluster: UInt32 = 0x1F43_B675
    static let timestamp: UInt32 = 0xE7
    static let position: UInt32 = 0xA7
    static let prevSize: UInt32 = 0xAB
    static let simpleBlock: UInt32 = 0xA3
    static let blockGroup: UInt32 = 0xA0
    static let block: UInt32 = 0xA1
    static let blockDuration: UInt32 = 0x9B
    static let referenceBlock: UInt32 = 0xFB
    static let discardPadding: UInt32 = 0x75A2
    static let blockAdditions: UInt32 = 0x75A1
    static let tracks: UInt32 = 0x1654_AE6B
    static let trackEntry: UInt32 = 0xAE
    static let trackNumber: UInt32 = 0xD7
    static let trackUID: UInt32 = 0x73C5
    static let trackType: UInt32 = 0x83
    static let flagEnabled: UInt32 = 0xB9
    static let flagDefault: UInt32 = 0x88
    static let flagLacing: UInt32 = 0x9C
    static let defaultDuration: UInt32 = 0x23E383
    static let name: UInt32 = 0x536E
    static let language: UInt32 = 0x22B59C
    static let languageBCP47: UInt32 = 0x22B59D
    static let codecID: UInt32 = 0x86
    static let codecPrivate: UInt32 = 0x63A2
    static let codecName: UInt32 = 0x258688
    static let codecDelay: UInt32 = 0x56AA
    static let seekPreRoll: UInt32 = 0x56BB
    static let video: UInt32 = 0xE0
    static let audio: UInt32 = 0xE1
    static let samplingFrequency: UInt32 = 0xB5
    static let outputSamplingFrequency: UInt32 = 0x78B5
    static let channels: UInt32 = 0x9F
    static let bitDepth: UInt32 = 0x6264
    static let contentEncodings: UInt32 = 0x6D80
    static let cues: UInt32 = 0x1C53_BB6B
    static let cuePoint: UInt32 = 0xBB
    static let cueTime: UInt32 = 0xB3
    static let cueTrackPositions: UInt32 = 0xB7
    static let cueTrack: UInt32 = 0xF7
    static let cueClusterPosition: UInt32 = 0xF1
    static let attachments: UInt32 = 0x1941_A469
    static let attachedFile: UInt32 = 0x61A7
    static let fileDescription: UInt32 = 0x467E
    static let fileName: UInt32 = 0x466E
    static let fileMediaType: UInt32 = 0x4660
    static let fileData: UInt32 = 0x465C
    static let chapters: UInt32 = 0x1043_A770
    static let editionEntry: UInt32 = 0x45B9
    static let chapterAtom: UInt32 = 0xB6
    static let chapterTimeStart: UInt32 = 0x91
    static let chapterTimeEnd: UInt32 = 0x92
    static let chapterFlagHidden: UInt32 = 0x98
    static let chapterDisplay: UInt32 = 0x80
    static let chapString: UInt32 = 0x85
    static let tags: UInt32 = 0x1254_C367
    static let tag: UInt32 = 0x7373
    static let targets: UInt32 = 0x63C0
    static let targetTypeValue: UInt32 = 0x68CA
    static let targetType: UInt32 = 0x63CA
    static let tagTrackUID: UInt32 = 0x63C5
    static let simpleTag: UInt32 = 0x67C8
    static let tagName: UInt32 = 0x45A3
    static let tagString: UInt32 = 0x4487
    static let tagBinary: UInt32 = 0x4485

    /// (ID, name, level) of every element above: the schema's names and path depths.
    static let schema: [(id: UInt32, name: String, level: Int?)] = [
        (ebml, "EBML", 0), (ebmlVersion, "EBMLVersion", 1), (ebmlReadVersion, "EBMLReadVersion", 1),
        (ebmlMaxIDLength, "EBMLMaxIDLength", 1), (ebmlMaxSizeLength, "EBMLMaxSizeLength", 1),
        (docType, "DocType", 1), (docTypeVersion, "DocTypeVersion", 1), (docTypeReadVersion, "DocTypeReadVersion", 1),
        (void, "Void", nil), (crc32, "CRC-32", nil),
        (segment, "Segment", 0), (seekHead, "SeekHead", 1), (seek, "Seek", 2), (seekID, "SeekID", 3),
        (seekPosition, "SeekPosition", 3), (info, "Info", 1), (timestampScale, "TimestampScale", 2),
        (duration, "Duration", 2), (title, "Title", 2), (muxingApp, "MuxingApp", 2), (writingApp, "WritingApp", 2),
        (dateUTC, "DateUTC", 2), (cluster, "Cluster", 1), (timestamp, "Timestamp", 2), (position, "Position", 2),
        (prevSize, "PrevSize", 2), (simpleBlock, "SimpleBlock", 2), (blockGroup, "BlockGroup", 2), (block, "Block", 3),
        (blockDuration, "BlockDuration", 3), (referenceBlock, "ReferenceBlock", 3),
        (discardPadding, "DiscardPadding", 3), (blockAdditions, "BlockAdditions", 3), (tracks, "Tracks", 1),
        (trackEntry, "TrackEntry", 2), (trackNumber, "TrackNumber", 3), (trackUID, "TrackUID", 3),
        (trackType, "TrackType", 3), (flagEnabled, "FlagEnabled", 3), (flagDefault, "FlagDefault", 3),
        (flagLacing, "FlagLacing", 3), (defaultDuration, "DefaultDuration", 3), (name, "Name", 3),
        (language, "Language", 3), (languageBCP47, "LanguageBCP47", 3), (codecID, "CodecID", 3),
        (codecPrivate, "CodecPrivate", 3), (codecName, "CodecName", 3), (codecDelay, "CodecDelay", 3),
        (seekPreRoll, "SeekPreRoll", 3), (video, "Video", 3), (audio, "Audio", 3),
        (samplingFrequency, "SamplingFrequency", 4), (outputSamplingFrequency, "OutputSamplingFrequency", 4),
        (channels, "Channels", 4), (bitDepth, "BitDepth", 4), (contentEncodings, "ContentEncodings", 3),
        (cues, "Cues", 1), (cuePoint, "CuePoint", 2), (cueTime, "CueTime", 3),
        (cueTrackPositions, "CueTrackPositions", 3),
        (cueTrack, "CueTrack", 4), (cueClusterPosition, "CueClusterPosition", 4), (attachments, "Attachments", 1),
        (attachedFile, "AttachedFile", 2), (fileDescription, "FileDescription", 3), (fileName, "FileName", 3),
        (fileMediaType, "FileMediaType", 3), (fileData, "FileData", 3), (chapters, "Chapters", 1),
        (editionEntry, "EditionEntry", 2), (chapterAtom, "ChapterAtom", 3), (chapterTimeStart, "ChapterTimeStart", 4),
        (chapterTimeEnd, "ChapterTimeEnd", 4), (chapterFlagHidden, "ChapterFlagHidden", 4),
        (chapterDisplay, "ChapterDisplay", 4), (chapString, "ChapString", 5), (tags, "Tags", 1), (tag, "Tag", 2),
        (targets, "Targets", 3), (targetTypeValue, "TargetTypeValue", 4), (targetType, "TargetType", 4),
        (tagTrackUID, "TagTrackUID", 4), (simpleTag, "SimpleTag", 3), (tagName, "TagName", 4),
        (tagString, "TagString", 4), (tagBinary, "TagBinary", 4),
    ]

    /// The schema level of `id`; `nil` for a global element or an ID the table lacks (neither ends an
    /// element of unknown size).
    static func level(of id: UInt32) -> Int? {
        switch id {
        // The hot cases first: a live stream's Cluster children.
        case simpleBlock, blockGroup, timestamp: return 2
        case cluster: return 1
        default: return schema.first { $0.id == id }?.level ?? nil
        }
    }

    /// The schema name, or `0x` and the hex digits.
    static func name(of id: UInt32) -> String {
        if let entry = schema.first(where: { $0.id == id }) { return entry.name }
        return "0x" + FourCharCode.hex(id, digits: id > 0xFF_FFFF ? 8 : id > 0xFFFF ? 6 : id > 0xFF ? 4 : 2)
    }
}
