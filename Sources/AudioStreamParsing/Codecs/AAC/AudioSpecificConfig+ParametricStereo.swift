/// Parametric stereo (HE-AAC v2) under implicit SBR on a mono core (ISO/IEC 14496-3 §4.4.2.8,
/// §8.A): PS data is an sbr_extension with bs_extension_id EXTENSION_ID_PS (2) at the end of
/// sbr_data(), reached by reading the SBR payload (``SBRExtensionData``) with the band tables of its
/// header at twice the core rate (the dual-rate output of implicit signalling).
///
/// | first SBR payload                        | reported                                     |
/// | ---------------------------------------- | -------------------------------------------- |
/// | PS extension                             | `aacp` (2 channels) over `aach` over `aac `   |
/// | read to its end, no PS extension         | `aach` (mono, 2 × rate) over `aac `           |
/// | not readable (damaged, no header, …)     | PS assumed (as before), with a diagnostic     |
///
/// Only the first raw data block is examined; a stream that starts PS later is reported as v1.
/// ffmpeg reports every mono SBR stream as HE-AACv2 (its decoder cannot know ahead); see
/// docs/testing.md for where its answer differs.
extension AudioSpecificConfig {
    /// What the first SBR payload of a raw data block says about parametric stereo.
    enum ParametricStereoFinding: Equatable {
        /// The payload carries a PS extension.
        case present
        /// The payload was read to its end without a PS extension.
        case absent
        /// No SBR payload could be read: the failure of the block or of the SBR payload.
        case unreadable(AACSyntaxReader.Failure)

        /// Whether PS is reported: found, or assumed because the payload could not be read.
        var isReported: Bool { self != .absent }
    }

    /// Reads the first SBR payload of the raw data block at the start of `block` (SBR output at twice
    /// this configuration's rate) and looks for its PS extension. Never traps.
    func parametricStereo(inRawDataBlock block: ArraySlice<UInt8>) -> ParametricStereoFinding {
        let read: AACRawDataBlock
        switch AACRawDataBlock.read(
            block, audioObjectType: audioObjectType, samplingFrequencyIndex: samplingFrequencyIndex)
        {
        case .success(let value): read = value
        case .failure(let failure): return .unreadable(failure)
        }
        guard let sbr = read.extensions.first(where: { AACRawDataBlock.sbrExtensionTypes.contains($0.type) }) else {
            return .unreadable(.invalid("no SBR payload in the block"))
        }
        var bits = BitReader(block, order: .mostSignificantFirst)
        guard bits.skip(sbr.bits.lowerBound), let payload = bits.readBits(sbr.bits.count) else {
            return .unreadable(.truncated)
        }
        switch SBRExtensionData.read(payload[...], element: sbr.precedingElement, sampleRate: samplingFrequency * 2) {
        case .success(let data): return data.hasParametricStereo ? .present : .absent
        case .failure(let failure): return .unreadable(failure)
        }
    }

    /// The text of a diagnostic for an SBR payload that could not be read on a mono core.
    static func parametricStereoProblem(_ failure: AACSyntaxReader.Failure) -> String {
        let reason = failure.reason(truncated: "it ends inside a field")
        return "the first SBR payload could not be read to its end (\(reason)); parametric stereo "
            + "(HE-AAC v2) is assumed on the mono core"
    }
}
