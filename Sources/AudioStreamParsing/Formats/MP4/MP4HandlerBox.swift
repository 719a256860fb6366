/// The handler reference box `hdlr` (ISO/IEC 14496-12 §8.4.3): what kind of media a track holds.
///
/// ```
/// offset  size  field
///      0     1  version (0)
///      1     3  flags
///      4     4  pre_defined    (QuickTime: component type, 'mhlr')
///      8     4  handler_type   'soun' audio, 'vide' video, 'text'/'sbtl' text, …
///     12    12  reserved
///     24     …  name           null-terminated UTF-8 (not needed)
/// ```
struct MP4HandlerBox: Equatable {
    var handlerType: UInt32

    /// Decodes an `hdlr` body.
    ///
    /// - Throws: `invalidFile` when the body ends before handler_type.
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> MP4HandlerBox {
        var r = ByteReader(body)
        guard r.versionAndFlags() != nil, r.skip(4), let type = r.readInteger(as: UInt32.self, endianness: .big)
        else { throw Structure.mp4("hdlr").invalid("box too short") }
        return MP4HandlerBox(handlerType: type)
    }
}
