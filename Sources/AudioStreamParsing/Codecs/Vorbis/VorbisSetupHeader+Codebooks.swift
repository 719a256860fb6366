extension VorbisSetupHeader {
    /// The codebook sync pattern, 0x564342 ("BCV" read LSB-first).
    static let codebookSync: UInt32 = 0x56_4342

    /// Reads past one codebook (Vorbis I §3.2.1), validating it.
    ///
    /// ```
    ///  24  sync: 0x564342
    ///  16  codebook_dimensions
    ///  24  codebook_entries
    ///   1  ordered
    ///      ordered = 0:  1 sparse; per entry: [sparse: 1 flag, unused when 0] 5 bits length − 1
    ///      ordered = 1:  5 bits current length − 1; then until all entries are assigned:
    ///                    ilog(entries − current entry) bits: how many entries get this length
    ///                    (the length then grows by one)
    ///   4  codebook_lookup_type: 0 none, 1 or 2 vector lookup, others invalid
    ///      lookup 1/2: 32 minimum value, 32 delta value, 4 value bits − 1, 1 sequence_p,
    ///                  then lookup_values × value bits, where lookup_values is
    ///                  lookup1_values(entries, dimensions) for type 1 and entries × dimensions for 2
    /// ```
    ///
    /// Bounds: the per-entry loops read at least one bit per entry, so they end at the end of the
    /// packet; the multiplicand table is skipped with one length check (computed without overflow).
    static func skipCodebook(_ index: Int, _ bits: inout BitReader) throws(StructureError) {
        guard try read(24, &bits, "codebook sync") == codebookSync else {
            throw structure.invalid("codebook \(index) has a bad sync pattern")
        }
        let dimensions = try Int(read(16, &bits, "codebook dimensions"))
        let entries = try Int(read(24, &bits, "codebook entries"))
        let ordered = try read(1, &bits, "codebook ordered flag") == 1
        if !ordered {
            let sparse = try read(1, &bits, "codebook sparse flag") == 1
            // Each entry takes at least one bit: check before looping so a hostile count fails at once.
            guard entries <= bits.remainingBits else {
                throw structure.invalid("codebook \(index) has \(entries) entries, more than the packet holds")
            }
            for _ in 0..<entries {
                if sparse {
                    guard try read(1, &bits, "codebook entry flag") == 1 else { continue }
                }
                _ = try read(5, &bits, "codebook entry length")
            }
        } else {
            var length = try Int(read(5, &bits, "codebook initial length")) + 1
            var current = 0
            while current < entries {
                // libvorbis rejects codewords over 32 bits; the run loop also ends within 32 turns.
                guard length <= 32 else {
                    throw structure.invalid("codebook \(index) has codewords over 32 bits")
                }
                let number = try Int(read(ilog(entries - current), &bits, "codebook length run"))
                current += number  // both ≤ 2^24: no overflow
                guard current <= entries else {
                    throw structure.invalid("codebook \(index) ordered lengths overrun its \(entries) entries")
                }
                length += 1
            }
        }
        let lookupType = try read(4, &bits, "codebook lookup type")
        switch lookupType {
        case 0:
            return
        case 1, 2:
            _ = try read(32, &bits, "codebook minimum value")
            _ = try read(32, &bits, "codebook delta value")
            let valueBits = try Int64(read(4, &bits, "codebook value bits")) + 1
            _ = try read(1, &bits, "codebook sequence flag")
            let lookupValues: Int64
            if lookupType == 1 {
                guard dimensions > 0 else {
                    throw structure.invalid("codebook \(index) has lookup but 0 dimensions")
                }
                lookupValues = Int64(lookup1Values(entries: entries, dimensions: dimensions))
            } else {
                lookupValues = Int64(entries) * Int64(dimensions)  // ≤ 2^24 × 2^16: no overflow
            }
            // ≤ 2^40 values × 16 bits: no overflow in Int64.
            try skip(bits: lookupValues * valueBits, &bits, "codebook \(index) multiplicands")
        default:
            throw structure.invalid("codebook \(index) has lookup type \(lookupType)")
        }
    }

    /// `lookup1_values` (§9.2.3): the greatest `r` with `r^dimensions ≤ entries`.
    ///
    /// Computed by binary search with a capped power, so any `entries` (< 2^24) and `dimensions`
    /// (1…65535) finish in a few dozen multiplications without overflow.
    static func lookup1Values(entries: Int, dimensions: Int) -> Int {
        guard entries > 0, dimensions > 0 else { return 0 }
        /// `r^dimensions ≤ entries`, stopping as soon as the power passes `entries`.
        func fits(_ r: Int) -> Bool {
            if r <= 1 { return true }
            var power = 1
            for _ in 0..<dimensions {
                power *= r  // power ≤ entries < 2^24 and r ≤ 2^24 before this: < 2^48, no overflow
                if power > entries { return false }
            }
            return true
        }
        var low = 1
        var high = entries
        while low < high {
            let mid = low + (high - low + 1) / 2
            if fits(mid) { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
