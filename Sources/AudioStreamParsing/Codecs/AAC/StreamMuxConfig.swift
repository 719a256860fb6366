/// The LATM multiplex configuration: `StreamMuxConfig()` (ISO/IEC 14496-3 §1.7.3.1, Table 1.42), sent
/// inside an AudioMuxElement when useSameStreamMux is 0.
///
/// ```
///  audioMuxVersion 1, [audioMuxVersionA 1 (when audioMuxVersion is 1)]
///  audioMuxVersionA 0 only (1 is "reserved for future use"):
///  [taraBufferFullness LatmGetValue (version 1)]
///  allStreamsSameTimeFraming 1, numSubFrames 6, numProgram 4
///  for each program: numLayer 3
///    for each layer: [useSameConfig 1 (not for the first)]
///      [AudioSpecificConfig() (version 0) | ascLen LatmGetValue, AudioSpecificConfig(), fillBits (version 1)]
///      frameLengthType 3: 0 → latmBufferFullness 8 [coreFrameOffset 6: not all same time framing and
///                             a CELP/TwinVQ core under a scalable layer]
///                         1 → frameLength 9
///                         3, 4, 5 → CELPframeLengthTableIndex 6;  6, 7 → HVXCframeLengthTableIndex 1
///  otherDataPresent 1 [otherDataLenBits: LatmGetValue (version 1) | 8-bit groups with an escape bit]
///  crcCheckPresent 1 [crcCheckSum 8]
///
///  LatmGetValue(): bytesForValue 2, then (bytesForValue + 1) bytes, most significant first
/// ```
///
/// Read here: every program and layer whose frameLengthType is 0 (lengths in each PayloadLengthInfo) or
/// 1 (a fixed frameLength), with allStreamsSameTimeFraming 1 — what ffmpeg, broadcast encoders and
/// Fraunhofer's LATM writers emit. The packets delivered are the first layer of the first program's.
struct StreamMuxConfig: Hashable, Sendable {
    /// One program/layer: its configuration and how its payload lengths are given.
    struct Layer: Hashable, Sendable {
        var audioSpecificConfig: AudioSpecificConfig
        /// frameLengthType: 0 (a length per payload) or 1 (``fixedPayloadBytes``).
        var frameLengthType: Int
        /// With frameLengthType 1, the payload's bytes (frameLength + 20).
        var fixedPayloadBytes: Int?
    }

    var audioMuxVersion: Int
    /// numSubFrames + 1: the payloads of each program/layer in an AudioMuxElement.
    var subFrames: Int
    /// Every program's layers in order; at least one.
    var layers: [Layer]
    /// otherDataLenBits when otherDataPresent (the bits after the payloads), else 0.
    var otherDataBits: Int

    /// The configuration of the packets delivered (the first program's first layer).
    var audioSpecificConfig: AudioSpecificConfig { layers[0].audioSpecificConfig }

    /// Where decoding errors point.
    static let structure = Structure("aac", "StreamMuxConfig")

    /// Decodes the configuration at `reader`'s position (after useSameStreamMux).
    ///
    /// - Throws: `invalidFile` when the bits end inside it or a configuration does not decode;
    ///   `unsupportedDataFormat` for audioMuxVersionA 1, allStreamsSameTimeFraming 0 or a frameLengthType
    ///   other than 0 and 1 (CELP, HVXC).
    static func decode(_ reader: inout BitReader, notes: inout [DiagnosticNote]) throws(StructureError)
        -> StreamMuxConfig
    {
        func read(_ count: Int, _ field: String) throws(StructureError) -> Int {
            guard let value = reader.read(count) else { throw structure.invalid("ends inside \(field)") }
            return Int(value)
        }
        func latmValue(_ field: String) throws(StructureError) -> Int {
            let bytes = try read(2, "\(field) bytesForValue") + 1
            return try read(8 * bytes, field)
        }
        let version = try read(1, "audioMuxVersion")
        if version == 1, try read(1, "audioMuxVersionA") == 1 {
            throw structure.unsupported("audioMuxVersionA 1 (reserved)")
        }
        if version == 1 { _ = try latmValue("taraBufferFullness") }
        guard try read(1, "allStreamsSameTimeFraming") == 1 else {
            throw structure.unsupported("allStreamsSameTimeFraming 0 (payloads in chunks)")
        }
        let subFrames = try read(6, "numSubFrames") + 1
        let programs = try read(4, "numProgram") + 1
        var layers: [Layer] = []
        for program in 0..<programs {
            let count = try read(3, "numLayer") + 1
            for layer in 0..<count {
                var asc: AudioSpecificConfig
                // The first layer always has its own configuration; the others say with useSameConfig.
                let own = program == 0 && layer == 0 ? true : try read(1, "useSameConfig") == 0
                if own {
                    let length = version == 1 ? try latmValue("ascLen") : nil
                    asc = try AudioSpecificConfig.decode(&reader, bitLength: length, notes: &notes)
                } else {
                    asc = layers[layers.count - 1].audioSpecificConfig
                }
                let type = try read(3, "frameLengthType")
                var fixed: Int?
                switch type {
                case 0:
                    _ = try read(8, "latmBufferFullness")
                case 1:
                    fixed = try read(9, "frameLength") + 20
                default:
                    throw structure.unsupported("frameLengthType \(type) (CELP or HVXC)")
                }
                layers.append(Layer(audioSpecificConfig: asc, frameLengthType: type, fixedPayloadBytes: fixed))
            }
        }
        var otherDataBits = 0
        if try read(1, "otherDataPresent") == 1 {
            if version == 1 {
                otherDataBits = try latmValue("otherDataLenBits")
            } else {
                // 8-bit groups, most significant first, while otherDataLenEsc is 1 (at most 4 groups: the
                // bits must fit in an element of 8191 bytes anyway).
                var escape = true
                var groups = 0
                while escape {
                    escape = try read(1, "otherDataLenEsc") == 1
                    otherDataBits = otherDataBits << 8 | (try read(8, "otherDataLenTmp"))
                    groups += 1
                    guard groups <= 4 else { throw structure.invalid("otherDataLenBits longer than 32 bits") }
                }
            }
        }
        if try read(1, "crcCheckPresent") == 1 { _ = try read(8, "crcCheckSum") }
        return StreamMuxConfig(
            audioMuxVersion: version, subFrames: subFrames, layers: layers, otherDataBits: otherDataBits)
    }
}
