/// LATM/LOAS audio (stream_type 0x11, ISO/IEC 14496-3 §1.7): the configuration carried in-band by the
/// AudioMuxElements, and what the elements that could not be read reported.
struct LATMState {
    /// The StreamMuxConfig in force (the latest one an element carried).
    var config: StreamMuxConfig?
    /// The first configuration refused (unsupported), with the offset of its LOAS frame: `finish`
    /// throws it when no frame could be read.
    var refusal: (error: StructureError, offset: Int64)?
    /// Whether the elements before the first configuration were reported.
    var reportedMissingConfig = false
}

extension MPEGTSParser {
    /// Emits the payloads of one LOAS frame's AudioMuxElement as packets (one per sub-frame), after
    /// taking in the configuration it carries.
    ///
    /// - Parameters:
    ///   - decoded: the element (``AudioMuxElement/decode(_:current:notes:)``), or why it was refused.
    ///   - frameAt: the frame's first byte and the transport packet that started its PES packet.
    ///   - frameBytes: the frame's length, header included (counted once, with its first payload).
    ///   - frameEnd: the offset after the frame's last byte.
    mutating func takeLOAS(
        _ decoded: AudioMuxElement.Decoded, notes: [DiagnosticNote], frameAt position: (offset: Int64, unit: Int64),
        frameBytes: Int, frameEnd: Int64, _ context: inout ParseContext
    ) {
        for note in notes { context.diagnose(note, at: position.offset) }
        switch decoded {
        case .noConfigurationYet:
            guard !latm.reportedMissingConfig else { return }
            latm.reportedMissingConfig = true
            context.diagnose(
                .structureSkipped, at: position.offset, AudioMuxElement.structure,
                "LOAS frames before the first StreamMuxConfig cannot be read; skipped until one comes")
        case .refused(let error):
            if latm.refusal == nil {
                latm.refusal = (error, position.offset)
                context.diagnose(.unsupportedFeature, at: position.offset, "\(error.reason); its frames are skipped")
            }
        case .element(let element):
            latm.config = element.config
            let header = AudioSyncStreamHeader(audioMuxLengthBytes: frameBytes - AudioSyncStreamHeader.byteCount)
            let frame = TSAudioFrame.loas(header, element.config)
            for (k, payload) in element.payloads.enumerated() {
                emit(
                    frame, payload, frameBytes: k == 0 ? frameBytes : 0, at: position, frameEnd: frameEnd,
                    &context)
            }
        }
    }
}
