/// The `bext` chunk of a Broadcast Wave Format file.
///
/// ```
///  offset  size  field                  (text fields: ASCII, NUL-padded)
///  0       256   Description
///  256     32    Originator
///  288     32    OriginatorReference
///  320     10    OriginationDate        yyyy-mm-dd
///  330     8     OriginationTime        hh:mm:ss
///  338     4     TimeReferenceLow       sample count since midnight, low and high 32 bits
///  342     4     TimeReferenceHigh      (little-endian; big-endian in RIFX)
///  346     2     Version                0, 1 or 2
///  348     64    UMID                   SMPTE 330M (version ≥ 1)
///  412     10    loudness values        5 × Int16 (version 2)
///  422     180   Reserved
///  602     …     CodingHistory          ASCII lines, CR LF separated
/// ```
///
/// Reference: EBU Tech 3285 v2 (2011) §2.3 (`broadcast_audio_extension`). Every non-empty field
/// becomes a raw tag (source `"bext"`): `description`, `originator`, `originatorReference`,
/// `originationDate`, `originationTime`, `timeReference` (decimal samples), `umid` (hex, when not all
/// zero) and `codingHistory`. The description also fills the `comments` info key when no other tag
/// set it first.
enum BroadcastExtensionChunk {
    /// The raw-tag source name.
    static let source = "bext"
    /// The chunk, for messages.
    static let structure = Structure("wave", "bext")
    /// The fixed part of the chunk, before CodingHistory.
    static let fixedByteCount = 602

    /// Adds the fields of a `bext` body to `metadata`.
    ///
    /// Never traps: a body shorter than the fixed part yields the fields it holds whole.
    ///
    /// - Returns: oddities worked around, for diagnostics.
    static func read(_ body: [UInt8], endianness: Endianness, into metadata: inout AudioMetadata) -> [DiagnosticNote] {
        var notes: [DiagnosticNote] = []
        if body.count < fixedByteCount {
            notes.append(
                DiagnosticNote(
                    .damagedMetadata,
                    structure.message("chunk is \(body.count) bytes, shorter than the 602-byte fixed part")))
        }
        var reader = ByteReader(body)
        func text(_ key: String, _ count: Int, infoKey: InfoKey? = nil) {
            guard let bytes = reader.readBytes(count) else { return }
            add(key, RIFFText.decode(bytes), infoKey: infoKey, to: &metadata)
        }
        text("description", 256, infoKey: InfoKey.comments)
        text("originator", 32)
        text("originatorReference", 32)
        text("originationDate", 10)
        text("originationTime", 8)
        if let low = reader.readInteger(as: UInt32.self, endianness: endianness),
            let high = reader.readInteger(as: UInt32.self, endianness: endianness)
        {
            let reference = UInt64(high) << 32 | UInt64(low)
            add("timeReference", String(reference), infoKey: nil, to: &metadata)
        }
        _ = reader.readInteger(as: UInt16.self, endianness: endianness)  // Version
        if let umid = reader.readBytes(64), umid.contains(where: { $0 != 0 }) {
            // A basic UMID is 32 bytes; the extended one 64. Trailing zero bytes are not shown.
            var bytes = Array(umid)
            while bytes.count > 32, bytes.last == 0 { bytes.removeLast() }
            add("umid", bytes.map { FourCharCode.hex(UInt32($0), digits: 2) }.joined(), infoKey: nil, to: &metadata)
        }
        if body.count > fixedByteCount {
            add("codingHistory", RIFFText.decode(body[fixedByteCount...]), infoKey: nil, to: &metadata)
        }
        return notes
    }

    private static func add(_ key: String, _ value: String, infoKey: InfoKey?, to metadata: inout AudioMetadata) {
        guard !value.isEmpty else { return }
        metadata.add(AudioMetadata.Tag(source: source, key: key, value: value), infoKey: infoKey)
    }
}
