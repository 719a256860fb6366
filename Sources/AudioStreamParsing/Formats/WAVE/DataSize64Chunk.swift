/// The `ds64` chunk of RF64 and BW64 files: the 64-bit sizes that replace 32-bit fields set to
/// 0xFFFFFFFF.
///
/// ```
///  offset  size  field                 (little-endian)
///  0       8     riffSize              replaces the RF64 chunk's size
///  8       8     dataSize              replaces the data chunk's size
///  16      8     sampleCount           replaces the fact chunk's sample length
///  24      4     tableLength           entries that follow
///  28      12·n  table[n]: chunkId (4), chunkSize (8), for other chunks larger than 4 GiB
/// ```
///
/// References: EBU Tech 3306 (2009) §3.4 and Annex A.2 (`DataSize64Chunk`, `ChunkSize64`);
/// ITU-R BS.2088-1 §3.2 (BW64 keeps the structure). A value of 0 means "not known" (a writer that
/// could not seek back, such as FFmpeg writing to a pipe).
struct DataSize64Chunk: Equatable {
    /// The fixed part of the body.
    static let minimumByteCount = 28
    /// The chunk, for messages.
    static let structure = Structure("wave", "ds64")

    var riffSize: UInt64
    var dataSize: UInt64
    var sampleCount: UInt64
    /// The 64-bit sizes of other chunks, by chunk identifier (first entry wins).
    var chunkSizes: [ChunkID: UInt64]
    /// Oddities worked around (reported as diagnostics).
    var notes: [DiagnosticNote] = []

    /// Decodes a whole `ds64` body.
    ///
    /// - Throws: `invalidFile` when the body is shorter than 28 bytes.
    static func decode(_ body: [UInt8]) throws(StructureError) -> DataSize64Chunk {
        var reader = ByteReader(body)
        guard let riffSize = reader.readInteger(as: UInt64.self, endianness: .little),
            let dataSize = reader.readInteger(as: UInt64.self, endianness: .little),
            let sampleCount = reader.readInteger(as: UInt64.self, endianness: .little),
            let tableLength = reader.readInteger(as: UInt32.self, endianness: .little)
        else {
            throw structure.invalid("chunk is \(body.count) bytes, shorter than 28")
        }
        var chunk = DataSize64Chunk(riffSize: riffSize, dataSize: dataSize, sampleCount: sampleCount, chunkSizes: [:])
        // The table is bounded by the body, never by tableLength.
        let entries = min(Int(tableLength), reader.remaining / 12)
        if entries < Int(tableLength) {
            chunk.notes.append(
                DiagnosticNote(
                    .inconsistentValues, structure.message("table declares \(tableLength) entries but holds \(entries)")
                ))
        }
        for _ in 0..<entries {
            guard let code = reader.readFourCC(), let size = reader.readInteger(as: UInt64.self, endianness: .little)
            else { break }
            let id = ChunkID(code: code)
            if chunk.chunkSizes[id] == nil { chunk.chunkSizes[id] = size }
        }
        return chunk
    }
}
