/// Reading an `esds` box (ISO/IEC 14496-14 §5.6: version and flags, then an ES_Descriptor) in full:
/// the fields of the DecoderConfigDescriptor that decide the codec and its bit rates, besides the
/// DecoderSpecificInfo that `ESDescriptor.decoderSpecificInfo(in:)` already finds.
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
extension ESDescriptor {
    /// The decoded DecoderConfigDescriptor of an `esds` box.
    struct DecoderConfig: Hashable {
        var objectTypeIndication: UInt8
        var streamType: UInt8
        var bufferSizeDB: UInt32
        var maxBitrate: UInt32
        var avgBitrate: UInt32
        /// The DecoderSpecificInfo payload (an AudioSpecificConfig for MPEG-4 audio), when present.
        var decoderSpecificInfo: [UInt8]?
    }

    /// Decodes the ES_Descriptor of an `esds` body.
    ///
    /// - Parameter esdsBody: the `esds` box body: version (must be 0) and flags, then the ES_Descriptor.
    /// - Returns: the decoder configuration and the ES_Descriptor's bytes (from its tag to its end, the
    ///   form CoreAudio gives as an AAC magic cookie).
    /// - Throws: `invalidFile` when the descriptors are cut or nested wrongly.
    static func decodeESDS(
        _ esdsBody: ArraySlice<UInt8>
    ) throws(StructureError) -> (DecoderConfig, esDescriptor: [UInt8]) {
        let body = Array(esdsBody)
        func fail(_ why: String) -> StructureError { StructureError(.invalidFile, reason: "mp4 (esds): " + why) }
        guard body.count >= 4 else { throw fail("shorter than its version and flags") }
        guard body[0] == 0 else { throw fail("version \(body[0]) is not 0") }
        var reader = ByteReader(Array(body[4...]))
        guard let (tag, size) = header(&reader) else { throw fail("ES_Descriptor header cut short") }
        guard tag == esDescriptorTag else { throw fail("first descriptor has tag \(tag), not ES_DescrTag 3") }
        let headerLength = reader.offset
        guard size <= reader.remaining, let es = reader.readBytes(size) else {
            throw fail("ES_Descriptor size \(size) runs past the box")
        }
        let esDescriptor = Array(body[4..<(4 + headerLength + size)])
        var r = ByteReader(Array(es))
        guard r.skip(2), let flags = r.readUInt8() else { throw fail("ES_Descriptor cut short") }
        if flags & 0x80 != 0 { guard r.skip(2) else { throw fail("dependsOn_ES_ID cut short") } }
        if flags & 0x40 != 0 {
            guard let length = r.readUInt8(), r.skip(Int(length)) else { throw fail("URLstring cut short") }
        }
        if flags & 0x20 != 0 { guard r.skip(2) else { throw fail("OCR_ES_Id cut short") } }
        while r.remaining > 0 {
            guard let (subTag, subSize) = header(&r), subSize <= r.remaining,
                let sub = r.readBytes(subSize)
            else { throw fail("descriptor inside the ES_Descriptor cut short") }
            guard subTag == decoderConfigDescriptorTag else { continue }
            var c = ByteReader(Array(sub))
            guard let oti = c.readUInt8(), let typeByte = c.readUInt8(), let buffer = c.readInteger(byteCount: 3, as: UInt32.self, endianness: .big),
                let maxBitrate = c.readInteger(as: UInt32.self, endianness: .big), let avgBitrate = c.readInteger(as: UInt32.self, endianness: .big)
            else { throw fail("DecoderConfigDescriptor shorter than 13 bytes") }
            var info: [UInt8]?
            while c.remaining > 0 {
                guard let (t, s) = header(&c), s <= c.remaining, let payload = c.readBytes(s) else {
                    throw fail("descriptor inside the DecoderConfigDescriptor cut short")
                }
                if t == decoderSpecificInfoTag, info == nil { info = Array(payload) }
            }
            let config = DecoderConfig(
                objectTypeIndication: oti, streamType: typeByte >> 2, bufferSizeDB: buffer, maxBitrate: maxBitrate,
                avgBitrate: avgBitrate, decoderSpecificInfo: info)
            return (config, esDescriptor)
        }
        throw fail("no DecoderConfigDescriptor")
    }
}
