/// LATM/LOAS audio (ISO/IEC 14496-3 §1.7) as a transport stream's 0x11 stream and a raw LOAS file carry
/// it: the configuration carried in-band by the AudioMuxElements, and what the elements that could not
/// be read reported.
///
/// Each LOAS frame's element is decoded with the configuration in force (``AudioMuxElement``), then
/// handed here (``accept(_:notes:at:_:)``): an element before the first StreamMuxConfig is skipped (one
/// `structureSkipped` diagnostic for the stream), an element whose configuration this library does not
/// read (CELP/HVXC layers, chunked framing) or whose audioObjectType has no CoreAudio format is skipped
/// (one `unsupportedFeature` diagnostic; the parser's `finish` throws it when no frame could be read),
/// and a readable element gives its payloads.
struct LATMState {
    /// The StreamMuxConfig in force (the latest one an element carried).
    var config: StreamMuxConfig?
    /// The first configuration refused (unsupported), with the offset of its LOAS frame: `finish`
    /// throws it when no frame could be read.
    var refusal: (error: StructureError, offset: Int64)?
    /// Whether the elements before the first configuration were reported.
    var reportedMissingConfig = false
    /// Whether ``config``'s AudioSpecificConfig has a CoreAudio format (``AACStreamFormat``).
    var configHasFormat = false

    /// Takes in one decoded element (its LOAS frame at `offset`) and its notes; returns the element when
    /// its payloads can be emitted.
    mutating func accept(
        _ decoded: AudioMuxElement.Decoded, notes: [DiagnosticNote], at offset: Int64, _ context: inout ParseContext
    ) -> AudioMuxElement? {
        for note in notes { context.diagnose(note, at: offset) }
        switch decoded {
        case .noConfigurationYet:
            if !reportedMissingConfig {
                reportedMissingConfig = true
                context.diagnose(
                    .structureSkipped, at: offset, AudioMuxElement.structure,
                    "LOAS frames before the first StreamMuxConfig cannot be read; skipped until one comes")
            }
            return nil
        case .refused(let error):
            if refusal == nil {
                refusal = (error, offset)
                context.diagnose(.unsupportedFeature, at: offset, "\(error.reason); its frames are skipped")
            }
            return nil
        case .element(let element):
            // An object type without a CoreAudio format (CELP, HVXC, TwinVQ …): nothing to announce. Checked
            // when the configuration changes, not for every element.
            if element.config != config {
                config = element.config
                configHasFormat = AACStreamFormat(element.config.audioSpecificConfig) != nil
            }
            guard configHasFormat else {
                let asc = element.config.audioSpecificConfig
                let error = StreamMuxConfig.structure.unsupported(
                    "audioObjectType \(asc.audioObjectType) has no CoreAudio format")
                return accept(.refused(error), notes: [], at: offset, &context)
            }
            return element
        }
    }
}
