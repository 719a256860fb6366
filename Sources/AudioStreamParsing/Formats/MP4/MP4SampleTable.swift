/// The sample table boxes of a track (`stbl`, ISO/IEC 14496-12 §8.5–8.7) turned into an `MP4SampleList`.
///
/// ```
/// stts (§8.6.1.2)  FullBox; entry_count UInt32; entry_count × { sample_count UInt32, sample_delta UInt32 }
/// stsc (§8.7.4)    FullBox; entry_count UInt32;
///                  entry_count × { first_chunk UInt32 (1-based), samples_per_chunk UInt32,
///                                  sample_description_index UInt32 }
/// stsz (§8.7.3.2)  FullBox; sample_size UInt32 (0: a table follows); sample_count UInt32;
///                  when sample_size == 0: sample_count × entry_size UInt32
/// stz2 (§8.7.3.3)  FullBox; reserved 24 bits; field_size UInt8 (4, 8 or 16); sample_count UInt32;
///                  sample_count × entry_size (field_size bits; 4-bit pairs high nibble first)
/// stco (§8.7.5)    FullBox; entry_count UInt32; entry_count × chunk_offset UInt32
/// co64 (§8.7.5)    FullBox; entry_count UInt32; entry_count × chunk_offset UInt64
/// ```
///
/// Every count is checked against the bytes its box really has before anything is allocated (a count
/// larger than the box: `invalidFile`); the sample count against `ParserLimits.maxPacketTableEntries`
/// (`limitExceeded`). Inconsistent tables (chunks holding fewer or more samples than `stsz` lists, `stts`
/// covering a different count) are trimmed to what all tables agree on, with a diagnostic.
enum MP4SampleTable {
    static func decode(
        _ bytes: ArraySlice<UInt8>, stbl: [MP4Box], limits: ParserLimits, diagnostics: inout [String]
    ) throws(MP4BoxError) -> MP4SampleList {
        var list = MP4SampleList()
        // Sizes.
        var constantSize: UInt32?
        var sampleCount = 0
        if let stsz = stbl.first(MP4BoxType.stsz) {
            var r = ByteReader(bytes, stsz.body)
            guard r.versionAndFlags() != nil, let size = r.readInteger(as: UInt32.self, endianness: .big),
                let count = r.readInteger(as: UInt32.self, endianness: .big)
            else {
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (stsz): box too short")
            }
            if Int(count) > limits.maxPacketTableEntries {
                throw MP4BoxError(
                    code: .limitExceeded, reason: "mp4 (stsz): \(count) samples exceed maxPacketTableEntries")
            }
            sampleCount = Int(count)
            if size != 0 {
                constantSize = size
            } else {
                guard Int(count) <= r.remaining / 4 else {
                    throw MP4BoxError(
                        code: .invalidFile,
                        reason: "mp4 (stsz): \(count) entries declared, the box holds \(r.remaining / 4)")
                }
                list.sizes.reserveCapacity(Int(count))
                for _ in 0..<Int(count) { list.sizes.append(r.readInteger(as: UInt32.self, endianness: .big) ?? 0) }
            }
        } else if let stz2 = stbl.first(MP4BoxType.stz2) {
            var r = ByteReader(bytes, stz2.body)
            guard r.versionAndFlags() != nil, r.skip(3), let field = r.readUInt8(),
                let count = r.readInteger(as: UInt32.self, endianness: .big)
            else {
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (stz2): box too short")
            }
            guard field == 4 || field == 8 || field == 16 else {
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (stz2): field_size \(field) is not 4, 8 or 16")
            }
            if Int(count) > limits.maxPacketTableEntries {
                throw MP4BoxError(
                    code: .limitExceeded, reason: "mp4 (stz2): \(count) samples exceed maxPacketTableEntries")
            }
            let needed = (Int(count) * Int(field) + 7) / 8
            guard needed <= r.remaining else {
                throw MP4BoxError(
                    code: .invalidFile, reason: "mp4 (stz2): \(count) entries declared, the box is too short")
            }
            sampleCount = Int(count)
            list.sizes.reserveCapacity(sampleCount)
            var i = 0
            while i < sampleCount {
                switch field {
                case 4:
                    let b = r.readUInt8() ?? 0
                    list.sizes.append(UInt32(b >> 4))
                    if i + 1 < sampleCount { list.sizes.append(UInt32(b & 0xF)) }
                    i += 2
                case 8:
                    list.sizes.append(UInt32(r.readUInt8() ?? 0))
                    i += 1
                default:
                    list.sizes.append(UInt32(r.readInteger(as: UInt16.self, endianness: .big) ?? 0))
                    i += 1
                }
            }
        } else {
            throw MP4BoxError(code: .invalidFile, reason: "mp4 (stbl): no sample size box (stsz or stz2)")
        }

        // Chunk offsets.
        var chunkOffsets: [Int64] = []
        if let box = stbl.first(MP4BoxType.stco) ?? stbl.first(MP4BoxType.co64) {
            let wide = box.type == MP4BoxType.co64
            var r = ByteReader(bytes, box.body)
            guard r.versionAndFlags() != nil, let count = r.readInteger(as: UInt32.self, endianness: .big) else {
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (\(box.name)): box too short")
            }
            let entry = wide ? 8 : 4
            guard Int(count) <= r.remaining / entry else {
                throw MP4BoxError(
                    code: .invalidFile,
                    reason: "mp4 (\(box.name)): \(count) entries declared, the box holds \(r.remaining / entry)")
            }
            chunkOffsets.reserveCapacity(Int(count))
            for _ in 0..<Int(count) {
                let v = r.readInteger(byteCount: entry, as: UInt64.self, endianness: .big) ?? 0
                guard v <= UInt64(Int64.max) else {
                    throw MP4BoxError(code: .invalidFile, reason: "mp4 (co64): chunk offset past the largest offset")
                }
                chunkOffsets.append(Int64(v))
            }
        } else if sampleCount > 0 {
            throw MP4BoxError(code: .invalidFile, reason: "mp4 (stbl): no chunk offset box (stco or co64)")
        }

        // Sample-to-chunk.
        var stsc: [(first: Int, perChunk: Int)] = []
        if let box = stbl.first(MP4BoxType.stsc) {
            var r = ByteReader(bytes, box.body)
            guard r.versionAndFlags() != nil, let count = r.readInteger(as: UInt32.self, endianness: .big) else {
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (stsc): box too short")
            }
            guard Int(count) <= r.remaining / 12 else {
                throw MP4BoxError(
                    code: .invalidFile,
                    reason: "mp4 (stsc): \(count) entries declared, the box holds \(r.remaining / 12)")
            }
            var sawOtherDescription = false
            for _ in 0..<Int(count) {
                let first = Int(r.readInteger(as: UInt32.self, endianness: .big) ?? 0)
                let per = Int(r.readInteger(as: UInt32.self, endianness: .big) ?? 0)
                let description = r.readInteger(as: UInt32.self, endianness: .big) ?? 1
                if description != 1 { sawOtherDescription = true }
                guard first >= 1, first > (stsc.last?.first ?? 0) else {
                    throw MP4BoxError(
                        code: .invalidFile, reason: "mp4 (stsc): first_chunk \(first) is not above the previous entry")
                }
                stsc.append((first, per))
            }
            if sawOtherDescription {
                diagnostics.append("mp4 (stsc): chunks use more than one sample description; all are read as the first")
            }
        } else if sampleCount > 0 {
            throw MP4BoxError(code: .invalidFile, reason: "mp4 (stbl): no sample-to-chunk box (stsc)")
        }

        // Decoding times.
        if let box = stbl.first(MP4BoxType.stts) {
            var r = ByteReader(bytes, box.body)
            guard r.versionAndFlags() != nil, let count = r.readInteger(as: UInt32.self, endianness: .big) else {
                throw MP4BoxError(code: .invalidFile, reason: "mp4 (stts): box too short")
            }
            guard Int(count) <= r.remaining / 8 else {
                throw MP4BoxError(
                    code: .invalidFile,
                    reason: "mp4 (stts): \(count) entries declared, the box holds \(r.remaining / 8)")
            }
            for _ in 0..<Int(count) {
                let n = r.readInteger(as: UInt32.self, endianness: .big) ?? 0
                let d = r.readInteger(as: UInt32.self, endianness: .big) ?? 0
                list.timeToSample.append(count: n, delta: d)
            }
        }
        if sampleCount > 0 && list.timeToSample.sampleCount != sampleCount {
            diagnostics.append(
                "mp4 (stts): durations for \(list.timeToSample.sampleCount) samples, stsz lists \(sampleCount); "
                    + "the last duration is repeated")
        }

        // Chunks → runs.
        var sample = 0
        var entry = 0
        for (c, offset) in chunkOffsets.enumerated() {
            if sample >= sampleCount { break }
            while entry + 1 < stsc.count && stsc[entry + 1].first <= c + 1 { entry += 1 }
            guard entry < stsc.count, stsc[entry].first <= c + 1 else { continue }
            let n = min(stsc[entry].perChunk, sampleCount - sample)
            if n == 0 { continue }
            list.runs.append(
                MP4SampleRun(
                    offset: offset, count: n, firstSample: sample,
                    size: constantSize.map { .constant($0) } ?? .table(base: sample), duration: .timeToSample))
            sample += n
        }
        if sample < sampleCount {
            diagnostics.append("mp4 (stsc): the chunks hold \(sample) samples, stsz lists \(sampleCount)")
        }
        list.count = sample
        // File order: a stable sort by offset (writers put a track's chunks in ascending order already).
        if zip(list.runs, list.runs.dropFirst()).contains(where: { $0.offset > $1.offset }) {
            diagnostics.append("mp4 (stco): chunks are not in file order; packets are numbered in file order")
            list.runs = list.runs.enumerated().sorted {
                ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset)
            }
            .map(\.element)
        }
        return list
    }
}
