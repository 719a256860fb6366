/// A container type (CoreAudio `AudioFileTypeID`, the value of `kAudioFileStreamProperty_FileFormat`).
///
/// | Swift name   | CoreAudio constant              | code   |
/// | ------------ | ------------------------------- | ------ |
/// | `aiff`       | `kAudioFileAIFFType`            | `AIFF` |
/// | `aifc`       | `kAudioFileAIFCType`            | `AIFC` |
/// | `wave`       | `kAudioFileWAVEType`            | `WAVE` |
/// | `rf64`       | `kAudioFileRF64Type`            | `RF64` |
/// | `bw64`       | `kAudioFileBW64Type`            | `BW64` |
/// | `wave64`     | `kAudioFileWave64Type`          | `W64f` |
/// | `soundDesigner2` | `kAudioFileSoundDesigner2Type` | `Sd2f` |
/// | `next`       | `kAudioFileNextType`            | `NeXT` |
/// | `mp3`        | `kAudioFileMP3Type`             | `MPG3` |
/// | `mp2`        | `kAudioFileMP2Type`             | `MPG2` |
/// | `mp1`        | `kAudioFileMP1Type`             | `MPG1` |
/// | `ac3`        | `kAudioFileAC3Type`             | `ac-3` |
/// | `aacADTS`    | `kAudioFileAAC_ADTSType`        | `adts` |
/// | `mpeg4`      | `kAudioFileMPEG4Type`           | `mp4f` |
/// | `m4a`        | `kAudioFileM4AType`             | `m4af` |
/// | `m4b`        | `kAudioFileM4BType`             | `m4bf` |
/// | `caf`        | `kAudioFileCAFType`             | `caff` |
/// | `threeGP`    | `kAudioFile3GPType`             | `3gpp` |
/// | `threeGP2`   | `kAudioFile3GP2Type`            | `3gp2` |
/// | `amr`        | `kAudioFileAMRType`             | `amrf` |
/// | `flac`       | `kAudioFileFLACType`            | `flac` |
/// | `latmInLOAS` | `kAudioFileLATMInLOASType`      | `loas` |
/// | `ogg`        | none (private to this library)  | `ogg ` |
/// | `quickTime`  | none (private to this library)  | `qt  ` |
/// | `matroska`   | none (private to this library)  | `mkv ` |
/// | `webM`       | none (private to this library)  | `webm` |
/// | `enhancedAC3` | none (private to this library) | `ec-3` |
/// | `mpeg2TransportStream` | none (private to this library) | `mp2t` |
///
/// Apple defines no Ogg type; `ogg` uses the private value `'ogg '` (0x6F676720), documented in
/// `docs/coreaudio-mapping.md`.
public struct AudioFileType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The four-character code as a big-endian `UInt32`.
    public var rawValue: UInt32
    /// Wraps a raw four-character code.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(_ code: StaticString) { self.rawValue = FourCharCode.value(code) }

    /// `kAudioFileAIFFType`
    public static let aiff = Self("AIFF")
    /// `kAudioFileAIFCType`
    public static let aifc = Self("AIFC")
    /// `kAudioFileWAVEType`
    public static let wave = Self("WAVE")
    /// `kAudioFileRF64Type` (EBU Tech 3306)
    public static let rf64 = Self("RF64")
    /// `kAudioFileBW64Type` (ITU-R BS.2088)
    public static let bw64 = Self("BW64")
    /// `kAudioFileWave64Type` (Sony Wave64)
    public static let wave64 = Self("W64f")
    /// `kAudioFileSoundDesigner2Type`
    public static let soundDesigner2 = Self("Sd2f")
    /// `kAudioFileNextType` (NeXT/Sun `.au`)
    public static let next = Self("NeXT")
    /// `kAudioFileMP3Type`
    public static let mp3 = Self("MPG3")
    /// `kAudioFileMP2Type`
    public static let mp2 = Self("MPG2")
    /// `kAudioFileMP1Type`
    public static let mp1 = Self("MPG1")
    /// `kAudioFileAC3Type`
    public static let ac3 = Self("ac-3")
    /// `kAudioFileAAC_ADTSType`
    public static let aacADTS = Self("adts")
    /// `kAudioFileMPEG4Type`
    public static let mpeg4 = Self("mp4f")
    /// `kAudioFileM4AType`
    public static let m4a = Self("m4af")
    /// `kAudioFileM4BType`
    public static let m4b = Self("m4bf")
    /// `kAudioFileCAFType`
    public static let caf = Self("caff")
    /// `kAudioFile3GPType`
    public static let threeGP = Self("3gpp")
    /// `kAudioFile3GP2Type`
    public static let threeGP2 = Self("3gp2")
    /// `kAudioFileAMRType`
    public static let amr = Self("amrf")
    /// `kAudioFileFLACType`
    public static let flac = Self("flac")
    /// `kAudioFileLATMInLOASType`
    public static let latmInLOAS = Self("loas")
    /// Ogg (RFC 3533). Private value `'ogg '`: CoreAudio has no Ogg file type.
    public static let ogg = Self("ogg ")
    /// A QuickTime movie (`ftyp` major brand `qt  `, or an MP4-style file without `ftyp`). Private value
    /// `'qt  '` (0x71742020): CoreAudio's AudioFileStream has no QuickTime type.
    public static let quickTime = Self("qt  ")
    /// Matroska (RFC 9559; EBML DocType `matroska`: `.mka`, `.mkv`). Private value `'mkv '` (0x6D6B7620):
    /// CoreAudio has no Matroska type.
    public static let matroska = Self("mkv ")
    /// WebM (Matroska with EBML DocType `webm`). Private value `'webm'` (0x7765626D): CoreAudio has no
    /// WebM type.
    public static let webM = Self("webm")
    /// Raw Enhanced AC-3 sync frames (ETSI TS 102 366 Annex E, `.ec3`, `.eac3`). Private value `'ec-3'`
    /// (0x65632D33, the format ID's code): CoreAudio's `kAudioFileAC3Type` covers AC-3 only.
    public static let enhancedAC3 = Self("ec-3")
    /// An MPEG-2 transport stream (ISO/IEC 13818-1 §2.4: `.ts`, 188-byte packets; `.m2ts`, 192-byte
    /// packets with a timecode prefix; 204-byte packets with FEC bytes). Private value `'mp2t'`
    /// (0x6D703274): CoreAudio's AudioFileStream has no transport stream type.
    public static let mpeg2TransportStream = Self("mp2t")

    /// The four characters, e.g. `WAVE`.
    public var description: String { FourCharCode.string(rawValue) }
}
