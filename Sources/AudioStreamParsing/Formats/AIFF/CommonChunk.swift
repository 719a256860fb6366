/// The Common Chunk (`COMM`): the stream's channel count, length, sample size, sample rate and, in
/// AIFF-C, its compression type.
///
/// AIFF 1.3, "Common Chunk"; AIFF-C draft (1991-08-26), "Common Chunk"; Inside Macintosh: Sound (1994),
/// "Sound Files":
///
/// ```
///  offset size
///   0     2   numChannels      short         1 mono, 2 stereo, …
///   2     4   numSampleFrames  unsigned long  sample frames in SSND (ima4: packets, see below)
///   6     2   sampleSize       short         bits per sample, 1…32 (compressed: of the source)
///   8    10   sampleRate       extended      80-bit IEEE 754 (see ExtendedFloat)
///  ── AIFF-C only ──
///  18     4   compressionType  ID            'NONE', 'sowt', 'fl32', 'ima4', …
///  22   1+n   compressionName  pstring       count byte, n characters, pad byte when 1 + n is odd
/// ```
///
/// An AIFF-C `COMM` of only 18 bytes (written by some old tools) has no compression fields and is read
/// as `NONE`. `numSampleFrames` of an `ima4` stream counts 34-byte-per-channel packets of 64 frames, not
/// frames: FFmpeg's AIFF muxer writes `SSND data bytes / (34 × channels)` there and its demuxer
/// multiplies the field by 64 to get the duration, and QuickTime-written files agree.
struct CommonChunk: Hashable, Sendable {
    /// `numChannels` (> 0).
    var numChannels: UInt16
    /// `numSampleFrames`.
    var numSampleFrames: UInt32
    /// `sampleSize` in bits.
    var sampleSize: UInt16
    /// `sampleRate`, converted to a `Double` and validated.
    var sampleRate: Double
    /// `compressionType` (`NONE` for AIFF and for an AIFF-C `COMM` without the field).
    var compressionType: AIFFCompressionType
    /// `compressionName`, when present.
    var compressionName: String?

    /// The chunk, for messages.
    static let structure = Structure("aiff", "COMM")
    /// `COMM`.
    static let id = ChunkID("COMM")
    /// The size of the AIFF fields.
    static let aiffByteCount = 18
    /// Sample rates accepted, in Hz: at least 1 Hz, and representable as a 32-bit integer as CoreAudio
    /// and FFmpeg keep it.
    static let sampleRateRange: ClosedRange<Double> = 1...4_294_967_295

    /// Decodes a `COMM` body.
    ///
    /// - Parameters:
    ///   - body: the whole `ckData`.
    ///   - isAIFC: the `FORM` type is `AIFC` (the compression fields may follow).
    ///   - notes: oddities worked around (a `compressionName` cut by the end of the chunk).
    /// - Throws: `invalidFile` for a chunk shorter than 18 bytes, a compression type cut short, zero
    ///   channels, or a sample rate that is NaN, infinite, zero, negative or outside `sampleRateRange`.
    static func decode(
        _ body: [UInt8], isAIFC: Bool, notes: inout [DiagnosticNote]
    ) throws(StructureError) -> CommonChunk {
        var reader = ByteReader(body)
        guard body.count >= aiffByteCount,
            let channels = reader.readInteger(as: UInt16.self, endianness: .big),
            let frames = reader.readInteger(as: UInt32.self, endianness: .big),
            let bits = reader.readInteger(as: UInt16.self, endianness: .big),
            let rateBytes = reader.readBytes(10),
            let rate = ExtendedFloat(bigEndianBytes: rateBytes)
        else {
            throw structure.invalid("chunk is \(body.count) bytes, at least \(aiffByteCount) needed")
        }
        guard channels > 0 else { throw structure.invalid("channel count is zero") }
        let sampleRate = try validatedSampleRate(rate)

        var compression = AIFFCompressionType.notCompressed
        var name: String?
        if isAIFC && reader.remaining > 0 {
            guard let type = reader.readFourCC() else {
                throw structure.invalid("chunk is \(body.count) bytes; its compressionType is cut short")
            }
            compression = AIFFCompressionType(rawValue: type)
            if let count = reader.readUInt8() {
                let available = min(Int(count), reader.remaining)
                if available < Int(count) {
                    notes.append(
                        DiagnosticNote(
                            .damagedMetadata, structure.message("compressionName runs past the end of the chunk"))
                    )
                }
                name = AIFFText.decode(reader.readBytes(available) ?? [])
            }
        }
        return CommonChunk(
            numChannels: channels, numSampleFrames: frames, sampleSize: bits, sampleRate: sampleRate,
            compressionType: compression, compressionName: name)
    }

    /// The sample rate as a `Double`, or an error for one no stream can have.
    private static func validatedSampleRate(_ rate: ExtendedFloat) throws(StructureError) -> Double {
        if rate.isNaN { throw structure.invalid("sample rate is NaN") }
        if rate.isInfinite { throw structure.invalid("sample rate is infinite") }
        let value = rate.doubleValue
        if value == 0 { throw structure.invalid("sample rate is zero") }
        if value < 0 { throw structure.invalid("sample rate is negative") }
        guard sampleRateRange.contains(value) else {
            throw structure.invalid("sample rate is outside 1 Hz…4294967295 Hz")
        }
        return value
    }
}

/// An AIFF-C `compressionType` (AIFF-C draft, "Compression Types"; QuickTime sound format codes).
///
/// | code | meaning | CoreAudio format |
/// | --- | --- | --- |
/// | `NONE` | big-endian signed integer PCM, `sampleSize` bits | `lpcm` |
/// | `twos` | the same (QuickTime's name) | `lpcm` |
/// | `sowt` | little-endian signed integer PCM, `sampleSize` bits | `lpcm` |
/// | `in24`, `in32` | big-endian signed 24- / 32-bit integer PCM | `lpcm` |
/// | `fl32`, `FL32` | big-endian IEEE 754 binary32 | `lpcm` |
/// | `fl64`, `FL64` | big-endian IEEE 754 binary64 | `lpcm` |
/// | `raw ` | 8-bit unsigned (offset-binary) PCM | `lpcm` |
/// | `ulaw`, `ULAW` | ITU-T G.711 µ-law, 8 bits | `ulaw` |
/// | `alaw`, `ALAW` | ITU-T G.711 A-law, 8 bits | `alaw` |
/// | `ima4` | Apple IMA4 ADPCM: 34 bytes per channel per 64 frames | `ima4` |
struct AIFFCompressionType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The four-character code.
    var rawValue: UInt32
    init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(_ code: StaticString) { self.rawValue = FourCharCode.value(code) }

    /// `NONE`
    static let notCompressed = Self("NONE")
    /// `twos`
    static let twos = Self("twos")
    /// `sowt`
    static let sowt = Self("sowt")
    /// `in24`
    static let int24 = Self("in24")
    /// `in32`
    static let int32 = Self("in32")
    /// `fl32`
    static let float32 = Self("fl32")
    /// `FL32`
    static let float32Upper = Self("FL32")
    /// `fl64`
    static let float64 = Self("fl64")
    /// `FL64`
    static let float64Upper = Self("FL64")
    /// `raw `
    static let raw = Self("raw ")
    /// `ulaw`
    static let uLaw = Self("ulaw")
    /// `ULAW`
    static let uLawUpper = Self("ULAW")
    /// `alaw`
    static let aLaw = Self("alaw")
    /// `ALAW`
    static let aLawUpper = Self("ALAW")
    /// `ima4`
    static let ima4 = Self("ima4")

    /// The four characters.
    var description: String { FourCharCode.string(rawValue) }
}
