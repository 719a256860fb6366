/// `dfLa`, the FLACSpecificBox in an MP4 `fLaC` sample entry ("Encapsulation of FLAC in ISO Base
/// Media File Format" §3.3.2): a full box whose body is FLAC metadata blocks, STREAMINFO first.
///
/// ```
///  offset  size  field
///       0     1  version: 0
///       1     3  flags: 0
///       4     4  METADATA_BLOCK_HEADER (RFC 9639 §8.1): last flag 1, type 7 (0 = STREAMINFO), length 24
///       8    34  STREAMINFO (RFC 9639 §8.2, ``FLACStreamInfo``)
///      42     …  further metadata blocks (optional)
/// ```
///
/// The whole body is the magic cookie of `kAudioFormatFLAC` (Apple reads this layout from MP4 `dfLa`
/// and CAF `kuki`; ``FLACStreamInfo/magicCookie`` writes it for the other containers).
struct FLACSpecificBox: Hashable {
    /// The STREAMINFO block.
    var streamInfo: FLACStreamInfo
    /// The box body as stored: the magic cookie.
    var bytes: [UInt8]

    /// Where decoding errors point.
    static let structure = Structure("mp4", "dfLa")

    /// Decodes the box body.
    ///
    /// - Throws: `invalidFile` when the version is not 0, the body is too short for a STREAMINFO
    ///   block, the first block is not STREAMINFO or its fields are impossible (the STREAMINFO reason
    ///   after the box's prefix).
    static func decode(_ body: ArraySlice<UInt8>) throws(StructureError) -> FLACSpecificBox {
        var reader = ByteReader(body)
        guard body.count >= 8 + FLACStreamInfo.size, reader.readUInt8() == 0, reader.skip(3),
            let h = reader.readBytes(FLACMetadataBlockHeader.size).map(Array.init)
        else { throw structure.invalid("no version-0 box with a STREAMINFO block") }
        let header = FLACMetadataBlockHeader(h[0], h[1], h[2], h[3])
        guard header.type == .streamInfo, header.length >= FLACStreamInfo.size else {
            throw structure.invalid("first metadata block is not STREAMINFO")
        }
        do {
            let info = try FLACStreamInfo.decode(reader.readRemainingBytes())
            return FLACSpecificBox(streamInfo: info, bytes: Array(body))
        } catch {
            throw structure.invalid(error.reason)
        }
    }
}
