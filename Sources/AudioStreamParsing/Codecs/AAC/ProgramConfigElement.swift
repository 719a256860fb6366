/// An AAC `program_config_element()`: the channel setup of a stream whose channel configuration is 0.
///
/// ISO/IEC 14496-3 §4.4.1.1 Table 4.2 (syntax) and §4.5.1.2 (semantics); ISO/IEC 13818-7 §8.5.
///
/// ```
///  element_instance_tag 4, object_type 2, sampling_frequency_index 4,
///  num_front_channel_elements 4, num_side_channel_elements 4, num_back_channel_elements 4,
///  num_lfe_channel_elements 2, num_assoc_data_elements 3, num_valid_cc_elements 4,
///  mono_mixdown_present 1 [mono_mixdown_element_number 4],
///  stereo_mixdown_present 1 [stereo_mixdown_element_number 4],
///  matrix_mixdown_idx_present 1 [matrix_mixdown_idx 2, pseudo_surround_enable 1],
///  front/side/back: { element_is_cpe 1, element_tag_select 4 } × num,
///  lfe: { element_tag_select 4 } × num, assoc data: { element_tag_select 4 } × num,
///  cc: { cc_element_is_ind_sw 1, valid_cc_element_tag_select 4 } × num,
///  byte_alignment(), comment_field_bytes 8, comment_field_data 8 × comment_field_bytes
/// ```
///
/// `byte_alignment()` is relative to the start of the structure that holds the element: the
/// `raw_data_block()` in an ADTS frame, the `AudioSpecificConfig()` in a decoder configuration. The
/// element is therefore kept as its bits before the alignment plus the comment, and re-aligned when
/// written into an AudioSpecificConfig.
struct ProgramConfigElement: Hashable, Sendable {
    /// The bits from `element_instance_tag` up to (not including) `byte_alignment()`.
    var leadingBits: [Bool]
    /// `comment_field_data`.
    var comment: [UInt8]
    /// object_type (audioObjectType − 1).
    var objectType: UInt8
    /// sampling_frequency_index.
    var samplingFrequencyIndex: UInt8
    /// Output channels: one per single-channel element, two per channel-pair element (front, side,
    /// back), one per LFE element. Coupling and data elements carry no output channel.
    var channelCount: Int

    /// The syntactic element ID of a program_config_element (14496-3 Table 4.85, ID_PCE).
    static let elementID: UInt32 = 5

    /// Where decoding errors point.
    static let structure = Structure("aac", "program_config_element")

    /// Decodes a PCE whose `element_instance_tag` is the next bit of `reader` (the 3-bit element ID
    /// already read). `byte_alignment()` is relative to the reader's first byte.
    ///
    /// - Throws: `invalidFile` when the bits run out.
    static func decode(_ reader: inout BitReader) throws(StructureError) -> ProgramConfigElement {
        var bits: [Bool] = []
        func take(_ n: Int, _ field: String) throws(StructureError) -> UInt32 {
            guard let v = reader.read(n) else { throw structure.invalid("ends inside \(field)") }
            for i in stride(from: n - 1, through: 0, by: -1) { bits.append((v >> UInt32(i)) & 1 == 1) }
            return v
        }
        _ = try take(4, "element_instance_tag")
        let objectType = try take(2, "object_type")
        let sfi = try take(4, "sampling_frequency_index")
        let front = try take(4, "num_front_channel_elements")
        let side = try take(4, "num_side_channel_elements")
        let back = try take(4, "num_back_channel_elements")
        let lfe = try take(2, "num_lfe_channel_elements")
        let assoc = try take(3, "num_assoc_data_elements")
        let cc = try take(4, "num_valid_cc_elements")
        // mono_mixdown (+4 bits), stereo_mixdown (+4 bits), matrix_mixdown_idx (+2 +1 bits).
        for (extra, field) in [(4, "mono_mixdown"), (4, "stereo_mixdown"), (3, "matrix_mixdown_idx")] {
            if try take(1, "\(field)_present") == 1 { _ = try take(extra, field) }
        }
        var channels = 0
        for _ in 0..<(front + side + back) {
            let isCPE = try take(1, "element_is_cpe")
            _ = try take(4, "element_tag_select")
            channels += isCPE == 1 ? 2 : 1
        }
        for _ in 0..<lfe {
            _ = try take(4, "lfe_element_tag_select")
            channels += 1
        }
        for _ in 0..<assoc { _ = try take(4, "assoc_data_element_tag_select") }
        for _ in 0..<cc { _ = try take(5, "valid_cc_element_tag_select") }
        guard reader.alignToByte(), let count = reader.read(8) else {
            throw structure.invalid("ends inside comment_field_bytes")
        }
        var comment: [UInt8] = []
        for _ in 0..<count {
            guard let byte = reader.read(8) else { throw structure.invalid("ends inside comment_field_data") }
            comment.append(UInt8(byte))
        }
        return ProgramConfigElement(
            leadingBits: bits, comment: comment, objectType: UInt8(objectType), samplingFrequencyIndex: UInt8(sfi),
            channelCount: channels)
    }

    /// Writes the element (without the 3-bit element ID) into `writer`, aligning relative to the
    /// writer's first bit.
    func write(to writer: inout BitWriter) {
        for bit in leadingBits { writer.write(bit) }
        writer.alignToByte()
        writer.write(UInt32(comment.count), bits: 8)
        for byte in comment { writer.write(UInt32(byte), bits: 8) }
    }

    /// Finds a PCE among the leading elements of a `raw_data_block()` (14496-3 §4.4.2.1 Table 4.3):
    /// data-stream (DSE) and fill (FIL) elements before it are skipped; any other element ends the
    /// search, because skipping it would need a decoder.
    ///
    /// - Parameter rawDataBlock: the block's bytes, from its first bit.
    /// - Returns: the element, or `nil` when the block does not start with one.
    static func find(inRawDataBlock rawDataBlock: [UInt8]) -> ProgramConfigElement? {
        var reader = BitReader(rawDataBlock, order: .mostSignificantFirst)
        while let id = reader.read(3) {
            switch id {
            case elementID:
                return try? decode(&reader)
            case 4:  // ID_DSE: data_stream_element(), Table 4.10
                guard reader.skip(4), let align = reader.readFlag(), var count = reader.read(8) else { return nil }
                if count == 255 {
                    guard let escape = reader.read(8) else { return nil }
                    count += escape
                }
                if align { guard reader.alignToByte() else { return nil } }
                guard reader.skip(Int(count) * 8) else { return nil }
            case 6:  // ID_FIL: fill_element(), Table 4.11
                guard var count = reader.read(4) else { return nil }
                if count == 15 {
                    // cnt = 15 + esc_count - 1, written so that esc_count 0 (cnt 14) does not underflow.
                    guard let escape = reader.read(8) else { return nil }
                    count = 14 + escape
                }
                guard reader.skip(Int(count) * 8) else { return nil }
            default:
                return nil
            }
        }
        return nil
    }
}
