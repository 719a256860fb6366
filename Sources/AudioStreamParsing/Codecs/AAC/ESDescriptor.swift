/// The MPEG-4 Systems `ES_Descriptor` that an AAC magic cookie carries (ISO/IEC 14496-1 §7.2.6.5,
/// with DecoderConfigDescriptor §7.2.6.6, DecoderSpecificInfo §7.2.6.7 and SLConfigDescriptor
/// §7.2.6.8): the same bytes an M4A's `esds` box holds after its 4-byte version and flags
/// (ISO/IEC 14496-14 §5.6), which is what CoreAudio's `kAudioFileStreamProperty_MagicCookieData`
/// gives for AAC.
///
/// Layout read:
///
/// ```
///  ES_Descriptor (14496-1 §7.2.6.5)            tag 0x03, expandable size (§8.3.3, 1–4 bytes)
///    ES_ID 16, streamDependenceFlag 1, URL_Flag 1, OCRstreamFlag 1, streamPriority 5
///    [dependsOn_ES_ID 16] [URLlength 8, URLstring] [OCR_ES_Id 16]
///    DecoderConfigDescriptor (§7.2.6.6)        tag 0x04
///      objectTypeIndication 8                  0x40 MPEG-4 audio; 0x66–0x68 MPEG-2 AAC;
///                                              0x69 MPEG-2 audio (13818-3); 0x6B MPEG-1 audio
///                                              (11172-3); 0xA5 AC-3; 0xA6 E-AC-3 (mp4ra.org)
///      streamType 6, upStream 1, reserved 1
///      bufferSizeDB 24, maxBitrate 32, avgBitrate 32
///      DecoderSpecificInfo (§7.2.6.7)          tag 0x05: AudioSpecificConfig for audio
///    SLConfigDescriptor (§7.2.6.8)             tag 0x06
/// ```
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
struct ESDescriptor: Hashable {
    /// The DecoderConfigDescriptor (§7.2.6.6): the fields that decide the codec and its bit rates.
    struct DecoderConfig: Hashable {
        var objectTypeIndication: UInt8
        var streamType: UInt8
        var bufferSizeDB: UInt32
        var maxBitrate: UInt32
        var avgBitrate: UInt32
        /// The DecoderSpecificInfo payload (an AudioSpecificConfig for MPEG-4 audio), when present.
        var decoderSpecificInfo: [UInt8]?
    }

    /// The first DecoderConfigDescriptor.
    var decoderConfig: DecoderConfig
    /// The descriptor from its tag to its end: the form CoreAudio gives as an AAC magic cookie.
    var bytes: [UInt8]

    static let esDescriptorTag: UInt8 = 0x03
    static let decoderConfigDescriptorTag: UInt8 = 0x04
    static let decoderSpecificInfoTag: UInt8 = 0x05
    static let slConfigDescriptorTag: UInt8 = 0x06
    /// objectTypeIndication for MPEG-4 Audio (14496-1 Table 5).
    static let objectTypeIndicationMPEG4Audio: UInt8 = 0x40
    /// streamType 5 (AudioStream) << 2, upStream 0, reserved bit 1.
    static let streamTypeAudioByte: UInt8 = 0x15

    /// The `esds` box (ISO/IEC 14496-14 §5.6: version and flags, then an ES_Descriptor), where the
    /// decoding errors point.
    static let esds = Structure("mp4", "esds")

    // MARK: Decoding

    /// Decodes the ES_Descriptor of an `esds` box body.
    ///
    /// - Parameter esdsBody: version (must be 0) and flags, then the ES_Descriptor.
    /// - Throws: `invalidFile` when the version is not 0 or the descriptors are cut or nested wrongly.
    static func decode(esdsBody: ArraySlice<UInt8>) throws(StructureError) -> ESDescriptor {
        var reader = ByteReader(esdsBody)
        guard let version = reader.readUInt8(), reader.skip(3) else {
            throw esds.invalid("shorter than its version and flags")
        }
        guard version == 0 else { throw esds.invalid("version \(version) is not 0") }
        return try decode(reader.readRemainingBytes())
    }

    /// Decodes an ES_Descriptor up to its first DecoderConfigDescriptor; bytes after the descriptor
    /// are ignored.
    ///
    /// - Parameter bytes: the descriptor, from its tag.
    /// - Throws: `invalidFile` (reasons about the `esds` box) when a descriptor is cut short, the first
    ///   one is not an ES_Descriptor, or it holds no DecoderConfigDescriptor.
    static func decode(_ bytes: ArraySlice<UInt8>) throws(StructureError) -> ESDescriptor {
        var reader = ByteReader(bytes)
        guard let (tag, size) = header(&reader) else { throw esds.invalid("ES_Descriptor header cut short") }
        guard tag == esDescriptorTag else { throw esds.invalid("first descriptor has tag \(tag), not ES_DescrTag 3") }
        let headerLength = reader.offset
        guard size <= reader.remaining, let body = reader.readBytes(size) else {
            throw esds.invalid("ES_Descriptor size \(size) runs past the box")
        }
        var es = ByteReader(body)
        guard es.skip(2), let flags = es.readUInt8() else { throw esds.invalid("ES_Descriptor cut short") }
        if flags & 0x80 != 0 { guard es.skip(2) else { throw esds.invalid("dependsOn_ES_ID cut short") } }
        if flags & 0x40 != 0 {
            guard let length = es.readUInt8(), es.skip(Int(length)) else { throw esds.invalid("URLstring cut short") }
        }
        if flags & 0x20 != 0 { guard es.skip(2) else { throw esds.invalid("OCR_ES_Id cut short") } }
        while es.remaining > 0 {
            guard let (subTag, subSize) = header(&es), subSize <= es.remaining, let sub = es.readBytes(subSize) else {
                throw esds.invalid("descriptor inside the ES_Descriptor cut short")
            }
            guard subTag == decoderConfigDescriptorTag else { continue }
            let config = try decoderConfig(sub)
            let start = bytes.startIndex
            return ESDescriptor(decoderConfig: config, bytes: Array(bytes[start..<(start + headerLength + size)]))
        }
        throw esds.invalid("no DecoderConfigDescriptor")
    }

    /// A DecoderConfigDescriptor's body (after its tag and size): 13 bytes of fields, then
    /// descriptors, of which the first DecoderSpecificInfo is kept.
    private static func decoderConfig(_ body: ArraySlice<UInt8>) throws(StructureError) -> DecoderConfig {
        var c = ByteReader(body)
        guard let oti = c.readUInt8(), let typeByte = c.readUInt8(),
            let buffer = c.readInteger(byteCount: 3, as: UInt32.self, endianness: .big),
            let maxBitrate = c.readInteger(as: UInt32.self, endianness: .big),
            let avgBitrate = c.readInteger(as: UInt32.self, endianness: .big)
        else { throw esds.invalid("DecoderConfigDescriptor shorter than 13 bytes") }
        var info: [UInt8]?
        while c.remaining > 0 {
            guard let (t, s) = header(&c), s <= c.remaining, let payload = c.readBytes(s) else {
                throw esds.invalid("descriptor inside the DecoderConfigDescriptor cut short")
            }
            if t == decoderSpecificInfoTag, info == nil { info = Array(payload) }
        }
        return DecoderConfig(
            objectTypeIndication: oti, streamType: typeByte >> 2, bufferSizeDB: buffer, maxBitrate: maxBitrate,
            avgBitrate: avgBitrate, decoderSpecificInfo: info)
    }

    /// The DecoderSpecificInfo payload of an ES_Descriptor, or of a whole `esds` body (4 bytes of
    /// version and flags, then the ES_Descriptor).
    ///
    /// - Returns: `nil` when the bytes are not an ES_Descriptor with a DecoderConfigDescriptor that
    ///   holds a DecoderSpecificInfo, or a descriptor is cut short.
    static func decoderSpecificInfo(in bytes: [UInt8]) -> [UInt8]? {
        let isESDSBody = bytes.first == 0x00 && bytes.count > 4 && bytes[4] == esDescriptorTag
        return (try? decode(bytes[(isESDSBody ? 4 : 0)...]))?.decoderConfig.decoderSpecificInfo
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

    // MARK: Encoding

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
}
