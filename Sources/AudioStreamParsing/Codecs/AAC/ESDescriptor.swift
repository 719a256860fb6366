/// The MPEG-4 Systems `ES_Descriptor` that an AAC magic cookie carries (ISO/IEC 14496-1 §7.2.6.5,
/// with DecoderConfigDescriptor §7.2.6.6, DecoderSpecificInfo §7.2.6.7 and SLConfigDescriptor
/// §7.2.6.8): the same bytes an M4A's `esds` box holds after its 4-byte version and flags
/// (ISO/IEC 14496-14 §5.6), which is what CoreAudio's `kAudioFileStreamProperty_MagicCookieData`
/// gives for AAC.
///
/// Layout written (every descriptor length in the 4-byte expandable form, see below):
///
/// ```
///  03 80 80 80 L1           ES_DescrTag, size of the rest
///     00 00                 ES_ID 0 (an ES_ID is assigned when the stream is served; files store 0)
///     00                    streamDependenceFlag 0, URL_Flag 0, OCRstreamFlag 0, streamPriority 0
///     04 80 80 80 L2        DecoderConfigDescrTag
///        40                 objectTypeIndication: 0x40 = Audio ISO/IEC 14496-3
///        15                 streamType 5 (audio) << 2 | upStream 0 << 1 | reserved 1
///        xx xx xx           bufferSizeDB (24 bits): 768 bytes × channels
///        xx xx xx xx        maxBitrate: 6144 bits × channels per 1024 frames × sample rate / 1024
///                           (AAC's minimum decoder input buffer, 6144 bits per channel, bounds
///                           one raw data block: 13818-7 §8.2.2, 14496-3 §4.5.3)
///        00 00 00 00        avgBitrate: 0 (variable bit rate, 14496-1 §7.2.6.6.2)
///        05 80 80 80 L3     DecSpecificInfoTag
///           …               AudioSpecificConfig (L3 bytes)
///     06 80 80 80 01        SLConfigDescrTag
///        02                 predefined = 2 (reserved for use in MP4 files)
/// ```
///
/// Descriptor sizes use the expandable encoding of 14496-1 §8.3.3: 7 bits per byte, high bit set on
/// every byte but the last. This writer always uses four bytes (`0x80 0x80 0x80 size`), the form
/// Apple's and FFmpeg's MP4 writers use (an ffmpeg 5.1 `.m4a` holds `03 80 80 80 25 …`), so a cookie
/// from an ADTS stream looks like one read from an M4A; readers accept every length form.
enum ESDescriptor {
    static let esDescriptorTag: UInt8 = 0x03
    static let decoderConfigDescriptorTag: UInt8 = 0x04
    static let decoderSpecificInfoTag: UInt8 = 0x05
    static let slConfigDescriptorTag: UInt8 = 0x06
    /// objectTypeIndication for MPEG-4 Audio (14496-1 Table 5).
    static let objectTypeIndicationMPEG4Audio: UInt8 = 0x40
    /// streamType 5 (AudioStream) << 2, upStream 0, reserved bit 1.
    static let streamTypeAudioByte: UInt8 = 0x15

    /// Encodes an ES_Descriptor around `audioSpecificConfig` (see the type's discussion).
    static func encode(
        audioSpecificConfig asc: [UInt8], bufferSizeDB: UInt32, maxBitrate: UInt32, avgBitrate: UInt32
    ) -> [UInt8] {
        let decoderSpecificInfo = descriptor(decoderSpecificInfoTag, asc)
        var config: [UInt8] = [objectTypeIndicationMPEG4Audio, streamTypeAudioByte]
        config += bigEndian(min(bufferSizeDB, 0xFF_FFFF), bytes: 3)
        config += bigEndian(maxBitrate, bytes: 4)
        config += bigEndian(avgBitrate, bytes: 4)
        config += decoderSpecificInfo
        var body: [UInt8] = [0x00, 0x00, 0x00]  // ES_ID 0, flags 0
        body += descriptor(decoderConfigDescriptorTag, config)
        body += descriptor(slConfigDescriptorTag, [0x02])
        return descriptor(esDescriptorTag, body)
    }

    /// `tag`, the 4-byte expandable size, `body`.
    static func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
        let n = UInt32(min(body.count, 0x0FFF_FFFF))
        let size: [UInt8] = [
            UInt8(0x80 | (n >> 21) & 0x7F), UInt8(0x80 | (n >> 14) & 0x7F), UInt8(0x80 | (n >> 7) & 0x7F),
            UInt8(n & 0x7F),
        ]
        return [tag] + size + body
    }

    private static func bigEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8((value >> (8 * UInt32($0))) & 0xFF) }
    }

    /// The DecoderSpecificInfo payload of an ES_Descriptor, or of a whole `esds` body (4 bytes of
    /// version and flags, then the ES_Descriptor).
    ///
    /// - Returns: `nil` when the bytes are not an ES_Descriptor with a DecoderConfigDescriptor that
    ///   holds a DecoderSpecificInfo, or a size runs past the bytes.
    static func decoderSpecificInfo(in bytes: [UInt8]) -> [UInt8]? {
        var reader = ByteReader(bytes)
        if bytes.first == 0x00, bytes.count > 4, bytes[4] == esDescriptorTag { _ = reader.skip(4) }
        guard let (tag, esSize) = header(&reader), tag == esDescriptorTag, esSize <= reader.remaining,
            let body = reader.readBytes(esSize)
        else { return nil }
        var es = ByteReader(Array(body))
        guard es.skip(2), let flags = es.readUInt8() else { return nil }
        if flags & 0x80 != 0 { guard es.skip(2) else { return nil } }  // dependsOn_ES_ID
        if flags & 0x40 != 0 {  // URLlength, URLstring
            guard let length = es.readUInt8(), es.skip(Int(length)) else { return nil }
        }
        if flags & 0x20 != 0 { guard es.skip(2) else { return nil } }  // OCR_ES_Id
        while es.remaining > 0 {
            guard let (tag, size) = header(&es), size <= es.remaining, let sub = es.readBytes(size) else { return nil }
            guard tag == decoderConfigDescriptorTag else { continue }
            var config = ByteReader(Array(sub))
            guard config.skip(13) else { return nil }
            while config.remaining > 0 {
                guard let (t, s) = header(&config), s <= config.remaining, let payload = config.readBytes(s) else {
                    return nil
                }
                if t == decoderSpecificInfoTag { return Array(payload) }
            }
            return nil
        }
        return nil
    }

    /// A descriptor tag and its expandable size (14496-1 §8.3.3: at most 4 size bytes).
    static func header(_ reader: inout ByteReader) -> (UInt8, Int)? {
        guard let tag = reader.readUInt8() else { return nil }
        var size = 0
        for _ in 0..<4 {
            guard let b = reader.readUInt8() else { return nil }
            size = size << 7 | Int(b & 0x7F)
            if b & 0x80 == 0 { return (tag, size) }
        }
        return nil
    }
}
