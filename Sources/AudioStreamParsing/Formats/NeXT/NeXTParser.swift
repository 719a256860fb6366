/// NeXT/Sun .au (stub: replaced by the NeXT implementation).
struct NeXTParser: FormatParser {
    static let probe = FormatProbe(fileTypes: [.next]) { _, _ in .noMatch }
    mutating func step(_ context: inout ParseContext) throws(AudioStreamError) -> ParseStep {
        throw context.error(.unsupportedFileType, "au: not implemented")
    }
    mutating func finish(_ context: inout ParseContext) throws(AudioStreamError) {}
    mutating func discontinuity(_ context: inout ParseContext) {}
    var packetMap: PacketMap { .unknown }
    mutating func prepareForSeek(toPacket packet: Int64, byteOffset: Int64) -> Bool { false }
}
