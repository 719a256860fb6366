/// The `fact` chunk: the length of the audio in sample frames, required for compressed formats.
///
/// ```
///  offset  size  field
///  0       4     dwSampleLength   frames (little-endian; big-endian in RIFX); 0xFFFFFFFF in
///                                 RF64/BW64 means "see ds64 sampleCount"
/// ```
///
/// Reference: Microsoft "Multimedia Programming Interface and Data Specifications 1.0" (`fact`
/// chunk); EBU Tech 3306 §3.4 (RF64).
///
/// Use: for ADPCM the last block is usually padded, and the fact length says how many of its
/// samples are real. When it is smaller than packets × frames per packet (by less than one block),
/// the parser announces `packetTableInfo(valid: fact, priming: 0, remainder: the difference)`. For
/// PCM and G.711 the length merely repeats the data size and is not used.
struct FactChunk: Equatable {
    /// The smallest `fact` body.
    static let minimumByteCount = 4
    /// The chunk, for messages.
    static let structure = Structure("wave", "fact")

    var sampleLength: UInt32

    /// Decodes a `fact` body.
    ///
    /// - Throws: `invalidFile` when the body is shorter than 4 bytes.
    static func decode(_ body: [UInt8], endianness: Endianness) throws(StructureError) -> FactChunk {
        var reader = ByteReader(body)
        guard let length = reader.readInteger(as: UInt32.self, endianness: endianness) else {
            throw structure.invalid("chunk is \(body.count) bytes, shorter than 4")
        }
        return FactChunk(sampleLength: length)
    }
}
