/// An audio data format (CoreAudio `AudioFormatID`, `AudioStreamBasicDescription.mFormatID`).
///
/// | Swift name        | CoreAudio constant                | code         |
/// | ----------------- | --------------------------------- | ------------ |
/// | `linearPCM`       | `kAudioFormatLinearPCM`           | `lpcm`       |
/// | `ac3`             | `kAudioFormatAC3`                 | `ac-3`       |
/// | `ac3_60958`       | `kAudioFormat60958AC3`            | `cac3`       |
/// | `appleIMA4`       | `kAudioFormatAppleIMA4`           | `ima4`       |
/// | `mpeg4AAC`        | `kAudioFormatMPEG4AAC`            | `aac `       |
/// | `mpeg4CELP`       | `kAudioFormatMPEG4CELP`           | `celp`       |
/// | `mpeg4HVXC`       | `kAudioFormatMPEG4HVXC`           | `hvxc`       |
/// | `mpeg4TwinVQ`     | `kAudioFormatMPEG4TwinVQ`         | `twvq`       |
/// | `mace3`           | `kAudioFormatMACE3`               | `MAC3`       |
/// | `mace6`           | `kAudioFormatMACE6`               | `MAC6`       |
/// | `uLaw`            | `kAudioFormatULaw`                | `ulaw`       |
/// | `aLaw`            | `kAudioFormatALaw`                | `alaw`       |
/// | `qDesign`         | `kAudioFormatQDesign`             | `QDMC`       |
/// | `qDesign2`        | `kAudioFormatQDesign2`            | `QDM2`       |
/// | `qualcomm`        | `kAudioFormatQUALCOMM`            | `Qclp`       |
/// | `mpegLayer1`      | `kAudioFormatMPEGLayer1`          | `.mp1`       |
/// | `mpegLayer2`      | `kAudioFormatMPEGLayer2`          | `.mp2`       |
/// | `mpegLayer3`      | `kAudioFormatMPEGLayer3`          | `.mp3`       |
/// | `timeCode`        | `kAudioFormatTimeCode`            | `time`       |
/// | `midiStream`      | `kAudioFormatMIDIStream`          | `midi`       |
/// | `parameterValueStream` | `kAudioFormatParameterValueStream` | `apvs` |
/// | `appleLossless`   | `kAudioFormatAppleLossless`       | `alac`       |
/// | `mpeg4AAC_HE`     | `kAudioFormatMPEG4AAC_HE`         | `aach`       |
/// | `mpeg4AAC_LD`     | `kAudioFormatMPEG4AAC_LD`         | `aacl`       |
/// | `mpeg4AAC_ELD`    | `kAudioFormatMPEG4AAC_ELD`        | `aace`       |
/// | `mpeg4AAC_ELD_SBR`| `kAudioFormatMPEG4AAC_ELD_SBR`    | `aacf`       |
/// | `mpeg4AAC_ELD_V2` | `kAudioFormatMPEG4AAC_ELD_V2`     | `aacg`       |
/// | `mpeg4AAC_HE_V2`  | `kAudioFormatMPEG4AAC_HE_V2`      | `aacp`       |
/// | `mpeg4AAC_Spatial`| `kAudioFormatMPEG4AAC_Spatial`    | `aacs`       |
/// | `mpegD_USAC`      | `kAudioFormatMPEGD_USAC`          | `usac`       |
/// | `amr`             | `kAudioFormatAMR`                 | `samr`       |
/// | `amrWB`           | `kAudioFormatAMR_WB`              | `sawb`       |
/// | `audible`         | `kAudioFormatAudible`             | `AUDB`       |
/// | `iLBC`            | `kAudioFormatiLBC`                | `ilbc`       |
/// | `dviIntelIMA`     | `kAudioFormatDVIIntelIMA`         | `0x6D730011` |
/// | `microsoftGSM`    | `kAudioFormatMicrosoftGSM`        | `0x6D730031` |
/// | `aes3`            | `kAudioFormatAES3`                | `aes3`       |
/// | `enhancedAC3`     | `kAudioFormatEnhancedAC3`         | `ec-3`       |
/// | `flac`            | `kAudioFormatFLAC`                | `flac`       |
/// | `opus`            | `kAudioFormatOpus`                | `opus`       |
/// | `vorbis`          | none (private to this library)    | `vorb`       |
/// | `microsoftADPCM`  | none (private to this library)    | `0x6D730002` |
///
/// `vorbis` and `microsoftADPCM` have no CoreAudio constant; their private values are documented in
/// `docs/coreaudio-mapping.md`. `microsoftADPCM` follows Apple's own `'ms'<<16 | wFormatTag` pattern
/// used by `dviIntelIMA` (0x6D730011) and `microsoftGSM` (0x6D730031); so does every other WAVE and
/// Wave64 format tag this library delivers without a constant of its own (``microsoftACM(tag:)``:
/// G.721, G.722, G.723, G.726, and opaque tags).
public struct AudioFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The four-character code as a big-endian `UInt32`.
    public var rawValue: UInt32
    /// Wraps a raw four-character code.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(_ code: StaticString) { self.rawValue = FourCharCode.value(code) }

    /// The ID of a WAVE format tag (`wFormatTag`, an ACM codec) that has no CoreAudio constant:
    /// `'ms' << 16 | tag`, the pattern of `kAudioFormatDVIIntelIMA` (tag 0x0011) and
    /// `kAudioFormatMicrosoftGSM` (tag 0x0031).
    public static func microsoftACM(tag: UInt16) -> AudioFormat { AudioFormat(rawValue: 0x6D73_0000 | UInt32(tag)) }

    /// The WAVE format tag of an ``microsoftACM(tag:)`` ID (including `dviIntelIMA`, `microsoftGSM` and
    /// `microsoftADPCM`), or `nil` for other formats.
    public var microsoftACMTag: UInt16? {
        rawValue >> 16 == 0x6D73 ? UInt16(truncatingIfNeeded: rawValue) : nil
    }

    /// `kAudioFormatLinearPCM`
    public static let linearPCM = Self("lpcm")
    /// `kAudioFormatAC3`
    public static let ac3 = Self("ac-3")
    /// `kAudioFormat60958AC3`
    public static let ac3_60958 = Self("cac3")
    /// `kAudioFormatAppleIMA4`
    public static let appleIMA4 = Self("ima4")
    /// `kAudioFormatMPEG4AAC`
    public static let mpeg4AAC = Self("aac ")
    /// `kAudioFormatMPEG4CELP`
    public static let mpeg4CELP = Self("celp")
    /// `kAudioFormatMPEG4HVXC`
    public static let mpeg4HVXC = Self("hvxc")
    /// `kAudioFormatMPEG4TwinVQ`
    public static let mpeg4TwinVQ = Self("twvq")
    /// `kAudioFormatMACE3`
    public static let mace3 = Self("MAC3")
    /// `kAudioFormatMACE6`
    public static let mace6 = Self("MAC6")
    /// `kAudioFormatULaw`
    public static let uLaw = Self("ulaw")
    /// `kAudioFormatALaw`
    public static let aLaw = Self("alaw")
    /// `kAudioFormatQDesign`
    public static let qDesign = Self("QDMC")
    /// `kAudioFormatQDesign2`
    public static let qDesign2 = Self("QDM2")
    /// `kAudioFormatQUALCOMM`
    public static let qualcomm = Self("Qclp")
    /// `kAudioFormatMPEGLayer1`
    public static let mpegLayer1 = Self(".mp1")
    /// `kAudioFormatMPEGLayer2`
    public static let mpegLayer2 = Self(".mp2")
    /// `kAudioFormatMPEGLayer3`
    public static let mpegLayer3 = Self(".mp3")
    /// `kAudioFormatTimeCode`
    public static let timeCode = Self("time")
    /// `kAudioFormatMIDIStream`
    public static let midiStream = Self("midi")
    /// `kAudioFormatParameterValueStream`
    public static let parameterValueStream = Self("apvs")
    /// `kAudioFormatAppleLossless`
    public static let appleLossless = Self("alac")
    /// `kAudioFormatMPEG4AAC_HE`
    public static let mpeg4AAC_HE = Self("aach")
    /// `kAudioFormatMPEG4AAC_LD`
    public static let mpeg4AAC_LD = Self("aacl")
    /// `kAudioFormatMPEG4AAC_ELD`
    public static let mpeg4AAC_ELD = Self("aace")
    /// `kAudioFormatMPEG4AAC_ELD_SBR`
    public static let mpeg4AAC_ELD_SBR = Self("aacf")
    /// `kAudioFormatMPEG4AAC_ELD_V2`
    public static let mpeg4AAC_ELD_V2 = Self("aacg")
    /// `kAudioFormatMPEG4AAC_HE_V2`
    public static let mpeg4AAC_HE_V2 = Self("aacp")
    /// `kAudioFormatMPEG4AAC_Spatial`
    public static let mpeg4AAC_Spatial = Self("aacs")
    /// `kAudioFormatMPEGD_USAC`
    public static let mpegD_USAC = Self("usac")
    /// `kAudioFormatAMR`
    public static let amr = Self("samr")
    /// `kAudioFormatAMR_WB`
    public static let amrWB = Self("sawb")
    /// `kAudioFormatAudible`
    public static let audible = Self("AUDB")
    /// `kAudioFormatiLBC`
    public static let iLBC = Self("ilbc")
    /// `kAudioFormatDVIIntelIMA` (0x6D730011)
    public static let dviIntelIMA = Self(rawValue: 0x6D73_0011)
    /// `kAudioFormatMicrosoftGSM` (0x6D730031)
    public static let microsoftGSM = Self(rawValue: 0x6D73_0031)
    /// `kAudioFormatAES3`
    public static let aes3 = Self("aes3")
    /// `kAudioFormatEnhancedAC3`
    public static let enhancedAC3 = Self("ec-3")
    /// `kAudioFormatFLAC`
    public static let flac = Self("flac")
    /// `kAudioFormatOpus`
    public static let opus = Self("opus")
    /// Vorbis. Private value `'vorb'`: CoreAudio has no Vorbis format ID.
    public static let vorbis = Self("vorb")
    /// Microsoft ADPCM (WAVE format tag 0x0002). Private value 0x6D730002, following the pattern of
    /// `kAudioFormatDVIIntelIMA`.
    public static let microsoftADPCM = Self(rawValue: 0x6D73_0002)

    /// The four characters, e.g. `lpcm`, or `0x` and hex digits when not printable.
    public var description: String { FourCharCode.string(rawValue) }
}
