/// The Sound Data Chunk (`SSND`): where the audio is.
///
/// AIFF 1.3, "Sound Data Chunk"; AIFF-C draft (1991-08-26), "Sound Data Chunk":
///
/// ```
///  offset size
///   0     4   offset     unsigned long  bytes between the end of blockSize and the first sample frame
///   4     4   blockSize  unsigned long  alignment the writer used (0 = none); informational only
///   8     o   (offset bytes, not audio)
///   8+o   …   soundData  interleaved sample frames (or IMA4 packets) up to the end of the chunk
/// ```
///
/// Writers that stream to a pipe cannot seek back to patch the size: FFmpeg leaves `ckSize` 0, others
/// write 0xFFFFFFFF. Both mean "the audio runs to the end of the stream". (sox writes large placeholder
/// sizes instead; they are taken as declared and corrected when the stream ends.)
struct SoundDataChunk: Hashable, Sendable {
    /// The chunk, for messages.
    static let structure = Structure("aiff", "SSND")

    /// The chunk header.
    let header: ChunkHeader
    /// `offset`.
    let offset: UInt32
    /// `blockSize`.
    let blockSize: UInt32

    /// The size of the `offset` and `blockSize` fields.
    static let fieldsByteCount = 8

    /// True when `ckSize` says the audio runs to the end of the stream (0 or 0xFFFFFFFF).
    static func runsToEndOfStream(_ header: ChunkHeader) -> Bool {
        header.sizeField == 0 || header.sizeField == 0xFFFF_FFFF
    }

    /// Checks the chunk header before its fields are read.
    ///
    /// - Throws: `invalidFile` when a declared size cannot even hold the 8 bytes of fields.
    static func validate(_ header: ChunkHeader, context: inout ParseContext) throws(AudioStreamError) {
        if !runsToEndOfStream(header) && header.sizeField < UInt64(fieldsByteCount) {
            throw context.error(
                .invalidFile, at: header.offset, structure,
                "chunk is \(header.sizeField) bytes, too small for its offset and blockSize fields")
        }
    }

    /// Decodes the fields at the start of the window (the bytes must be readable).
    init?(header: ChunkHeader, window: InputWindow) {
        guard let offset = window.peekInteger(at: 0, as: UInt32.self, endianness: .big),
            let blockSize = window.peekInteger(at: 4, as: UInt32.self, endianness: .big)
        else { return nil }
        self.header = header
        self.offset = UInt32(truncatingIfNeeded: offset)
        self.blockSize = UInt32(truncatingIfNeeded: blockSize)
    }

    /// Absolute offset of the first sample frame (the stream's `dataOffset`).
    var dataStart: Int64 { header.bodyStart + Int64(Self.fieldsByteCount) + Int64(offset) }

    /// The audio bytes the chunk declares, or `nil` when they run to the end of the stream.
    ///
    /// - Throws: `invalidFile` when `offset` points past the end of the chunk.
    func declaredDataByteCount(context: inout ParseContext) throws(AudioStreamError) -> Int64? {
        if Self.runsToEndOfStream(header) { return nil }
        let room = Int64(header.sizeField) - Int64(Self.fieldsByteCount)
        guard Int64(offset) <= room else {
            throw context.error(
                .invalidFile, at: header.bodyStart, Self.structure,
                "offset \(offset) points past the end of the chunk (\(room) bytes after the fields)")
        }
        return room - Int64(offset)
    }
}
