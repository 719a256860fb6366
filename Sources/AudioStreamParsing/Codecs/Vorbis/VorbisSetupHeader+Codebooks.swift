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
            try skipUnorderedLengths(entries: entries, sparse: sparse, &bits)
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

    /// Skips the codeword lengths of an unordered codebook (§3.2.1): 5 bits per entry, or, when sparse, a
    /// flag bit per entry followed by 5 bits when it is set.
    ///
    /// A sparse table is walked 32 bits at a time, read from a copy of the reader, which then moves past
    /// the bits used: a read per entry cost most of the time of a scan's Vorbis files (setup headers hold
    /// thousands of entries).
    static func skipUnorderedLengths(entries: Int, sparse: Bool, _ bits: inout BitReader) throws(StructureError) {
        guard sparse else {
            // entries < 2^24: no overflow.
            try skip(bits: Int64(entries) * 5, &bits, "codebook entry lengths")
            return
        }
        var ahead = bits
        var word: UInt64 = 0  // bits read ahead, the next one lowest
        var have = 0  // how many: at most 5 + 32
        var used = 0
        for _ in 0..<entries {
            if have < 6, ahead.remainingBits > 0 {
                let count = min(32, ahead.remainingBits)
                word |= UInt64(ahead.read(count) ?? 0) << UInt64(have)
                have += count
            }
            // The flag bit, and the 5-bit length when it is set.
            let take = word & 1 == 1 ? 6 : 1
            guard have >= take else { throw structure.invalid("packet ends inside codebook entry lengths") }
            word >>= UInt64(take)
            have -= take
            used += take
        }
        try skip(bits: Int64(used), &bits, "codebook entry lengths")
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
