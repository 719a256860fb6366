/// One SBR payload, sbr_extension_data() (ISO/IEC 14496-3 §4.4.2.8 Tables 4.62–4.66), read far
/// enough to reach its sbr_extension (where parametric stereo is carried) and its end.
///
/// ```
///  extension_type 4 (13 EXT_SBR_DATA, 14 EXT_SBR_DATA_CRC)
///  [14: bs_sbr_crc_bits 10]   bs_header_flag 1   [sbr_header()]
///  sbr_data(): sbr_single_channel_element() after an SCE, sbr_channel_pair_element() after a CPE
///    SCE: bs_data_extra 1 [bs_reserved 4], sbr_grid, sbr_dtdf, sbr_invf, sbr_envelope, sbr_noise,
///         bs_add_harmonic_flag 1 [sinusoidal_coding]
///    CPE: bs_data_extra 1 [bs_reserved 4 + 4], bs_coupling 1
///         coupled:   grid(0) (channel 1 shares it), dtdf(0), dtdf(1), invf(0) (shared),
///                    envelope(0), noise(0), envelope(1) and noise(1) as balance
///         uncoupled: grid(0), grid(1), dtdf(0), dtdf(1), invf(0), invf(1), envelope(0),
///                    envelope(1), noise(0), noise(1)
///         bs_add_harmonic_flag 1 [sinusoidal_coding(0)], bs_add_harmonic_flag 1 [… (1)]
///    bs_extended_data 1 [bs_extension_size 4 (15: + bs_esc_count 8) bytes:
///         bs_extension_id 2 (2 EXTENSION_ID_PS: ps_data()), … to the size]
///  bs_fill_bits up to the fill element's byte count
/// ```
///
/// Only the first bs_extension_id is kept: any other ID makes the rest of the extension fill bits,
/// so parametric stereo is present exactly when the first ID is EXTENSION_ID_PS (2). ps_data() is
/// not read; the extension's size gives its end.
///
/// Contract: ``read(_:element:sampleRate:previousHeader:)`` never traps and returns a typed
/// ``AACSyntaxReader/Failure``: the payload ends inside a field (`truncated`), a value the rules
/// reject (`invalid`), or what the reader does not follow (`unsupported`: SBR without a header seen,
/// an output rate without tables). Work is bounded by the payload (at most 269 bytes).
struct SBRExtensionData: Equatable, Sendable {
    /// The header in force: this payload's, or the previous one.
    var header: SBRHeader
    /// True when this payload carries the header (bs_header_flag 1).
    var carriesHeader: Bool
    /// The first bs_extension_id of the extended data; `nil` when bs_extended_data is 0.
    var extensionID: Int?
    /// The bit after sbr_data(), counted from the payload's first bit (extension_type).
    var endBit: Int

    /// EXTENSION_ID_PS.
    static let parametricStereoID = 2

    /// True when sbr_data() carries parametric stereo data (HE-AAC v2).
    var hasParametricStereo: Bool { extensionID == Self.parametricStereoID }

    /// Reads the payload `payload` (byte-aligned, starting with extension_type) of a fill element
    /// that follows `element`, for SBR output at `sampleRate` Hz. `previousHeader` is the header of an
    /// earlier payload of the stream, used when this one has none.
    static func read(
        _ payload: ArraySlice<UInt8>, element: AACRawDataBlock.ElementID?, sampleRate: Int,
        previousHeader: SBRHeader? = nil
    ) -> Result<SBRExtensionData, AACSyntaxReader.Failure> {
        // The reader's object type and frequency index are not used by the SBR syntax.
        guard var r = AACSyntaxReader(payload, audioObjectType: 2, samplingFrequencyIndex: 4) else {
            return .failure(.unsupported("a reader"))
        }
        do throws(AACSyntaxReader.Failure) {
            return .success(
                try read(&r, element: element, sampleRate: sampleRate, previousHeader: previousHeader))
        } catch {
            return .failure(error)
        }
    }

    private static func read(
        _ r: inout AACSyntaxReader, element: AACRawDataBlock.ElementID?, sampleRate: Int, previousHeader: SBRHeader?
    ) throws(AACSyntaxReader.Failure) -> SBRExtensionData {
        let type = try r.read(4)
        guard AACRawDataBlock.sbrExtensionTypes.contains(type) else { throw .invalid("extension_type \(type)") }
        if type == 14 { try r.skip(10) }  // bs_sbr_crc_bits
        let carriesHeader = try r.flag()
        let header = try carriesHeader ? SBRHeader.read(&r) : previousHeader
        guard let header else { throw .unsupported("SBR data before any sbr_header") }
        let tables = try SBRFrequencyBandTables(header, sampleRate: sampleRate)
        switch element {
        case .singleChannel: try readSingleChannel(&r, header: header, tables: tables)
        case .channelPair: try readChannelPair(&r, header: header, tables: tables)
        default: throw .invalid("SBR data after a \(element.map { "\($0)" } ?? "missing") element")
        }
        var extensionID: Int?
        if try r.flag() {
            var size = try r.read(4)
            if size == 15 { size += try r.read(8) }
            let end = r.bits.bitPosition + 8 * size
            if size > 0 { extensionID = try r.read(2) }
            try r.skip(end - r.bits.bitPosition)
        }
        return SBRExtensionData(
            header: header, carriesHeader: carriesHeader, extensionID: extensionID, endBit: r.bits.bitPosition)
    }

    /// sbr_single_channel_element() up to bs_extended_data.
    private static func readSingleChannel(_ r: inout AACSyntaxReader, header: SBRHeader, tables: SBRFrequencyBandTables)
        throws(AACSyntaxReader.Failure)
    {
        if try r.flag() { try r.skip(4) }  // bs_data_extra, bs_reserved
        let grid = try SBRGrid.read(&r, amplitudeResolution: header.amplitudeResolution)
        let directions = try SBRChannelData.readDirections(&r, grid: grid)
        try r.skip(2 * tables.noiseBandCount)  // sbr_invf
        try SBRChannelData.skipEnvelopes(
            &r, grid: grid, timeCoded: directions.envelopes, coding: .level, tables: tables)
        try SBRChannelData.skipNoise(&r, timeCoded: directions.noise, coding: .level, tables: tables)
        try skipHarmonics(&r, tables: tables)
    }

    /// sbr_channel_pair_element() up to bs_extended_data.
    private static func readChannelPair(_ r: inout AACSyntaxReader, header: SBRHeader, tables: SBRFrequencyBandTables)
        throws(AACSyntaxReader.Failure)
    {
        if try r.flag() { try r.skip(8) }  // bs_data_extra, bs_reserved × 2
        let coupled = try r.flag()
        let grid0 = try SBRGrid.read(&r, amplitudeResolution: header.amplitudeResolution)
        let grid1 = try coupled ? grid0 : SBRGrid.read(&r, amplitudeResolution: header.amplitudeResolution)
        let directions0 = try SBRChannelData.readDirections(&r, grid: grid0)
        let directions1 = try SBRChannelData.readDirections(&r, grid: grid1)
        try r.skip((coupled ? 2 : 4) * tables.noiseBandCount)  // sbr_invf: shared when coupled
        let coding1: SBRChannelData.Coding = coupled ? .balance : .level
        if coupled {
            try SBRChannelData.skipEnvelopes(
                &r, grid: grid0, timeCoded: directions0.envelopes, coding: .level, tables: tables)
            try SBRChannelData.skipNoise(&r, timeCoded: directions0.noise, coding: .level, tables: tables)
            try SBRChannelData.skipEnvelopes(
                &r, grid: grid1, timeCoded: directions1.envelopes, coding: coding1, tables: tables)
            try SBRChannelData.skipNoise(&r, timeCoded: directions1.noise, coding: coding1, tables: tables)
        } else {
            try SBRChannelData.skipEnvelopes(
                &r, grid: grid0, timeCoded: directions0.envelopes, coding: .level, tables: tables)
            try SBRChannelData.skipEnvelopes(
                &r, grid: grid1, timeCoded: directions1.envelopes, coding: coding1, tables: tables)
            try SBRChannelData.skipNoise(&r, timeCoded: directions0.noise, coding: .level, tables: tables)
            try SBRChannelData.skipNoise(&r, timeCoded: directions1.noise, coding: coding1, tables: tables)
        }
        try skipHarmonics(&r, tables: tables)
        try skipHarmonics(&r, tables: tables)
    }

    /// bs_add_harmonic_flag and sinusoidal_coding(): a flag per band of the high-resolution table.
    private static func skipHarmonics(_ r: inout AACSyntaxReader, tables: SBRFrequencyBandTables)
        throws(AACSyntaxReader.Failure)
    {
        if try r.flag() { try r.skip(tables.highBandCount) }
    }
}
