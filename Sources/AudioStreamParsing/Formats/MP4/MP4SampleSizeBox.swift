/// The sizes of a track's samples: the sample size box `stsz` (ISO/IEC 14496-12 §8.7.3.2) or the
/// compact sample size box `stz2` (§8.7.3.3).
///
/// ```
/// stsz  offset  size   field
///            0     1   version (0)
///            1     3   flags
///            4     4   sample_size    UInt32; 0: every sample's size follows
///            8     4   sample_count   UInt32
///           12   4·n   entry_size     UInt32 × sample_count, only when sample_size == 0
///
/// stz2  offset  size   field
///            0     1   version (0)
///            1     3   flags
///            4     3   reserved
///            7     1   field_size     4, 8 or 16
///            8     4   sample_count   UInt32
///           12     …   entry_size     field_size bits × sample_count; 4-bit pairs high nibble first
/// ```
///
/// The count is checked against `ParserLimits.maxPacketTableEntries` and, for a table, against the
/// bytes the body really holds before anything is reserved; a constant size reserves nothing per sample.
struct MP4SampleSizeBox: Equatable {
    /// Every sample's size when all are alike (`stsz` sample_size); `nil` when the sizes were appended
    /// one per sample.
    var constantSize: UInt32?
    /// The samples the box lists.
    var sampleCount: Int

    /// Decodes an `stsz` or `stz2` body, appending each listed size to `sizes` (no intermediate copy).
    ///
    /// - Parameters:
    ///   - body: the box body.
    ///   - compact: the body is an `stz2`.
    ///   - limits: `maxPacketTableEntries` bounds the count.
    ///   - sizes: receives the per-sample sizes (nothing for a constant size).
    /// - Throws: `invalidFile` for a body shorter than its fields, an `stz2` field size other than 4, 8
    ///   or 16, or more entries than the body holds; `limitExceeded` above `maxPacketTableEntries`.
    static func decode(
        _ body: ArraySlice<UInt8>, compact: Bool, limits: ParserLimits, into sizes: inout MP4SampleSizes
    ) throws(StructureError) -> MP4SampleSizeBox {
        compact
            ? try decodeCompact(body, limits: limits, into: &sizes) : try decodeFull(body, limits: limits, into: &sizes)
    }

    private static let stsz = Structure.mp4("stsz")
    private static let stz2 = Structure.mp4("stz2")

    private static func decodeFull(
        _ body: ArraySlice<UInt8>, limits: ParserLimits, into sizes: inout MP4SampleSizes
    ) throws(StructureError) -> MP4SampleSizeBox {
        var r = ByteReader(body)
        guard r.versionAndFlags() != nil, let size = r.readInteger(as: UInt32.self, endianness: .big),
            let count = r.readInteger(as: UInt32.self, endianness: .big)
        else { throw stsz.invalid("box too short") }
        if Int(count) > limits.maxPacketTableEntries {
            throw stsz.limit("\(count) samples exceed maxPacketTableEntries")
        }
        if size != 0 { return MP4SampleSizeBox(constantSize: size, sampleCount: Int(count)) }
        guard Int(count) <= r.remaining / 4 else {
            throw stsz.invalid("\(count) entries declared, the box holds \(r.remaining / 4)")
        }
        sizes.reserveCapacity(Int(count))
        for _ in 0..<Int(count) { sizes.append(r.readInteger(as: UInt32.self, endianness: .big) ?? 0) }
        return MP4SampleSizeBox(constantSize: nil, sampleCount: Int(count))
    }

    private static func decodeCompact(
        _ body: ArraySlice<UInt8>, limits: ParserLimits, into sizes: inout MP4SampleSizes
    ) throws(StructureError) -> MP4SampleSizeBox {
        var r = ByteReader(body)
        guard r.versionAndFlags() != nil, r.skip(3), let field = r.readUInt8(),
            let count = r.readInteger(as: UInt32.self, endianness: .big)
        else { throw stz2.invalid("box too short") }
        guard field == 4 || field == 8 || field == 16 else {
            throw stz2.invalid("field_size \(field) is not 4, 8 or 16")
        }
        if Int(count) > limits.maxPacketTableEntries {
            throw stz2.limit("\(count) samples exceed maxPacketTableEntries")
        }
        let needed = (Int(count) * Int(field) + 7) / 8
        guard needed <= r.remaining else { throw stz2.invalid("\(count) entries declared, the box is too short") }
        let sampleCount = Int(count)
        sizes.reserveCapacity(sampleCount)
        var i = 0
        while i < sampleCount {
            switch field {
            case 4:
                let b = r.readUInt8() ?? 0
                sizes.append(UInt32(b >> 4))
                if i + 1 < sampleCount { sizes.append(UInt32(b & 0xF)) }
                i += 2
            case 8:
                sizes.append(UInt32(r.readUInt8() ?? 0))
                i += 1
            default:
                sizes.append(UInt32(r.readInteger(as: UInt16.self, endianness: .big) ?? 0))
                i += 1
            }
        }
        return MP4SampleSizeBox(constantSize: nil, sampleCount: sampleCount)
    }

    /// The sample_count field of an `stsz` or `stz2` body (the same place in both), without decoding
    /// the table: a track's declared sample count for the track list; `nil` when the body is shorter.
    static func declaredSampleCount(_ body: ArraySlice<UInt8>) -> Int64? {
        var r = ByteReader(body)
        guard r.versionAndFlags() != nil, r.skip(4), let n = r.readInteger(as: UInt32.self, endianness: .big)
        else { return nil }
        return Int64(n)
    }
}
