/// A Vorbis comment block: a vendor string and a list of `KEY=value` fields (Vorbis I §5.2.1),
/// as carried by the Vorbis comment header, Opus's `OpusTags` packet (RFC 7845 §5.2) and FLAC's
/// VORBIS_COMMENT metadata block (RFC 9639 §8.6).
///
/// ```
///  framing          before the list              after the list
///  .vorbisHeader    0x03 "vorbis" (7 bytes)      framing bit: bit 0 of one byte, set
///  .opusTags        "OpusTags" (8 bytes)         optional padding/binary data (ignored)
///  .flacBlock       –                            –
///
///  the list (integers little-endian):
///  4  vendor_length
///  n  vendor_string (UTF-8)
///  4  user_comment_list_length
///     per comment: 4 length, then that many bytes "KEY=value" (key: ASCII 0x20–0x7D except '=',
///     case-insensitive; value UTF-8)
/// ```
///
/// Contract:
/// - Throws `.invalidFile` only when the block is not of the framing asked for (wrong magic) or
///   the vendor string or comment count overrun the bytes: nothing can be read then.
/// - Every comment length is checked against the bytes left; a comment that overruns ends the
///   walk with a diagnostic, keeping the comments before it. A count larger than the bytes could
///   hold is reported and the walk reads what is there, so the work is linear in the bytes.
/// - Text fields count against `limits.maxTagBytes` (a field over it, or fields past it in
///   total, are skipped with a diagnostic); pictures count against `limits.maxArtworkBytes`.
/// - Never traps; nothing is allocated from a length field.
/// - Diagnostics are ``notes``: `.damagedMetadata` for counts, lengths, fields and framing bits that
///   are wrong, `.limitExceeded` for text or pictures over a limit, and a picture's own kind
///   (`DiagnosticNote.kind(of:whenInvalid:)`: a link is `.unsupportedFeature`).
///
/// The fields become ``AudioMetadata`` as described in `VorbisComment+Metadata.swift`.
struct VorbisComment: Hashable, Sendable {
    /// Where the comment block comes from, which decides the bytes around the list.
    enum Framing: Hashable, Sendable {
        /// The Vorbis comment header packet (type 3, "vorbis", framing bit).
        case vorbisHeader
        /// The Opus `OpusTags` packet.
        case opusTags
        /// The body of a FLAC VORBIS_COMMENT metadata block (also FLAC-in-Ogg's comment packet
        /// after its 4-byte block header).
        case flacBlock

        /// What every reason and diagnostic is about.
        var structure: Structure {
            switch self {
            case .vorbisHeader: Structure("vorbis", "comment")
            case .opusTags: Structure("opus", "OpusTags")
            case .flacBlock: Structure("flac", "VORBIS_COMMENT")
            }
        }

        /// The bytes before the vendor length.
        var magic: [UInt8] {
            switch self {
            case .vorbisHeader: [0x03] + Array("vorbis".utf8)
            case .opusTags: Array("OpusTags".utf8)
            case .flacBlock: []
            }
        }
    }

    /// The raw-tag source name.
    static let source = "vorbis"

    /// A Vorbis comment header with an empty vendor string and no comments (16 bytes: the magic, two zero
    /// lengths, the framing bit): what stands in for a comment header lost with damaged pages, so that a
    /// decoder still gets the three headers it needs.
    static let emptyCommentHeader: [UInt8] = Framing.vorbisHeader.magic + [0, 0, 0, 0] + [0, 0, 0, 0] + [1]

    /// The vendor string (the encoding library, e.g. "Xiph.Org libVorbis I 20200704").
    var vendor: String
    /// The number of comments the block declares.
    var declaredCount: UInt32
    /// The fields, decoded, as raw tags, info keys, artwork and chapters.
    var metadata: AudioMetadata
    /// Oddities worked around, each prefixed with the framing's structure.
    var notes: [DiagnosticNote]

    /// Decodes a comment block.
    ///
    /// - Parameters:
    ///   - bytes: the whole packet (`.vorbisHeader`, `.opusTags`) or block body (`.flacBlock`).
    ///   - framing: which of the three it is.
    ///   - limits: `maxTagBytes` and `maxArtworkBytes` bound what is kept.
    /// - Throws: `.invalidFile` when the magic is wrong or the vendor string or comment count
    ///   overrun the bytes.
    static func decode(
        _ bytes: ArraySlice<UInt8>, framing: Framing, limits: ParserLimits = ParserLimits()
    ) throws(StructureError) -> VorbisComment {
        let structure = framing.structure
        guard bytes.starts(with: framing.magic) else {
            throw structure.invalid("block does not start with its magic")
        }
        var index = bytes.startIndex + framing.magic.count
        func le32() -> UInt32? {
            guard bytes.endIndex - index >= 4 else { return nil }
            defer { index += 4 }
            return UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
                | UInt32(bytes[index + 3]) << 24
        }
        guard let vendorLength = le32() else {
            throw structure.invalid("block ends before the vendor length")
        }
        guard UInt64(vendorLength) <= UInt64(bytes.endIndex - index) else {
            throw structure.invalid(
                "vendor string of \(vendorLength) bytes overruns the \(bytes.count)-byte block")
        }
        let vendorBytes = bytes[index..<(index + Int(vendorLength))]
        index += Int(vendorLength)
        guard let count = le32() else {
            throw structure.invalid("block ends before the comment count")
        }
        var comment = VorbisComment(
            vendor: String(decoding: vendorBytes, as: UTF8.self), declaredCount: count, metadata: AudioMetadata(),
            notes: [])
        func damaged(_ text: String) { comment.notes.append(DiagnosticNote(.damagedMetadata, structure, text)) }
        if UInt64(count) > UInt64((bytes.endIndex - index) / 4) {
            damaged("\(count) comments cannot fit in the \(bytes.endIndex - index) bytes left; reading what fits")
        }
        var builder = VorbisCommentMetadataBuilder(structure: structure, limits: limits)
        var read: UInt32 = 0
        while read < count {
            guard let length = le32() else {
                damaged("block ends after \(read) of \(count) comments")
                break
            }
            guard UInt64(length) <= UInt64(bytes.endIndex - index) else {
                damaged("comment \(read + 1) of \(length) bytes overruns the block; the rest is ignored")
                index = bytes.endIndex
                break
            }
            builder.add(bytes[index..<(index + Int(length))], number: Int(read) + 1)
            index += Int(length)
            read += 1
        }
        if framing == .vorbisHeader && read == count {
            if index == bytes.endIndex {
                damaged("framing bit is missing")
            } else if bytes[index] & 1 == 0 {
                damaged("framing bit is not set")
            }
        }
        builder.finish(vendor: comment.vendor)
        comment.metadata = builder.metadata
        comment.notes += builder.notes
        return comment
    }
}
