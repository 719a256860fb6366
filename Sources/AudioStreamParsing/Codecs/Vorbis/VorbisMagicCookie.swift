/// The Vorbis magic cookie: the three header packets in Xiph lacing, as FFmpeg's Vorbis
/// `extradata` and Matroska's `CodecPrivate` for `A_VORBIS` hold them.
///
/// ```
///  1 byte   0x02: the number of packets − 1
///  n bytes  Xiph lacing of the identification header's length: 0xFF per whole 255, then the
///           remainder (0…254); a multiple of 255 ends with a 0x00 byte
///  n bytes  the same for the comment header's length
///           (the setup header's length is what remains)
///  …        identification header, comment header, setup header, whole and in order
/// ```
///
/// References: Matroska codec specifications ("A_VORBIS"), RFC 9559 "Xiph lacing", FFmpeg
/// `oggparsevorbis.c` `fixup_vorbis_headers`.
///
/// By default the comment header is reduced to its vendor string, no comments and the framing
/// bit, as FFmpeg does before exporting `extradata` (`oggparsevorbis.c`, "drop all metadata we
/// parsed and which is not required by libvorbis"): decoders need the comment header's presence,
/// not its fields, the comments are announced as `metadata` anyway, and a comment header with
/// embedded pictures could otherwise make the cookie megabytes long. The cookie then equals
/// ffprobe's `extradata` byte for byte.
enum VorbisMagicCookie {
    /// Builds the cookie from the three header packets as they appear in the stream.
    ///
    /// - Parameter keepingComments: keep the comment header whole instead of reducing it to the
    ///   vendor string (``strippedCommentHeader(_:)``).
    static func make(
        identification: ArraySlice<UInt8>, comment: ArraySlice<UInt8>, setup: ArraySlice<UInt8>,
        keepingComments: Bool = false
    ) -> [UInt8] {
        let comment = keepingComments ? Array(comment) : strippedCommentHeader(comment)
        var cookie: [UInt8] = [0x02]
        cookie.reserveCapacity(3 + identification.count + comment.count + setup.count + comment.count / 255)
        appendXiphLacing(identification.count, to: &cookie)
        appendXiphLacing(comment.count, to: &cookie)
        cookie += identification
        cookie += comment
        cookie += setup
        return cookie
    }

    /// The comment header reduced to what a decoder needs:
    ///
    /// ```
    ///  0x03 "vorbis" | vendor_length (4, LE) | vendor_string | 0x00000000 (no comments) | 0x01
    /// ```
    ///
    /// A packet that is not a comment header, or whose vendor string leaves no room for the
    /// count and framing byte, is returned unchanged (as FFmpeg does).
    static func strippedCommentHeader(_ comment: ArraySlice<UInt8>) -> [UInt8] {
        guard VorbisIdentificationHeader.isHeader(comment, type: 3), comment.count >= 11 else { return Array(comment) }
        let b = comment.startIndex + 7
        let vendorLength =
            UInt64(comment[b]) | UInt64(comment[b + 1]) << 8 | UInt64(comment[b + 2]) << 16
            | UInt64(comment[b + 3]) << 24
        let newLength = 7 + 4 + vendorLength + 4 + 1  // ≤ 2^32 + 16: no overflow
        guard newLength < UInt64(comment.count) else { return Array(comment) }
        var out = Array(comment.prefix(Int(newLength)))
        out.replaceSubrange((out.count - 5)..<out.count, with: [0, 0, 0, 0, 1])
        return out
    }

    /// Appends the Xiph lacing of `length`: `length / 255` bytes 0xFF, then `length % 255`.
    static func appendXiphLacing(_ length: Int, to bytes: inout [UInt8]) {
        var rest = max(0, length)
        while rest >= 255 {
            bytes.append(0xFF)
            rest -= 255
        }
        bytes.append(UInt8(rest))
    }

    /// Splits a cookie back into its three packets; `nil` when it is not a 3-packet Xiph-laced
    /// cookie whose lengths fit.
    static func split(_ cookie: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        guard cookie.first == 0x02 else { return nil }
        var index = cookie.startIndex + 1
        var lengths: [Int] = []
        for _ in 0..<2 {
            var length = 0
            while true {
                guard index < cookie.endIndex else { return nil }
                let byte = cookie[index]
                index += 1
                length += Int(byte)  // ≤ 255 × cookie.count: no overflow
                if byte != 0xFF { break }
            }
            lengths.append(length)
        }
        let available = cookie.endIndex - index
        guard lengths[0] <= available, lengths[1] <= available - lengths[0] else { return nil }
        let first = cookie[index..<(index + lengths[0])]
        let second = cookie[(index + lengths[0])..<(index + lengths[0] + lengths[1])]
        let third = cookie[(index + lengths[0] + lengths[1])...]
        return [first, second, third]
    }
}
