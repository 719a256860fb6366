/// One AAC `raw_data_block()` read element by element to its end (ISO/IEC 14496-3 §4.4.2.1
/// Table 4.3, element IDs Table 4.85): the elements it holds, its fill-element extensions (where
/// implicitly signalled SBR is found, §4.4.2.7 Table 4.57) and the bit where it ends.
///
/// ```
///  repeat: id_syn_ele 3
///    0 SCE  element_instance_tag 4, individual_channel_stream(0)
///    1 CPE  element_instance_tag 4, common_window 1
///           [ics_info(), ms_mask_present 2 (1: ms_used 1 per group and band; 3 reserved)]
///           individual_channel_stream × 2
///    2 CCE  element_instance_tag 4, ind_sw_cce_flag 1, num_coupled_elements 3,
///           {cc_target_is_cpe 1, cc_target_tag_select 4, [cc_l 1, cc_r 1]} × num+1,
///           cc_domain 1, gain_element_sign 1, gain_element_scale 2, individual_channel_stream(0),
///           per further gain list: [common_gain_element_present 1] then one hcod_sf, or one per
///           transmitted band                                      (§4.4.2.1 Table 4.8)
///    3 LFE  as SCE
///    4 DSE  element_instance_tag 4, data_byte_align_flag 1, count 8 [esc_count 8 when 255],
///           [byte_alignment()], data_stream_byte 8 × count        (Table 4.10)
///    5 PCE  program_config_element()                              (Table 4.2)
///    6 FIL  count 4 [esc_count 8 when 15: count = 15 + esc_count − 1],
///           extension_payload() in count bytes: extension_type 4 first
///           (13 EXT_SBR_DATA, 14 EXT_SBR_DATA_CRC, 11 EXT_DYNAMIC_RANGE, 1 EXT_FILL_DATA …)
///    7 END  then byte_alignment()
/// ```
///
/// `byte_alignment()` counts from the first bit of the block, so the bytes given must start with
/// the block (an ADTS frame's payload, an MP4 sample, an LATM payload copied out aligned).
struct AACRawDataBlock: Equatable {
    /// The syntactic element IDs (Table 4.85).
    enum ElementID: Int, Sendable {
        case singleChannel = 0
        case channelPair, couplingChannel, lowFrequencyEffects
        case dataStream, programConfig, fill, end
    }

    /// A fill element's extension_payload.
    struct Extension: Equatable {
        /// extension_type (the payload's first 4 bits).
        var type: Int
        /// The element before the fill element (the channel element SBR data belongs to).
        var precedingElement: ElementID?
        /// The payload's bits, from extension_type, counted from the block's first bit.
        var bits: Range<Int>
    }

    /// EXT_SBR_DATA and EXT_SBR_DATA_CRC (Table 4.121).
    static let sbrExtensionTypes: Set<Int> = [13, 14]

    /// The elements before END, in order.
    var elements: [ElementID]
    /// The fill elements' extension payloads, in order.
    var extensions: [Extension]
    /// The bit after END's byte_alignment(): the block's length in bits (a multiple of 8).
    var endBit: Int

    /// True when a fill element carries SBR data (implicitly signalled HE-AAC, §4.6.18).
    var hasSBR: Bool { extensions.contains { Self.sbrExtensionTypes.contains($0.type) } }

    /// Reads the block at the start of `bytes`.
    ///
    /// - Returns: the block, or the failure that stopped it (the bits ran out, a forbidden value, or
    ///   syntax not followed). Never traps; work is bounded by the bits given.
    static func read(_ bytes: ArraySlice<UInt8>, audioObjectType: Int, samplingFrequencyIndex: Int)
        -> Result<AACRawDataBlock, AACSyntaxReader.Failure>
    {
        guard
            var r = AACSyntaxReader(
                bytes, audioObjectType: audioObjectType, samplingFrequencyIndex: samplingFrequencyIndex)
        else {
            return .failure(.unsupported("object type \(audioObjectType), frequency index \(samplingFrequencyIndex)"))
        }
        do throws(AACSyntaxReader.Failure) {
            return .success(try read(&r))
        } catch {
            return .failure(error)
        }
    }

    private static func read(_ r: inout AACSyntaxReader) throws(AACSyntaxReader.Failure) -> AACRawDataBlock {
        var block = AACRawDataBlock(elements: [], extensions: [], endBit: 0)
        while true {
            // Safe to force unwrap: the value has 3 bits, and all eight are cases.
            let id = ElementID(rawValue: try r.read(3))!
            switch id {
            case .singleChannel, .lowFrequencyEffects:
                try r.skip(4)
                _ = try AACIndividualChannelStream.read(&r, sharedInfo: nil)
            case .channelPair:
                try readChannelPair(&r)
            case .couplingChannel:
                try readCouplingChannel(&r)
            case .dataStream:
                try r.skip(4)
                let aligned = try r.flag()
                var count = try r.read(8)
                if count == 255 { count += try r.read(8) }
                if aligned { guard r.bits.alignToByte() else { throw .truncated } }
                try r.skip(count * 8)
            case .programConfig:
                do { _ = try ProgramConfigElement.decode(&r.bits) } catch { throw .truncated }
            case .fill:
                var count = try r.read(4)
                if count == 15 { count += try r.read(8) - 1 }
                let start = r.bits.bitPosition
                if count > 0 {
                    var peek = r.bits
                    let type = peek.read(4).map(Int.init) ?? -1
                    block.extensions.append(
                        Extension(type: type, precedingElement: block.elements.last, bits: start..<(start + count * 8)))
                }
                try r.skip(count * 8)
            case .end:
                guard r.bits.alignToByte() else { throw .truncated }
                block.endBit = r.bits.bitPosition
                return block
            }
            block.elements.append(id)
        }
    }

    /// channel_pair_element() (Table 4.4).
    private static func readChannelPair(_ r: inout AACSyntaxReader) throws(AACSyntaxReader.Failure) {
        try r.skip(4)
        var shared: AACICSInfo?
        if try r.flag() {
            let info = try AACICSInfo.read(&r, commonWindow: true)
            switch try r.read(2) {
            case 1: try r.skip(info.groupLengths.count * info.maxSFB)
            case 3: throw .invalid("reserved ms_mask_present 3")
            default: break
            }
            shared = info
        }
        _ = try AACIndividualChannelStream.read(&r, sharedInfo: shared)
        _ = try AACIndividualChannelStream.read(&r, sharedInfo: shared)
    }

    /// coupling_channel_element() (Table 4.8).
    private static func readCouplingChannel(_ r: inout AACSyntaxReader) throws(AACSyntaxReader.Failure) {
        try r.skip(4)
        let independentlySwitched = try r.flag()
        let coupled = try r.read(3) + 1
        var gainLists = 0
        for _ in 0..<coupled {
            gainLists += 1
            let isPair = try r.flag()
            try r.skip(4)
            if isPair, try r.read(2) == 3 { gainLists += 1 }  // cc_l and cc_r
        }
        try r.skip(1 + 1 + 2)  // cc_domain, gain_element_sign, gain_element_scale
        let stream = try AACIndividualChannelStream.read(&r, sharedInfo: nil)
        for _ in 1..<max(gainLists, 1) {
            // common_gain_element_present (always 1 for an independently switched element).
            var common = true
            if !independentlySwitched { common = try r.flag() }
            if common {
                try r.skipScalefactorCodeword()
            } else {
                for codebook in stream.bandCodebooks where codebook != 0 { try r.skipScalefactorCodeword() }
            }
        }
    }
}
