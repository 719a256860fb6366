extension VorbisSetupHeader {
    /// Reads past one floor configuration (16-bit type, then floor 0 §6.2.1 or floor 1 §7.2.2),
    /// validating every codebook number against `codebookCount`.
    ///
    /// ```
    ///  floor 0:  8 order, 16 rate, 16 bark_map_size, 6 amplitude_bits, 8 amplitude_offset,
    ///            4 number_of_books − 1, then 8 bits per book
    ///  floor 1:  5 partitions; 4 bits class per partition;
    ///            per class 0…max class: 3 dimensions − 1, 2 subclasses,
    ///              [subclasses > 0: 8 masterbook], 2^subclasses × 8 bits (subclass book + 1);
    ///            2 multiplier − 1, 4 rangebits;
    ///            per partition: class dimensions × rangebits bits (X values)
    /// ```
    static func skipFloor(_ index: Int, codebookCount: Int, _ bits: inout BitReader) throws(StructureError) {
        let type = try read(16, &bits, "floor type")
        func book(_ field: String, allowUnused: Bool = false) throws(StructureError) {
            let value = try Int(read(8, &bits, field))
            let book = allowUnused ? value - 1 : value
            guard book < codebookCount else {
                throw structure.invalid("floor \(index) uses codebook \(book) of \(codebookCount)")
            }
        }
        switch type {
        case 0:
            _ = try read(8, &bits, "floor 0 order")
            _ = try read(16, &bits, "floor 0 rate")
            _ = try read(16, &bits, "floor 0 bark map size")
            _ = try read(6, &bits, "floor 0 amplitude bits")
            _ = try read(8, &bits, "floor 0 amplitude offset")
            let books = try Int(read(4, &bits, "floor 0 number of books")) + 1
            for _ in 0..<books { try book("floor 0 book") }
        case 1:
            let partitions = try Int(read(5, &bits, "floor 1 partitions"))
            var partitionClasses: [Int] = []  // ≤ 31 entries
            for _ in 0..<partitions {
                partitionClasses.append(try Int(read(4, &bits, "floor 1 partition class")))
            }
            let classCount = (partitionClasses.max() ?? -1) + 1  // ≤ 16
            var classDimensions: [Int] = []
            for _ in 0..<classCount {
                classDimensions.append(try Int(read(3, &bits, "floor 1 class dimensions")) + 1)
                let subclasses = try Int(read(2, &bits, "floor 1 class subclasses"))
                if subclasses > 0 { try book("floor 1 class masterbook") }
                for _ in 0..<(1 << subclasses) { try book("floor 1 subclass book", allowUnused: true) }
            }
            _ = try read(2, &bits, "floor 1 multiplier")
            let rangeBits = try Int(read(4, &bits, "floor 1 rangebits"))
            var values = 2
            for partitionClass in partitionClasses {
                let dimensions = classDimensions[partitionClass]  // partitionClass < classCount
                values += dimensions
                try skip(bits: Int64(dimensions * rangeBits), &bits, "floor 1 X list")
            }
            // libvorbis and FFmpeg reject more than 65 X values (63 + the two ends).
            guard values <= 65 else {
                throw structure.invalid("floor \(index) has \(values) X values, over 65")
            }
        default:
            throw structure.invalid("floor \(index) has type \(type), not 0 or 1")
        }
    }

    /// Reads past one residue configuration (16-bit type 0, 1 or 2, then §8.6.1), validating
    /// every codebook number against `codebookCount`.
    ///
    /// ```
    ///  24 begin, 24 end, 24 partition_size − 1, 6 classifications − 1, 8 classbook;
    ///  per classification: 3 low bits, 1 flag, [flag: 5 high bits]  → cascade bitmap (8 bits)
    ///  per classification, per set cascade bit: 8 bits book
    /// ```
    static func skipResidue(_ index: Int, codebookCount: Int, _ bits: inout BitReader) throws(StructureError) {
        let type = try read(16, &bits, "residue type")
        guard type <= 2 else {
            throw structure.invalid("residue \(index) has type \(type), not 0, 1 or 2")
        }
        _ = try read(24, &bits, "residue begin")
        _ = try read(24, &bits, "residue end")
        _ = try read(24, &bits, "residue partition size")
        let classifications = try Int(read(6, &bits, "residue classifications")) + 1
        let classbook = try Int(read(8, &bits, "residue classbook"))
        guard classbook < codebookCount else {
            throw structure.invalid("residue \(index) uses classbook \(classbook) of \(codebookCount)")
        }
        var cascades: [UInt32] = []  // ≤ 64 entries
        for _ in 0..<classifications {
            var cascade = try read(3, &bits, "residue cascade low bits")
            if try read(1, &bits, "residue cascade flag") == 1 {
                cascade |= try read(5, &bits, "residue cascade high bits") << 3
            }
            cascades.append(cascade)
        }
        for cascade in cascades {
            for stage in 0..<8 where cascade & (1 << UInt32(stage)) != 0 {
                let book = try Int(read(8, &bits, "residue book"))
                guard book < codebookCount else {
                    throw structure.invalid("residue \(index) uses codebook \(book) of \(codebookCount)")
                }
            }
        }
    }
}
