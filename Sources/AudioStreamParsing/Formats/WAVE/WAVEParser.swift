/// WAVE, RF64 and BW64 (stub: replaced by the WAVE implementation).
struct WAVEParser: FormatParser {
    static let probe = FormatProbe(fileTypes: [.wave, .rf64, .bw64]) { _, _ in .noMatch }
    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        throw context.error(.unsupportedFileType, "wave: not implemented")
    }
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {}
    mutating func discontinuity(_ context: inout ParseContext) {}
    var packetMap: PacketMap { .unknown }
    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool { false }
}
