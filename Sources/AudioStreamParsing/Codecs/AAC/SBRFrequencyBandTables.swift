/// The SBR frequency band tables of one header at one output rate (ISO/IEC 14496-3 §4.6.18.3.2):
/// what the envelope and noise data of sbr_data() are counted in.
///
/// ```
///  k0 = startMin + offset[Fs][bs_start_freq]          startMin = NINT({3000, 4000, 5000} × 128 / Fs)
///  k2 = min(64, stopMin + Σ stopDk[0 ..< bs_stop_freq])   (bs_stop_freq < 14; stopMin = NINT({6000,
///       8000, 10000} × 128 / Fs), stopDk[i] = NINT(stopMin (64/stopMin)^((i+1)/13)) −
///       NINT(stopMin (64/stopMin)^(i/13)), sorted); 2 × k0 (14); 3 × k0 (15)
///  f_master  bs_freq_scale 0: bands of dk = 1 (2 × INT((k2 − k0)/2) of them) or, with
///              bs_alter_scale, dk = 2 (2 × NINT((k2 − k0)/4)), the difference to k2 taken from the
///              first bands (too wide) or added to the last (too narrow)
///            bs_freq_scale 1…3: 12, 10, 8 bands per octave from k0 to k1 (k1 = 2 k0 when
///              k2/k0 > 2.2449, else k2), and from k1 to k2 (warped by 1.3 with bs_alter_scale),
///              band widths NINT(k0 (k1/k0)^((k+1)/n)) − NINT(k0 (k1/k0)^(k/n)) sorted; the upper
///              region's narrowest band widened to the lower region's widest
///  N_high = N_master − bs_xover_band   N_low = ⌈N_high / 2⌉   kx = f_master[bs_xover_band]
///  M = f_master[N_master] − kx         N_Q = max(1, NINT(bs_noise_bands × log2(k2 / kx)))
/// ```
///
/// Contract: ``init(_:sampleRate:)`` throws ``AACSyntaxReader/Failure`` for a header the rules
/// reject (k2 ≤ k0, k2 − k0 past the rate's limit, an empty band, bs_xover_band past the table,
/// kx > 32, kx + M > 64, N_Q > 5) or an output rate without an offset table; never traps. Powers and
/// logarithms are computed here (the library has no libm): errors below 1e-14, far from the
/// half-integers NINT decides at (the exact values of these ratios are never within 1e-9 of one).
struct SBRFrequencyBandTables: Equatable, Sendable {
    /// f_master: N_master + 1 QMF band borders.
    var master: [Int]
    /// The bands of a high-resolution envelope (f_TableHigh).
    var highBandCount: Int
    /// The bands of a low-resolution envelope (f_TableLow).
    var lowBandCount: Int
    /// N_Q: the noise floor bands.
    var noiseBandCount: Int
    /// kx: the first QMF band SBR generates.
    var firstBand: Int
    /// M: the QMF bands SBR generates.
    var bandCount: Int

    /// bs_start_freq offsets per output rate (§4.6.18.3.2, Table 4.82).
    private static func startOffsets(_ rate: Int) -> [Int]? {
        switch rate {
        case 16000: [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7]
        case 22050: [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13]
        case 24000: [-5, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 16]
        case 32000: [-6, -4, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 16]
        case 44100, 48000, 64000: [-4, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 16, 20]
        case 88200, 96000: [-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 16, 20, 24]
        default: nil
        }
    }

    /// The tables of `header` at the SBR output rate `sampleRate`.
    init(_ header: SBRHeader, sampleRate: Int) throws(AACSyntaxReader.Failure) {
        guard let offsets = Self.startOffsets(sampleRate) else {
            throw .unsupported("SBR at an output rate of \(sampleRate) Hz")
        }
        let scale = sampleRate < 32000 ? 1 : sampleRate < 64000 ? 2 : 3
        // NINT(a / b) for positive integers: (2a + b) / 2b.
        func nearest(_ a: Int, _ b: Int) -> Int { (2 * a + b) / (2 * b) }
        let startMin = nearest((2000 + 1000 * scale) * 128, sampleRate)
        let stopMin = min(nearest((4000 + 2000 * scale) * 128, sampleRate), 64)
        let k0 = startMin + offsets[header.startFrequency]
        var k2: Int
        switch header.stopFrequency {
        case 14: k2 = 2 * k0
        case 15: k2 = 3 * k0
        default:
            let dk = Self.bandWidths(from: stopMin, to: 64, count: 13).sorted()
            k2 = stopMin + dk.prefix(header.stopFrequency).reduce(0, +)
        }
        k2 = min(k2, 64)
        let maxSpan = sampleRate <= 32000 ? 48 : sampleRate == 44100 ? 35 : 32
        guard k0 < k2, k2 - k0 <= maxSpan else {
            throw .invalid("SBR start band \(k0) and stop band \(k2) at \(sampleRate) Hz")
        }
        let master =
            try header.frequencyScale == 0
            ? Self.linearMaster(k0: k0, k2: k2, alterScale: header.alterScale == 1)
            : Self.logarithmicMaster(
                k0: k0, k2: k2, bandsPerOctave: [12, 10, 8][header.frequencyScale - 1],
                alterScale: header.alterScale == 1)
        guard master.count >= 2, header.crossoverBand < master.count - 1 else {
            throw .invalid("bs_xover_band \(header.crossoverBand) past the \(master.count - 1) master bands")
        }
        self.master = master
        highBandCount = master.count - 1 - header.crossoverBand
        lowBandCount = (highBandCount + 1) / 2
        firstBand = master[header.crossoverBand]
        bandCount = master[master.count - 1] - firstBand
        guard firstBand <= 32, firstBand + bandCount <= 64 else {
            throw .invalid("SBR bands \(firstBand)..<\(firstBand + bandCount) past the QMF limits")
        }
        noiseBandCount =
            header.noiseBands == 0
            ? 1 : max(1, Self.nearest(Double(header.noiseBands) * Self.log2(Double(k2) / Double(firstBand))))
        guard noiseBandCount <= 5 else { throw .invalid("\(noiseBandCount) SBR noise floor bands") }
    }

    /// f_master for bs_freq_scale 0.
    private static func linearMaster(k0: Int, k2: Int, alterScale: Bool) throws(AACSyntaxReader.Failure) -> [Int] {
        let dk = alterScale ? 2 : 1
        let count = alterScale ? 2 * ((k2 - k0 + 2) / 4) : 2 * ((k2 - k0) / 2)
        guard count > 0 else { throw .invalid("no SBR master bands between \(k0) and \(k2)") }
        var widths = [Int](repeating: dk, count: count)
        var difference = k2 - (k0 + count * dk)
        // Too wide: narrow the first bands; too narrow: widen the last ones (|difference| ≤ count).
        var k = difference < 0 ? 0 : count - 1
        while difference != 0, widths.indices.contains(k) {
            let step = difference < 0 ? 1 : -1
            widths[k] -= step
            k += step
            difference += step
        }
        return try borders(from: k0, widths: widths)
    }

    /// f_master for bs_freq_scale 1…3.
    private static func logarithmicMaster(k0: Int, k2: Int, bandsPerOctave bands: Int, alterScale: Bool)
        throws(AACSyntaxReader.Failure) -> [Int]
    {
        let twoRegions = Double(k2) / Double(k0) > 2.2449
        let k1 = twoRegions ? 2 * k0 : k2
        let count0 = 2 * nearest(Double(bands) * log2(Double(k1) / Double(k0)) / 2)
        guard count0 > 0 else { throw .invalid("no SBR master bands between \(k0) and \(k1)") }
        let widths0 = bandWidths(from: k0, to: k1, count: count0).sorted()
        var master = try borders(from: k0, widths: widths0)
        if twoRegions {
            let warp = alterScale ? 1.3 : 1.0
            let count1 = 2 * nearest(Double(bands) * log2(Double(k2) / Double(k1)) / (2 * warp))
            guard count1 > 0 else { throw .invalid("no SBR master bands between \(k1) and \(k2)") }
            var widths1 = bandWidths(from: k1, to: k2, count: count1).sorted()
            // Safe to force unwrap: both lists have at least one width.
            let widest0 = widths0.max()!
            if widths1[0] < widest0 {
                let change = widest0 - widths1[0]
                widths1[0] += change
                widths1[count1 - 1] -= change
                widths1.sort()
            }
            master += try borders(from: k1, widths: widths1).dropFirst()
        }
        return master
    }

    /// NINT(start (stop/start)^((k+1)/count)) − NINT(start (stop/start)^(k/count)), k = 0 ..< count.
    private static func bandWidths(from start: Int, to stop: Int, count: Int) -> [Int] {
        let ratio = log2(Double(stop) / Double(start))
        var previous = start
        var widths: [Int] = []
        for k in 1...count {
            let border = k == count ? stop : nearest(Double(start) * exp2(ratio * Double(k) / Double(count)))
            widths.append(border - previous)
            previous = border
        }
        return widths
    }

    /// The borders start, start + w0, …; every width must be positive.
    private static func borders(from start: Int, widths: [Int]) throws(AACSyntaxReader.Failure) -> [Int] {
        var borders = [start]
        for width in widths {
            guard width > 0 else { throw .invalid("an SBR master band of width \(width)") }
            borders.append(borders[borders.count - 1] + width)
        }
        return borders
    }

    /// NINT: the nearest integer, halves up (values here are small and positive).
    private static func nearest(_ x: Double) -> Int {
        guard x.isFinite, abs(x) < 1e6 else { return 0 }
        return Int((x + 0.5).rounded(.down))
    }

    /// log2(x) for x > 0: the exponent plus ln(significand) / ln 2, ln(s) = 2 atanh((s − 1)/(s + 1))
    /// (|y| ≤ 1/3: 30 terms are far below Double's precision).
    static func log2(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return 0 }
        let s = x.significand
        let y = (s - 1) / (s + 1)
        var term = y
        var sum = 0.0
        for n in stride(from: 1, through: 59, by: 2) {
            sum += term / Double(n)
            term *= y * y
        }
        return Double(x.exponent) + 2 * sum / 0.693_147_180_559_945_3
    }

    /// 2^x for |x| < 64: 2^⌊x⌋ × e^(f ln 2) by its Taylor series (f ln 2 < 0.7: 25 terms suffice).
    static func exp2(_ x: Double) -> Double {
        guard x.isFinite, abs(x) < 64 else { return 0 }
        let whole = x.rounded(.down)
        let t = (x - whole) * 0.693_147_180_559_945_3
        var term = 1.0
        var sum = 1.0
        for n in 1...25 {
            term *= t / Double(n)
            sum += term
        }
        return sum * Double(sign: .plus, exponent: Int(whole), significand: 1)
    }
}
