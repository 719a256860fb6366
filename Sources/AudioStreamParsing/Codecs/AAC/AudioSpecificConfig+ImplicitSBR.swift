/// Implicit HE-AAC signalling (ISO/IEC 14496-3 §1.6.5.1, §4.6.18.2): a configuration that says AAC-LC
/// (audioObjectType 2) at the core rate, while the raw data blocks carry SBR data in fill elements
/// (extension_type EXT_SBR_DATA or EXT_SBR_DATA_CRC, §4.4.2.7). Only reading a block finds it.
///
/// What is reported when a block has SBR:
///
/// | core                      | layers, highest first (formatList; dataFormat is the first)          |
/// | ------------------------- | -------------------------------------------------------------------- |
/// | any channels but mono     | `aach` at 2 × core rate, core channels, 2048 frames; `aac ` core      |
/// | mono, PS in the first SBR | `aacp` at 2 × core rate, 2 channels; `aach` mono; `aac ` core         |
/// | mono, no PS extension     | `aach` at 2 × core rate, mono; `aac ` core                           |
///
/// The output rate is twice the core rate: implicit signalling has no extension sampling frequency,
/// and a decoder runs SBR in its dual-rate mode unless told otherwise (§4.6.18.2; ffmpeg's decoder
/// reports the same).
///
/// On a mono core, PS is looked for in the first SBR payload
/// (``AudioSpecificConfig/parametricStereo(inRawDataBlock:)``): found → `aacp`; not there → `aach`
/// mono; payload unreadable → PS assumed (a decoder that meets SBR on a mono core has to be ready
/// for PS and stereo output; ffmpeg reports every such stream as HE-AACv2).
extension AudioSpecificConfig {
    /// Whether a raw data block shows implicitly signalled SBR.
    enum ImplicitSBRFinding: Equatable {
        /// The block was read to its end; no fill element carries SBR data.
        case absent
        /// A fill element carries SBR data.
        case present
        /// The block could not be read to its end (damaged, or syntax the reader does not follow).
        case unreadable(AACSyntaxReader.Failure)
    }

    /// Looks for SBR data in the raw data block at the start of `block`, read with this
    /// configuration's object type and sampling frequency index. Never traps.
    func implicitSBR(inRawDataBlock block: ArraySlice<UInt8>) -> ImplicitSBRFinding {
        switch AACRawDataBlock.read(
            block, audioObjectType: audioObjectType, samplingFrequencyIndex: samplingFrequencyIndex)
        {
        case .success(let read): read.hasSBR ? .present : .absent
        case .failure(let failure): .unreadable(failure)
        }
    }

    /// The configuration with SBR found implicitly: extension object type 5 at twice the core rate,
    /// and PS on a mono core unless `parametricStereo` is false (see the type's notes). Unchanged when
    /// SBR is already signalled
    /// or the core is not AAC Main/LC/SSR/LTP. ``bytes`` stays the stream's own configuration (a
    /// decoder given it finds the SBR data itself, as the stream intends).
    func withImplicitSBR(parametricStereo: Bool = true) -> AudioSpecificConfig {
        guard allowsImplicitSBR else { return self }
        var config = self
        config.extensionAudioObjectType = 5
        config.extensionSamplingFrequency = samplingFrequency * 2
        config.psPresent = channelConfiguration == 1 && parametricStereo
        return config
    }

    /// Whether SBR may be signalled implicitly: an AAC Main/LC/SSR/LTP core (object types 1–4) without
    /// explicit SBR. Only then is a first raw data block worth reading (a container that announces the
    /// format before its first packet holds the announcement for it: MP4, Matroska).
    var allowsImplicitSBR: Bool { extensionAudioObjectType == nil && (1...4).contains(audioObjectType) }

    /// The configuration a stream is reported with when `block` is its first raw data block (an LATM
    /// payload, an ADTS frame's block): ``withImplicitSBR(parametricStereo:)`` when the block has SBR
    /// (PS as its first SBR payload says on a mono core), else `self` (also when there is no block or
    /// it cannot be read).
    func reported(firstRawDataBlock block: ArraySlice<UInt8>?) -> AudioSpecificConfig {
        guard let block else { return self }
        return reportedWithProblem(firstRawDataBlock: block).config
    }

    /// ``reported(firstRawDataBlock:)`` with the text of a diagnostic when the block could not be read
    /// (``implicitSBRProblem(_:)``); the block is read only when ``allowsImplicitSBR``.
    func reportedWithProblem(firstRawDataBlock block: ArraySlice<UInt8>) -> (
        config: AudioSpecificConfig, problem: String?
    ) {
        guard allowsImplicitSBR else { return (self, nil) }
        switch implicitSBR(inRawDataBlock: block) {
        case .present where channelConfiguration == 1:
            // Mono core: PS as the first SBR payload says; assumed, with a diagnostic, when unreadable.
            let ps = parametricStereo(inRawDataBlock: block)
            var problem: String?
            if case .unreadable(let failure) = ps { problem = Self.parametricStereoProblem(failure) }
            return (withImplicitSBR(parametricStereo: ps.isReported), problem)
        case .present: return (withImplicitSBR(), nil)
        case .absent: return (self, nil)
        case .unreadable(let failure): return (self, Self.implicitSBRProblem(failure))
        }
    }

    /// The text of a diagnostic for a first raw data block that could not be read.
    static func implicitSBRProblem(_ failure: AACSyntaxReader.Failure) -> String {
        let reason = failure.reason(truncated: "it ends inside an element")
        return "the first raw data block could not be read to its end (\(reason)); implicit HE-AAC (SBR) "
            + "is not looked for, the core's format is reported"
    }
}
