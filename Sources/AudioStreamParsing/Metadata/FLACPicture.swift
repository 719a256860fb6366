/// A FLAC PICTURE metadata block body (RFC 9639 §8.8), also the payload of a Vorbis comment
/// `METADATA_BLOCK_PICTURE` field (base64-encoded).
///
/// ```
///  size  field (all integers big-endian)
///  4     picture type (ID3v2 APIC types: 3 = front cover, …, 20 = publisher logotype)
///  4     MIME type length m
///  m     MIME type, printable ASCII (0x20–0x7E); "-->" means the data is a URL
///  4     description length d
///  d     description, UTF-8
///  4     width in pixels
///  4     height in pixels
///  4     colour depth in bits per pixel
///  4     number of colours used (indexed pictures), else 0
///  4     picture data length n
///  n     picture data
/// ```
///
/// Contract: every length is checked against the bytes there are before anything is read or kept;
/// picture data larger than `limits.maxArtworkBytes` is refused with `.limitExceeded` (the caller
/// skips it with a diagnostic), so nothing is allocated from a length field. Bytes after the data
/// are ignored. Never traps.
struct FLACPicture: Hashable, Sendable {
    /// The picture type.
    var pictureType: UInt32
    /// The MIME type as written.
    var mimeType: String
    /// The description.
    var description: String
    /// Width, height, colour depth (bits per pixel) and colour count, as written.
    var width: UInt32
    var height: UInt32
    var depth: UInt32
    var colors: UInt32
    /// The picture's bytes (a URL's bytes when `mimeType` is "-->").
    var data: ArraySlice<UInt8>

    /// True when the data is a link (MIME type "-->"), not a picture.
    var isLink: Bool { mimeType == "-->" }

    /// Where decoding errors point.
    static let structure = Structure("flac", "PICTURE")

    /// Decodes a PICTURE block body.
    ///
    /// - Throws: `.invalidFile` when a length overruns the body or the MIME type is not printable
    ///   ASCII; `.limitExceeded` when the data is larger than `limits.maxArtworkBytes`. Reasons
    ///   start with `"flac (PICTURE): "`.
    static func decode(_ body: ArraySlice<UInt8>, limits: ParserLimits) throws(StructureError) -> FLACPicture {
        var reader = ByteReader(body)
        func field(_ name: String) throws(StructureError) -> UInt32 {
            guard let value = reader.readInteger(as: UInt32.self, endianness: .big) else {
                throw structure.invalid("block ends inside the \(name)")
            }
            return value
        }
        func string(_ name: String) throws(StructureError) -> ArraySlice<UInt8> {
            let length = try field("\(name) length")
            guard UInt64(length) <= UInt64(reader.remaining), let bytes = reader.readBytes(Int(length)) else {
                throw structure.invalid("\(name) of \(length) bytes overruns the \(body.count)-byte block")
            }
            return bytes
        }
        let type = try field("picture type")
        let mime = try string("MIME type")
        guard mime.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw structure.invalid("MIME type is not printable ASCII")
        }
        let description = try string("description")
        let width = try field("width")
        let height = try field("height")
        let depth = try field("colour depth")
        let colors = try field("colour count")
        let dataLength = try field("picture data length")
        guard UInt64(dataLength) <= UInt64(max(0, limits.maxArtworkBytes)) else {
            throw structure.limit(
                "picture of \(dataLength) bytes exceeds maxArtworkBytes (\(limits.maxArtworkBytes))")
        }
        guard UInt64(dataLength) <= UInt64(reader.remaining), let data = reader.readBytes(Int(dataLength)) else {
            throw structure.invalid("picture data of \(dataLength) bytes overruns the \(body.count)-byte block")
        }
        return FLACPicture(
            pictureType: type, mimeType: String(decoding: mime, as: UTF8.self),
            description: String(decoding: description, as: UTF8.self), width: width, height: height, depth: depth,
            colors: colors, data: data)
    }

    /// The picture as artwork: the MIME type completed as for ID3v2 pictures (empty → sniffed from
    /// the data, `image/jpg` → `image/jpeg`); `nil` for a link ("-->").
    var artwork: AudioMetadata.Artwork? {
        guard !isLink else { return nil }
        return AudioMetadata.Artwork(
            mimeType: ID3v2MetadataBuilder.normalisedMIMEType(mimeType, data), pictureType: pictureType,
            data: Array(data))
    }

    /// Decodes a PICTURE block body into artwork.
    ///
    /// - Returns: the artwork, or the reason it was not kept, for a diagnostic: `invalidFile` when
    ///   malformed, `limitExceeded` when larger than `maxArtworkBytes`, `unsupportedDataFormat` for a
    ///   link.
    static func artwork(fromBlock body: ArraySlice<UInt8>, limits: ParserLimits)
        -> Result<AudioMetadata.Artwork, StructureError>
    {
        do {
            let picture = try decode(body, limits: limits)
            guard let artwork = picture.artwork else {
                return .failure(structure.unsupported("picture is a link (MIME type -->); skipped"))
            }
            return .success(artwork)
        } catch {
            return .failure(error)
        }
    }
}
