/// One LATM multiplex element: `AudioMuxElement(muxConfigPresent = 1)` (ISO/IEC 14496-3 §1.7.3.1,
/// Tables 1.41, 1.44, 1.45), the body of a LOAS frame (``AudioSyncStreamHeader``).
///
/// ```
///  useSameStreamMux 1  [StreamMuxConfig() when 0]
///  numSubFrames + 1 times:
///    PayloadLengthInfo(): for each program/layer with frameLengthType 0:
///                         MuxSlotLengthBytes as bytes summed while a byte is 255
///    PayloadMux():        for each program/layer: MuxSlotLengthBytes (or frameLength + 20) bytes,
///                         at whatever bit the element has reached
///  [otherDataBit × otherDataLenBits]
///  byte_alignment()
/// ```
///
/// The payloads start at any bit, so each is copied out byte-aligned (``BitReader/readBits(_:)``):
/// one raw_data_block (AAC) per sub-frame, what an ADTS frame holds after its header.
struct AudioMuxElement {
    /// The configuration in force after the element (its own, or the one it reuses).
    var config: StreamMuxConfig
    /// Whether the element carried a StreamMuxConfig.
    var carriedConfig: Bool
    /// The first program's first layer's payloads, one per sub-frame.
    var payloads: [[UInt8]]

    /// Where decoding errors point.
    static let structure = Structure("aac", "AudioMuxElement")

    /// What decoding an element gave.
    enum Decoded {
        case element(AudioMuxElement)
        /// useSameStreamMux 1 before any StreamMuxConfig: nothing can be read.
        case noConfigurationYet
        /// A StreamMuxConfig this decoder does not read (`unsupportedDataFormat`, see ``StreamMuxConfig``):
        /// neither this element nor those reusing its configuration can be read.
        case refused(StructureError)
    }

    /// Decodes the element in `bytes` (the audioMuxLengthBytes after a LOAS header) with the
    /// configuration in force, `current`.
    ///
    /// - Throws: `invalidFile` when the bits are not an element: a StreamMuxConfig that does not decode,
    ///   payload lengths that run past the element.
    static func decode(_ bytes: ArraySlice<UInt8>, current: StreamMuxConfig?, notes: inout [DiagnosticNote])
        throws(StructureError) -> Decoded
    {
        var reader = BitReader(bytes, order: .mostSignificantFirst)
        guard let same = reader.readFlag() else { throw structure.invalid("empty") }
        let config: StreamMuxConfig
        if same {
            guard let current else { return .noConfigurationYet }
            config = current
        } else {
            do throws(StructureError) {
                config = try StreamMuxConfig.decode(&reader, notes: &notes)
            } catch  where error.code == .unsupportedDataFormat {
                return .refused(error)
            }
        }
        var payloads: [[UInt8]] = []
        payloads.reserveCapacity(config.subFrames)
        for _ in 0..<config.subFrames {
            // PayloadLengthInfo: one length per program/layer with frameLengthType 0.
            var lengths: [Int] = []
            lengths.reserveCapacity(config.layers.count)
            for layer in config.layers {
                if let fixed = layer.fixedPayloadBytes {
                    lengths.append(fixed)
                    continue
                }
                var length = 0
                while true {
                    guard let byte = reader.read(8) else { throw structure.invalid("ends inside MuxSlotLengthBytes") }
                    length += Int(byte)  // ≤ 255 × (8191 × 8 / 8) bytes: no overflow
                    if byte != 255 { break }
                }
                lengths.append(length)
            }
            // PayloadMux: the payloads in the same order.
            for (k, length) in lengths.enumerated() {
                if k == 0 {
                    guard let payload = reader.readBits(length * 8) else {
                        throw structure.invalid("a payload of \(length) bytes runs past the element")
                    }
                    payloads.append(payload)
                } else if !reader.skip(length * 8) {
                    throw structure.invalid("a payload of \(length) bytes runs past the element")
                }
            }
        }
        if config.otherDataBits > 0, !reader.skip(config.otherDataBits) {
            notes.append(DiagnosticNote(.truncated, structure, "otherData runs past the element"))
        }
        return .element(AudioMuxElement(config: config, carriedConfig: !same, payloads: payloads))
    }
}
