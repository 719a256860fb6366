/// The cursor and configuration that the AAC raw_data_block syntax (ISO/IEC 14496-3 §4.4.2) is read
/// with: a bit reader over one block, the object type (which decides ics_info's prediction
/// fields) and the sampling frequency index (which decides the scalefactor bands).
///
/// Contract: every read throws ``Failure`` instead of trapping; the syntax is read only to find
/// where each element ends (no inverse quantisation, no transform). Loops are bounded by the
/// bands and windows of one frame, never by a length field alone.
struct AACSyntaxReader {
    /// Why a block could not be read to its end.
    enum Failure: Error, Equatable {
        /// The bits ran out inside a field.
        case truncated
        /// A field has a value the syntax forbids (reserved codebook, max_sfb past the bands, …).
        case invalid(String)
        /// Valid syntax this reader does not follow (960-sample frames, error-resilient tools, …).
        case unsupported(String)

        /// The failure as the reason of a diagnostic: `truncated` (what ran out: "it ends inside an
        /// element"), the invalid value, or the syntax not followed.
        func reason(truncated: String) -> String {
            switch self {
            case .truncated: truncated
            case .invalid(let what): what
            case .unsupported(let what): "\(what) is not followed"
            }
        }
    }

    /// The bits of the block.
    var bits: BitReader
    /// The MPEG-4 audioObjectType (1 Main, 2 LC, 3 SSR, 4 LTP).
    let audioObjectType: Int
    /// sampling_frequency_index 0…12.
    let samplingFrequencyIndex: Int
    /// Long-window band offsets (1024 coefficients).
    let longBands: [Int]
    /// Short-window band offsets (128 coefficients).
    let shortBands: [Int]

    /// A reader over `bytes`, or `nil` when the configuration is one it does not follow: object
    /// types other than 1…4 or a sampling frequency index past 12.
    init?(_ bytes: ArraySlice<UInt8>, audioObjectType: Int, samplingFrequencyIndex: Int) {
        guard (1...4).contains(audioObjectType), let long = AACScalefactorBands.long(samplingFrequencyIndex),
            let short = AACScalefactorBands.short(samplingFrequencyIndex)
        else { return nil }
        self.bits = BitReader(bytes, order: .mostSignificantFirst)
        self.audioObjectType = audioObjectType
        self.samplingFrequencyIndex = samplingFrequencyIndex
        self.longBands = long
        self.shortBands = short
    }

    /// The next `count` bits (0…32).
    mutating func read(_ count: Int) throws(Failure) -> Int {
        guard let value = bits.read(count) else { throw .truncated }
        return Int(value)
    }

    /// The next bit as a flag.
    mutating func flag() throws(Failure) -> Bool { try read(1) == 1 }

    /// Skips `count` bits.
    mutating func skip(_ count: Int) throws(Failure) {
        guard bits.skip(count) else { throw .truncated }
    }

    /// A scalefactor codeword (Table 4.A.1), skipped.
    mutating func skipScalefactorCodeword() throws(Failure) {
        guard AACHuffmanCodebook.scalefactor.decode(&bits) != nil else { throw .truncated }
    }
}
