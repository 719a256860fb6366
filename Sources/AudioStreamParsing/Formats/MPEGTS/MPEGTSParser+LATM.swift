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
        guard let element = latm.accept(decoded, notes: notes, at: position.offset, &context) else { return }
        let header = AudioSyncStreamHeader(audioMuxLengthBytes: frameBytes - AudioSyncStreamHeader.byteCount)
        let frame = TSAudioFrame.loas(header, element.config, implicitSBR: false)
        for (k, payload) in element.payloads.enumerated() {
            emit(frame, payload, frameBytes: k == 0 ? frameBytes : 0, at: position, frameEnd: frameEnd, &context)
        }
    }
}
