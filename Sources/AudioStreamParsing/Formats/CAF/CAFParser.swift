/// CAF (stub: replaced by the CAF implementation).
struct CAFParser: FormatParser {
    static let probe = FormatProbe(fileTypes: [.caf]) { _, _ in .noMatch }
    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        throw context.error(.unsupportedFileType, "caf: not implemented")
    }
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {}
    mutating func discontinuity(_ context: inout ParseContext) {}
    var packetMap: PacketMap { .unknown }
    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool { false }
}
