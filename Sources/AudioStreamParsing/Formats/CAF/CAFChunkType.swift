/// A CAF chunk type (the `mChunkType` four-character code of a CAF chunk header, `ChunkLayout.caf`).
///
/// Apple "Core Audio Format Specification", "CAF File Header and Chunk Headers" and the chunk sections
/// that follow it; `CAFFile.h` (`kCAF_*ChunkID`).
///
/// | Swift name          | CoreAudio constant                  | code   | section of the specification   |
/// | ------------------- | ----------------------------------- | ------ | ------------------------------ |
/// | `audioDescription`  | `kCAF_StreamDescriptionChunkID`     | `desc` | Required Chunks                |
/// | `audioData`         | `kCAF_AudioDataChunkID`             | `data` | Required Chunks                |
/// | `packetTable`       | `kCAF_PacketTableChunkID`           | `pakt` | Required Chunks                |
/// | `channelLayout`     | `kCAF_ChannelLayoutChunkID`         | `chan` | Channel Layout                 |
/// | `magicCookie`       | `kCAF_MagicCookieID`                | `kuki` | Supplementary Data             |
/// | `strings`           | `kCAF_StringsChunkID`               | `strg` | Supplementary Data             |
/// | `marker`            | `kCAF_MarkerChunkID`                | `mark` | Marker and Region Chunks       |
/// | `region`            | `kCAF_RegionChunkID`                | `regn` | Marker and Region Chunks       |
/// | `instrument`        | `kCAF_InstrumentChunkID`            | `inst` | Music Metadata                 |
/// | `midi`              | `kCAF_MIDIChunkID`                  | `midi` | Music Metadata                 |
/// | `overview`          | `kCAF_OverviewChunkID`              | `ovvw` | Audio Editor Support           |
/// | `peak`              | `kCAF_PeakChunkID`                  | `peak` | Audio Editor Support           |
/// | `editComments`      | `kCAF_EditCommentsChunkID`          | `edct` | Annotations                    |
/// | `information`       | `kCAF_InfoStringsChunkID`           | `info` | Annotations                    |
/// | `uniqueMaterialID`  | `kCAF_UMIDChunkID`                  | `umid` | Identifier                     |
/// | `uuid`              | `kCAF_UUIDChunkID`                  | `uuid` | Extending the CAF Specification |
/// | `free`              | `kCAF_FillerChunkID`                | `free` | Extra Space                    |
/// | `formatList`        | `kCAF_FormatListID`                 | `ldsc` | (CAFFile.h only)               |
/// | `iXML`              | `kCAF_iXMLChunkID`                  | `iXML` | (CAFFile.h only)               |
struct CAFChunkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The four-character code as a big-endian `UInt32`.
    var rawValue: UInt32
    /// Wraps a raw four-character code.
    init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(_ code: StaticString) { self.rawValue = FourCharCode.value(code) }

    /// `desc`: the `CAFAudioDescription` (must be the first chunk).
    static let audioDescription = Self("desc")
    /// `data`: the edit count, then the audio.
    static let audioData = Self("data")
    /// `pakt`: the packet table (required for variable packet sizes or durations).
    static let packetTable = Self("pakt")
    /// `chan`: an `AudioChannelLayout`.
    static let channelLayout = Self("chan")
    /// `kuki`: the codec's magic cookie.
    static let magicCookie = Self("kuki")
    /// `strg`: strings referenced by markers and regions.
    static let strings = Self("strg")
    /// `mark`: markers.
    static let marker = Self("mark")
    /// `regn`: regions.
    static let region = Self("regn")
    /// `inst`: instrument (sampler) data.
    static let instrument = Self("inst")
    /// `midi`: a standard MIDI file.
    static let midi = Self("midi")
    /// `ovvw`: waveform overview.
    static let overview = Self("ovvw")
    /// `peak`: peak amplitudes.
    static let peak = Self("peak")
    /// `edct`: edit comments.
    static let editComments = Self("edct")
    /// `info`: key/value information strings.
    static let information = Self("info")
    /// `umid`: SMPTE unique material identifier.
    static let uniqueMaterialID = Self("umid")
    /// `uuid`: a vendor chunk identified by a UUID.
    static let uuid = Self("uuid")
    /// `free`: filler (reserved space).
    static let free = Self("free")
    /// `ldsc`: the format list (layered formats such as HE-AAC).
    static let formatList = Self("ldsc")
    /// `iXML`: broadcast production metadata.
    static let iXML = Self("iXML")

    /// The four characters, e.g. `desc`.
    var description: String { FourCharCode.string(rawValue) }
}

extension CAFChunkType {
    /// What the parser does with a chunk.
    enum Role: Equatable, Sendable {
        /// `desc`: read whole, becomes `dataFormat`.
        case audioDescription
        /// `data`: the audio packets.
        case audioData
        /// `pakt`: read incrementally, entry by entry.
        case packetTable
        /// `kuki`: read whole, becomes `magicCookie`.
        case magicCookie
        /// `chan`: read whole, becomes `channelLayout`.
        case channelLayout
        /// `info`: read whole (up to `maxTagBytes`), becomes `metadata`.
        case information
        /// A chunk the specification defines that this parser does not interpret: skipped without a
        /// diagnostic, never buffered.
        case skipped
    }

    /// The role of this chunk type (`CAFContainer.registry`), or `nil` when the type is not registered.
    var role: Role? { CAFContainer.registry.role(of: id) }

    /// The chunk identifier of this type.
    var id: ChunkID { ChunkID(code: rawValue) }
}
